#!/bin/sh
# VM test (patched kernel, real auditd 3.0.9): audisp-trusted-for under
# auditd counts exactly the denials three interpreters got on files with
# hostile names, records the policy changes, and keeps its counts through
# SIGHUP, SIGTERM (auditd restarts the plugin) and kill -9 + restart.
SUITE=auditd-vm-denials
. auditd-plugin/tests/vm-common.inc
need

D=$(mktemp -d /tmp/tf-auditd.XXXXXX)
cleanup() {
	[ -n "$AUDITD_PID" ] && kill "$AUDITD_PID" 2>/dev/null
	umount "$D/noexec" 2>/dev/null
}
trap cleanup EXIT
setup_auditd "$D/audit" 1
start_auditd

# three interpreters (one with a tab in its name) and three hostile file names
mkdir -p "$D/bin" "$D/noexec"
cp "$PROBE" "$D/bin/python3"
cp "$PROBE" "$D/bin/perl"
cp "$PROBE" "$D/bin/$(printf 'lua\tx')"
mount -t tmpfs -o noexec tf-noexec "$D/noexec"
F1=$(printf '%s/noexec/evil\n\033[31mred.py' "$D")
F2=$(printf '%s/noexec/bad\377\376.pl' "$D")
F3="$D/noexec/has space ü.lua"
for f in "$F1" "$F2" "$F3"; do printf 'x\n' > "$f"; chmod 755 "$f"; done

old=$(cat /proc/sys/fs/trust_policy)
echo 3 > /proc/sys/fs/trust_policy
t_eq "policy set" 3 "$(cat /proc/sys/fs/trust_policy)"
echo 7 > /proc/sys/fs/trust_policy 2>/dev/null
t_eq "invalid policy refused" 3 "$(cat /proc/sys/fs/trust_policy)"
lost0=$(lost)

t_eq "python3 denied 7" "denied 7 allowed 0 errors 0" "$("$D/bin/python3" -n 7 "$F1")"
t_eq "perl denied 11" "denied 11 allowed 0 errors 0" "$("$D/bin/perl" -n 11 "$F2")"
t_eq "lua denied 13" "denied 13 allowed 0 errors 0" "$("$D/bin/$(printf 'lua\tx')" -n 13 "$F3")"
K=31

t_run "plugin counted K=$K (saved)" save_until $K 60
rep=$("$BIN" report --state "$D/audit/state/state.json")
t_eq "report total" "Number of denials: $K" "$(printf '%s\n' "$rep" | grep '^Number of denials')"
t_eq "python3 row" 1 "$(printf '%s\n' "$rep" | grep -c "^7  .*  $D/bin/python3 (python3)\$")"
t_eq "perl row" 1 "$(printf '%s\n' "$rep" | grep -c "^11  .*  $D/bin/perl (perl)\$")"
t_eq "lua row (tab escaped)" 1 "$(printf '%s\n' "$rep" | grep -c "^13  .*  $D/bin/lua\\\\tx (lua\\\\tx)\$")"
t_eq "file: newline and ESC escaped" 1 "$(printf '%s\n' "$rep" | grep -c '^7  .*/noexec/evil\\n\\x1b\[31mred.py$')"
t_eq "file: invalid UTF-8 escaped" 1 "$(printf '%s\n' "$rep" | grep -c '^11  .*/noexec/bad\\xff\\xfe.pl$')"
t_eq "file: space and UTF-8 kept" 1 "$(printf '%s\n' "$rep" | grep -c "^13  .*/noexec/has space ü.lua\$")"
t_eq "reason" 1 "$(printf '%s\n' "$rep" | grep -c "^$K  .*  noexec_mount\$")"
ctl=$(printf '%s' "$rep" | LC_ALL=C tr -dc '\000-\011\013-\037\177' | wc -c)
t_eq "no raw control bytes" 0 "$ctl"
t_eq "policy change $old -> 3 in the timeline" 1 \
	"$(printf '%s\n' "$rep" | grep -c "^[0-9]*\. .* (local) $old -> 3 unset yes\$")"
t_eq "refused change (logged new=7 res=0) in the timeline" 1 \
	"$(printf '%s\n' "$rep" | grep -c "^[0-9]*\. .* (local) 3 -> 7 unset no\$")"

# SIGHUP: the plugin re-reads its config (a new state_file here) and keeps counting.
P=$(plugin_pid)
sed -i "s|^state_file.*|state_file = $D/audit/state/hup.json|" "$D/audit/tf.conf"
kill -HUP "$P"; sleep 1
kill -USR1 "$P"
t_run "SIGHUP: new state_file used" wait_for 20 test -s "$D/audit/state/hup.json"
t_eq "SIGHUP: same process" "$P" "$(plugin_pid)"
t_eq "SIGHUP: counts kept" "Number of denials: $K" \
	"$("$BIN" report --state "$D/audit/state/hup.json" | grep '^Number of denials')"
sed -i "s|^state_file.*|state_file = $D/audit/state/state.json|" "$D/audit/tf.conf"
kill -HUP "$P"; sleep 1

# SIGTERM to the plugin: it saves and exits; auditd restarts it on the next event.
kill -TERM "$P"
wait_for 20 sh -c "! kill -0 $P 2>/dev/null"
t_eq "SIGTERM: state saved" "$K" "$(state_total)"
auditctl -m "tf-test wake the dispatcher" 2>/dev/null
t_run "auditd restarted the plugin" wait_for 30 sh -c "p=\$(pgrep -P $AUDITD_PID -f audisp-trusted-for); [ -n \"\$p\" ] && [ \"\$p\" != $P ]"
"$D/bin/python3" -n 5 "$F1" > /dev/null
K=$((K + 5))
t_run "after SIGTERM + restart: $K" save_until $K 60

# kill -9 after a save: nothing lost; the restarted plugin goes on from the state.
P=$(plugin_pid)
kill -9 "$P"
auditctl -m "tf-test wake the dispatcher" 2>/dev/null
t_run "auditd restarted the plugin after kill -9" wait_for 30 sh -c "p=\$(pgrep -P $AUDITD_PID -f audisp-trusted-for); [ -n \"\$p\" ] && [ \"\$p\" != $P ]"
"$D/bin/perl" -n 4 "$F2" > /dev/null
K=$((K + 4))

stop_auditd
t_eq "auditd stop: plugin flushed and saved, total $K" "$K" "$(state_total)"
t_eq "auditd lost nothing" "$lost0" "$(lost)"
logn=$("$BIN" report --input "$D"/audit/log/audit.log* | sed -n 's/^Number of denials: //p')
t_eq "report from auditd's own log agrees" "$K" "$logn"
t_eq "auditd's log holds $K type-1350 records (grep)" "$K" \
	"$(cat "$D"/audit/log/audit.log* | grep -ac '^type=UNKNOWN\[1350\] ')"

# Keep what the kernel really emitted, for tests/data (build/ is not in git).
mkdir -p build/vm-captures
grep -ahE 'UNKNOWN\[1350\]|op=trust_policy' "$D"/audit/log/audit.log* > build/vm-captures/audit-denials.log
echo 1 > /proc/sys/fs/trust_policy 2>/dev/null
t_done "$SUITE"
