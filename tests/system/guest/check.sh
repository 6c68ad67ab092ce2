#!/bin/bash
# trustfor system suite, guest side: runs in the booted Debian system of
# tests/system/image.sh (trustfor-system-check.service, after
# multi-user.target) and checks it from inside.  The stage comes from the
# kernel command line (trustfor.stage=N, set by tests/system/run.sh for each
# boot); results go to the second serial port (/dev/ttyS1) as "ok - ..." /
# "not ok - ..." lines, facts for the host as "fact NAME VALUE" lines, and
# "stage N done" last; then the stage reboots or powers off the machine
# (qemu runs with -no-reboot: the host starts the next boot, with the
# kernel that stage needs).
#   1  trustfor kernel, first boot: the system, AppArmor, auditd and the
#      plugin; trustfor-relay.service disabled, kept from starting by its
#      condition; refusals through both interfaces counted by the report and by
#      node exporter, equal to the kernel's records; policyctl check, then
#      apply --persist of policy 3; reboot
#   2  trustfor kernel: the policy held from before any service started;
#      the counts continued across the reboot; auditd's log rotation loses
#      none; policyctl rollback; reboot
#   3  trustfor kernel: the policy is 0 again (the rollback persisted), the
#      counts unchanged; reboot
#   4  Debian's stock kernel: no failed unit; every tool degrades as its
#      man page says (trustfor-relay.service fails with exit status 3);
#      the plugin idle; removing the tools' package leaves auditd running
#      with no plugin configured; purging removes the state; power off
set -u
out=/dev/ttyS1
[ -w "$out" ] || out=/dev/console
exec > "$out" 2>&1
stage=$(sed -n 's/.*trustfor\.stage=\([0-9]*\).*/\1/p' /proc/cmdline)
state=/var/lib/trustfor-system-check
mkdir -p "$state"
t=/srv/trustfor-check
plugin_conf=/etc/audit/plugins.d/audisp-trusted-for.conf

ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; }
fact() { echo "fact $1 $2"; }
# is WHAT GOT WANT: ok when GOT equals WANT.
is() {
	if [ "$2" = "$3" ]; then ok "$1 ($2)"; else nok "$1: got '$2', want '$3'"; fi
}
# wait_until SECONDS CMD...: CMD until it succeeds; 1 when it never did.
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.5
	done
}

# The system as systemd sees it: started, nothing failed.
system_state() {
	local s
	s=$(systemctl is-system-running --wait 2> /dev/null)
	is "systemd: the system is running (multi-user.target reached, no failed unit)" "$s" running
	[ "$s" = running ] || systemctl --failed --plain --no-legend | sed 's/^/# failed: /'
	is "multi-user.target is active" "$(systemctl is-active multi-user.target)" active
	fact uname "$(uname -r)"
	fact lsm "$(cat /sys/kernel/security/lsm 2> /dev/null || echo none)"
}

apparmor_state() {
	local n
	is "AppArmor is enabled (aa-enabled)" "$(aa-enabled 2> /dev/null)" Yes
	n=$(grep -c . /sys/kernel/security/apparmor/profiles 2> /dev/null || echo 0)
	if [ "$n" -gt 0 ]; then ok "AppArmor has $n profiles loaded"; else nok "AppArmor has no profile loaded"; fi
}

# The plugin: a child of auditd, started from the package's plugins.d file.
plugin_state() {
	local pid ppid apid
	is "auditd.service is active" "$(systemctl is-active auditd)" active
	apid=$(systemctl show -P MainPID auditd)
	pid=$(pgrep -x audisp-trusted- | head -n 1)
	ppid=$(ps -o ppid= -p "${pid:-0}" 2> /dev/null | tr -d ' ')
	if [ -n "$pid" ] && [ "$ppid" = "$apid" ]; then
		ok "audisp-trusted-for runs as auditd's plugin (pid $pid, auditd $apid)"
	else
		nok "audisp-trusted-for is not auditd's child (pid '${pid}', parent '${ppid}', auditd '$apid')"
	fi
}

# trustfor-relay.service (the tools' package ships it disabled).
# relay_unit trustfor|stock: on the trustfor kernel its condition keeps it
# from starting (the kernel logs these refusals itself: nothing counted
# twice); on Debian's 6.1, which has no AT_EXECVE_CHECK, a start fails
# with exit status 3 and says why, and no restart follows.
relay_unit() {
	local st
	is "trustfor-relay.service is installed disabled" "$(systemctl is-enabled trustfor-relay 2> /dev/null)" disabled
	is "trustfor-relay.service is not running" "$(systemctl is-active trustfor-relay)" inactive
	if [ "$1" = trustfor ]; then
		systemctl start trustfor-relay
		is "systemctl start trustfor-relay on the trustfor kernel (exit 0)" "$?" 0
		is "its condition failed (the kernel logs the refusals itself)" \
			"$(systemctl show -P ConditionResult trustfor-relay)" no
		is "trustfor-relay.service stays inactive" "$(systemctl is-active trustfor-relay)" inactive
		is "no relay record in the audit log" "$(ausearch -m 2650 --raw 2> /dev/null | grep -c .)" 0
	else
		systemctl start trustfor-relay 2> /dev/null
		is "systemctl start trustfor-relay on Debian's 6.1 fails (exit 1)" "$?" 1
		st=$(systemctl show -P ExecMainStatus trustfor-relay)
		is "trustfor-relay exited 3: a kernel it cannot watch" "$st" 3
		is "it says why in the journal" \
			"$(journalctl -b -u trustfor-relay -o cat | grep -c 'no execveat(AT_EXECVE_CHECK)')" 1
		is "no restart after exit 3" "$(systemctl show -P NRestarts trustfor-relay)" 0
		systemctl reset-failed trustfor-relay
	fi
}

# The kernel's own records, counted by ausearch over every log file:
# "TRUSTED_FOR_API TOTAL" for each API, from the api= field.
kernel_count() {
	ausearch -m 1350 --raw 2> /dev/null | grep -c "api=$1" || true
}
# The plugin's counts: save now (SIGUSR1), then read the report's JSON.
report_count() {
	pkill -USR1 -x audisp-trusted- || return 1
	sleep 0.2
	audisp-trusted-for report --json 2> /dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)["api"]
print(d.get(sys.argv[1], {}).get("count", 0))' "$1"
}
# node exporter's scrape: the sum of trustfor_denials_total for one API.
metrics_count() {
	curl -sf http://127.0.0.1:9100/metrics | awk -v api="$1" '
		/^trustfor_denials_total\{/ && index($0, "api=\"" api "\"") { s += $NF }
		END { printf "%d\n", s }'
}
counts_agree() {
	local api
	for api in trusted_for execve_check; do
		[ "$(report_count $api)" = "$(kernel_count $api)" ] || return 1
		[ "$(metrics_count $api)" = "$(kernel_count $api)" ] || return 1
	done
}
# compare_counts WHEN: the report and the scrape equal the kernel's records.
compare_counts() {
	local api k
	wait_until 60 counts_agree
	for api in trusted_for execve_check; do
		k=$(kernel_count $api)
		is "$1: audisp-trusted-for report counts the kernel's $api refusals" "$(report_count $api)" "$k"
		is "$1: node exporter's scrape counts the kernel's $api refusals" "$(metrics_count $api)" "$k"
		fact "$api-$1" "$k"
	done
}

# refuse N CMD...: CMD N times, each refused (exit status 126).
refuse() {
	local n=$1 i rc bad=0
	shift
	for ((i = 0; i < n; i++)); do
		"$@" > /dev/null 2>&1
		rc=$?
		[ $rc = 126 ] || bad=$((bad + 1))
	done
	is "$* refused $n times (exit status 126)" "$bad" 0
}
# The refusals of one round: the policy (trusted_for) and
# SECBIT_EXEC_RESTRICT_FILE (execve_check), python and dash.
workload() {
	refuse "$1" trusted-python3 $t/deny/noexec.py
	refuse "$1" trusted-dash $t/deny/noexec.sh
	refuse "$1" with-securebits 0x100 trusted-python3 $t/deny/noexec.py
	refuse "$1" with-securebits 0x100 trusted-dash $t/deny/noexec.sh
	is "trusted-python3 runs an executable script" "$(trusted-python3 $t/ok/ok.py 2>&1)" ok
	is "trusted-dash runs an executable script" "$(trusted-dash $t/ok/ok.sh 2>&1)" ok
}

sysctl_policy() { cat /proc/sys/fs/trust_policy 2> /dev/null || echo none; }

stage1() {
	local pyd d
	system_state
	apparmor_state
	plugin_state
	relay_unit trustfor
	is "fs.trust_policy starts at 0" "$(sysctl_policy)" 0
	mkdir -p $t/ok $t/deny
	printf 'print("ok")\n' > $t/ok/ok.py
	printf 'echo ok\n' > $t/ok/ok.sh
	chmod 0755 $t/ok/ok.py $t/ok/ok.sh
	printf 'print("ran")\n' > $t/deny/noexec.py
	printf 'echo ran\n' > $t/deny/noexec.sh
	chmod 0644 $t/deny/noexec.py $t/deny/noexec.sh
	# Python reads its library (mode 0644 on Debian) through the same
	# check: policy 3 would refuse it too.  The dry run says so; the
	# administrator's fix makes those files executable.
	pyd=()
	for d in /usr/lib/python3.11 /usr/lib/python3/dist-packages; do
		[ -d "$d" ] && pyd+=(--path "$d")
	done
	policyctl check --policy 3 --path $t/deny "${pyd[@]}" > "$state/check-deny.out" 2>&1
	is "policyctl check --policy 3 predicts the denials of $t/deny and Python's library (exit 1)" "$?" 1
	policyctl apply --policy 3 --persist --path $t/ok "${pyd[@]}" > "$state/apply-refused.out" 2>&1
	is "policyctl apply --policy 3 refuses while Python's library would be denied (exit 1)" "$?" 1
	is "fs.trust_policy is still 0" "$(sysctl_policy)" 0
	# (Their byte code too; Python gives a new .pyc its source's mode.)
	find /usr/lib/python3.11 /usr/lib/python3/dist-packages -type f -exec chmod a+x {} +
	policyctl check --policy 3 --path $t/ok "${pyd[@]}" > "$state/check-ok.out" 2>&1
	is "policyctl check --policy 3: nothing to deny once fixed (exit 0)" "$?" 0
	policyctl apply --policy 3 --persist --path $t/ok "${pyd[@]}" > "$state/apply.out" 2>&1
	is "policyctl apply --policy 3 --persist (exit 0)" "$?" 0
	is "fs.trust_policy is 3" "$(sysctl_policy)" 3
	workload 5
	compare_counts stage1
}

stage2() {
	local early sysctl_done u start bad=0
	system_state
	plugin_state
	# The policy from /etc/sysctl.d held before any ordinary service.
	early=$(cat /run/trustfor-early-probe 2> /dev/null || echo missing)
	is "fs.trust_policy seen by the earliest ordinary service after the reboot" "$early" 3
	sysctl_done=$(systemctl show -P ExecMainExitTimestampMonotonic systemd-sysctl.service)
	while read -r u; do
		[ "$(systemctl show -P DefaultDependencies "$u")" = yes ] || continue
		start=$(systemctl show -P ExecMainStartTimestampMonotonic "$u")
		[ "${start:-0}" -gt 0 ] || continue
		if [ "$start" -le "$sysctl_done" ]; then
			echo "# $u started at $start, before systemd-sysctl ended ($sysctl_done)"
			bad=$((bad + 1))
		fi
	done < <(systemctl list-units --type=service --all --plain --no-legend | awk '{ print $1 }')
	is "no ordinary service started before systemd-sysctl.service ended" "$bad" 0
	# The counts of before the reboot are still there, then grow.
	compare_counts after-reboot
	workload 3
	compare_counts stage2
	service auditd rotate > /dev/null 2>&1
	is "service auditd rotate (exit 0)" "$?" 0
	wait_until 10 test -e /var/log/audit/audit.log.1
	is "auditd rotated its log" "$(test -e /var/log/audit/audit.log.1 && echo yes)" yes
	workload 2
	compare_counts rotated
	policyctl rollback > "$state/rollback.out" 2>&1
	is "policyctl rollback (exit 0)" "$?" 0
	is "fs.trust_policy is 0 after the rollback" "$(sysctl_policy)" 0
}

stage3() {
	system_state
	plugin_state
	is "fs.trust_policy is 0 after the rollback and a reboot" "$(sysctl_policy)" 0
	is "fs.trust_policy seen by the earliest ordinary service" \
		"$(cat /run/trustfor-early-probe 2> /dev/null || echo missing)" 0
	compare_counts rollback
}

stage4() {
	local msg
	system_state
	plugin_state
	is "no fs.trust_policy on Debian's stock kernel" "$(sysctl_policy)" none
	compare_counts stock
	relay_unit stock
	# policyctl(8) and trusttop(8) on a kernel with neither interface.
	msg=$(policyctl status 2>&1)
	is "policyctl status on the stock kernel (exit 0)" "$?" 0
	echo "$msg" | sed 's/^/# policyctl status: /'
	is "policyctl status: no trusted_for(2)" \
		"$(echo "$msg" | grep -c '^trusted_for(2): *not in this kernel')" 1
	is "policyctl status: no AT_EXECVE_CHECK" \
		"$(echo "$msg" | grep -c '^AT_EXECVE_CHECK: *not available')" 1
	policyctl apply --policy 1 > /dev/null 2>&1
	is "policyctl apply refuses: no trusted_for in the kernel (exit 2)" "$?" 2
	msg=$(trusttop -b -d 1 -n 1 2>&1)
	is "trusttop: no usable backend (exit 4)" "$?" 4
	echo "$msg" | sed 's/^/# trusttop: /'
	is "trusttop says why in one line" "$(echo "$msg" | grep -c .)" 1
	# The fallback rule: a mode-0644 script runs, one on a noexec mount
	# does not.
	is "trusted-python3 runs a 0644 script (fallback rule)" "$(trusted-python3 $t/deny/noexec.py 2>&1)" ran
	mkdir -p /run/tf-noexec
	mount -t tmpfs -o noexec tmpfs /run/tf-noexec
	cp $t/ok/ok.py /run/tf-noexec/
	msg=$(trusted-python3 /run/tf-noexec/ok.py 2>&1)
	is "trusted-python3 refuses a script on a noexec mount (exit 126)" "$?" 126
	case $msg in
	*"(kernel cannot answer, fallback rule)"*) ok "the refusal names the fallback rule" ;;
	*) nok "the refusal does not name the fallback rule: $msg" ;;
	esac
	umount /run/tf-noexec
	# Removal: auditd stays, with no plugin configured for a program gone.
	apt-get remove -y -q trustfor-tools > "$state/remove.out" 2>&1
	is "apt-get remove trustfor-tools (exit 0)" "$?" 0
	is "auditd.service is active after the removal" "$(systemctl is-active auditd)" active
	is "no plugin configuration left in plugins.d" "$(find /etc/audit/plugins.d -name 'audisp-trusted-for*.conf' | wc -l)" 0
	wait_until 10 sh -c '! pgrep -x audisp-trusted- > /dev/null'
	is "no audisp-trusted-for process" "$(pgrep -x audisp-trusted- | wc -l)" 0
	is "the state is kept on removal" "$(test -e /var/lib/audisp-trusted-for/state.json && echo kept)" kept
	apt-get purge -y -q trustfor-tools > "$state/purge.out" 2>&1
	is "apt-get purge trustfor-tools (exit 0)" "$?" 0
	is "purge removes the state" "$(ls -A /var/lib/audisp-trusted-for 2> /dev/null | wc -l)" 0
	is "auditd.service is active after the purge" "$(systemctl is-active auditd)" active
}

case $stage in
1) stage1; next=reboot ;;
2) stage2; next=reboot ;;
3) stage3; next=reboot ;;
4) stage4; next=poweroff ;;
*) nok "no trustfor.stage=1..4 on the kernel command line"; next=poweroff ;;
esac
echo "stage $stage done"
sync
# systemd's way; should it fail, the kernel's (the disk is synced).
if ! systemctl "$next"; then
	# (An orderly shutdown stops this unit first: no sysrq then.)
	sleep 60
	case $next in
	reboot) echo b > /proc/sysrq-trigger ;;
	*) echo o > /proc/sysrq-trigger ;;
	esac
fi
