#!/bin/sh
# VM test (patched kernel): the interactive view through tmux at 80x24 shows
# the live policy, would-deny events under policy 0 and denials under 3.
# Needs `make -C trusttop` run beforehand. The figures on screen are the
# model's (trusttop/tests/model.sh) for what the workload issued, and the
# workload's own verdicts must be the model's too.
. tests/lib/case.sh
. tests/lib/tmux.sh
. trusttop/tests/model.sh
SUITE=trusttop-vm-ui
B=${TRUSTTOP_BUILD:-build/user/trusttop}
WORKLOAD=$(dirname "$B")/tests/probe/probe
need_build "$SUITE" "make -C trusttop" "$B/trusttop" "$WORKLOAD"
D=$(mktemp -d /tmp/trusttop-vmui.XXXXXX)
T="tmux -L trusttop-vm-$$"
cleanup() { $T kill-server 2>/dev/null; rm -rf "$D"; }
fx_at_exit cleanup
fx_policy_save
cp "$WORKLOAD" "$D/python3"
printf 'x\n' > "$D/nox.py"; chmod 644 "$D/nox.py"
printf '#!/bin/sh\n' > "$D/ok.sh"; chmod 755 "$D/ok.sh"

echo 0 > /proc/sys/fs/trust_policy
$T new-session -d -s tt -x 80 -y 24 "$B/trusttop -d 0.5; echo \$? > $D/rc; sleep 600"
t_screen "header: policy 0, both interfaces (tp_btf)" 120 'policy 0 +backend tf\+check \(tp_btf\)'
# row_re: the python3 row from CHECKS/s to WOULD, for the model's E_*.
row_re() {
	printf '^python3 +tf +root +[0-9.]+ +%s +%s +%s +%s +%s ' "$E_ALLOWED" \
		"$E_DENIED" "$(row_pct | sed 's/[.]/[.]/')" "$(row_top)" "$E_WOULD"
}
# Hundreds of checks per step, so that losing one in a hundred shows.
"$D/python3" -c python3 -n 300 "$D/ok.sh" "$D/nox.py" > "$D/w1"
row_reset; row_add trusted_for 0 exec 300; row_add trusted_for 0 noperm 300
t_eq "policy 0: workload's verdicts" "$(row_verdicts)" "$(cat "$D/w1")"
t_screen "row: nothing denied, would-deny counted" 60 "$(row_re)"
tt_model trusted_for 0 noperm
t_screen "pane: would-deny event" 30 "python3 +tf +would +$(tt_reasons "$M_WOULD") +[^ ]*/nox\\.py *\$"
echo 3 > /proc/sys/fs/trust_policy
t_screen "header follows the policy" 60 'policy 3'
"$D/python3" -c python3 -n 200 "$D/nox.py" > "$D/w2"
row_reset; row_add trusted_for 3 noperm 200
t_eq "policy 3: workload's verdicts" "$(row_verdicts)" "$(cat "$D/w2")"
# The row adds up both runs, each under its own policy.
row_add trusted_for 0 exec 300; row_add trusted_for 0 noperm 300
t_screen "row: denials counted" 60 "$(row_re)"
tt_model trusted_for 3 noperm
t_screen "pane: denial" 30 "python3 +tf +DENY +$(tt_reasons "$M_DENY") +[^ ]*/nox\\.py *\$"
$T send-keys -t tt q
wait_for 60 nonempty "$D/rc"
t_eq "q exits 0" 0 "$(cat "$D/rc" 2>/dev/null)"
t_done "$SUITE"
