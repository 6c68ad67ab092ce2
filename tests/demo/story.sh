#!/bin/bash
# The trustfor demo, inside the VM (tests/demo/run starts it): a system with
# scripts where a strict fs.trust_policy would break them, the dry-run that
# says so, the refused apply, the fixes, the apply, real interpreters being
# allowed and denied, the live view and the audit report; then the same
# story through mainline's interface (execveat(AT_EXECVE_CHECK) and the exec
# securebits), which this kernel has too.
set -u
top=$PWD
U=$top/build/user
POLICYCTL=$U/policyctl/policyctl
TRUSTTOP=$U/trusttop/trusttop
PY=$U/interpreters/trusted-python3
DASH=$U/interpreters/trusted-dash
export LC_ALL=C.UTF-8 TZ=UTC
# /var/lib is read-only in the VM: keep policyctl's rollback record in /run.
export POLICYCTL_STATE=/run/policyctl/last-apply

# shellcheck source=steps.sh
. tests/demo/steps.sh

# trusttop_start FILE: trusttop -b in the background, returning once it
# counts (its first snapshot is out); trusttop_show FILE: stop it (SIGTERM
# makes a last, complete snapshot) and print that snapshot.
. tests/lib/wait.sh
. tests/lib/trusttop.sh
trusttop_start() { tt_start "$1" - 120 -b -d 1; }
trusttop_show() { tt_stop; tt_last_snapshot "$1"; }

for b in "$POLICYCTL" "$TRUSTTOP" "$PY" "$DASH"; do
	[ -x "$b" ] || { echo "demo: $b is missing: run 'make tools' on the host" >&2; exit 1; }
done

# The auditd of the demo: the real auditd 3.0.9 with audisp-trusted-for in
# its plugins.d (the same set-up as the plugin's VM tests).
SUITE=demo
# shellcheck source=../../auditd-plugin/tests/vm-common.inc
. auditd-plugin/tests/vm-common.inc
setup_auditd /run/demo-audit 2
start_auditd > /dev/null
AUDIT_STATE=/run/demo-audit/state/state.json

shows "Is trusted_for in this kernel, and what does the policy do now?"
run "$POLICYCTL" status

# --- A system that strict enforcement would break ---------------------
# The VM's / is the host's, read-only: stage on tmpfs mounts.
mount -t tmpfs -o mode=0755 srv /srv
mkdir -p /srv/tools /run/uploads
mount -t tmpfs -o noexec,mode=0755 tools /srv/tools
mount -t tmpfs -o mode=0755 home /home
useradd -m -d /home/alice alice 2>/dev/null || true
printf '#!/bin/sh\necho "backup: done"\n' > /srv/tools/backup.sh
printf 'print("report: 42 lines")\n' > /srv/tools/report.py
chmod 0755 /srv/tools/backup.sh /srv/tools/report.py
mkdir -p /home/alice/bin
printf 'print("cleanup: 3 files removed")\n' > /home/alice/bin/cleanup.py
chmod 0644 /home/alice/bin/cleanup.py
chown -R alice: /home/alice/bin
# A tool that installs its scripts into /tmp without the x bit.
mkdir -p /tmp/vendor-setup
printf '#!/bin/sh\necho "setup: configured"\n' > /tmp/vendor-setup/setup.sh
chmod 0644 /tmp/vendor-setup/setup.sh
# Python interprets its standard library and, at start, the .pth files and
# modules of its site directories: all mode 0644 on Debian.
PYDIRS=()
for d in /usr/lib/python3.11 /usr/local/lib/python3.11/dist-packages /usr/lib/python3/dist-packages; do
	[ -d "$d" ] && PYDIRS+=("$d")
done
PATHS=(--path /srv/tools --path /home --path /tmp/vendor-setup)
for d in "${PYDIRS[@]}"; do PATHS+=(--path "$d"); done

shows "The staged system: scripts on a noexec mount, a non-executable script in a home, a tool's script in /tmp; Python's library directories are mode 0644"
ls -l /srv/tools /home/alice/bin /tmp/vendor-setup | sed 's/^/  /'
grep -E ' /srv/tools | /home ' /proc/self/mounts | sed 's/^/  /'

shows "Dry-run: what would policy 3 deny, on which mount, for whom, and why?"
run "$POLICYCTL" check --policy 3 "${PATHS[@]}"

shows "Apply policy 3: refused, because the dry-run predicts denials"
run "$POLICYCTL" apply --policy 3 "${PATHS[@]}"
echo "fs.trust_policy is still $(cat /proc/sys/fs/trust_policy)"

shows "The fixes: remount /srv/tools exec, make alice's and the tool's scripts executable, executable copies of Python's library directories"
run mount -o remount,exec /srv/tools
run chmod 0755 /home/alice/bin/cleanup.py /tmp/vendor-setup/setup.sh
n=0
for d in "${PYDIRS[@]}"; do
	n=$((n + 1))
	mkdir -p "/run/py$n"
	cp -a "$d/." "/run/py$n/" 2>/dev/null
	find "/run/py$n" -type f -exec chmod a+x {} +
	run mount --bind "/run/py$n" "$d"
done

shows "Dry-run again, then apply: nothing would break now, so the policy is set"
run "$POLICYCTL" check --policy 3 "${PATHS[@]}"
run "$POLICYCTL" apply --policy 3 "${PATHS[@]}"

# --- Real interpreters under the new policy -------------------------
mount -t tmpfs -o noexec,mode=1777 uploads /run/uploads
printf 'print("payload ran")\n' > /run/uploads/payload.py
printf 'echo "payload ran"\n' > /run/uploads/payload.sh
chmod 0755 /run/uploads/payload.py /run/uploads/payload.sh
printf 'print("unreviewed ran")\n' > /home/alice/bin/new.py
chmod 0644 /home/alice/bin/new.py

# trusttop watches the whole workload (its snapshot when it ends).
trusttop_start /run/trusttop.out

shows "trusted-python3 and trusted-dash run the trusted scripts and refuse the rest (exit status 126)"
run "$PY" /srv/tools/report.py
run "$DASH" /srv/tools/backup.sh
run "$DASH" /tmp/vendor-setup/setup.sh
run setpriv --reuid alice --regid alice --init-groups "$PY" /home/alice/bin/cleanup.py
run "$PY" /run/uploads/payload.py
run "$DASH" /run/uploads/payload.sh
run setpriv --reuid alice --regid alice --init-groups "$PY" /home/alice/bin/new.py
run "$DASH" -c ". /run/uploads/payload.sh"

shows "trusttop: the live verdicts of that workload, per interpreter (batch snapshot)"
trusttop_show /run/trusttop.out

shows "The auditd plugin's report of the denials (audisp-trusted-for report -i)"
settle 60 || echo "(the plugin had not counted every refusal of auditd's log after 60 s)"
stop_auditd > /dev/null
run "$BIN" report --state "$AUDIT_STATE" -i --table interpreter,file,reason,user

shows "The policy-change timeline"
run "$BIN" report --state "$AUDIT_STATE" --table policy

# The same auditd again (the plugin loads its state), so that the rollback
# and the next chapter are in the report too.
start_auditd > /dev/null

shows "Roll back to the value before the apply"
run "$POLICYCTL" rollback

# --- The same story through mainline's interface ----------------------
# execveat(AT_EXECVE_CHECK) and the exec securebits (Linux 6.14), which
# this kernel has too: no sysctl, but a session that sets
# SECBIT_EXEC_RESTRICT_FILE (0x100) or SECBIT_EXEC_DENY_INTERACTIVE (0x400)
# for itself and what it starts, without privilege.
WITH=$top/tests/demo/with-securebits
AS_ALICE=(setpriv --reuid alice --regid alice --init-groups)

shows "Mainline's interface on the same kernel: a session sets the exec securebits for itself and what it starts (prctl(PR_SET_SECUREBITS), no privilege needed); fs.trust_policy stays 0"
run "$WITH" 0x500 "$POLICYCTL" status

shows "Dry-run for mainline's interface: what would interpreters refuse in a session with SECBIT_EXEC_RESTRICT_FILE?"
run "$POLICYCTL" check --if-restrict-file "${PATHS[@]}" --path /run/uploads

# trusttop follows both interfaces on this kernel: this chapter's checks.
trusttop_start /run/trusttop2.out

shows "With SECBIT_EXEC_RESTRICT_FILE the interpreters refuse what AT_EXECVE_CHECK refuses (exit status 126): the securebit, since fs.trust_policy is 0; alice sets it herself"
echo "fs.trust_policy is $(cat /proc/sys/fs/trust_policy)"
run "$WITH" 0x100 "$PY" /srv/tools/report.py
run "$WITH" 0x100 "$PY" /run/uploads/payload.py
run "$WITH" 0x100 "$DASH" /run/uploads/payload.sh
run "${AS_ALICE[@]}" "$WITH" 0x100 "$PY" /home/alice/bin/new.py

shows "The same scripts without the bit: they run (AT_EXECVE_CHECK is still asked, and its refusals logged as observed only)"
run "$PY" /run/uploads/payload.py
run "$DASH" /run/uploads/payload.sh
run "${AS_ALICE[@]}" "$PY" /home/alice/bin/new.py

shows "With SECBIT_EXEC_DENY_INTERACTIVE, -c is refused; without it (and with fs.trust_policy 0) it runs"
run "$WITH" 0x400 "$PY" -c 'print("hello from -c")'
run "$WITH" 0x400 "$DASH" -c 'echo "hello from -c"'
run "$DASH" -c 'echo "hello from -c"'

shows "trusttop: the same checks through both interfaces, one row per interpreter and API (trusted_for under policy 0 allows; AT_EXECVE_CHECK refuses whatever the securebits: the interpreter decides)"
trusttop_show /run/trusttop2.out

shows "The auditd plugin's report split by API: trusted_for (under policy 3), execve_check enforced (with the bit) and observed only (without it)"
settle 60 || echo "(the plugin had not counted every refusal of auditd's log after 60 s)"
stop_auditd > /dev/null
run "$BIN" report --state "$AUDIT_STATE" -i --table file,reason

shows "What setting SECBIT_EXEC_RESTRICT_FILE everywhere would break, seen in the audit log: the files of the dry-run above"
run "$BIN" report --state "$AUDIT_STATE" -i --api execve_check/observed --table file

echo 0 > /proc/sys/fs/trust_policy
