#!/bin/sh
# VM test (patched kernel, real auditd 3.0.9): a flood of N denials (FLOOD_N,
# default 100000) with the plugin under auditd. Nothing may be lost anywhere:
#  - the kernel's audit `lost` counter (auditctl -s, before and after) must
#    not move: a lost record is a failure, never a smaller expectation;
#  - the plugin's saved total, and the type-1350 records in auditd's log, must
#    equal the denials issued, as counted by the issuing probe itself (each
#    EACCES verdict under a non-zero policy is one record, docs/CONVENTIONS.md;
#    the flood runs under policy 1).
# vm-timeout: 3600
SUITE=auditd-vm-flood
. auditd-plugin/tests/vm-common.inc
need
N=${FLOOD_N:-100000}

D=$(mktemp -d /tmp/tf-flood.XXXXXX)
setup_auditd "$D/audit" 5
start_auditd
fx_tmpfs "$D/noexec" noexec tf-noexec
printf 'x\n' > "$D/noexec/f.py"
echo 1 > /proc/sys/fs/trust_policy
cp "$PROBE" "$D/python3"

is_count() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
lost0=$(lost)
if ! is_count "$lost0"; then
	t_fail "cannot read the kernel's lost counter (auditctl -s: '$lost0')"
	t_done "$SUITE"; exit 1
fi
t0=$(date +%s)
out=$("$D/python3" -n "$N" "$D/noexec/f.py")
t1=$(date +%s)
# The probe's own count of EACCES verdicts: the records the kernel must deliver.
issued=$(printf '%s\n' "$out" | sed -n 's/^allowed 0 denied \([0-9]*\) errors 0 checks [0-9]*$/\1/p')
t_eq "probe: $N calls, every one denied" "allowed 0 denied $N errors 0 checks $N" "$out"
is_count "$issued" || issued="(probe output unreadable)"
# Let the plugin catch up with auditd's dispatcher queue (with what can still
# arrive: records the kernel lost never will), then stop auditd (SIGTERM: the
# plugin flushes and saves).  Under TCG on a loaded machine auditd can take
# many minutes; records still in the kernel's queue when it stops are never
# logged, so the queue's length then (auditctl -s: backlog) tells a wait too
# short from a loss.
lostf=$(lost)
waited=
if is_count "$issued" && is_count "$lostf"; then
	save_until "$((issued - (lostf - lost0)))" 1800 || waited="not within 1800 s"
fi
t2=$(date +%s)
backlog=$(auditctl -s | sed -n 's/^backlog //p')
stop_auditd
[ -z "$waited" ] || echo "# the plugin did not save them all $waited; kernel backlog when auditd stopped: $backlog" \
	"(records still queued: the machine was too slow, not a loss)"
lost1=$(lost)
got=$(state_total)
logn=$(cat "$D"/audit/log/audit.log* | grep -ac '^type=UNKNOWN\[1350\] ')
echo "# probe issued $issued denials in $((t1 - t0)) s; kernel lost counter $lost0 -> $lost1;" \
	"plugin counted $got ($((t2 - t1)) s after the flood); audit.log holds $logn type-1350 records"
t_eq "kernel audit lost counter unchanged" "$lost0" "$lost1"
t_eq "plugin total = denials issued" "$issued" "$got"
t_eq "audit.log records = denials issued" "$issued" "$logn"
t_done "$SUITE"
