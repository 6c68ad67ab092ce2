#!/bin/bash
# vm-kernel: debug
# vm-timeout: 1200
# The debug kernel (make kernel-debug: tinyconfig + the selftests' own
# config fragment + kernel/config/boot.config + kernel/config/debug.config;
# KASAN, lockdep with PROVE_RCU, DEBUG_ATOMIC_SLEEP, kmemleak, DEBUG_LIST),
# booted by tests/run because of the vm-kernel line above.  Any report of
# the kernel fails the case.
#  1. kernel-debug-selftests: the kernel selftests built for this kernel
#     (TAP through tests/lib/tap-result.sh).  The kernel has only what their
#     fragment asks for, plus the boot's needs: a failure or skip for a
#     missing option is the fragment's fault (boot.config also gives
#     PROC_FS, SYSFS, TMPFS/SHMEM, NET/INET and DEVTMPFS, which this run
#     therefore cannot prove the fragment needs).
#  2. kernel-debug-stress: tests/kernel/tf-stress, TF_STRESS_CALLS calls
#     in all (default 1050000), audit enabled all along: 90% without
#     auditd (records go to the kernel log, rate-limited), then 10% with
#     auditd (each run within its own time limit: 480 s and 300 s);
#     the trusted_for_verdict tracepoint on for the middle third of each run.
#  3. kernel-debug-reports: kmemleak scanned twice, 6 s apart (it reports
#     an object only when it has been found unreferenced and is older than
#     5 s); no kmemleak entry, and no report in the kernel log (followed
#     from the start of the case): KASAN, lockdep, sleeping in atomic
#     context, list corruption, RCU usage, WARNING, BUG, Oops, GPF, panic,
#     RCU stalls, kmemleak disabled.
#     It also checks that tf-stress fails with a bound it cannot reach in
#     its time limit.
#  4. kernel-debug-checks: the log and kmemleak checkers can fail: a copy
#     of the log with one report of each kind injected, a kmemleak entry.
# Logs and the kernel log: build/test-logs/kernel-debug/ (the repository is
# shared read-write).
set -u
. tests/lib/case.sh
. tests/lib/auditd.sh
bin=${TF_SELFTEST_BIN:-build/kernel-debug/selftests/trusted_for_test}
stress=build/tests/tf-stress
calls=${TF_STRESS_CALLS:-1050000}
out=build/test-logs/kernel-debug
T=/sys/kernel/tracing
EV=$T/events/trusted_for/trusted_for_verdict/enable
KML=/sys/kernel/debug/kmemleak
mkdir -p "$out"
klog=$out/kernel.log

# The patterns of a kernel report, one extended regular expression each.
report_patterns() {
	cat <<'EOF'
BUG: KASAN
WARNING: possible
inconsistent lock state
possible circular locking
possible recursive locking
BUG: sleeping function called
list_add corruption
list_del corruption
suspicious RCU usage
WARNING:
BUG:
kernel BUG at
Oops
general protection fault
Kernel panic
detected stalls? on CPU|self-detected stall
kmemleak: .*(suspected memory leak|disabled)
EOF
}

# kernel_reports LOG: print every report of LOG with the 30 lines after
# it (its stack), at most 400 lines; exit 1 when there is one.
kernel_reports() {
	local pat
	pat=$(report_patterns | paste -sd'|')
	awk -v pat="$pat" '
		$0 ~ pat { n++; left = 31; if (n == 1) print "--- kernel reports:" }
		left > 0 && printed < 400 { print "    " $0; left--; printed++ }
		END { exit n > 0 }' "$1"
}

# kmemleak_entries FILE: the number of suspected leaks in a copy of
# /sys/kernel/debug/kmemleak.
kmemleak_entries() { grep -c '^unreferenced object 0x[0-9a-f]* (size [0-9]*):' "$1"; }

elapsed() { echo $(($(date +%s) - $1)); }

if [ ! -e "$KML" ] || [ ! -e /proc/sys/fs/trust_policy ]; then
	SUITE=kernel-debug-selftests
	t_fail "not the debug kernel (no $KML or no trusted_for): run 'make kernel-debug', then this case through tests/run (it boots build/kernel-debug/bzImage)"
	t_done kernel-debug-selftests
	exit 1
fi
echo "# $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { print $2 / 1024 " MiB" }' /proc/meminfo)"

# The kernel log, followed from here (the ring buffer might wrap).
dmesg --follow > "$klog" 2>&1 &
follower=$!
auditd_pid=
cleanup() {
	[ -n "$auditd_pid" ] && kill "$auditd_pid" 2>/dev/null
	kill "$follower" 2>/dev/null
}
fx_at_exit cleanup

# 1. The selftests.
t0=$(date +%s)
if [ -x "$bin" ]; then
	tests/lib/tap-result.sh kernel-debug-selftests "$bin"
else
	echo "not ok - no $bin: run 'make kernel-debug'"
	echo "RESULT kernel-debug-selftests 0 1 0"
fi
# AT_EXECVE_CHECK and the exec securebits, under the debug options too.
ebin=${TF_EXECVE_CHECK_BIN:-build/kernel-debug/selftests/execve_check_test}
if [ -x "$ebin" ]; then
	tests/lib/tap-result.sh kernel-debug-execve-check "$ebin"
else
	echo "not ok - no $ebin: run 'make kernel-debug'"
	echo "RESULT kernel-debug-execve-check 0 1 0"
fi
echo "# selftests: $(elapsed "$t0") s"

# 2. The stress, audit on.
SUITE=kernel-debug-stress
t0=$(date +%s)
fx_tmpfs /tmp/tf-stress/exec mode=0755 tf-exec &&
	fx_tmpfs /tmp/tf-stress/noexec mode=0755,noexec tf-noexec
t_eq "tmpfs mounts for tf-stress" 0 $?
[ -w "$EV" ] || t_fail "no $EV: the tracepoint part cannot run"
# auditd slows the calls down (about 5000 a second against 30000 without
# it, under TCG, and down to 700 a second when the host is loaded, as with
# the parallel test runner: the audit backlog fills and the callers wait
# for auditd): it gets the smaller share.
n1=$((calls * 9 / 10))
n2=$((calls - n1))
total=0

# stress_run NAME CALLS SECONDS: one tf-stress run; adds its calls to total.
stress_run() {
	local log=$out/tf-stress-$1.log rc got
	"$stress" -d /tmp/tf-stress -n "$2" -e "$EV" -T "$3" > "$log" 2>&1
	rc=$?
	sed 's/^/# /' "$log"
	t_eq "tf-stress $1: exit status" 0 "$rc"
	got=$(sed -n 's/^tf-stress: \([0-9]*\) calls of trusted_for in .*/\1/p' "$log")
	t_eq "tf-stress $1: calls made" "$2" "${got:-none}"
	total=$((total + ${got:-0}))
}

auditctl -D > /dev/null
auditctl -e 1 > /dev/null
t_eq "audit enabled, no daemon" "enabled 1 pid 0" \
	"$(auditctl -s | awk '$1 == "enabled" || $1 == "pid"' | paste -sd' ')"
stress_run no-auditd "$n1" 480

A=$(mktemp -d /tmp/tf-debug-audit.XXXXXX)
auditd_conf "$A" RAW "local_events = yes" "flush = NONE" \
	"max_log_file = 20" "max_log_file_action = ROTATE" "num_logs = 2"
auditd_start "$A" 20
auditd_pid=$AUDITD_PID
t_eq "auditd registered" "$auditd_pid" "$(auditctl -s | sed -n 's/^pid //p')"
auditctl -b 8192 > /dev/null
stress_run auditd "$n2" 300
if grep -q 'type=UNKNOWN\[1350\]' "$A"/log/audit.log*; then
	t_ok "auditd received trusted_for records"
else
	t_fail "auditd received no trusted_for record"
fi
kill "$auditd_pid"
wait "$auditd_pid" 2>/dev/null
auditd_pid=
auditctl -e 0 > /dev/null
if [ "$total" -ge 1000000 ]; then
	t_ok "at least 1000000 calls in all ($total)"
else
	t_fail "fewer than 1000000 calls in all ($total; TF_STRESS_CALLS=$calls)"
fi
# It can fail: a bound it cannot reach in 3 s gives exit 1, saying so.
msg=$("$stress" -d /tmp/tf-stress -n 100000000 -T 3 2>&1 > /dev/null)
rc=$?
t_eq "tf-stress fails when its bound is not reached (exit 1)" 1 "$rc"
case $msg in
*"the bound was not reached"*) t_ok "tf-stress says the bound was not reached" ;;
*) t_fail "tf-stress did not say the bound was not reached: $msg" ;;
esac
echo "# stress: $(elapsed "$t0") s"
t_done kernel-debug-stress

# 3. kmemleak and the kernel log.
SUITE=kernel-debug-reports
T_PASS=0 T_FAIL=0 T_SKIP=0
t0=$(date +%s)
scan_ok=1
echo scan > "$KML" || scan_ok=0
sleep 6
echo scan > "$KML" || scan_ok=0
t_eq "kmemleak scans done (kmemleak enabled)" 1 "$scan_ok"
cat "$KML" > "$out/kmemleak.txt"
leaks=$(kmemleak_entries "$out/kmemleak.txt")
if [ "$leaks" = 0 ]; then
	t_ok "kmemleak: no suspected leak"
else
	t_fail "kmemleak: $leaks suspected leaks:"
	sed 's/^/    /' "$out/kmemleak.txt" | head -200
fi
sleep 1
kill "$follower"
wait "$follower" 2>/dev/null
follower=
if [ "$(wc -l < "$klog")" -gt 10 ]; then
	t_ok "kernel log followed ($(wc -l < "$klog") lines, $klog)"
else
	t_fail "kernel log not followed: $(head -3 "$klog")"
fi
if kernel_reports "$klog"; then
	t_ok "kernel log: no report"
else
	t_fail "kernel log: reports above ($klog)"
fi
echo "# reports: $(elapsed "$t0") s"
t_done kernel-debug-reports

# 4. The checks above can fail.
SUITE=kernel-debug-checks
T_PASS=0 T_FAIL=0 T_SKIP=0
while read -r line; do
	inj=$(mktemp)
	{ head -n 5 "$klog"; echo "$line"; tail -n 5 "$klog"; } > "$inj"
	if kernel_reports "$inj" > /dev/null; then
		t_fail "log checker misses \"$line\""
	else
		t_ok "log checker catches \"$line\""
	fi
	rm -f "$inj"
done <<'EOF'
[   12.345678] BUG: KASAN: slab-use-after-free in trusted_for_exec+0x42/0x100
[   12.345678] WARNING: possible circular locking dependency detected
[   12.345678] WARNING: inconsistent lock state
[   12.345678] BUG: sleeping function called from invalid context at mm/slab.h:761
[   12.345678] list_add corruption. next->prev should be prev (ffff888003f0b3c8), but was 0000000000000000.
[   12.345678] list_del corruption, ffff888003f0b3c8->next is LIST_POISON1 (dead000000000100)
[   12.345678] WARNING: suspicious RCU usage
[   12.345678] WARNING: CPU: 1 PID: 93 at fs/trusted_for.c:80 trusted_for_exec+0x1/0x2
[   12.345678] kernel BUG at fs/trusted_for.c:80!
[   12.345678] Oops: 0000 [#1] PREEMPT SMP KASAN
[   12.345678] general protection fault, probably for non-canonical address 0xdffffc0000000000: 0000 [#1] SMP KASAN
[   12.345678] rcu: INFO: rcu_sched self-detected stall on CPU
[   12.345678] kmemleak: 3 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
EOF
if kernel_reports "$klog" > /dev/null; then
	t_ok "log checker: the real log alone passes"
else
	t_fail "log checker: the real log alone fails"
fi
inj=$(mktemp)
cat > "$inj" <<'EOF'
unreferenced object 0xffff888004a1c3c0 (size 64):
  comm "tf-stress", pid 123, jiffies 4294937296 (age 8.140s)
  hex dump (first 32 bytes):
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
  backtrace:
    [<ffffffff81234567>] kmalloc_trace+0x27/0x60
EOF
t_eq "kmemleak checker counts an injected entry" 1 "$(kmemleak_entries "$inj")"
rm -f "$inj"
t_done kernel-debug-checks
