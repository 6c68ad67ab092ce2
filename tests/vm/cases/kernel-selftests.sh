#!/bin/bash
# The kernel's own tests of the trusted_for series (kselftest harness), run
# as root on the patched kernel, twice:
#  1. kernel-selftests: everything runs (tests/lib/tap-result.sh counts the
#     TAP lines).  Around it, kernel-selftests-state checks that the run left
#     the global state as it found it: fs.trust_policy, the audit status, the
#     global trace buffer (a marker written before) and the global switch of
#     the trusted_for_verdict event (on before), and no directory left in
#     /tmp or in tracefs' instances/.
#  2. kernel-selftests-degraded: tracefs unmounted (a private mount
#     namespace) and a real auditd registered: the tracefs tests skip with
#     their reason, instead of failing or aborting; the audit tests read
#     the records beside auditd (AUDIT_NLGRP_READLOG), but the two that
#     must be the daemon skip; auditd logs what they caused.
SUITE=kernel-selftests-state
. tests/lib/case.sh
. tests/lib/auditd.sh
. tests/lib/report.sh
bin=${TF_SELFTEST_BIN:-build/kernel/selftests/trusted_for_test}
T=/sys/kernel/tracing
EV=$T/events/trusted_for/trusted_for_verdict

need_build "$SUITE" "make kernel" "$bin"
if [ ! -e /proc/sys/fs/trust_policy ]; then
	t_fail "not the patched kernel: run this case through tests/vm/run"
	t_done kernel-selftests-state
	exit 1
fi
fx_policy_save

# 1. The whole suite, with global state that differs from every default.
echo 1 > /proc/sys/fs/trust_policy
auditctl -e 1 > /dev/null
echo 4096 > $T/buffer_size_kb
echo 1 > $EV/enable
marker="kernel-selftests marker $$"
echo "$marker" > $T/trace_marker
audit_before=$(auditctl -s | grep -E '^(enabled|pid|backlog_limit) ')

tap_out=$(mktemp /tmp/tf-selftests-tap.XXXXXX)
tests/lib/tap-result.sh kernel-selftests "$bin" | tee "$tap_out"
# This VM has AppArmor (lsm=...apparmor) and apparmor_parser: the confined
# test must have run here, not skipped.
t_eq "the AppArmor-confined would_deny test ran" 1 \
	"$(grep -cE '^ok [0-9]+ tracepoint\.would_deny_asks_the_lsm$' "$tap_out")"
t_eq "the AppArmor-confined AT_EXECVE_CHECK test ran" 1 \
	"$(grep -cE '^ok [0-9]+ global\.execve_check_apparmor_exec_rule$' "$tap_out")"
# This VM has FUSE and the suite's FUSE server: the check_error test
# must have run here.
t_eq "the FUSE check_error test ran" 1 \
	"$(grep -cE '^ok [0-9]+ audit\.check_errors$' "$tap_out")"
t_eq "AppArmor is in the LSM stack" 1 \
	"$(tr , '\n' < /sys/kernel/security/lsm | grep -cx apparmor)"
rm -f "$tap_out"

# The AT_EXECVE_CHECK selftest: the binary the host suite also runs on the
# host's mainline kernel (kernel/selftests-skip.sh); here its tracepoint
# test must run, not skip.
ebin=${TF_EXECVE_CHECK_BIN:-build/kernel/selftests/execve_check_test}
tap_out=$(mktemp /tmp/tf-selftests-tap.XXXXXX)
tests/lib/tap-result.sh execve-check "$ebin" | tee "$tap_out"
t_eq "the execve_check_verdict tracepoint test ran" 1 \
	"$(grep -cE '^ok [0-9]+ corpus\.tracepoint$' "$tap_out")"
t_eq "every corpus verdict printed" 28 "$(grep -c '^# corpus: ' "$tap_out")"
rm -f "$tap_out"

t_eq "fs.trust_policy restored" 1 "$(cat /proc/sys/fs/trust_policy)"
t_eq "audit status restored (enabled, no daemon left)" "$audit_before" \
	"$(auditctl -s | grep -E '^(enabled|pid|backlog_limit) ')"
t_eq "no audit rule left" "No rules" "$(auditctl -l)"
t_eq "global trusted_for_verdict event still enabled" 1 "$(cat $EV/enable)"
if grep -qF "$marker" $T/trace; then
	t_ok "global trace buffer not cleared"
else
	t_fail "global trace buffer cleared (marker gone)"
fi
t_eq "no tracefs instance left" "" "$(ls $T/instances)"
t_eq "no directory left in /tmp" "" "$(cd /tmp && ls -d trusted_for.* execve_check.* 2>/dev/null)"
echo 0 > $EV/enable
echo 0 > /proc/sys/fs/trust_policy
t_done kernel-selftests-state

# 2. Without tracefs, with an audit daemon.
SUITE=kernel-selftests-degraded
T_PASS=0 T_FAIL=0 T_SKIP=0
A=$(mktemp -d /tmp/tf-selftests-audit.XXXXXX)
auditd_conf "$A" RAW "local_events = yes" "flush = NONE" \
	"max_log_file = 100" "max_log_file_action = ROTATE"
fx_at_exit auditd_kill
auditd_start "$A" 20
auditd_pid=$AUDITD_PID
t_eq "auditd registered" "$auditd_pid" "$(auditctl -s | sed -n 's/^pid //p')"

out=$(unshare -m /bin/sh -c "
	umount -l /sys/kernel/debug 2>/dev/null
	umount -l $T && exec $bin" 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
t_eq "exit status 0 (passes and skips)" 0 "$rc"
tap() { printf '%s\n' "$out" | grep -cE "$1"; }
# 14 audit tests, 12 of which read beside auditd; 5 tracepoint tests and
# matrix.reasons in 4 variants.
t_eq "audit tests passed beside auditd" 12 \
	"$(tap '^ok [0-9]+ audit\.')"
t_eq "the 2 flood tests skipped: they must be the daemon" 2 \
	"$(tap "^ok [0-9]+ # SKIP an audit daemon is running \\(pid $auditd_pid\\): the test must be the daemon")"
t_eq "tracefs tests skipped: no tracefs" 9 \
	"$(tap '^ok [0-9]+ # SKIP no tracefs with the trusted_for events$')"
t_eq "no other skip" 11 "$(tap '^ok [0-9]+ # SKIP')"
t_eq "the 27 others passed" 27 "$(printf '%s\n' "$out" | grep -E '^ok [0-9]+ ' | grep -vc '# SKIP')"
# audit.execve_check_enforced: 4 sets of securebits x 4 ways of naming
# script.sh, each refused once; auditd logged them all, as the test read
t_eq "auditd logged the 16 refusals of audit.execve_check_enforced" 16 \
	"$(cat "$A"/log/audit.log* | grep -a '^type=UNKNOWN\[1350\] ' |
		grep -a ' api=execve_check ' | grep -ac '/script\.sh" ')"
# audit.check_errors: 2 files the FUSE server fails (EIO, ESTALE), each
# logged once for AT_EXECVE_CHECK and once for trusted_for(2) under policy
# 3 (none under policy 0)
t_eq "auditd logged the 4 check_error records of audit.check_errors" 4 \
	"$(cat "$A"/log/audit.log* | grep -a '^type=UNKNOWN\[1350\] ' |
		grep -a ' reason=check_error ' | grep -acE '/(eio|estale)" ')"
# ... and the plugin's report of that log gives them by interface: the
# test's checks run with no securebit (observed).
plugin=build/user/auditd-plugin/audisp-trusted-for
need_build kernel-selftests-degraded "make tools" "$plugin"
t_eq "the plugin's report: check_error by interface" "execve_check/observed check_error 2
trusted_for check_error 2" \
	"$("$plugin" report --input "$A"/log/audit.log* |
		report_rows 'Reason Summary Report' | awk '$2 == "check_error"')"
t_eq "none failed" 0 "$(tap '^not ok')"
t_eq "plan of 38" 1 "$(tap '^1\.\.38$')"
t_eq "auditd still registered" "$auditd_pid" "$(auditctl -s | sed -n 's/^pid //p')"
t_eq "no audit rule left beside auditd" "No rules" "$(auditctl -l)"
t_eq "no directory left in /tmp" "" "$(cd /tmp && ls -d trusted_for.* execve_check.* 2>/dev/null)"
kill $auditd_pid
wait $auditd_pid 2>/dev/null
AUDITD_PID=
t_done kernel-selftests-degraded
