#!/bin/bash
# make demo tells the truth: run its story (tests/demo/story.sh) in the VM
# and check what each step claims against what the story does, step by
# step: which scripts run and which are refused (and by which interface),
# what trusttop counted and what the auditd plugin reports.  The expected
# figures are counted from the story's own commands (listed with each
# check), never taken from a previous run's output.
# Needs a host build first: make tools
# vm-mem: 1536M
# vm-timeout: 900
. tests/lib/assert.sh
SUITE=demo-story
LOG=$(mktemp /tmp/demo-story.XXXXXX)
trap 'rm -f "$LOG"' EXIT

bash tests/demo/story.sh > "$LOG" 2>&1
rc=$?
t_eq "the story ends with status 0" 0 "$rc"
t_eq "fs.trust_policy is 0 again at the end" 0 "$(cat /proc/sys/fs/trust_policy)"

# step N, count N REGEX: the story's step N, and its lines matching REGEX.
# shellcheck source=../demo/steps.sh
. tests/demo/steps.sh
# snap N API FIELD: trusttop's figure FIELD (denied, allowed...) for one
# interface, from the per-interface line of step N's snapshot.
snap() { step "$1" | sed -n "s/^  $2 .* $3 \([0-9]*\) .*/\1/p"; }

t_eq "step 4: apply refused" 1 \
	"$(count 4 '^policyctl: apply: refusing to set fs.trust_policy=3: ')"
t_eq "step 6: apply done" 1 "$(count 6 'fs.trust_policy: 0 -> 3')"

# Step 7, policy 3: report.py, backup.sh, setup.sh, cleanup.py are fixed
# and run; payload.py, payload.sh (noexec), new.py (0644) and the -c
# (code from a pipe) are refused by trusted_for.
for out in "report: 42 lines" "backup: done" "setup: configured" "cleanup: 3 files removed"; do
	t_eq "step 7: ran: $out" 1 "$(count 7 "^$out\$")"
done
t_eq "step 7: refused, exit status 126" 4 "$(count 7 '^\(exit status 126\)$')"
t_eq "step 7: refusals by trusted_for" 4 "$(count 7 'refused to interpret: .*\(trusted_for\)$')"
t_eq "step 7: payloads never ran" 0 "$(count 7 'payload ran|unreviewed ran')"

# Step 8, trusttop over step 7: trusted_for refused those 4; the
# interpreters also asked AT_EXECVE_CHECK for each file (not for -c),
# which refused the 3 payload/new files.
t_eq "step 8: trusttop follows both interfaces" 1 \
	"$(count 8 '^trusttop - .*backend trusted_for\+execve_check ')"
t_eq "step 8: trusted_for denied" 4 "$(snap 8 trusted_for denied)"
t_eq "step 8: execve_check denied" 3 "$(snap 8 execve_check denied)"

# Steps 14-16, policy 0: with SECBIT_EXEC_RESTRICT_FILE, report.py runs
# and payload.py, payload.sh, new.py are refused by AT_EXECVE_CHECK;
# without it they run; with SECBIT_EXEC_DENY_INTERACTIVE both -c are
# refused, and the one without it runs.
t_eq "step 14: policy is 0" 1 "$(count 14 '^fs.trust_policy is 0$')"
t_eq "step 14: trusted script runs under the bit" 1 "$(count 14 '^report: 42 lines$')"
t_eq "step 14: refused by the securebit" 3 \
	"$(count 14 'refused to interpret: .*\(AT_EXECVE_CHECK, SECBIT_EXEC_RESTRICT_FILE is set\)$')"
t_eq "step 14: exit status 126" 3 "$(count 14 '^\(exit status 126\)$')"
t_eq "step 15: without the bit they run" "2 1 0" \
	"$(count 15 '^payload ran$') $(count 15 '^unreviewed ran$') $(count 15 'exit status')"
t_eq "step 16: -c refused under DENY_INTERACTIVE" 2 \
	"$(count 16 'refused to interpret: code not read from a regular file and SECBIT_EXEC_DENY_INTERACTIVE is set$')"
t_eq "step 16: -c runs without it" 1 "$(count 16 '^hello from -c$')"

# Step 17, trusttop over steps 14-16: AT_EXECVE_CHECK refused 3 files
# with the bit and the same 3 without it; -c is refused by the
# interpreter without asking; trusted_for (policy 0) refused nothing.
t_eq "step 17: execve_check denied" 6 "$(snap 17 execve_check denied)"
t_eq "step 17: trusted_for denied" 0 "$(snap 17 trusted_for denied)"

# Step 18, the plugin: trusted_for's 4 (step 7); AT_EXECVE_CHECK's 3
# enforced (step 14) and 6 observed (steps 7 and 15).
t_eq "step 18: denials by API" 1 \
	"$(count 18 '^Denials by API: trusted_for 4, execve_check 9 \(enforced 3, observed only 6\)$')"
t_eq "step 19: observed only" 1 "$(count 19 '^Number of denials: 6$')"

if [ "$T_FAIL" -ne 0 ]; then
	echo "# the story's output:"
	sed 's/^/# /' "$LOG"
fi
t_done "$SUITE"
