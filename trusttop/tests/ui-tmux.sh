#!/bin/sh
# Host test (root, BPF): the interactive view driven through tmux at 80x24.
# Polls the screen with deadlines; the only time-based check is that a
# paused screen stays frozen over several update intervals.
# Runs on the backend the kernel offers (AT_EXECVE_CHECK, or trusted_for
# under the current fs.trust_policy); the figures on screen are the model's
# (model.sh), checked against the verdicts the workload got. Skipped on a
# kernel with neither.
# Needs: TRUSTTOP, WORKLOAD, tmux, findmnt.
. "$(dirname "$0")/../../tests/lib/assert.sh"
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

screen() { $T capture-pane -p -t tt; }
# wait_screen SECONDS EXTENDED-REGEX: poll until the screen matches.
wait_screen() {
	end=$(($(date +%s) + $1))
	while ! screen | grep -Eq -- "$2"; do
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 0.05
	done
}
# line number of the first screen line matching a fixed string (0 = none)
line_of() { screen | grep -nF -- "$1" | head -n 1 | cut -d: -f1; }
check() { # check WHAT SECONDS REGEX
	if wait_screen "$2" "$3"; then t_ok "$1"; else
		t_fail "$1: screen never matched /$3/"; screen | sed 's/^/# /'; fi
}

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
check "header drawn" 30 "^trusttop .*backend $(tt_backend_label_ui "$BK" | sed 's/[()+]/\\&/g')"
check "status line at the bottom" 5 'q quit +space pause'

# Enough checks (900) that losing one in a hundred shows.
"$D/tt-aaa" -c aaa -n 50 "$D/ok.sh" "$D/nox" > "$D/wa"
"$D/tt-bbb" -c bbb -n 400 "$D/ok.sh" "$D/nox" > "$D/wb"
row_reset; row_add "$BK" "$P" exec 400; row_add "$BK" "$P" noperm 400
t_eq "workload bbb: verdicts" "$(row_verdicts)" "$(cat "$D/wb")"
check "rows appear" 10 "tt-bbb\\(bbb\\) +$API +root +$(row_re 400) "
check "row aaa" 10 "tt-aaa\\(aaa\\) +$API +root +$(row_re 50) "
check "latest denials pane" 5 "tt-bbb\\(bbb\\) +$PANE_NOX +[^ ]*/nox *\$"
a=$(line_of 'tt-aaa(aaa)'); b=$(line_of 'tt-bbb(bbb)')
if [ "$b" -lt "$a" ]; then t_ok "default sort: busier first"; else
	t_fail "default sort: bbb at $b, aaa at $a"; fi

# s + name: alphabetical.
$T send-keys -t tt s
check "sort prompt" 5 '^Sort by'
$T send-keys -t tt n a m e Enter
check "sort header shows name" 5 'sort name'
a=$(line_of 'tt-aaa(aaa)'); b=$(line_of 'tt-bbb(bbb)')
if [ "$a" -lt "$b" ]; then t_ok "sort by name reorders"; else
	t_fail "sort by name: aaa at $a, bbb at $b"; fi
$T send-keys -t tt r
check "r reverses" 5 'sort name \(rev\)'
a=$(line_of 'tt-aaa(aaa)'); b=$(line_of 'tt-bbb(bbb)')
if [ "$b" -lt "$a" ]; then t_ok "reversed order"; else t_fail "reversed: aaa $a bbb $b"; fi
$T send-keys -t tt r '>'
check "> moves to the next sort key" 5 'sort uid'
$T send-keys -t tt '<' '<'
check "< moves back" 5 'sort would'

# Pause: the screen freezes while new data arrives, resumes afterwards.
$T send-keys -t tt Space
check "paused" 5 '\[PAUSED\]'
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
check "resumed: data gathered while paused shows" 10 "tt-ccc\\(ccc\\) +$API +root +[0-9.]+ +$((3 * NOX_ALLOWED)) +$((3 - 3 * NOX_ALLOWED)) "
if screen | grep -q PAUSED; then t_fail "still paused"; else t_ok "pause flag cleared"; fi

# Filter.
$T send-keys -t tt / a a a Enter
check "filter in header" 5 'filter aaa$'
if screen | grep -q 'tt-bbb(bbb)'; then t_fail "filter hides bbb"; else t_ok "filter hides bbb"; fi
$T send-keys -t tt / t t - Enter
check "filter back to tt-" 5 'tt-bbb\(bbb\)'

# Per-process rows.
$T send-keys -t tt p
check "per-process rows" 5 '^INTERPRETER +API +PID +CHECKS'
check "per-process row has the pid" 5 "tt-bbb\\(bbb\\) +$API +[0-9]+ +$(row_re 400) "
$T send-keys -t tt p
check "back to interpreters" 5 'tt-bbb\(bbb\) '

# User filter with a bad name: one-line message, nothing lost.
$T send-keys -t tt u n o s u c h u s e r 9 Enter
check "bad user message" 5 "no such user 'nosuchuser9'"
check "rows kept after bad user" 5 'tt-aaa\(aaa\)'

# Help and back; Ctrl-L redraw.
$T send-keys -t tt h
check "help screen" 5 'trusttop keys'
$T send-keys -t tt x
check "help closed" 5 'tt-aaa\(aaa\)'
$T send-keys -t tt C-l
check "redraw keeps rows" 5 'tt-aaa\(aaa\)'

# Resize to 60x20: redrawn to the new size.
$T resize-window -t tt -x 60 -y 20
status_at_20() { [ "$(line_of 'q quit')" = 20 ] && [ "$(screen | wc -l)" = 20 ]; }
end=$(( $(date +%s) + 10 ))
while ! status_at_20 && [ "$(date +%s)" -lt "$end" ]; do sleep 0.05; done
t_eq "resized: 20 lines" 20 "$(screen | wc -l)"
t_eq "resized: status line is the 20th" 20 "$(line_of 'q quit')"
status_at_20 || screen | sed 's/^/# /'
t_eq "resized: no line over 60 columns" 0 \
	"$(screen | awk 'length($0) > 60' | wc -l)"
check "resized: rows still there" 5 'tt-aaa\(aaa\)'
# Too small: degrade, do not crash; then back.
$T resize-window -t tt -x 30 -y 6
check "too small message" 10 'terminal too small'
$T resize-window -t tt -x 80 -y 24
check "back to 80x24" 10 'tt-aaa\(aaa\)'

$T send-keys -t tt q
end=$(( $(date +%s) + 10 ))
while [ ! -s "$D/rc" ] && [ "$(date +%s)" -lt "$end" ]; do sleep 0.05; done
t_eq "q exits 0" 0 "$(cat "$D/rc" 2>/dev/null)"

# Monochrome terminal: still draws (no colour pairs needed).
: > "$D/rc"
$T new-session -d -s mono -x 80 -y 24 \
	"TERM=vt100 $TRUSTTOP -d 0.2 -f tt-; echo \$? > $D/rc; sleep 600"
end=$(( $(date +%s) + 30 ))
while ! $T capture-pane -p -t mono | grep -q '^trusttop'; do
	[ "$(date +%s)" -ge "$end" ] && break; sleep 0.05; done
"$D/tt-aaa" -c aaa -n 2 "$D/ok.sh" > /dev/null
if end=$(( $(date +%s) + 30 )); while ! $T capture-pane -p -t mono | grep -q 'tt-aaa(aaa)'; do
	[ "$(date +%s)" -ge "$end" ] && break; sleep 0.05; done
	$T capture-pane -p -t mono | grep -q 'tt-aaa(aaa)'; then
	t_ok "vt100 (mono) shows rows"; else t_fail "vt100 (mono) shows rows"; fi
$T send-keys -t mono q
end=$(( $(date +%s) + 10 ))
while [ ! -s "$D/rc" ] && [ "$(date +%s)" -lt "$end" ]; do sleep 0.05; done
t_eq "mono: q exits 0" 0 "$(cat "$D/rc" 2>/dev/null)"

t_done "$SUITE"
