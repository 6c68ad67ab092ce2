#!/bin/sh
# VM test (patched kernel): the interactive view through tmux at 80x24 shows
# the live policy, would-deny events under policy 0 and denials under 3.
# Needs `make -C trusttop` run beforehand.
. tests/lib/assert.sh
SUITE=trusttop-vm-ui
B=${TRUSTTOP_BUILD:-build/user/trusttop}
if [ ! -x "$B/trusttop" ] || [ ! -x "$B/tt-workload" ]; then
	t_fail "no $B/trusttop: run 'make -C trusttop' on the host first"
	t_done "$SUITE"; exit 1
fi
D=$(mktemp -d /tmp/trusttop-vmui.XXXXXX)
T="tmux -L trusttop-vm-$$"
trap '$T kill-server 2>/dev/null; rm -rf "$D"' EXIT
cp "$B/tt-workload" "$D/python3"
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
check "header: tp_btf backend, policy 0" 120 'backend trusted_for \(tp_btf\) +policy 0'
"$D/python3" -c python3 -n 3 "$D/ok.sh" "$D/nox.py" > /dev/null
check "row: nothing denied, 3 would-deny" 60 '^python3 +root +[0-9.]+ +6 +0 +0\.0 +- +3 '
check "pane: would-deny event" 30 'python3 +would +file_perm +[^ ]*/nox\.py *$'
echo 3 > /proc/sys/fs/trust_policy
check "header follows the policy" 60 'policy 3'
"$D/python3" -c python3 -n 2 "$D/nox.py" > /dev/null
check "row: 2 denied" 60 '^python3 +root +[0-9.]+ +6 +2 +25\.0 file_perm +5 '
check "pane: denial" 30 'python3 +DENY +file_perm +[^ ]*/nox\.py *$'
$T send-keys -t tt q
end=$(($(date +%s) + 60))
while [ ! -s "$D/rc" ] && [ "$(date +%s)" -lt "$end" ]; do sleep 0.1; done
t_eq "q exits 0" 0 "$(cat "$D/rc" 2>/dev/null)"
t_done "$SUITE"
