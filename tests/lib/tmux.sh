# shellcheck shell=sh
# A program's screen in tmux, for tests (POSIX sh; source it after
# tests/lib/assert.sh and tests/lib/wait.sh).  $T is the tmux command with
# the test's own socket (tmux -L NAME); $PANE the target (default tt).
# screen: the pane's text now.
# screen_has REGEX: the screen matches the extended REGEX.
# wait_screen SECONDS REGEX: poll until it does (return 1 at the deadline).
# t_screen WHAT SECONDS REGEX: one check: passes when the screen matches
#   within SECONDS; on failure the screen is printed as comments.
# line_of STRING: number of the first screen line holding STRING (empty
#   when none).
# t_above WHAT UPPER LOWER: one check: UPPER's line is above LOWER's.
screen() { $T capture-pane -p -t "${PANE:-tt}"; }
screen_has() { screen | grep -Eq -- "$1"; }
wait_screen() { wait_for "$1" screen_has "$2"; }
t_screen() {
	if wait_screen "$2" "$3"; then t_ok "$1"; else
		t_fail "$1: screen never matched /$3/"; screen | sed 's/^/# /'; fi
}
line_of() { screen | grep -nF -- "$1" | head -n 1 | cut -d: -f1; }
t_above() {
	_ta_u=$(line_of "$2") _ta_l=$(line_of "$3")
	if [ -n "$_ta_u" ] && [ -n "$_ta_l" ] && [ "$_ta_u" -lt "$_ta_l" ]; then
		t_ok "$1"
	else
		t_fail "$1: '$2' at line ${_ta_u:-none}, '$3' at line ${_ta_l:-none}"
	fi
}
