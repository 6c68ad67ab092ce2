#!/bin/sh
# Fleet test of audisp-trusted-for on the host, loopback only (run as root).
#
#   records of node-a -> audisp-remote -> auditd S (sender: name_format=user,
#        name=sender-a, distribute_network=yes, plugin audisp-remote) ->
#        audisp-remote -> auditd R (receiver: tcp_listen_port, own log file,
#        distribute_network=yes, plugin audisp-trusted-for)
#   records of node-b -> audisp-remote -> auditd R
#
# What is real: both auditd daemons, every audisp-remote, the TCP transport
# (managed format), auditd's dispatcher and the plugin as auditd runs it.
# What is injected: the host kernel cannot emit type 1350 records, so the
# trusted_for records (the kernel's current layout, tests/data/audit-*.log shape) are
# written to audisp-remote's stdin already carrying node=node-a / node=node-b,
# i.e. exactly what a sender auditd with name_format=user dispatches for its
# kernel's records (auditd stamps node= on local events only, never on events
# it receives from the network). That the sender's name_format is in effect is
# checked on its own events (node=sender-a DAEMON_START in R's log).
#
# Isolation: everything runs in private network and mount namespaces
# (unshare -nm): the listening ports exist on that namespace's loopback only,
# and audisp-remote's fixed /etc/audit/audisp-remote.conf is bind-mounted
# privately. Both auditd run with local_events = no: the host's audit status
# (auditctl -s) is checked unchanged at the end. Nothing on the host is edited.
#
# usage: TF_BIN=.../audisp-trusted-for sh tests/auditd-fleet.sh
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/lib/assert.sh"
SUITE=auditd-fleet # read by t_skip
. "$TOP/tests/lib/wait.sh"
. "$TOP/tests/lib/auditd.sh"
BIN=${TF_BIN:-$TOP/build/user/auditd-plugin/audisp-trusted-for}
NA=${FLEET_NA:-300} # denials from node-a
NB=${FLEET_NB:-200} # denials from node-b
NE=${FLEET_NE:-60}  # AT_EXECVE_CHECK refusals from node-a (issue 11)
export LC_ALL=C TZ=UTC

if [ "$(id -u)" != 0 ] || ! command -v auditd >/dev/null || ! [ -x /sbin/audisp-remote ]; then
	t_fail "fleet test needs root, auditd and audisp-remote (apt-get install auditd audispd-plugins)"
	t_done auditd-fleet
	exit 1
fi

if [ "$1" != inside ]; then
	before=$(auditctl -s 2>/dev/null | grep -E '^(enabled|pid) ')
	W=$(mktemp -d /tmp/tf-fleet.XXXXXX)
	chmod 0755 "$W"
	unshare --net --mount --propagation private \
		env W="$W" TF_BIN="$BIN" NA="$NA" NB="$NB" NE="$NE" sh "$0" inside > "$W/inside.out" 2>&1
	after=$(auditctl -s 2>/dev/null | grep -E '^(enabled|pid) ')
	grep -v '^RESULT ' "$W/inside.out"
	T_SKIP=$(grep -c '^ok .* # SKIP$' "$W/inside.out")
	T_PASS=$(($(grep -c '^ok ' "$W/inside.out") - T_SKIP))
	T_FAIL=$(grep -c '^not ok ' "$W/inside.out")
	grep -q '^RESULT ' "$W/inside.out" || t_fail "the namespaced part did not finish"
	t_eq "host audit status (auditctl -s enabled/pid) unchanged" "$before" "$after"
	[ -n "$KEEP" ] || rm -rf "$W"
	t_done auditd-fleet
	exit $?
fi

# ---------------- inside the namespaces ----------------
ip link set lo up
PR=61350 # receiver
PS=61351 # sender
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	sleep 1
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
}
trap cleanup EXIT

node_conf() { # DIR PORT NAME: an auditd of the fleet, listening on PORT
	auditd_conf "$1" RAW "local_events = no" "flush = INCREMENTAL_ASYNC" \
		"freq = 1" "max_log_file = 64" "num_logs = 2" \
		"max_log_file_action = ROTATE" "name_format = user" "name = $3" \
		"tcp_listen_port = $2" "tcp_listen_queue = 5" \
		"tcp_max_per_addr = 5" "tcp_client_max_idle = 0" \
		"use_libwrap = no" "transport = TCP" "distribute_network = yes" \
		"q_depth = 20000" "overflow_action = SYSLOG" "max_restarts = 10" \
		"end_of_event_timeout = 2"
}

remote_conf() { # FILE PORT
	cat > "$1" <<EOC
remote_server = 127.0.0.1
port = $2
transport = tcp
queue_file = $1.queue
mode = immediate
queue_depth = 20000
format = managed
network_retry_time = 1
max_tries_per_record = 30
max_time_per_record = 5
heartbeat_timeout = 0
network_failure_action = syslog
disk_low_action = ignore
disk_full_action = ignore
disk_error_action = syslog
remote_ending_action = reconnect
generic_error_action = syslog
generic_warning_action = syslog
queue_error_action = syslog
overflow_action = syslog
startup_failure_action = warn_once_continue
EOC
	chmod 0640 "$1"
}

# node records in the kernel's format: hostile hex names, three interpreters
gen() {
	awk -v node="$1" -v n="$2" -v s0="$3" 'BEGIN {
		for (c = 32; c < 127; c++) ord[sprintf("%c", c)] = c
		split("/usr/bin/python3.11 /usr/bin/perl /usr/bin/dash", exe, " ")
		split("python3 perl sh", comm, " ")
		for (i = 0; i < n; i++) {
			k = i % 3 + 1
			p = "2F746D702F782F"
			for (j = 1; j <= length(node); j++) p = p sprintf("%02X", ord[substr(node, j, 1)])
			p = p "20660A" sprintf("%02X", 48 + k)
			printf "node=%s type=UNKNOWN[1350] msg=audit(1764750000.%03d:%d): usage=execution policy=3 reason=noexec_mount dev=00:2a ino=%d mode=0100644 ouid=0 ogid=0 path=%s ppid=1 pid=%d auid=1000 uid=1000 gid=1000 euid=1000 suid=1000 fsuid=1000 egid=1000 sgid=1000 fsgid=1000 tty=pts0 ses=2 comm=\"%s\" exe=\"%s\" subj=unconfined res=0\n", node, i % 1000, s0 + i, 10 + k, p, 100 + i, comm[k], exe[k]
		}
	}'
}

# node records of AT_EXECVE_CHECK refusals (issue 11): policy=?, api= and
# secbits= after res=0, callers with and without SECBIT_EXEC_RESTRICT_FILE
gen_ec() {
	awk -v node="$1" -v n="$2" -v s0="$3" 'BEGIN {
		split("0x100 0x0 0x500 0x400 0x300", sb, " ")
		split("write_busy lsm file_perm", rs, " ")
		for (i = 0; i < n; i++)
			printf "node=%s type=UNKNOWN[1350] msg=audit(1764750002.%03d:%d): usage=execution policy=? reason=%s dev=00:2a ino=%d mode=0100755 ouid=0 ogid=0 path=\"/tmp/x/ec%d\" ppid=1 pid=%d auid=1000 uid=1000 gid=1000 euid=1000 suid=1000 fsuid=1000 egid=1000 sgid=1000 fsgid=1000 tty=pts0 ses=2 comm=\"trusted-dash\" exe=\"/usr/local/bin/trusted-dash\" subj=unconfined res=0 api=execve_check secbits=%s\n", node, i % 1000, s0 + i, rs[i % 3 + 1], 50 + i % 7, i % 7, 900 + i, sb[i % 5 + 1]
	}'
}

# receiver R with the plugin
node_conf "$W/r" $PR receiver
cat > "$W/r/tf.conf" <<EOC
state_file = $W/r/state/state.json
save_interval = 2
eoe_timeout = 1
metrics_dir = $W/r/prom
EOC
mkdir -p "$W/r/prom"
cat > "$W/r/plugins.d/audisp-trusted-for.conf" <<EOC
active = yes
direction = out
path = $BIN
type = always
args = -c $W/r/tf.conf
format = string
EOC
chmod 0640 "$W/r/plugins.d/audisp-trusted-for.conf"
auditd -n -c "$W/r" > "$W/r/auditd.out" 2>&1 &
R=$!
pids="$R"

# sender S forwarding to R through its audisp-remote plugin
node_conf "$W/s" $PS sender-a
remote_conf "$W/s/remote.conf" $PR
cat > "$W/s/plugins.d/au-remote.conf" <<EOC
active = yes
direction = out
path = /sbin/audisp-remote
type = always
format = string
EOC
chmod 0640 "$W/s/plugins.d/au-remote.conf"
mount --bind "$W/s/remote.conf" /etc/audit/audisp-remote.conf
auditd -n -c "$W/s" > "$W/s/auditd.out" 2>&1 &
S=$!
pids="$pids $S"

listens() { ss -ltn | grep -q ":$1 "; }
wait_port() { wait_for 10 listens "$1"; }
t_run "receiver auditd listens on $PR (namespace loopback)" wait_port $PR
t_run "sender auditd listens on $PS" wait_port $PS
sleep 1 # S's audisp-remote connects to R

# node-a into S, node-b straight into R (each through audisp-remote)
gen node-a "$NA" 1000 > "$W/a.log"
gen_ec node-a "$NE" 3000 >> "$W/a.log"
# what was sent, counted with grep: enforced iff secbits has the bit 0x100
EC_ALL=$(grep -c ' api=execve_check ' "$W/a.log")
EC_ENF=$(grep -cE ' api=execve_check secbits=0x[0-9a-f]*[13579bdf][0-9a-f]{2}$' "$W/a.log")
gen node-b "$NB" 5000 > "$W/b.log"
# the policy write names its writer (comm hex-encoded: it holds a tab)
echo "node=node-b type=CONFIG_CHANGE msg=audit(1764750001.000:9000): op=trust_policy old=1 new=3 ppid=1 pid=731 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm=706F6C09736574 exe=\"/usr/local/sbin/policyctl\" subj=unconfined res=1" >> "$W/b.log"
remote_conf "$W/to-s.conf" $PS
remote_conf "$W/to-r.conf" $PR
unshare -m --propagation private sh -c "mount --bind '$W/to-s.conf' /etc/audit/audisp-remote.conf &&
	{ cat '$W/a.log'; sleep 3; } | /sbin/audisp-remote" &
IA=$!
unshare -m --propagation private sh -c "mount --bind '$W/to-r.conf' /etc/audit/audisp-remote.conf &&
	{ cat '$W/b.log'; sleep 3; } | /sbin/audisp-remote" &
IB=$!
r_records() { grep -c 'UNKNOWN\[1350\]' "$W/r/log/audit.log" 2>/dev/null; }
r_holds() { [ "$(r_records)" -ge "$1" ]; }
wait_lines() { # N: R's log holds N type-1350 records (30 s); prints how many
	wait_for 30 r_holds "$1"
	r_records
}
t_eq "receiver logged every record" $((NA + NB + NE)) "$(wait_lines $((NA + NB + NE)))"
wait $IA $IB
t_eq "sender's name_format stamps its own events" 1 \
	"$(grep -c '^node=sender-a type=DAEMON_START' "$W/r/log/audit.log")"

# Stop R: auditd sends SIGTERM to the plugin, which flushes and saves.
kill $S; wait $S 2>/dev/null
kill $R; wait $R 2>/dev/null
pids=""
t_run "plugin state saved" test -s "$W/r/state/state.json"
rep=$("$BIN" report --state "$W/r/state/state.json")
t_eq "plugin total" "Number of denials: $((NA + NB + NE))" "$(printf '%s\n' "$rep" | grep '^Number of denials:')"
t_eq "plugin: split by API (grep of what was sent)" \
	"Denials by API: trusted_for $((NA + NB)), execve_check $EC_ALL (enforced $EC_ENF, observed only $((EC_ALL - EC_ENF)))" \
	"$(printf '%s\n' "$rep" | grep '^Denials by API:')"
hosts=$("$BIN" report --state "$W/r/state/state.json" --table node | grep -E '^[0-9]+ ' | awk '{print $NF "=" $1}' | sort | tr '\n' ' ')
t_eq "both nodes, right counts (node-a: one row per API class)" \
	"$(printf 'node-a=%s\n' $((EC_ALL - EC_ENF)) $EC_ENF $NA | sort | tr '\n' ' ')node-b=$NB " "$hosts"
t_eq "policy change from node-b in the timeline, with its writer" 1 \
	"$(printf '%s\n' "$rep" | grep -c '^1\. .* node-b 1 -> 3 yes 0 0 731 /usr/local/sbin/policyctl (pol\\tset)$')"
names=$("$BIN" report --state "$W/r/state/state.json" --table file | grep -c '/tmp/x/node-[ab] f\\n[123]$')
t_eq "hex names decoded and escaped (6 files)" 6 "$names"
# the plugin and an offline report of R's own log agree
logrep=$("$BIN" report --input "$W/r/log/audit.log" --table node | grep -E '^[0-9]+ ' | awk '{print $NF "=" $1}' | sort | tr '\n' ' ')
t_eq "report from R's audit.log agrees" "$hosts" "$logrep"
# the central plugin's metrics (issue 14): one series set per node, counted
# here from what was sent (the generator's files), written at SIGTERM
P="$W/r/prom/audisp-trusted-for.prom"
for n in node-a node-b; do
	f=$W/a.log; [ $n = node-b ] && f=$W/b.log
	exp=""
	for e in /usr/bin/dash /usr/bin/perl /usr/bin/python3.11; do
		exp="$exp$e=$(grep -v ' api=execve_check ' "$f" | grep -c "^node=$n type=UNKNOWN\[1350\].* exe=\"$e\"") "
	done
	got=$(sed -n "s/^trustfor_denials_total{exe=\"\([^\"]*\)\",reason=\"noexec_mount\",node=\"$n\",source=\"kernel\",api=\"trusted_for\"} \([0-9]*\)$/\1=\2/p" "$P" | sort | tr '\n' ' ')
	t_eq "metrics: $n's trusted_for denials per interpreter" "$exp" "$got"
done
t_eq "metrics: node-a's execve_check refusals, enforced and observed" \
	"false=$((EC_ALL - EC_ENF)) true=$EC_ENF " \
	"$(sed -n 's/^trustfor_denials_total{.*,node="node-a",source="kernel",api="execve_check",enforced="\([a-z]*\)"} \([0-9]*\)$/\1 \2/p' "$P" |
		awk '{ n[$1] += $2 } END { for (k in n) print k "=" n[k] }' | sort | tr '\n' ' ')"
t_eq "metrics: node-b's policy change and value" \
	"trustfor_policy_changes_total{node=\"node-b\",result=\"applied\"} 1 trustfor_policy{node=\"node-b\"} 3 " \
	"$(grep -E '^trustfor_policy(_changes_total)?\{node="node-b"' "$P" | tr '\n' ' ')"
if command -v promtool > /dev/null; then
	t_run "metrics: promtool check metrics" sh -c 'promtool check metrics < "$1"' _ "$P"
else
	t_skip "metrics: promtool check metrics: promtool missing (apt-get install prometheus)"
fi
t_done auditd-fleet
