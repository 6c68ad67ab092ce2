#!/bin/sh
# Host test of the metrics output of audisp-trusted-for (issue 14): the
# textfile-collector file of `report --metrics` and of the plugin, checked
# against counts taken from the fixtures with awk and from this script's own
# generator (never from the plugin); then the real components: Debian's
# prometheus-node-exporter reading the plugin's directory on 127.0.0.1, the
# real prometheus server scraping it every second, and promtool. A missing
# component is a SKIP with its reason, never a pass.
# usage: TF_BIN=path/to/audisp-trusted-for sh metrics.sh
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/assert.sh"
. "$TOP/tests/lib/wait.sh"
. "$TOP/tests/lib/auditd.sh"
SUITE=auditd-plugin-metrics
BIN=${TF_BIN:-$TOP/build/user/auditd-plugin/audisp-trusted-for}
DATA=$TOP/tests/data
W=$(mktemp -d /tmp/tf-metrics.XXXXXX)
PID='' NE='' PROM=''
cleanup() {
	for p in $PID $NE $PROM; do kill "$p" 2>/dev/null; done
	for p in $PID $NE $PROM; do wait "$p" 2>/dev/null; done
	[ -n "$KEEP" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export TZ=UTC LC_ALL=C
PROMFILE=audisp-trusted-for.prom
# waits are longer in the test VM (emulated CPU: Go binaries start slowly)
SCALE=1; [ -n "$TRUSTFOR_VM" ] && SCALE=10

# The denials of audit logs, counted independently: "count
# exe|reason|node|source|api|enforced" for every type 1350 record with res=0
# (the kernel's: source kernel; quoted exe= values only: the fixtures used
# here have no hex-encoded interpreter). A record without api= is
# trusted_for (no enforced label); an execve_check one is enforced when its
# secbits= has the bit 0x100.
count_log() {
	awk '/type=UNKNOWN\[1350\]/ && / res=0/ {
		node = ""; exe = ""; reason = ""; api = "trusted_for"; enf = ""
		if (match($0, /^node=[^ ]+/)) node = substr($0, 6, RLENGTH - 5)
		if (match($0, / exe="[^"]*"/)) exe = substr($0, RSTART + 6, RLENGTH - 7)
		if (match($0, / reason=[^ ]+/)) reason = substr($0, RSTART + 8, RLENGTH - 8)
		if (match($0, / api=[a-z_]+/)) api = substr($0, RSTART + 5, RLENGTH - 5)
		if (api == "execve_check") {
			enf = "false"
			if (match($0, / secbits=0x[0-9a-f]+/)) {
				hx = substr($0, RSTART + 11, RLENGTH - 11)
				if (length(hx) >= 3 && index("13579bdf", substr(hx, length(hx) - 2, 1)))
					enf = "true"
			}
		}
		n[exe "|" reason "|" node "|kernel|" api "|" enf]++
	} END { for (k in n) print n[k], k }' "$@" | sort
}
# The denial series of a metrics file in the same form (the plugin writes
# exe,reason,node,source,api[,enforced]; node exporter sorts the labels:
# api,[enforced,]exe,node,reason,source).
series_of() {
	sed -n -e 's/^trustfor_denials_total{exe="\([^"]*\)",reason="\([^"]*\)",node="\([^"]*\)",source="\([a-z]*\)",api="\([^"]*\)"\(,enforced="\([a-z]*\)"\)\{0,1\}} \([0-9]*\)$/\8 \1|\2|\3|\4|\5|\7/p' \
		-e 's/^trustfor_denials_total{api="\([^"]*\)",\(enforced="\([a-z]*\)",\)\{0,1\}exe="\([^"]*\)",node="\([^"]*\)",reason="\([^"]*\)",source="\([a-z]*\)"} \([0-9]*\)$/\8 \4|\6|\5|\7|\1|\3/p' "$1" | sort
}
# gen NODE EXE REASON COUNT SERIAL: COUNT type 1350 records as a kernel with
# node name NODE (empty: local) writes them; EXE is written as given (quoted
# text or hex, as the kernel's audit_log_untrustedstring does).
gen() {
	i=0
	while [ $i -lt "$4" ]; do
		s=$(($5 + i))
		[ -n "$1" ] && printf 'node=%s ' "$1"
		printf 'type=UNKNOWN[1350] msg=audit(1764760000.%03d:%d): usage=execution policy=3 reason=%s dev=00:1a ino=100 mode=0100644 ouid=1000 ogid=1000 path="/tmp/noexec/g%d.py" ppid=4000 pid=4242 auid=1000 uid=1000 gid=1000 euid=1000 suid=1000 fsuid=1000 egid=1000 sgid=1000 fsgid=1000 tty=pts0 ses=3 comm="gen" exe=%s res=0\n' \
			$((i % 1000)) "$s" "$3" "$i" "$2"
		i=$((i + 1))
	done
}
hex() { printf '%b' "$1" | od -An -v -tx1 | tr -d ' \n' | tr a-f A-F; }
have_promtool() { command -v promtool >/dev/null; }
lint() { # lint WHAT FILE
	if have_promtool; then
		t_run "$1: promtool check metrics" sh -c 'promtool check metrics < "$1"' _ "$2"
	else
		t_skip "$1: promtool check metrics: promtool missing (apt-get install prometheus)"
	fi
}

# ---- report --metrics over logs ----
LOGS="$DATA/audit-denials.log $DATA/audit-fleet.log"
"$BIN" report --input $LOGS --metrics > "$W/r.prom"; rc=$?
t_eq "report --metrics exits 0" 0 "$rc"
expect=$(count_log $LOGS)
t_eq "denial series = awk count of the fixtures" "$expect" "$(series_of "$W/r.prom")"
t_eq "denials sum = the fixtures' 1350 res=0 records" \
	"$(cat $LOGS | grep -c 'type=UNKNOWN\[1350\].* res=0')" \
	"$(awk '/^trustfor_denials_total/ { s += $NF } END { print s + 0 }' "$W/r.prom")"
nch=$(cat $LOGS | grep 'op=trust_policy' | grep -c 'res=1')
nref=$(cat $LOGS | grep 'op=trust_policy' | grep -c 'res=0')
t_eq "policy changes: applied/refused as grep counts them" "$nch $nref" \
	"$(awk '/^trustfor_policy_changes_total.*result="applied"/ { a += $NF }
		/^trustfor_policy_changes_total.*result="refused"/ { r += $NF } END { print a + 0, r + 0 }' "$W/r.prom")"
# db2's change in audit-fleet.log: old=1 new=3 at 1764749002.000
t_eq "current policy of db2 and the time of its change" \
	"trustfor_policy{node=\"db2\"} $(grep '^node=db2 .*op=trust_policy' "$DATA/audit-fleet.log" | sed 's/.* new=\([0-9]*\) .*/\1/')
trustfor_policy_last_change_timestamp_seconds{node=\"db2\"} $(grep '^node=db2 .*op=trust_policy' "$DATA/audit-fleet.log" | sed 's/.*audit(\([0-9.]*\):.*/\1/')" \
	"$(grep 'node="db2"}' "$W/r.prom" | grep '^trustfor_policy')"
t_eq "every family has HELP and TYPE" \
	"$(grep -c '^# HELP trustfor_' "$W/r.prom")" "$(grep -c '^# TYPE trustfor_' "$W/r.prom")"
t_eq "counters end in _total" 0 \
	"$(grep '^# TYPE .* counter$' "$W/r.prom" | grep -vc '_total counter$')"
lint "report --metrics" "$W/r.prom"
n=$("$BIN" report --input "$DATA/audit-malformed.log" --metrics | grep -E '^trustfor_(malformed_records|non_audit_lines)_total ' | tr '\n' ' ')
t_eq "malformed and non-audit lines" "trustfor_malformed_records_total 5 trustfor_non_audit_lines_total 3 " "$n"
"$BIN" report --input $LOGS --metrics="$W" 2> "$W/e"; rc=$?
t_eq "--metrics=DIR writes DIR/$PROMFILE, same content" "0 $(md5sum < "$W/r.prom")" \
	"$rc $(md5sum < "$W/$PROMFILE")"
"$BIN" report --input $LOGS --metrics="$W/none/x" 2> "$W/e"; rc=$?
t_eq "--metrics=DIR unwritable: exit 1, one line" "1 1" "$rc $(wc -l < "$W/e")"

# ---- hostile names: the file stays one sample per line, printable UTF-8 ----
# exe bytes: /tmp/q"b\c LF d 0xff U+202E .py  (quote, backslash, newline,
# invalid UTF-8, a bidi control); node: a quote, invalid UTF-8, a bidi control.
EVIL_EXE=$(hex '/tmp/q"b\\c\nd\0377\0342\0200\0256.py')
gen "" "$EVIL_EXE" noexec_mount 3 500 > "$W/evil.log"
gen "$(printf 'n"\377\342\200\2561')" '"/usr/bin/perl"' file_perm 2 600 >> "$W/evil.log"
"$BIN" report --input "$W/evil.log" --metrics > "$W/evil.prom"
t_eq "hostile exe: label escaped (term text, then exposition)" \
	'trustfor_denials_total{exe="/tmp/q\"b\\\\c\\nd\\xff\\xe2\\x80\\xae.py",reason="noexec_mount",node="",source="kernel",api="trusted_for"} 3' \
	"$(grep '^trustfor_denials_total{exe="/tmp/q' "$W/evil.prom")"
t_eq "hostile node: quote escaped, bytes as \\xHH" \
	'trustfor_denials_total{exe="/usr/bin/perl",reason="file_perm",node="n\"\\xff\\xe2\\x80\\xae1",source="kernel",api="trusted_for"} 2' \
	"$(grep 'node="n' "$W/evil.prom")"
t_eq "no control byte but newline in the file" 0 \
	"$(tr -dc '\000-\011\013-\037\177' < "$W/evil.prom" | wc -c)"
t_run "the file is valid UTF-8" sh -c 'iconv -f UTF-8 -t UTF-8 < "$1" > /dev/null' _ "$W/evil.prom"
lint "hostile names" "$W/evil.prom"

# ---- the documented alert rule (prometheus-rules.yml, in the man page too) ----
RULES=$TOP/auditd-plugin/prometheus-rules.yml
if have_promtool; then
	t_run "alert rule: promtool check rules" sh -c 'promtool check rules "$1" > /dev/null' _ "$RULES"
	t_run "alert rule: promtool test rules (fires on web1 only)" \
		sh -c 'cd "$1" && promtool test rules prometheus-rules.test.yml > /dev/null' _ "$TOP/auditd-plugin/tests"
else
	t_skip "alert rule: promtool check rules: promtool missing (apt-get install prometheus)"
	t_skip "alert rule: promtool test rules: promtool missing (apt-get install prometheus)"
fi
# the man page shows the same expression
t_eq "alert rule: the man page's expression is the file's" \
	"$(sed -n '/expr: |/,/for: 5m/p' "$RULES" | sed 's/^ *//')" \
	"$(sed -n '/expr: |/,/for: 5m/p' "$TOP/man/audisp-trusted-for.8" | sed 's/^ *//; s/\\-/-/g')"

# ---- bounded labels: metrics_top / metrics_series, "other" ----
: > "$W/many.log"
for k in 1 2 3 4 5; do gen web1 "\"/usr/bin/interp$k\"" noexec_mount $((k + 1)) $((1000 * k)) >> "$W/many.log"; done
printf 'metrics_top = 2\n' > "$W/lim.conf"
"$BIN" report -c "$W/lim.conf" --input "$W/many.log" --metrics > "$W/many.prom"
# first seen interp1 (2 records) and interp2 (3); interp3..5: 4+5+6 = 15
t_eq "metrics_top = 2: two interpreters and other" \
	'2 /usr/bin/interp1|noexec_mount|web1|kernel|trusted_for|
3 /usr/bin/interp2|noexec_mount|web1|kernel|trusted_for|
15 other|noexec_mount|web1|kernel|trusted_for|' "$(series_of "$W/many.prom" | sort -k2)"
t_eq "folded denials counted" "trustfor_metrics_folded_denials_total 15" \
	"$(grep '^trustfor_metrics_folded_denials_total ' "$W/many.prom")"
printf 'metrics_series = 1\n' > "$W/lim.conf"
"$BIN" report -c "$W/lim.conf" --input "$W/many.log" --metrics > "$W/many.prom"
t_eq "metrics_series = 1: one series and other" \
	'2 /usr/bin/interp1|noexec_mount|web1|kernel|trusted_for|
18 other|other|other|kernel|trusted_for|' "$(series_of "$W/many.prom" | sort -k2)"
for f in file path user uid auid comm; do
	t_eq "no $f label" 0 "$(grep -c "[{,]$f=" "$W/r.prom")"
done
t_eq "no path or uid in any label" 0 "$(grep -cE '/tmp/noexec|uid=' "$W/r.prom")"

# ---- the plugin: interval, SIGUSR1, SIGHUP, SIGTERM, restart, bad directory ----
mkdir -p "$W/prom" "$W/st"
cat > "$W/p.conf" <<EOC
state_file = $W/st/state.json
save_interval = 3600
eoe_timeout = 1
metrics_dir = $W/prom
EOC
start_plugin() { plugin_start "$W" "$W/p.conf"; }
metric_sum() { # metric_sum FILE: sum of the denial series
	awk '/^trustfor_denials_total/ { s += $NF } END { print s + 0 }' "$1" 2>/dev/null
}
# sum_is FILE N [usr1]: the file's denials add up to N; if not, with usr1,
# the plugin is asked to write its file (SIGUSR1)
sum_is() {
	[ "$(metric_sum "$1")" = "$2" ] && return 0
	[ -z "${3:-}" ] || kill -USR1 "$PID"
	return 1
}
wait_sum() { # wait_sum FILE N [usr1]: until the file's denials add up to N (10 s)
	wait_for $((10 * SCALE)) sum_is "$@"
	metric_sum "$1"
}
start_plugin
t_run "written at start (no denials yet)" wait_for $((10 * SCALE)) nonempty "$W/prom/$PROMFILE"
t_eq "at start: no denial series" 0 "$(grep -c '^trustfor_denials_total{' "$W/prom/$PROMFILE")"
cat $LOGS | grep -a 'UNKNOWN\[1350\]\|op=trust_policy' | tee -a "$W/fed.log" >&3
total=$(cat $LOGS | grep -c 'type=UNKNOWN\[1350\].* res=0')
t_eq "SIGUSR1: the plugin's file holds every denial" "$total" "$(wait_sum "$W/prom/$PROMFILE" "$total" usr1)"
t_eq "plugin: denial series = awk count" "$expect" "$(series_of "$W/prom/$PROMFILE")"
t_eq "plugin: last save time set" 1 \
	"$(awk '/^trustfor_plugin_last_save_timestamp_seconds / { print ($2 > 1700000000) }' "$W/prom/$PROMFILE")"
lint "plugin file" "$W/prom/$PROMFILE"
t_eq "only the .prom file in the directory (no temporary left)" "$PROMFILE" "$(ls -A "$W/prom")"
plugin_stop; rc=$?
t_eq "SIGTERM exits 0" 0 "$rc"
# restart: the counters go on from the state (monotonic across restarts)
start_plugin
grep -a 'UNKNOWN\[1350\]' "$DATA/audit-fleet.log" | tee -a "$W/fed.log" >&3
n_fleet=$(grep -c 'UNKNOWN\[1350\].* res=0' "$DATA/audit-fleet.log")
plugin_stop # reads what is left on its stdin first
t_eq "SIGTERM wrote the file; counters kept across the restart" "$((total + n_fleet))" \
	"$(metric_sum "$W/prom/$PROMFILE")"
t_eq "restart: web1's python series doubled" \
	"$(( $(grep -c '^node=web1 .*UNKNOWN\[1350\].*python3.11.* res=0' "$DATA/audit-fleet.log") * 2 ))" \
	"$(sed -n 's/^trustfor_denials_total{exe="\/usr\/bin\/python3.11",reason="noexec_mount",node="web1",source="kernel",api="trusted_for"} //p' "$W/prom/$PROMFILE")"
# save_interval: written without a signal
sed -i 's/^save_interval.*/save_interval = 1/' "$W/p.conf"
start_plugin
gen web1 '"/usr/bin/python3.11"' noexec_mount 4 7000 | tee -a "$W/fed.log" >&3
t_eq "save_interval = 1: written without a signal" "$((total + n_fleet + 4))" \
	"$(wait_sum "$W/prom/$PROMFILE" "$((total + n_fleet + 4))")"
plugin_stop
sed -i 's/^save_interval.*/save_interval = 3600/' "$W/p.conf"
base=$((total + n_fleet + 4))

# an unwritable directory: one clear error at start, the plugin keeps counting
sed -i "s|^metrics_dir.*|metrics_dir = $W/missing/dir|" "$W/p.conf"
: > "$W/plugin.err"
start_plugin
gen db2 '"/usr/bin/dash"' file_perm 5 8000 | tee -a "$W/fed.log" >&3
# until the state holds the 5 (each SIGUSR1 also tries the metrics), then
# one more save: two tries at least, one error line
plugin_save_until "$W/st/state.json" $((base + 5)) $((10 * SCALE))
plugin_usr1 "$W/st/state.json"
t_run "bad metrics_dir: still running" kill -0 "$PID"
t_eq "bad metrics_dir: one error line, naming the directory and the cause" 1 \
	"$(grep -c "cannot write metrics to $W/missing/dir/$PROMFILE: No such file or directory" "$W/plugin.err")"
t_eq "bad metrics_dir: nothing else logged about metrics" 1 "$(grep -c 'cannot write metrics\|metrics written' "$W/plugin.err")"
t_eq "bad metrics_dir: denials still counted in the state" "$((base + 5))" \
	"$("$BIN" report --state "$W/st/state.json" | sed -n 's/^Number of denials: //p')"
mkdir -p "$W/missing/dir"
kill -HUP "$PID"
t_eq "directory created + SIGHUP: written" "$((base + 5))" \
	"$(wait_sum "$W/missing/dir/$PROMFILE" "$((base + 5))")"
# a directory without write permission (the plugin has no CAP_DAC_OVERRIDE, even as root)
chmod 0555 "$W/missing/dir"
plugin_hup "$W"
plugin_usr1 "$W/st/state.json"
t_eq "read-only metrics_dir: one error line" 1 \
	"$(grep -c "cannot write metrics to $W/missing/dir/$PROMFILE: Permission denied" "$W/plugin.err")"
t_run "read-only metrics_dir: still running" kill -0 "$PID"
chmod 0755 "$W/missing/dir"
plugin_stop
sed -i "s|^metrics_dir.*|metrics_dir = $W/prom|" "$W/p.conf"
base=$((base + 5))

# ---- the real components: node exporter, prometheus ----
NEBIN=$(command -v prometheus-node-exporter || command -v node_exporter)
PROMBIN=$(command -v prometheus)
free_port() { # a TCP port nobody listens on, other than $1
	for _ in $(seq 1 100); do
		p=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 40000))
		[ "$p" = "$1" ] && continue
		ss -Htln "sport = :$p" | grep -q . || { echo "$p"; return 0; }
	done
	return 1
}
get() { curl -sf --max-time 5 "$@"; }
start_plugin # writes the file at start: everything counted so far
wait_sum "$W/prom/$PROMFILE" "$base" > /dev/null
# AT_EXECVE_CHECK refusals (issue 11): series with an enforced label beside
# the trusted_for ones, in the same family (what node exporter must accept)
gen_ec() { # gen_ec NODE EXE REASON COUNT SERIAL SECBITS
	gen "$1" "$2" "$3" "$4" "$5" | sed "s/ policy=3 / policy=? /; s/ res=0\$/ res=0 api=execve_check secbits=$6/"
}
{
	gen_ec web1 '"/usr/bin/dash"' write_busy 3 8500 0x100
	gen_ec web1 '"/usr/bin/dash"' lsm 2 8600 0x400
} | tee -a "$W/fed.log" >&3
base=$((base + 5))
t_eq "execve_check refusals counted" "$base" "$(wait_sum "$W/prom/$PROMFILE" "$base" usr1)"
t_eq "execve_check series: enforced true (0x100) and false (0x400)" \
	'trustfor_denials_total{exe="/usr/bin/dash",reason="lsm",node="web1",source="kernel",api="execve_check",enforced="false"} 2
trustfor_denials_total{exe="/usr/bin/dash",reason="write_busy",node="web1",source="kernel",api="execve_check",enforced="true"} 3' \
	"$(grep 'api="execve_check"' "$W/prom/$PROMFILE" | sort)"
lint "plugin file with execve_check series" "$W/prom/$PROMFILE"
if [ -z "$NEBIN" ] || ! command -v curl >/dev/null || ! command -v jq >/dev/null; then
	for c in "node exporter scrape: exact series" "node exporter scrape: hostile label" \
		"node exporter: no textfile scrape error" "prometheus: increase() = generated" \
		"prometheus: increase() per interpreter" "prometheus: hostile label value"; do
		t_skip "$c: prometheus-node-exporter, curl or jq missing (apt-get install prometheus-node-exporter curl jq)"
	done
	t_done "$SUITE"
	exit $?
fi
P1=$(free_port)
"$NEBIN" --web.listen-address="127.0.0.1:$P1" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$W/prom" > "$W/ne.log" 2>&1 &
NE=$!
wait_for $((10 * SCALE)) get "http://127.0.0.1:$P1/metrics" > /dev/null
# the hostile series too, through the exporter's parser
cp "$W/evil.prom" "$W/prom/evil.prom"
get "http://127.0.0.1:$P1/metrics" > "$W/scrape1"
t_eq "node exporter scrape: exact series (awk count of all that was fed)" \
	"$(count_log "$W/fed.log")" "$(series_of "$W/scrape1" | grep -v '/usr/bin/perl|file_perm\|/tmp/q')"
t_eq "node exporter scrape: hostile label" \
	'trustfor_denials_total{api="trusted_for",exe="/tmp/q\"b\\\\c\\nd\\xff\\xe2\\x80\\xae.py",node="",reason="noexec_mount",source="kernel"} 3' \
	"$(grep '^trustfor_denials_total{api="trusted_for",exe="/tmp/q' "$W/scrape1")"
t_eq "node exporter: no textfile scrape error" "node_textfile_scrape_error 0" \
	"$(grep '^node_textfile_scrape_error ' "$W/scrape1")"
rm -f "$W/prom/evil.prom"

if [ -z "$PROMBIN" ]; then
	for c in "prometheus: increase() = generated" "prometheus: increase() per interpreter" \
		"prometheus: hostile label value"; do
		t_skip "$c: the prometheus server is missing (apt-get install prometheus)"
	done
	t_done "$SUITE"
	exit $?
fi
P2=$(free_port "$P1")
cat > "$W/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$P1']
EOC
"$PROMBIN" --config.file="$W/prometheus.yml" --storage.tsdb.path="$W/tsdb" \
	--web.listen-address="127.0.0.1:$P2" --web.enable-lifecycle > "$W/prom.log" 2>&1 &
PROM=$!
API=http://127.0.0.1:$P2/api/v1
q() { get --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"} "$API/query"; }
cp "$W/evil.prom" "$W/prom/evil.prom"
# q_value QUERY: the value of the query's first result, 0 when none
q_value() { q "$1" | jq -r '.data.result[0].value[1] // 0'; }
has_series() { [ "$(q_value 'count(trustfor_denials_total)')" -gt 0 ] 2>/dev/null; }
sum_stored() { [ "$(q_value 'sum(trustfor_denials_total)')" = "$1" ]; }
# baseline: scraped a few times before the new denials
wait_for $((30 * SCALE)) has_series
# scrapes_over N: prometheus stored more than N scrapes of node exporter
scrapes() { q_value 'count_over_time(up{job="node"}[10m])'; }
scrapes_over() { [ "$(scrapes)" -gt "$1" ] 2>/dev/null; }
wait_for $((30 * SCALE)) scrapes_over 2
# the workload: 7 python3 denials on web1, 5 dash on db2, 2 local perl
GEN_PY=7 GEN_DASH=5 GEN_PERL=2
{
	gen web1 '"/usr/bin/python3.11"' noexec_mount $GEN_PY 9000
	gen db2 '"/usr/bin/dash"' file_perm $GEN_DASH 9100
	gen "" '"/usr/bin/perl"' noexec_mount,file_perm $GEN_PERL 9200
} | tee -a "$W/fed.log" >&3
GEN=$((GEN_PY + GEN_DASH + GEN_PERL))
wait_sum "$W/prom/$PROMFILE" $((base + GEN)) usr1 > /dev/null
# until prometheus stored the new total, then two more scrapes
# (evil.prom adds its 3 + 2 denials, which do not change)
wait_for $((30 * SCALE)) sum_stored $((base + GEN + 5))
wait_for $((30 * SCALE)) scrapes_over $(($(scrapes) + 1))
# increase() without extrapolation: over exactly [first sample, last sample]
# (every series of the target has the same scrape timestamps: take one's)
samples=$(q 'trustfor_denials_total{node="web1",exe="/usr/bin/python3.11"}[5m]' "$(date +%s.%N | cut -c1-14)")
t0=$(printf '%s' "$samples" | jq -r '.data.result[0].values[0][0]')
t1=$(printf '%s' "$samples" | jq -r '.data.result[0].values[-1][0]')
v0=$(printf '%s' "$samples" | jq -r '.data.result[0].values | length')
range_ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 + 0.5 }')
inc=$(q "sum(increase(trustfor_denials_total[${range_ms}ms]))" "$t1" | jq -r '.data.result[0].value[1]')
t_eq "prometheus: increase() = generated ($GEN; over ${range_ms} ms, $v0 samples)" "$GEN" "$inc"
inc=$(q "sum by (exe, node) (increase(trustfor_denials_total[${range_ms}ms]))" "$t1" |
	jq -r '.data.result[] | select(.value[1] != "0") | "\(.metric.exe) \(.metric.node // "") \(.value[1])"' | sort | tr '\n' ';')
t_eq "prometheus: increase() per interpreter" \
	"/usr/bin/dash db2 $GEN_DASH;/usr/bin/perl  $GEN_PERL;/usr/bin/python3.11 web1 $GEN_PY;" "$inc"
t_eq "prometheus: hostile label value" '/tmp/q"b\\c\nd\xff\xe2\x80\xae.py' \
	"$(q 'trustfor_denials_total{exe=~"/tmp/q.*"}' | jq -r '.data.result[0].metric.exe')"
plugin_stop
t_done "$SUITE"
