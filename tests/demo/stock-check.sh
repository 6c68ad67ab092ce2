#!/bin/bash
# The demo's stock-kernel part (tests/demo/stock.sh) tells the truth: run
# it and check what each step claims against what its commands did.  The
# expected figures come from the story's own commands (which runs are
# refused, which run) and from sources independent of one another: the
# log counted with ausearch, the plugin's report, its metrics, the relay's
# own counters, and the kernel's own count of the refusals it returned
# (a tracefs instance on sys_exit_execveat).  On a kernel with nothing to show, the part must say why
# and exit 0; the rest is skipped with that reason.
# As root, after make tools.
. tests/lib/assert.sh
SUITE=demo-stock
LOG=$(mktemp /tmp/demo-stock.XXXXXX)

# The kernel's own count of the refusals, independent of the relay and of
# auditd: execveat() returning EACCES or EPERM to the interpreters, from a
# tracefs instance of this check's own, during the story.
TR=/sys/kernel/tracing
[ -d "$TR/instances" ] || mount -t tracefs nodev "$TR" 2> /dev/null
I=$TR/instances/tf-demo-stock.$$
trap 'rm -f "$LOG" "$LOG.trace"; [ -d "$I" ] && { echo 0 > "$I/tracing_on"; rmdir "$I"; }' EXIT
if mkdir "$I" 2> /dev/null &&
	echo 'ret == -13 || ret == -1' > "$I/events/syscalls/sys_exit_execveat/filter" &&
	echo 1 > "$I/events/syscalls/sys_exit_execveat/enable"; then
	traced=yes
else
	traced=
fi
TF_STORY_MARK=${traced:+$I/trace_marker} bash tests/demo/stock.sh > "$LOG" 2>&1
rc=$?
# refused N: the interpreters' refusals in step N ("COMM-PID [cpu] ...
# sys_execveat -> 0xfff..." lines after the story's marker of step N)
[ -n "$traced" ] && cp "$I/trace" "$LOG.trace"
refused() {
	awk -v m="tf-story step $1" '
		index($0, "tf-story step ") { on = index($0, m) > 0 && substr($0, index($0, m) + length(m)) !~ /^[0-9]/; next }
		on && /^ *trusted-(python3|dash)-[0-9]+ / { n++ }
		END { print n + 0 }' "$LOG.trace" 2> /dev/null
}
t_eq "the stock-kernel part ends with status 0" 0 "$rc"
if grep -q '^Nothing to show on this kernel: ' "$LOG"; then
	t_eq "nothing to show: it says why, in one line, and nothing else" 2 "$(grep -c . "$LOG")"
	why=$(sed -n 's/^Nothing to show on this kernel: //p' "$LOG")
	t_skip "the relay's story (20 checks): $why"
	t_done "$SUITE"
	exit
fi

# step N, count N REGEX: the story's step N, and its lines matching REGEX.
# shellcheck source=steps.sh
. tests/demo/steps.sh

# Step 1, the bit set, no relay: report.py (its library is 0644 on Debian),
# payload.py and payload.sh (noexec) are refused; the log has nothing.
t_eq "step 1: three runs refused, exit status 126" 3 "$(count 1 '^\(exit status 126\)$')"
t_eq "step 1: refused through AT_EXECVE_CHECK under the bit" 3 \
	"$(count 1 'refused to interpret: .*\(AT_EXECVE_CHECK, SECBIT_EXEC_RESTRICT_FILE is set\)$')"
t_eq "step 1: no audit record without the relay (kernel or relay type)" 1 \
	"$(count 1 "^audit records of these refusals in auditd's log: 0$")"
if [ -n "$traced" ] && [ "$(refused 1)" -ge 3 ]; then
	t_ok "step 1: the kernel did refuse ($(refused 1) times)"
else
	t_fail "step 1: the kernel's refusals in step 1: ${traced:+$(refused 1)}${traced:-no trace}, fewer than the 3 runs"
fi

# Step 2: ready, only CAP_AUDIT_WRITE (bit 29) effective.
t_eq "step 2: the relay is ready" 1 "$(count 2 '^trustfor-relay: ready: ')"
t_eq "step 2: CapEff is CAP_AUDIT_WRITE alone" 1 "$(count 2 '^CapEff:[[:space:]]+0000000020000000$')"

# Step 3: three runs refused under the bit (each stops at its script, the
# first file checked), two run without it.
t_eq "step 3: three runs refused, exit status 126" 3 "$(count 3 '^\(exit status 126\)$')"
t_eq "step 3: payload.py ran without the bit" 1 "$(count 3 '^payload: ran$')"
t_eq "step 3: new.py ran without the bit" 1 "$(count 3 '^new: ran$')"
n=$(step 3 | sed -n "s/^audit records of these refusals in auditd's log: //p")
# The kernel's count of the refusals it returned in step 3.
if [ -n "$traced" ]; then
	t_eq "step 3: the log has one record per refusal the kernel returned" \
		"$(refused 3)" "${n:-none}"
else
	t_fail "step 3: no tracefs instance for the kernel's count ($I)"
fi
t_eq "step 3: the record shown is the relay's, for payload.sh, enforced" 1 \
	"$(count 3 '^type=UNKNOWN\[2650\] .* reason=noexec_mount .*/uploads/payload.sh" .* api=execve_check secbits=0x100 .* src=relay ')"

# Step 4: the plugin's report: the log's count, all from the relay; 3
# enforced (the three runs under the bit), the rest observed.
t_eq "step 4: denials in the report = records in the log" "Number of denials: $n" \
	"$(step 4 | grep '^Number of denials: ')"
t_eq "step 4: by source" "Denials by source: kernel 0, relay $n (the relay lost 0 more: refused, not logged)" \
	"$(step 4 | grep '^Denials by source: ')"
t_eq "step 4: enforced 3, observed the rest" "Denials by API: trusted_for 0, execve_check $n (enforced 3, observed only $((n - 3)))" \
	"$(step 4 | grep '^Denials by API: ')"
for f in uploads/payload.py uploads/payload.sh home/new.py; do
	t_eq "step 4: $f refused once under the bit" 1 \
		"$(count 4 "^1 .* execve_check/enforced  /tmp/tf-demo-stock\.[^/]*/$f$")"
done

# Step 5: the metrics: the same total, nothing lost.
t_eq "step 5: the relay's series add up to the log's count" "$n" \
	"$(step 5 | awk '/^trustfor_denials_total\{.*source="relay"/ { s += $NF } END { print s + 0 }')"
t_eq "step 5: nothing lost" 1 "$(count 5 '^trustfor_lost_total\{source="relay"\} 0$')"

# Step 6: the relay's own counters agree.
t_eq "step 6: the relay saw and logged every one" "trustfor-relay: seen $n, logged $n, lost 0, unsent 0" \
	"$(step 6 | grep '^trustfor-relay: seen ')"
t_done "$SUITE"
