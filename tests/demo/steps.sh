# shellcheck shell=bash
# The demo's way of telling a story (sourced by tests/demo/story.sh and
# tests/demo/stock.sh): numbered steps, each a line saying what the next
# commands show, and the commands as typed with their output and status.
# shows STORY-LINE: the next step's heading ("== N. STORY-LINE"); with
#   TF_STORY_MARK set, "tf-story step N" is also written there (a check's
#   tracefs trace_marker, to tell which step the kernel's events belong to).
# run CMD [ARG...]: "$ CMD ARG..." (quoted as in a shell), then its output
#   (stdout and stderr, in order) and "(exit status N)" when not 0.
# For the checks of a story's output in the file $LOG
# (tests/vm/cases/demo-story.sh, tests/demo/stock-check.sh):
# step N: the text of step N (from its "== N." heading to the next one).
# count N REGEX: lines of step N matching REGEX (grep -E).
bold=$(printf '\033[1m') off=$(printf '\033[0m')
[ -t 1 ] || bold='' off=''
step=0
shows() {
	step=$((step + 1))
	printf '\n%s== %d. %s%s\n' "$bold" "$step" "$*" "$off"
	# a check's tracefs marker (TF_STORY_MARK: its instance's trace_marker)
	[ -z "${TF_STORY_MARK:-}" ] || echo "tf-story step $step" > "$TF_STORY_MARK"
}
# quote WORD: $q is WORD as typed in a shell (in single quotes unless plain)
quote() {
	case $1 in
	'' | *[!A-Za-z0-9_./:=,@%+-]*) q="'${1//\'/\'\\\'\'}'" ;;
	*) q=$1 ;;
	esac
}
# (output through a pipe: in order, and no progress lines in the story)
run() {
	local w q rc line=$
	for w in "$@"; do quote "$w"; line+=" $q"; done
	printf '%s\n' "$line"
	"$@" 2>&1 | cat; rc=${PIPESTATUS[0]}; [ $rc = 0 ] || printf '(exit status %d)\n' $rc; return 0
}

step() { awk -v n="== $1. " 'index($0, n) == 1 { on = 1; next } /^== [0-9]+\. / { on = 0 } on' "$LOG"; }
count() { step "$1" | grep -cE -- "$2"; }
