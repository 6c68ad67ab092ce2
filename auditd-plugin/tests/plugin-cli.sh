#!/bin/sh
# Host test of the audisp-trusted-for binary: report CLI (sources, filters,
# errors and exit statuses, escaping) and the plugin main loop (stdin,
# SIGUSR1, SIGHUP, SIGTERM, EOF, kill -9 + restart). No auditd needed: the
# plugin reads the same text auditd's dispatcher writes (format = string).
# usage: TF_BIN=path/to/audisp-trusted-for sh plugin-cli.sh
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/assert.sh"
. "$TOP/tests/lib/wait.sh"
. "$TOP/tests/lib/auditd.sh"
BIN=${TF_BIN:-$TOP/build/user/auditd-plugin/audisp-trusted-for}
DATA=$TOP/tests/data
W=$(mktemp -d /tmp/tf-plugin-cli.XXXXXX)
trap 'kill $PID 2>/dev/null; rm -rf "$W"' EXIT
export TZ=UTC LC_ALL=C

# ---- report from logs ----
out=$("$BIN" report --input "$DATA/audit-denials.log"); rc=$?
t_eq "report --input exits 0" 0 "$rc"
t_eq "denial total" "Number of denials: 12" "$(printf '%s\n' "$out" | grep '^Number of denials')"
t_eq "python3 row" "5  5.0  12/03/25 08:00:03  trusted_for  /usr/bin/python3.11 (python3)" \
	"$(printf '%s\n' "$out" | grep 'python3.11')"
t_eq "hostile name decoded and escaped" '2  2.0  12/03/25 08:00:03  trusted_for  /tmp/noexec/evil\n\x1b[31mname.py' \
	"$(printf '%s\n' "$out" | grep 'evil')"
t_eq "invalid UTF-8 escaped" 1 "$(printf '%s\n' "$out" | grep -c 'bad\\xff\\xfe.pl')"
# No control byte other than newline anywhere in the report.
ctl=$(printf '%s' "$out" | LC_ALL=C tr -dc '\000-\011\013-\037\177' | wc -c)
t_eq "no raw control bytes in the report" 0 "$ctl"
# The timeline names the writer (the fixture's CONFIG_CHANGE task fields),
# its hex-encoded comm and exe decoded and escaped.
t_eq "policy change with its writer in the timeline" 1 \
	"$(printf '%s\n' "$out" | grep -c '^1\. .* (local) 0 -> 3 yes 1000 0 3999 /usr/sbin/sysctl (sysctl)$')"
t_eq "refused policy change, hostile writer escaped" 1 \
	"$(printf '%s\n' "$out" | grep -c '^2\. .* (local) 3 -> ? no 1000 0 4100 /tmp/x/set\\xe2\\x80\\xaeyc\\xff (pol\\x1b\[7mset)$')"
out=$("$BIN" report -i --input "$DATA/audit-denials.log" --table policy)
u1000=$(getent passwd 1000 | cut -d: -f1); u0=$(getent passwd 0 | cut -d: -f1)
t_eq "-i: auid and uid as names (getent: ${u1000:-1000} ${u0:-0})" 1 \
	"$(printf '%s\n' "$out" | grep -c "^1\. .* 0 -> 3 yes ${u1000:-1000} ${u0:-0} 3999 ")"
out=$("$BIN" report --input "$DATA/audit-vm-captured-prev.log" --table policy)
t_eq "previous kernel's records: writer unknown" 2 \
	"$(printf '%s\n' "$out" | grep -cE '^[12]\. .* (yes|no) unset \? \? \?$')"

# rotated logs and stdin (ausearch --raw output is the same text)
cp "$DATA/audit-denials.log" "$W/audit.log.1"
cp "$DATA/audit-fleet.log" "$W/audit.log"
n=$("$BIN" report --input "$W/audit.log" "$W/audit.log.1" | grep '^Number of denials')
t_eq "two log files add up" "Number of denials: 18" "$n"
n=$(cat "$DATA/audit-fleet.log" | "$BIN" report --input --table node | grep -E '^[0-9]+ ' | awk '{print $1, $NF}' | tr '\n' ' ')
t_eq "stdin, node table" "4 web1 2 db2 " "$n"
n=$("$BIN" report --input "$W/audit.log" --node db2 --json | grep -c '"denials":2')
t_eq "--node db2 --json" 1 "$n"
n=$("$BIN" report --input "$DATA/audit-denials.log" --since '2025-12-03 08:00:04' --until '2025-12-03 08:00:07' | grep '^Number of denials')
t_eq "--since/--until" "Number of denials: 4" "$n"
n=$("$BIN" report --input "$DATA/audit-denials.log" --table file --top 2 | grep -c 'more rows')
t_eq "--top folds the rest into one row" 1 "$n"
n=$("$BIN" report --input "$DATA/audit-malformed.log" | grep -E '^Number of (malformed|non-audit)' | tr '\n' ' ')
t_eq "malformed and non-audit lines counted" "Number of malformed records skipped: 5 Number of non-audit lines skipped: 3 " "$n"
if command -v python3 >/dev/null; then
	"$BIN" report --input "$DATA/audit-denials.log" --json > "$W/r.json"
	t_run "--json is valid JSON with exact counts" python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert d["denials"]==12, d["denials"]
# the JSON convention: "name_hex" holds the exact bytes of a name with controls
f={bytes.fromhex(r["name_hex"]) if "name_hex" in r else r["name"].encode(): r["count"]
   for r in d["tables"]["file"]["rows"]}
assert f[b"/tmp/noexec/evil\n\x1b[31mname.py"]==2, f
r={x["name"]: bytes.fromhex(x["name_hex"]) for x in d["tables"]["file"]["rows"] if "name_hex" in x}
assert r=={"/tmp/noexec/evil\n\x1b[31mname.py": b"/tmp/noexec/evil\n\x1b[31mname.py",
           "/tmp/noexec/bad\ufffd\ufffd.pl": b"/tmp/noexec/bad\xff\xfe.pl"}, r
assert [c["new"] for c in d["policy_changes"]]==[3,None]
# the writers: exact bytes from comm_hex/exe_hex when present
w=[(c["pid"], c["uid"], c["auid"],
    bytes.fromhex(c["comm_hex"]) if "comm_hex" in c else c["comm"].encode(),
    bytes.fromhex(c["exe_hex"]) if "exe_hex" in c else c["exe"].encode())
   for c in d["policy_changes"]]
assert w==[(3999, 0, 1000, b"sysctl", b"/usr/sbin/sysctl"),
           (4100, 0, 1000, b"pol\x1b[7mset", b"/tmp/x/set\xe2\x80\xaeyc\xff")], w
' "$W/r.json"
fi

# ---- bad input: one line, documented status, nothing written ----
"$BIN" report --input "$W/nope.log" > "$W/o" 2> "$W/e"; rc=$?
t_eq "missing input exits 1" 1 "$rc"
t_eq "missing input: one line naming the file" 1 "$(grep -c "cannot open $W/nope.log: No such file or directory (check the --input file names)" "$W/e")"
t_eq "missing input: no partial report" 0 "$(wc -c < "$W/o")"
"$BIN" report --since tomorrow-ish --input "$W/audit.log" 2> "$W/e" >/dev/null; rc=$?
t_eq "bad --since exits 2" 2 "$rc"
t_eq "bad --since message" 1 "$(grep -c "^audisp-trusted-for report: --since 'tomorrow-ish': not a time" "$W/e")"
"$BIN" report --node web1 --state "$W/s.json" 2> "$W/e"; rc=$?
t_eq "--node without --input exits 2" 2 "$rc"
"$BIN" report --table colours --input "$W/audit.log" 2> "$W/e" >/dev/null; rc=$?
t_eq "unknown --table exits 2" 2 "$rc"
"$BIN" report --state "$W/none.json" 2> "$W/e"; rc=$?
t_eq "missing state exits 1" 1 "$rc"
t_eq "missing state hint" 1 "$(grep -c 'no state yet' "$W/e")"
echo '{"version":1' > "$W/bad.json"
"$BIN" report --state "$W/bad.json" 2> "$W/e"; rc=$?
t_eq "corrupt state exits 1" 1 "$rc"
"$BIN" bogus 2> "$W/e"; rc=$?
t_eq "unknown word exits 2" 2 "$rc"
# A refused option: the tool's own line naming it, once (not getopt's too).
"$BIN" report --bogus 2> "$W/e"; rc=$?
t_eq "unknown report option: exit 2, one line naming it" "2 1 1" \
	"$rc $(grep -c "^audisp-trusted-for report: unknown option '--bogus'$" "$W/e") $(grep -c option "$W/e")"
"$BIN" report --input --state 2> "$W/e"; rc=$?
t_eq "report option without its value: exit 2, one line naming it" "2 1 1" \
	"$rc $(grep -c "^audisp-trusted-for report: option '--state' needs a value$" "$W/e") $(grep -c option "$W/e")"
"$BIN" report --json=1 2> "$W/e"; rc=$?
t_eq "report option given a value it does not take: exit 2, one line naming it" "2 1 1" \
	"$rc $(grep -c "^audisp-trusted-for report: option '--json' takes no value$" "$W/e") $(grep -c option "$W/e")"
ESC=$(printf '\033')
"$BIN" report "--x${ESC}[2J" 2> "$W/e"; rc=$?
t_eq "hostile report option: exit 2, named escaped, no raw ESC" "2 1 0" \
	"$rc $(grep -c "^audisp-trusted-for report: unknown option '--x\\\\x1b\\[2J'$" "$W/e") $(grep -c "$ESC" "$W/e")"
"$BIN" report --state /dev/null "x${ESC}[2J" 2> "$W/e"; rc=$?
t_eq "hostile report argument: exit 2, named escaped, no raw ESC" "2 1 0" \
	"$rc $(grep -c "^audisp-trusted-for report: unexpected argument 'x\\\\x1b\\[2J'" "$W/e") $(grep -c "$ESC" "$W/e")"
"$BIN" "x${ESC}[2J" 2> "$W/e"; rc=$?
t_eq "hostile plugin argument: exit 2, named escaped, no raw ESC" "2 1 0" \
	"$rc $(grep -c "^audisp-trusted-for: unexpected argument 'x\\\\x1b\\[2J'" "$W/e") $(grep -c "$ESC" "$W/e")"
"$BIN" -x 2> "$W/e"; rc=$?
t_eq "unknown plugin option: exit 2, one line naming it" "2 1 1" \
	"$rc $(grep -c "^audisp-trusted-for: unknown option '-x'$" "$W/e") $(grep -c option "$W/e")"

# ---- plugin loop ----
cat > "$W/p.conf" <<EOC
state_file = $W/st/state.json
save_interval = 3600
eoe_timeout = 1
EOC
start_plugin() { plugin_start "$W" "$W/p.conf"; }
ST=$W/st/state.json
start_plugin
# Only 1350 and trust_policy records, no EOE (as audisp-remote forwards them):
# they are counted once aged out by the timer (eoe_timeout = 1), with no EOF.
grep -a 'UNKNOWN\[1350\]\|op=trust_policy' "$DATA/audit-denials.log" >&3
t_eq "SIGUSR1 saves; events without EOE counted" 12 "$(plugin_save_until "$ST" 12 10; state_denials "$ST")"
# The live timeline (the plugin's state) names the writers too, escaped.
n=$("$BIN" report --state "$W/st/state.json" --table policy | grep -cE \
	'^(1\. .* 0 -> 3 yes 1000 0 3999 /usr/sbin/sysctl \(sysctl\)|2\. .* 3 -> \? no 1000 0 4100 /tmp/x/set\\xe2\\x80\\xaeyc\\xff \(pol\\x1b\[7mset\))$')
t_eq "state timeline: both writers, escaped" 2 "$n"
# SIGHUP reloads the config: a new state_file is used for the next save.
sed -i "s|^state_file.*|state_file = $W/st/other.json|" "$W/p.conf"
plugin_hup "$W"
plugin_usr1 "$W/st/other.json"
t_eq "SIGHUP reloaded state_file" 12 "$("$BIN" report --state "$W/st/other.json" | sed -n 's/^Number of denials: //p')"
sed -i "s|^state_file.*|state_file = $W/st/state.json|" "$W/p.conf"
plugin_hup "$W"
# A broken config on SIGHUP keeps the running one (and the process).
echo "save_interval = never" >> "$W/p.conf"
plugin_hup "$W"
t_run "bad config on SIGHUP: still running" kill -0 $PID
t_eq "bad config on SIGHUP: logged" 1 "$(grep -c 'save_interval must be 1..86400 seconds; keeping the running configuration' "$W/plugin.err")"
sed -i '$d' "$W/p.conf"
cat "$DATA/audit-fleet.log" >&3
plugin_stop; rc=$?
t_eq "SIGTERM exits 0" 0 "$rc"
t_eq "SIGTERM flushed and saved" 18 "$(state_denials "$ST")"

# Restart: counting goes on from the saved state; EOF exits 0.
start_plugin
cat "$DATA/audit-fleet.log" >&3
exec 3>&-
wait $PID; rc=$?
t_eq "EOF exits 0" 0 "$rc"
t_eq "restart keeps counts" 24 "$(state_denials "$ST")"
n=$("$BIN" report --state "$W/st/state.json" --table node | grep -E '^[0-9]+ ' | awk '{print $1, $NF}' | tr '\n' ' ')
t_eq "node counts after restart" "12 (local) 8 web1 4 db2 " "$n"
n=$("$BIN" report --state "$W/st/state.json" --table policy | grep -c ' db2 1 -> 3 yes 0 0 812 /usr/local/sbin/policyctl (policyctl)$')
t_eq "db2's change, from each run, with its writer" 2 "$n"

# kill -9 loses at most what came after the last save.
start_plugin
cat "$DATA/audit-fleet.log" >&3
t_eq "saved before kill -9" 30 "$(plugin_save_until "$ST" 30 10; state_denials "$ST")"
# More records (read or not yet: either way not saved), then kill -9.
cat "$DATA/audit-fleet.log" >&3
kill -9 $PID; wait $PID 2>/dev/null
exec 3>&-
t_eq "kill -9: state is the last save, intact" 30 "$(state_denials "$ST")"
t_eq "no temporary files left" 0 "$(find "$W/st" -mindepth 1 -name '*tmp*' | wc -l)"

# A corrupt state is kept aside, never overwritten.
echo garbage > "$W/st/state.json"
start_plugin
exec 3>&-
wait $PID; rc=$?
t_eq "corrupt state: plugin still starts" 0 "$rc"
t_eq "corrupt state kept aside" 1 "$(find "$W/st" -mindepth 1 -name 'state.json.corrupt.*' | wc -l)"
start_plugin
# Capabilities are dropped before the state is loaded and the metrics
# written: wait for the plugin's first save of its state (SIGUSR1).
plugin_usr1 "$W/st/state.json"
capeff=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/$PID/status)
capbnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/$PID/status)
t_eq "capabilities dropped: CapEff" 0000000000000000 "$capeff"
t_eq "capabilities dropped: CapBnd" 0000000000000000 "$capbnd"
exec 3>&-
wait $PID

t_done auditd-plugin-cli
