#!/bin/sh
# Host test of trustfor-relay with the real auditd (issue 25).  Expected
# values come from rl-flood's own count of the kernel's answers, never
# from the relay; the log is counted with ausearch and awk.
#  - a kernel with AT_EXECVE_CHECK and no record of its own (mainline):
#    capabilities kept, exact counts of a multi-process burst per
#    interpreter, reason and enforced/observed (in the log, in
#    audisp-trusted-for's report and in its metrics as auditd runs it,
#    scraped from a node exporter), a hostile name, an
#    overflow provoked on purpose (logged + lost = issued, lost > 0), a
#    restart (nothing issued after "ready" is lost), the systemd unit;
#  - the trustfor kernel (fs.trust_policy): the relay refuses to start, and
#    a refusal is in the log once (record 1350), never as a relay record;
#  - a kernel without AT_EXECVE_CHECK: the relay exits 3 saying so.
# usage: RELAY=trustfor-relay FLOOD=rl-flood sh host-auditd.sh (root)
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/assert.sh"
. "$TOP/tests/lib/wait.sh"
. "$TOP/tests/lib/auditd.sh"
. "$TOP/tests/lib/fixture.sh"
. "$TOP/tests/lib/mountns.sh"
. "$TOP/tests/lib/trusttop.sh"
. "$TOP/tests/lib/relay.sh"
SUITE=relay-host-auditd
RELAY=${RELAY:-$TOP/build/user/relay/trustfor-relay}
FLOOD=${FLOOD:-$TOP/build/user/relay/tests/rl-flood}
PROBE=${PROBE:-$TOP/build/user/tests/probe/probe}
PLUGIN=${PLUGIN:-$TOP/build/user/auditd-plugin/audisp-trusted-for}
T_PASS=0 T_FAIL=0 T_SKIP=0
[ "$(id -u)" = 0 ] || t_skip_suite "$SUITE" 1 "needs root (BPF, auditd)"
tt_need_tracefs sh "$0" "$@"
export LC_ALL=C
fx_tmpdir /tmp/tf-relay.XXXXXX
W=$FX_DIR
fx_at_exit relay_kill
# auditd, then its plugin, gone before the directory goes (the plugin saves
# its state and metrics as it stops)
fx_at_exit 'auditd_kill; wait_for 10 eval "! pgrep -f \"$W/tf.conf\" > /dev/null"'

# The relay's refusal records of LOG, one "exe|reason|enforced|path" line each
# (their own exe=, the first one: libaudit appends the writer's after src=).
relay_records() {
	ausearch --raw -m 2650 -if "$1" 2> /dev/null | grep -v ' op=lost ' |
		awk '{
			exe = ""; reason = ""; enf = "?"; path = ""
			if (match($0, / exe=("[^"]*"|[0-9A-F]+)/)) exe = substr($0, RSTART + 5, RLENGTH - 5)
			if (match($0, / reason=[^ ]+/)) reason = substr($0, RSTART + 8, RLENGTH - 8)
			if (match($0, / path=("[^"]*"|[0-9A-F]+)/)) path = substr($0, RSTART + 6, RLENGTH - 6)
			if ($0 ~ / enforced=1 /) enf = "true"
			if ($0 ~ / enforced=0 /) enf = "false"
			gsub(/"/, "", exe); gsub(/"/, "", path)
			print exe "|" reason "|" enf "|" path
		}'
}
# Sum of the lost= counts of the relay's op=lost records of LOG.
relay_lost() {
	ausearch --raw -m 2650 -if "$1" 2> /dev/null |
		sed -n 's/.* op=lost lost=\([0-9]*\) .*/\1/p' | awk '{ n += $1 } END { print n + 0 }'
}
# The records of LOG with path PATH (a quoted name, as awk keeps it).
count_path() { relay_records "$1" | awk -F'|' -v p="$2" '$4 == p' | wc -l; }
refused_of() { sed -n 's/^refused //p' "$1"; }
logged_at_least() { [ "$(ausearch --raw -m 2650 -if "$1" 2> /dev/null | grep -c .)" -ge "$2" ]; }

# Usage errors: one line naming the thing, exit 2, on any kernel.
usage_err() {
	"$RELAY" "$@" > /dev/null 2> "$W/usage.err"
	printf '%s %s' "$?" "$(cat "$W/usage.err")"
}
t_eq "usage: an unknown option" \
	"2 trustfor-relay: unknown option '--bogus' (see trustfor-relay --help)" "$(usage_err --bogus)"
t_eq "usage: a ring size that is no power of two" \
	"2 trustfor-relay: --ring-kib wants a power of two from 16 to 1048576, not '17'" \
	"$(usage_err --ring-kib 17)"

kernel=$("$PROBE" --kernel 2> /dev/null)
printf 'x\n' > "$W/plain.py"
chmod 0644 "$W/plain.py"
mkdir -p "$W/audit" "$W/state" "$W/prom"
auditd_conf "$W/audit" RAW
# audisp-trusted-for as auditd runs it, its metrics in a node exporter's
# textfile directory (scraped below).
if [ -x "$PLUGIN" ]; then
	printf '%s\n' "state_file = $W/state/state.json" "save_interval = 1" \
		"eoe_timeout = 1" "metrics_dir = $W/prom" > "$W/tf.conf"
	auditd_plugin "$W/audit" "$PLUGIN" "$W/tf.conf"
fi
auditd_start "$W/audit" 20 || t_fail "auditd did not start: $(cat "$W/audit/auditd.out")"
LOG=$W/audit/log/audit.log

case $kernel in
*trusted_for*)
	# The trustfor kernel: the relay must not run, the kernel's record is the one.
	"$RELAY" 2> "$W/relay.err"
	rc=$?
	t_eq "the trustfor kernel: the relay refuses to start, exit 0" 0 "$rc"
	if grep -q 'logs AT_EXECVE_CHECK refusals itself' "$W/relay.err"; then
		t_ok "it says the kernel logs these refusals itself"
	else
		t_fail "no reason given: $(cat "$W/relay.err")"
	fi
	"$PROBE" -a execve_check -c tfdouble "$W/plain.py" > /dev/null
	# (ausearch prints the whole event: its SYSCALL and PATH records too)
	kernel_records() {
		ausearch --raw -m 1350 -c tfdouble -if "$LOG" 2> /dev/null | grep -c '^type=UNKNOWN\[1350\] '
	}
	wait_for 10 eval '[ "$(kernel_records)" -ge 1 ]'
	auditd_kill
	wait_for 10 eval '! kill -0 "$AUDITD_PID" 2>/dev/null'
	t_eq "one refusal: one kernel record" 1 "$(kernel_records)"
	t_eq "one refusal: no relay record (nothing counted twice)" 0 \
		"$(ausearch --raw -m 2650 -if "$LOG" 2> /dev/null | grep -c .)"
	t_done "$SUITE"
	exit
	;;
*execve_check*) ;;
*)
	"$RELAY" 2> "$W/relay.err"
	t_eq "no AT_EXECVE_CHECK: exit 3" 3 "$?"
	grep -q 'no execveat(AT_EXECVE_CHECK)' "$W/relay.err" &&
		t_ok "it says the kernel has no AT_EXECVE_CHECK" ||
		t_fail "no reason given: $(cat "$W/relay.err")"
	t_skip "the relay's records: this kernel has no AT_EXECVE_CHECK"
	t_done "$SUITE"
	exit
	;;
esac

# --- not permitted: an unprivileged user ---
setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
	"$RELAY" > /dev/null 2> "$W/perm.err"
t_eq "without privileges: exit 4 and why" \
	"4 trustfor-relay: loading BPF needs CAP_BPF and CAP_PERFMON (run as root)" \
	"$? $(cat "$W/perm.err")"

# --- the unit file ---
if command -v systemd-analyze > /dev/null; then
	sed "s|@SBINDIR@|$(dirname "$RELAY")|" "$TOP/relay/trustfor-relay.service.in" \
		> "$W/trustfor-relay.service"
	if out=$(systemd-analyze verify --man=no "$W/trustfor-relay.service" 2>&1); then
		t_ok "systemd-analyze verify: the unit is valid"
	else
		t_fail "systemd-analyze verify: $out"
	fi
else
	t_skip "the unit file: no systemd-analyze"
fi

# --- a burst from several processes and interpreters ---
mkdir -p "$W/bin" "$W/noexec" "$W/cwd"
cp "$FLOOD" "$W/bin/python3"
cp "$FLOOD" "$W/bin/perl"
fx_noexec_tmpfs "$W/noexec" tf-relay-noexec
printf 'x\n' > "$W/noexec/run.sh"
chmod 0755 "$W/noexec/run.sh"
hostile=$(printf 'r\342\200\256x'"'"'.py')
printf 'x\n' > "$W/$hostile"
chmod 0644 "$W/$hostile"
relay_start "$W/relay1.err" || t_fail "the relay did not start: $(cat "$W/relay1.err")"

caps=$(grep -E '^Cap(Eff|Prm|Inh|Bnd|Amb):' "/proc/$RPID/status" | tr -s '\t' ' ' | tr '\n' ' ')
t_eq "capabilities once running: only CAP_AUDIT_WRITE; bounding set BPF, PERFMON, AUDIT_WRITE" \
	"CapInh: 0000000000000000 CapPrm: 0000000020000000 CapEff: 0000000020000000 CapBnd: 000000c020000000 CapAmb: 0000000000000000 " \
	"$caps"

"$W/bin/python3" -p 3 -n 1500 -s 0x100 "$W/plain.py" > "$W/c1"
"$W/bin/perl" -p 2 -n 1000 "$W/noexec/run.sh" > "$W/c2"
(cd "$W/cwd" && ln -s ../plain.py rel.py && "$W/bin/perl" -p 1 -n 500 -m name rel.py) > "$W/c3"
"$W/bin/python3" -n 7 "$W/$hostile" > "$W/c4"
# SECBIT_EXEC_DENY_INTERACTIVE (0x400) alone: enforced for code read on
# stdin (descriptor 0 itself), observed for a file on another descriptor
"$W/bin/perl" -p 2 -n 200 -s 0x400 -m stdin "$W/plain.py" > "$W/c5"
"$W/bin/python3" -n 100 -s 0x400 "$W/plain.py" > "$W/c6"
n1=$(refused_of "$W/c1") n2=$(refused_of "$W/c2") n3=$(refused_of "$W/c3") n4=$(refused_of "$W/c4")
n5=$(refused_of "$W/c5") n6=$(refused_of "$W/c6")
total=$((n1 + n2 + n3 + n4 + n5 + n6))
t_eq "the kernel refused every check (rl-flood's count)" 3307 "$total"
wait_for 60 logged_at_least "$LOG" "$total"
relay_stop
t_eq "relay stopped cleanly" 0 "$?"
relay_records "$LOG" | cut -d'|' -f1-3 | sort | uniq -c | awk '{ print $1, $2 }' > "$W/got"
{
	echo "$n1 $W/bin/python3|file_perm|true"
	echo "$n2 $W/bin/perl|noexec_mount|false"
	echo "$n3 $W/bin/perl|unknown|false"
	echo "$((n4 + n6)) $W/bin/python3|file_perm|false"
	echo "$n5 $W/bin/perl|file_perm|true"
} | sort -k2 > "$W/want"
sort -k2 "$W/got" > "$W/got.s"
if cmp -s "$W/want" "$W/got.s"; then
	t_ok "the log has every refusal, split by interpreter, reason and enforced ($total)"
else
	t_fail "the log's counts differ: want $(tr '\n' ';' < "$W/want") got $(tr '\n' ';' < "$W/got.s")"
fi
t_eq "nothing lost in the burst" 0 "$(relay_lost "$LOG")"
if [ -x "$PLUGIN" ]; then
	t_eq "audisp-trusted-for report: the relay's count, nothing from the kernel, none lost" \
		"$total 0 0" \
		"$("$PLUGIN" report --json --input "$LOG" | jq -r '"\(.source.relay.count) \(.source.kernel.count) \(.source.relay.lost)"')"
else
	t_fail "no $PLUGIN (make tools)"
fi
# The same split, scraped from a node exporter (its textfile collector
# only, in a network namespace of its own: no port is taken on the host).
# scrape: the relay's series as "count exe|reason|enforced" lines.
scrape() {
	unshare -n sh -c '
		ip link set lo up
		prometheus-node-exporter --web.listen-address=127.0.0.1:9100 \
			--collector.disable-defaults --collector.textfile \
			--collector.textfile.directory="$1" 2> /dev/null &
		i=0
		until out=$(curl -sf http://127.0.0.1:9100/metrics) || [ $i -ge 100 ]; do
			sleep 0.1; i=$((i + 1))
		done
		kill $!
		printf "%s\n" "$out"' _ "$W/prom" |
		awk '/^trustfor_denials_total\{/ && /source="relay"/ && /api="execve_check"/ {
			# the exporter sorts the labels: take each by its name
			split("exe reason enforced", k, " ")
			key = ""
			for (i = 1; i <= 3; i++) {
				v = ""
				if (match($0, "[{,]" k[i] "=\"[^\"]*\""))
					v = substr($0, RSTART + length(k[i]) + 3, RLENGTH - length(k[i]) - 4)
				key = key (i > 1 ? "|" : "") v
			}
			print $NF, key
		}' |
		sort -k2
}
if ! command -v prometheus-node-exporter > /dev/null; then
	t_fail "no prometheus-node-exporter (apt-get install prometheus-node-exporter)"
elif [ -x "$PLUGIN" ]; then
	wait_for 30 eval 'scrape > "$W/scraped"; cmp -s "$W/want" "$W/scraped"'
	if cmp -s "$W/want" "$W/scraped"; then
		t_ok "the scraped metrics: every refusal, split the same way ($total)"
	else
		t_fail "the scraped metrics differ: want $(tr '\n' ';' < "$W/want") got $(tr '\n' ';' < "$W/scraped")"
	fi
fi
t_eq "a check by name: the path is the caller's directory and the name" "$n3" \
	"$(count_path "$LOG" "$W/cwd/rel.py")"
t_eq "a check by a short name: nothing said to be cut" 0 \
	"$(ausearch --raw -m 2650 -if "$LOG" 2> /dev/null | grep -F "$W/cwd/rel.py" | grep -c ' cut=')"
# A file in no tree: a pipe on stdin, as an interpreter checks it, named as
# /proc/PID/fd shows it, not "/".
relay_start "$W/relay-pipe.err" || t_fail "no relay: $(cat "$W/relay-pipe.err")"
pino=$(echo x | { stat -L -c %i /dev/stdin; "$PROBE" -a execve_check -c tfpipe -n 2 fd:0 > /dev/null; })
relay_stop
wait_for 10 eval '[ "$(ausearch --raw -m 2650 -if "$LOG" 2> /dev/null | grep -c "comm=\"tfpipe\"")" -ge 2 ]'
t_eq "a pipe: named pipe:[ino], not \"/\"" 2 \
	"$(ausearch --raw -m 2650 -if "$LOG" 2> /dev/null | grep 'comm="tfpipe"' | grep -c " path=\"pipe:\[$pino\]\" ")"
hex=$(printf '%s' "$W/$hostile" | od -An -tx1 | tr -d ' \n' | tr a-f A-F)
t_eq "a hostile name: hex-encoded, the exact bytes" "$n4" "$(count_path "$LOG" "$hex")"

# --- an overflow on purpose: a 16 KiB ring, the relay stopped meanwhile ---
before=$(ausearch --raw -m 2650 -if "$LOG" 2> /dev/null | grep -vc ' op=lost ')
relay_start "$W/relay2.err" --ring-kib 16 || t_fail "no relay: $(cat "$W/relay2.err")"
kill -STOP "$RPID"
"$FLOOD" -p 2 -n 2000 "$W/plain.py" > "$W/c5"
kill -CONT "$RPID"
n5=$(refused_of "$W/c5")
relay_stop
# auditd may still be writing what the relay sent before it stopped
relay_new() { echo $(($(ausearch --raw -m 2650 -if "$LOG" 2> /dev/null | grep -vc ' op=lost ') - before)); }
wait_for 30 eval '[ $(($(relay_new) + $(relay_lost "$LOG"))) -ge "$n5" ]'
logged=$(relay_new)
lost=$(relay_lost "$LOG")
if [ "$lost" -gt 0 ]; then t_ok "overflow: $lost refusals counted as lost"; else
	t_fail "overflow: nothing lost with a 16 KiB ring and the relay stopped"; fi
t_eq "overflow: logged + lost = issued ($logged + $lost)" "$n5" "$((logged + lost))"

# --- a restart: nothing issued after the new relay is ready is lost ---
relay_start "$W/relay3.err" || t_fail "no relay: $(cat "$W/relay3.err")"
cp "$W/plain.py" "$W/during.py"
cp "$W/plain.py" "$W/after.py"
(while [ ! -e "$W/stop" ]; do "$FLOOD" -n 20 "$W/during.py" > /dev/null; sleep 0.01; done) &
bg=$!
sleep 1
relay_stop
relay_start "$W/relay4.err" || t_fail "no relay after the restart: $(cat "$W/relay4.err")"
"$FLOOD" -p 2 -n 1000 "$W/after.py" > "$W/c6"
n6=$(refused_of "$W/c6")
touch "$W/stop"
wait "$bg"
wait_for 30 eval '[ "$(count_path "$LOG" "$W/after.py")" -ge "$n6" ]'
relay_stop
t_eq "restart: every refusal issued once the relay was ready is logged" "$n6" \
	"$(count_path "$LOG" "$W/after.py")"

# --- a sustained flood: the relay still answers signals, and its counters
# add up once stopped (each record is a netlink round trip: the program
# outruns it, so the loop must not read until the ring is empty) ---
relay_start "$W/relay5.err" || t_fail "no relay: $(cat "$W/relay5.err")"
cp "$W/plain.py" "$W/flood.py"
rm -f "$W/stop"
(while [ ! -e "$W/stop" ]; do "$FLOOD" -p 2 -n 20000 "$W/flood.py" > /dev/null; done) &
bg=$!
wait_for 10 eval '[ "$(count_path "$LOG" "$W/flood.py")" -gt 0 ]'
if [ -n "$(relay_counters "$W/relay5.err")" ] && [ ! -e "$W/stop" ] && kill -0 "$bg" 2> /dev/null; then
	t_ok "during a flood: SIGUSR1 answered while the flood goes on"
else
	t_fail "during a flood: no counters within 10 s of SIGUSR1"
fi
# (ended: a zombie, until waited for)
ended() { [ "$(cut -d' ' -f3 "/proc/$1/stat" 2> /dev/null)" = Z ] || [ ! -e "/proc/$1" ]; }
kill "$RPID"
if wait_for 5 ended "$RPID"; then
	t_ok "during a flood: SIGTERM ends the relay within 5 s"
else
	t_fail "during a flood: the relay still runs 5 s after SIGTERM"
	kill -9 "$RPID"
fi
wait "$RPID"
t_eq "during a flood: exit status 0" 0 "$?"
RPID=
touch "$W/stop"
wait "$bg"
tail -n 1 "$W/relay5.err" | awk '{ gsub(/,/, ""); print $3, $5 + $7 + $9 }' > "$W/sums"
read -r seen sum < "$W/sums"
t_eq "during a flood: seen = logged + lost + unsent once stopped" "$seen" "$sum"
t_done "$SUITE"
