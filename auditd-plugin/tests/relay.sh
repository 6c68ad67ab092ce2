#!/bin/sh
# Host test of trustfor-relay's records (type 2650, docs/CONVENTIONS.md
# "Kernel ABI") in audisp-trusted-for: who logged each refusal (the kernel
# or the relay) and what the relay lost, in the text and JSON reports, the
# metrics, and the plugin's state across a restart. The input is
# auditd-plugin/tests/data/audit-relay.log; every expected value is its
# records counted by hand (tests/data/README.md: R1..R9, K1..K3, L1, L2,
# M1..M5), never the plugin's output.
# usage: TF_BIN=path/to/audisp-trusted-for sh relay.sh
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/assert.sh"
. "$TOP/tests/lib/wait.sh"
. "$TOP/tests/lib/auditd.sh"
SUITE=auditd-plugin-relay
BIN=${TF_BIN:-$TOP/build/user/auditd-plugin/audisp-trusted-for}
LOG=$TOP/auditd-plugin/tests/data/audit-relay.log
W=$(mktemp -d /tmp/tf-relay.XXXXXX)
PID=
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; rm -rf "$W"' EXIT
export TZ=UTC LC_ALL=C

line() { printf '%s\n' "$1" | grep "^$2"; } # line TEXT START: TEXT's lines starting with START
# "API COUNT NAME" rows of one table of a text report, sorted (NAME may hold spaces)
rows() { # rows TITLE < report
	awk -v t="$1" '$0 == t { s = 1; next } s && /^=+$/ { n++; next }
		s && n == 2 && /^[0-9]+ / { c = $1; a = $5; $1 = $2 = $3 = $4 = $5 = "";
			sub(/^ +/, ""); print a, c, $0; next }
		s && n == 2 { exit }' | sort
}
# python3 -c CHECK FILE, as one check
py() { t_run "$1" python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
$2" "$3"; }

# ---- the text report ----
out=$("$BIN" report --input "$LOG" --table mount,file,user); rc=$?
t_eq "report exits 0" 0 "$rc"
t_eq "denials: 9 of the relay, 3 of the kernel" "Number of denials: 12" \
	"$(line "$out" 'Number of denials:')"
t_eq "by API: K1; R1 R4 R6 R9 K2; R2 R3 R5 R7 R8 K3" \
	"Denials by API: trusted_for 1, execve_check 11 (enforced 5, observed only 6)" \
	"$(line "$out" 'Denials by API:')"
t_eq "by source, and the relay's lost (L1 3 + L2 2)" \
	"Denials by source: kernel 3, relay 9 (the relay lost 5 more: refused, not logged)" \
	"$(line "$out" 'Denials by source:')"
t_eq "malformed: M1..M5" "Number of malformed records skipped: 5" \
	"$(line "$out" 'Number of malformed')"
t_eq "mounts: refusals of a name (R4; R5 R7) have no device" \
	"execve_check/enforced 1 (not opened)
execve_check/observed 2 (not opened)" \
	"$(printf '%s\n' "$out" | rows 'Mount Summary Report' | grep 'not opened')"
t_eq "files: each name its own row, the hostile one escaped" \
	"execve_check/enforced 1 /home/u/secret.sh
execve_check/observed 1 /srv/x/other.py
execve_check/observed 1 /srv/x/run.py
execve_check/observed 1 /tmp/noexec/evil\\n\\x1b[31mx'y.py" \
	"$(printf '%s\n' "$out" | rows 'File Summary Report' | grep 'secret\|/srv/x/\|evil')"
t_eq "users: the relay's uid, never its sender's (0)" \
	"execve_check/enforced 5 1000
execve_check/observed 1 1001
execve_check/observed 5 1000
trusted_for 1 1000" "$(printf '%s\n' "$out" | rows 'User Summary Report')"
out=$("$BIN" report --input "$LOG" --api execve_check/observed --table reason)
t_eq "--api execve_check/observed: its sources" \
	"Denials by source: kernel 1, relay 5 (the relay lost 5 more: refused, not logged)" \
	"$(line "$out" 'Denials by source:')"
out=$("$BIN" report --input "$LOG" --api trusted_for --table reason)
t_eq "--api trusted_for: no source line (the relay sees execve_check only)" "" \
	"$(line "$out" 'Denials by source:')"
out=$("$BIN" report --input "$LOG" --node web1 --table reason)
t_eq "--node web1: R9 and L2" \
	"Denials by source: kernel 0, relay 1 (the relay lost 2 more: refused, not logged)" \
	"$(line "$out" 'Denials by source:')"
out=$("$BIN" report --input "$TOP/tests/data/audit-denials.log")
t_eq "no relay record: the report as before (no source line)" "" \
	"$(line "$out" 'Denials by source:')"

# ---- the JSON report ----
"$BIN" report --input "$LOG" --json > "$W/r.json"
py "--json: source counts" '
assert d["denials"] == 12, d["denials"]
assert d["source"] == {"kernel": {"count": 3}, "relay": {"count": 9, "lost": 5}}, d["source"]' \
	"$W/r.json"
py "--json: mount rows of names, the hostile file row, no sender uid" '
t = d["tables"]
m = sorted((r["enforced"], r["count"]) for r in t["mount"]["rows"] if r["name"] == "(not opened)")
assert m == [(False, 2), (True, 1)], m
f = [r for r in t["file"]["rows"] if "name_hex" in r]
assert [(bytes.fromhex(r["name_hex"]), r["count"], r["enforced"]) for r in f] == \
	[(b"/tmp/noexec/evil\n\x1b[31mx'"'"'y.py", 1, False)], f
assert sorted({r["name"] for r in t["user"]["rows"]}) == ["1000", "1001"], t["user"]' "$W/r.json"
"$BIN" report --input "$LOG" --json --api trusted_for > "$W/t.json"
py "--json --api trusted_for: no relay count, nothing lost" '
assert d["source"] == {"kernel": {"count": 1}, "relay": {"count": 0, "lost": 0}}, d["source"]' \
	"$W/t.json"
"$BIN" report --input "$TOP/tests/data/audit-denials.log" --json > "$W/k.json"
py "--json without relay records: source always there, relay 0" '
assert d["source"] == {"kernel": {"count": 12}, "relay": {"count": 0, "lost": 0}}, d["source"]' \
	"$W/k.json"

# ---- metrics ----
"$BIN" report --input "$LOG" --metrics > "$W/m.prom"
sum_source() { # sum_source SOURCE FILE: the denial series of that source, summed
	awk -v s="source=\"$1\"" '/^trustfor_denials_total\{/ && index($0, s) { n += $NF }
		END { print n + 0 }' "$2"
}
t_eq "metrics: denials by source label" "kernel 3 relay 9" \
	"kernel $(sum_source kernel "$W/m.prom") relay $(sum_source relay "$W/m.prom")"
t_eq "metrics: R4's series" 1 \
	"$(grep -c '^trustfor_denials_total{exe="/usr/local/bin/trusted-dash",reason="unknown",node="",source="relay",api="execve_check",enforced="true"} 1$' "$W/m.prom")"
t_eq "metrics: every denial series has a source label" \
	"$(grep -c '^trustfor_denials_total{' "$W/m.prom")" \
	"$(grep -c '^trustfor_denials_total{.*,source="\(kernel\|relay\)",' "$W/m.prom")"
t_eq "metrics: lost by source, the plugin's 0" \
	'trustfor_lost_total{source="plugin"} 0
trustfor_lost_total{source="relay"} 5' "$(grep '^trustfor_lost_total' "$W/m.prom")"
t_eq "metrics: records (12 denials, 2 lost records, 5 malformed) and malformed" \
	"trustfor_records_total 19 trustfor_malformed_records_total 5" \
	"$(grep -E '^trustfor_(records|malformed_records)_total ' "$W/m.prom" | tr '\n' ' ' | sed 's/ $//')"
t_run "metrics: promtool check metrics" sh -c 'promtool check metrics < "$1"' _ "$W/m.prom"

# ---- the plugin: counted live, saved, restarted by auditd ----
cat > "$W/p.conf" <<EOC
state_file = $W/st/state.json
save_interval = 3600
eoe_timeout = 1
metrics_dir = $W
EOC
mkdir "$W/st"
run_plugin() { plugin_feed "$W" "$W/p.conf" "$LOG"; } # once, to EOF: flush, save, exit
run_plugin; rc=$?
t_eq "plugin: EOF exits 0" 0 "$rc"
run_plugin
out=$("$BIN" report --state "$W/st/state.json" --table reason)
t_eq "after a restart: sources and lost go on from the state" \
	"Denials by source: kernel 6, relay 18 (the relay lost 10 more: refused, not logged)" \
	"$(line "$out" 'Denials by source:')"
P=$W/audisp-trusted-for.prom
t_eq "after a restart: metrics by source go on" "kernel 6 relay 18" \
	"kernel $(sum_source kernel "$P") relay $(sum_source relay "$P")"
t_eq "after a restart: R4's series doubled, the relay's lost too" \
	'trustfor_denials_total{exe="/usr/local/bin/trusted-dash",reason="unknown",node="",source="relay",api="execve_check",enforced="true"} 2
trustfor_records_total 38
trustfor_lost_total{source="relay"} 10' \
	"$(grep -E '^trustfor_denials_total\{exe="/usr/local/bin/trusted-dash",reason="unknown",node="",source="relay",api="execve_check",enforced="true"\}|^trustfor_lost_total\{source="relay"\}|^trustfor_records_total' "$P")"

t_done "$SUITE"
