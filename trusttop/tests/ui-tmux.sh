#!/bin/sh
# Host test (root, BPF): the interactive view driven through tmux at 80x24.
# Polls the screen with deadlines; the only time-based check is that a
# paused screen stays frozen over several update intervals.
# Runs on the backend the kernel offers (AT_EXECVE_CHECK, or trusted_for
# under the current fs.trust_policy); the figures on screen are the model's
# (model.sh), checked against the verdicts the workload got. Skipped on a
# kernel with neither.
# Needs: TRUSTTOP, WORKLOAD, tmux, findmnt.
# shellcheck source-path=SCRIPTDIR/../../tests/lib source-path=SCRIPTDIR
LIB=$(dirname "$0")/../../tests/lib
. "$LIB/assert.sh"
. "$LIB/wait.sh"
. "$LIB/tmux.sh"
. "$(dirname "$0")/model.sh"
SUITE=trusttop-ui-tmux
NCHECKS=38 # checks of this suite, all reported when it is skipped
: "${TRUSTTOP:?}" "${WORKLOAD:?}"
tt_detect
[ "$BK" = none ] && t_skip_suite "$SUITE" "$NCHECKS" "$TT_WHY"
P=$(tt_policy)
API=$(tt_api_short "$BK")

D=$(mktemp -d /tmp/trusttop-ui.XXXXXX)
SOCK=trusttop-test-$$
T="tmux -L $SOCK"
cleanup() { $T kill-server 2>/dev/null; rm -rf "$D"; }
trap cleanup EXIT
WAIT_STEP=0.05 # wait_for polls every 50 ms

# row_re N: the screen row of an interpreter that checked ok N times and
# nox N times, from CHECKS/s to WOULD; the workload's verdicts must be the
# model's.
row_re() {
	row_reset; row_add "$BK" "$P" exec "$1"; row_add "$BK" "$P" noperm "$1"
	printf '[0-9.]+ +%s +%s +%s +%s +%s' "$E_ALLOWED" "$E_DENIED" \
		"$(row_pct | sed 's/[.]/[.]/')" "$(row_top)" "$E_WOULD"
}
tt_model "$BK" "$P" noperm
if [ "$M_DENY" -ne 0 ]; then
	PANE_NOX="$API +DENY +$(tt_reasons "$M_DENY")"
else
	PANE_NOX="$API +would +$(tt_reasons "$M_WOULD")"
fi
NOX_ALLOWED=0
[ "$M_DENY" -eq 0 ] && NOX_ALLOWED=1

for n in aaa bbb ccc; do cp "$WORKLOAD" "$D/tt-$n"; done
printf '#!/bin/sh\n' > "$D/ok.sh"; chmod 755 "$D/ok.sh"
printf 'x\n' > "$D/nox"; chmod 644 "$D/nox"

$T new-session -d -s tt -x 80 -y 24 \
	"$TRUSTTOP -d 0.2 -f tt-; echo \$? > $D/rc; sleep 600"
# -f tt-: only this test's interpreters (other tests may run on the host).
t_screen "header drawn" 30 "^trusttop .*backend $(tt_backend_label_ui "$BK" | sed 's/[()+]/\\&/g')"
t_screen "status line at the bottom" 5 'q quit +space pause'

# Enough checks (900) that losing one in a hundred shows.
"$D/tt-aaa" -c aaa -n 50 "$D/ok.sh" "$D/nox" > "$D/wa"
"$D/tt-bbb" -c bbb -n 400 "$D/ok.sh" "$D/nox" > "$D/wb"
row_reset; row_add "$BK" "$P" exec 400; row_add "$BK" "$P" noperm 400
t_eq "workload bbb: verdicts" "$(row_verdicts)" "$(cat "$D/wb")"
t_screen "rows appear" 10 "tt-bbb\\(bbb\\) +$API +root +$(row_re 400) "
t_screen "row aaa" 10 "tt-aaa\\(aaa\\) +$API +root +$(row_re 50) "
t_screen "latest denials pane" 5 "tt-bbb\\(bbb\\) +$PANE_NOX +[^ ]*/nox *\$"
t_above "default sort: busier first" 'tt-bbb(bbb)' 'tt-aaa(aaa)'

# s + name: alphabetical.
$T send-keys -t tt s
t_screen "sort prompt" 5 '^Sort by'
$T send-keys -t tt n a m e Enter
t_screen "sort header shows name" 5 'sort name'
t_above "sort by name reorders" 'tt-aaa(aaa)' 'tt-bbb(bbb)'
$T send-keys -t tt r
t_screen "r reverses" 5 'sort name \(rev\)'
t_above "reversed order" 'tt-bbb(bbb)' 'tt-aaa(aaa)'
$T send-keys -t tt r '>'
t_screen "> moves to the next sort key" 5 'sort uid'
$T send-keys -t tt '<' '<'
t_screen "< moves back" 5 'sort would'

# Pause: the screen freezes while new data arrives, resumes afterwards.
$T send-keys -t tt Space
t_screen "paused" 5 '\[PAUSED\]'
before=$(screen)
"$D/tt-ccc" -c ccc -n 3 "$D/nox" > /dev/null
frozen=1
end=$(( $(date +%s) + 2 ))   # 2 s >= 5 update intervals of 0.2 s
while [ "$(date +%s)" -lt "$end" ]; do
	[ "$(screen)" = "$before" ] || { frozen=0; break; }
	sleep 0.1
done
t_eq "screen frozen while paused" 1 "$frozen"
$T send-keys -t tt Space
t_screen "resumed: data gathered while paused shows" 10 "tt-ccc\\(ccc\\) +$API +root +[0-9.]+ +$((3 * NOX_ALLOWED)) +$((3 - 3 * NOX_ALLOWED)) "
if screen | grep -q PAUSED; then t_fail "still paused"; else t_ok "pause flag cleared"; fi

# Filter.
$T send-keys -t tt / a a a Enter
t_screen "filter in header" 5 'filter aaa$'
if screen | grep -q 'tt-bbb(bbb)'; then t_fail "filter hides bbb"; else t_ok "filter hides bbb"; fi
$T send-keys -t tt / t t - Enter
t_screen "filter back to tt-" 5 'tt-bbb\(bbb\)'

# Per-process rows.
$T send-keys -t tt p
t_screen "per-process rows" 5 '^INTERPRETER +API +PID +CHECKS'
t_screen "per-process row has the pid" 5 "tt-bbb\\(bbb\\) +$API +[0-9]+ +$(row_re 400) "
$T send-keys -t tt p
t_screen "back to interpreters" 5 'tt-bbb\(bbb\) '

# User filter with a bad name: one-line message, nothing lost.
$T send-keys -t tt u n o s u c h u s e r 9 Enter
t_screen "bad user message" 5 "no such user 'nosuchuser9'"
t_screen "rows kept after bad user" 5 'tt-aaa\(aaa\)'

# Help and back; Ctrl-L redraw.
$T send-keys -t tt h
t_screen "help screen" 5 'trusttop keys'
$T send-keys -t tt x
t_screen "help closed" 5 'tt-aaa\(aaa\)'
$T send-keys -t tt C-l
t_screen "redraw keeps rows" 5 'tt-aaa\(aaa\)'

# Resize to 60x20: redrawn to the new size.
$T resize-window -t tt -x 60 -y 20
status_at_20() { [ "$(line_of 'q quit')" = 20 ] && [ "$(screen | wc -l)" = 20 ]; }
wait_for 10 status_at_20
t_eq "resized: 20 lines" 20 "$(screen | wc -l)"
t_eq "resized: status line is the 20th" 20 "$(line_of 'q quit')"
status_at_20 || screen | sed 's/^/# /'
t_eq "resized: no line over 60 columns" 0 \
	"$(screen | awk 'length($0) > 60' | wc -l)"
t_screen "resized: rows still there" 5 'tt-aaa\(aaa\)'
# Too small: degrade, do not crash; then back.
$T resize-window -t tt -x 30 -y 6
t_screen "too small message" 10 'terminal too small'
$T resize-window -t tt -x 80 -y 24
t_screen "back to 80x24" 10 'tt-aaa\(aaa\)'

$T send-keys -t tt q
wait_for 10 nonempty "$D/rc"
t_eq "q exits 0" 0 "$(cat "$D/rc" 2>/dev/null)"

# Monochrome terminal: still draws (no colour pairs needed).
: > "$D/rc"
$T new-session -d -s mono -x 80 -y 24 \
	"TERM=vt100 $TRUSTTOP -d 0.2 -f tt-; echo \$? > $D/rc; sleep 600"
PANE=mono
wait_screen 30 '^trusttop'
"$D/tt-aaa" -c aaa -n 2 "$D/ok.sh" > /dev/null
if wait_screen 30 'tt-aaa\(aaa\)'; then
	t_ok "vt100 (mono) shows rows"; else t_fail "vt100 (mono) shows rows"; fi
$T send-keys -t mono q
wait_for 10 nonempty "$D/rc"
t_eq "mono: q exits 0" 0 "$(cat "$D/rc" 2>/dev/null)"

t_done "$SUITE"
