#!/bin/sh
# VM test (patched kernel, real auditd 3.0.9): a flood of 100k denials.
# The plugin's total must equal the records the kernel emitted (one per
# EACCES verdict the probe saw) minus auditd's lost counter; both are reported.
SUITE=auditd-vm-flood
. auditd-plugin/tests/vm-common.inc
need
N=${FLOOD_N:-100000}

D=$(mktemp -d /tmp/tf-flood.XXXXXX)
cleanup() {
	[ -n "$AUDITD_PID" ] && kill "$AUDITD_PID" 2>/dev/null
	umount "$D/noexec" 2>/dev/null
}
trap cleanup EXIT
setup_auditd "$D/audit" 5
start_auditd
mkdir -p "$D/noexec"
mount -t tmpfs -o noexec tf-noexec "$D/noexec"
printf 'x\n' > "$D/noexec/f.py"
echo 1 > /proc/sys/fs/trust_policy
cp "$PROBE" "$D/python3"

lost0=$(lost)
t0=$(date +%s)
out=$("$D/python3" -n "$N" "$D/noexec/f.py")
t1=$(date +%s)
emitted=$(printf '%s\n' "$out" | awk '{print $2}')
t_eq "probe saw $N denials" "denied $N allowed 0 errors 0" "$out"
lostd=$(($(lost) - lost0))
# Let the plugin catch up with auditd's dispatcher queue, then stop auditd.
save_until $((emitted - lostd)) 900
t2=$(date +%s)
stop_auditd
lostd=$(($(lost) - lost0))
got=$(state_total)
echo "# kernel emitted $emitted, auditd lost $lostd, plugin counted $got; flood $((t1 - t0)) s, plugin caught up $((t2 - t1)) s later"
t_eq "plugin total = emitted - lost" "$((emitted - lostd))" "$got"
logn=$(grep -ac 'UNKNOWN\[1350\]' "$D"/audit/log/audit.log*| awk -F: '{s += $NF} END {print s}')
echo "# audit.log holds $logn type-1350 records"
t_eq "audit.log agrees" "$got" "$logn"
t_done "$SUITE"
