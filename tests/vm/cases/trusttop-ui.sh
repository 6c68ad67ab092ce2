#!/bin/sh
# VM test (patched kernel): the interactive view through tmux at 80x24 shows
# the live policy, would-deny events under policy 0 and denials under 3.
# Needs `make -C trusttop` run beforehand. The figures on screen are the
# model's (trusttop/tests/model.sh) for what the workload issued, and the
# workload's own verdicts must be the model's too.
. tests/lib/assert.sh
. trusttop/tests/model.sh
SUITE=trusttop-vm-ui
B=${TRUSTTOP_BUILD:-build/user/trusttop}
WORKLOAD=$(dirname "$B")/tests/probe/probe
if [ ! -x "$B/trusttop" ] || [ ! -x "$WORKLOAD" ]; then
	t_fail "no $B/trusttop: run 'make -C trusttop' on the host first"
	t_done "$SUITE"; exit 1
fi
D=$(mktemp -d /tmp/trusttop-vmui.XXXXXX)
T="tmux -L trusttop-vm-$$"
trap '$T kill-server 2>/dev/null; rm -rf "$D"' EXIT
cp "$WORKLOAD" "$D/python3"
printf 'x\n' > "$D/nox.py"; chmod 644 "$D/nox.py"
printf '#!/bin/sh\n' > "$D/ok.sh"; chmod 755 "$D/ok.sh"

screen() { $T capture-pane -p -t tt; }
check() { # check WHAT SECONDS REGEX
	end=$(($(date +%s) + $2))
	while ! screen | grep -Eq -- "$3"; do
		if [ "$(date +%s)" -ge "$end" ]; then
			t_fail "$1: screen never matched /$3/"; screen | sed 's/^/# /'
			return
		fi
		sleep 0.1
	done
	t_ok "$1"
}

echo 0 > /proc/sys/fs/trust_policy
$T new-session -d -s tt -x 80 -y 24 "$B/trusttop -d 0.5; echo \$? > $D/rc; sleep 600"
check "header: policy 0, both interfaces (tp_btf)" 120 'policy 0 +backend tf\+check \(tp_btf\)'
# row_re: the python3 row from CHECKS/s to WOULD, for the model's E_*.
row_re() {
	printf '^python3 +tf +root +[0-9.]+ +%s +%s +%s +%s +%s ' "$E_ALLOWED" \
		"$E_DENIED" "$(row_pct | sed 's/[.]/[.]/')" "$(row_top)" "$E_WOULD"
}
# Hundreds of checks per step, so that losing one in a hundred shows.
"$D/python3" -c python3 -n 300 "$D/ok.sh" "$D/nox.py" > "$D/w1"
row_reset; row_add trusted_for 0 exec 300; row_add trusted_for 0 noperm 300
t_eq "policy 0: workload's verdicts" "$(row_verdicts)" "$(cat "$D/w1")"
check "row: nothing denied, would-deny counted" 60 "$(row_re)"
tt_model trusted_for 0 noperm
check "pane: would-deny event" 30 "python3 +tf +would +$(tt_reasons "$M_WOULD") +[^ ]*/nox\\.py *\$"
echo 3 > /proc/sys/fs/trust_policy
check "header follows the policy" 60 'policy 3'
"$D/python3" -c python3 -n 200 "$D/nox.py" > "$D/w2"
row_reset; row_add trusted_for 3 noperm 200
t_eq "policy 3: workload's verdicts" "$(row_verdicts)" "$(cat "$D/w2")"
# The row adds up both runs, each under its own policy.
row_add trusted_for 0 exec 300; row_add trusted_for 0 noperm 300
check "row: denials counted" 60 "$(row_re)"
tt_model trusted_for 3 noperm
check "pane: denial" 30 "python3 +tf +DENY +$(tt_reasons "$M_DENY") +[^ ]*/nox\\.py *\$"
$T send-keys -t tt q
end=$(($(date +%s) + 60))
while [ ! -s "$D/rc" ] && [ "$(date +%s)" -lt "$end" ]; do sleep 0.1; done
t_eq "q exits 0" 0 "$(cat "$D/rc" 2>/dev/null)"
t_done "$SUITE"
