#!/bin/sh
# Host test of the split by API (issue 11): a log of trusted_for denials
# and execveat(AT_EXECVE_CHECK) refusals (policy=?, api=, secbits=, every
# reason, callers with and without SECBIT_EXEC_RESTRICT_FILE, trusted_for
# records in both the older layout and the one with api=) written by
# bench/gen-audit-log -e; the expected values are the records counted in
# the log by this script (checked against the generator's own tally),
# never the plugin's. Checked: the text
# report, --api, --json, --metrics, and the plugin's state across a restart.
# usage: TF_BIN=path/to/audisp-trusted-for TF_GEN=path/to/gen-audit-log sh api-split.sh
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/assert.sh"
. "$TOP/tests/lib/wait.sh"
. "$TOP/tests/lib/auditd.sh"
SUITE=auditd-plugin-api-split
BIN=${TF_BIN:-$TOP/build/user/auditd-plugin/audisp-trusted-for}
W=$(mktemp -d /tmp/tf-api-split.XXXXXX)
PID=
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; rm -rf "$W"' EXIT
export TZ=UTC LC_ALL=C

# bench/gen-audit-log.c, built by make -C auditd-plugin check
GEN=${TF_GEN:-$TOP/build/user/auditd-plugin/tests/gen-audit-log}
. "$TOP/tests/lib/build.sh"
need_build "$SUITE" "make -C auditd-plugin check" "$GEN"
# 3000 trusted_for denials on 2 nodes inside a mixed log (ordinary events,
# some denials inside syscall-rule events), one AT_EXECVE_CHECK refusal after
# every 4 of them.
"$GEN" -n 3000 -p 700 -e 4 -H 2 -m 2 -s 11 -o "$W/g.log" 2> "$W/g.err"
# The expected values: the log's records counted here, from the record
# format (a record without api= is trusted_for's older layout; an
# execve_check refusal is enforced when its secbits hold
# SECBIT_EXEC_RESTRICT_FILE, 0x100), and checked against the generator's
# own tally, so that neither the generator's loop nor the plugin is the
# source of what the plugin must say.
awk '/ type=UNKNOWN\[1350\] / {
	api = "trusted_for"; reason = "?"; sb = 0
	if (match($0, / api=[a-z_]+/)) api = substr($0, RSTART + 5, RLENGTH - 5)
	if (match($0, / reason=[a-z_,]+/)) reason = substr($0, RSTART + 8, RLENGTH - 8)
	if (match($0, / secbits=0x[0-9a-f]+/)) {
		h = substr($0, RSTART + 11, RLENGTH - 11); sb = 0
		for (i = 1; i <= length(h); i++)
			sb = sb * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	}
	if (api == "execve_check")
		api = api "/" (int(sb / 256) % 2 ? "enforced" : "observed")
	n[api " " reason]++; c[api]++
}
END {
	for (k in c) printf "class %s %d\n", k, c[k]
	for (k in n) printf "split %s %d\n", k, n[k]
}' "$W/g.log" > "$W/count"
t_eq "the generator's tally = the records counted in the log" \
	"$(sed -n 's/^gen-audit-log: \(class\|split\) /\1 /p' "$W/g.err" | sort)" \
	"$(sort "$W/count")"
T=$(sed -n 's/^class trusted_for //p' "$W/count")
E=$(sed -n 's|^class execve_check/enforced ||p' "$W/count")
O=$(sed -n 's|^class execve_check/observed ||p' "$W/count")
# "CLASS REASON COUNT" lines, sorted; optionally of one class (a grep pattern)
split() { sed -n 's/^split //p' "$W/count" | grep "^${1:-}" | sort; }
echo "# generator: trusted_for $T, execve_check enforced $E, observed $O"
t_eq "the generator wrote every class (sanity)" "yes yes yes" \
	"$([ "${T:-0}" -gt 0 ] && echo yes) $([ "${E:-0}" -gt 0 ] && echo yes) $([ "${O:-0}" -gt 0 ] && echo yes)"
t_eq "the generator wrote all seven reasons for each execve_check class" "7 7" \
	"$(split execve_check/enforced | wc -l) $(split execve_check/observed | wc -l)"
t_eq "1350 records in the log: trusted_for + execve_check (grep)" "$((T + E + O))" \
	"$(grep -ac 'type=UNKNOWN\[1350\]' "$W/g.log")"
t_eq "execve_check records have policy=? (grep)" "$((E + O))" \
	"$(grep -a 'type=UNKNOWN\[1350\]' "$W/g.log" | grep -a ' policy=? ' | grep -ac ' api=execve_check ')"

# report_rows TITLE: rows "API NAME COUNT" of one table of a text report, sorted
. "$TOP/tests/lib/report.sh"

# ---- the text report ----
out=$("$BIN" report --input "$W/g.log"); rc=$?
t_eq "report exits 0" 0 "$rc"
t_eq "number of denials: every class" "Number of denials: $((T + E + O))" \
	"$(printf '%s\n' "$out" | grep '^Number of denials:')"
t_eq "denials by API, execve_check by enforcement" \
	"Denials by API: trusted_for $T, execve_check $((E + O)) (enforced $E, observed only $O)" \
	"$(printf '%s\n' "$out" | grep '^Denials by API:')"
t_eq "reason table: one row per API and reason = the generator's split" "$(split)" \
	"$(printf '%s\n' "$out" | report_rows 'Reason Summary Report')"
t_eq "no malformed record (policy=? parsed)" "Number of malformed records skipped: 0" \
	"$(printf '%s\n' "$out" | grep '^Number of malformed')"
# (the 7 tables of the default report all have observed rows)
t_eq "the observed rows are explained, under each table" 7 \
	"$(printf '%s\n' "$out" | grep -c '^# execve_check/observed: .*would be refused if SECBIT_EXEC_RESTRICT_FILE were set$')"
# the node table adds up per API to the classes
t_eq "node table: per API totals" "execve_check/enforced $E execve_check/observed $O trusted_for $T" \
	"$(printf '%s\n' "$out" | report_rows 'Host Summary Report' |
		awk '{ n[$1] += $3 } END { for (k in n) print k, n[k] }' | sort | tr '\n' ' ' | sed 's/ $//')"

# ---- --api ----
for sel in trusted_for execve_check execve_check/enforced execve_check/observed \
	trusted_for,execve_check/observed; do
	case $sel in
	trusted_for) want=$T pat='trusted_for ' ;;
	execve_check) want=$((E + O)) pat='execve_check/' ;;
	execve_check/enforced) want=$E pat='execve_check/enforced ' ;;
	execve_check/observed) want=$O pat='execve_check/observed ' ;;
	*) want=$((T + O)) pat='trusted_for \|execve_check/observed ' ;;
	esac
	out=$("$BIN" report --input "$W/g.log" --api "$sel" --table reason)
	t_eq "--api $sel: number of denials" "Number of denials: $want" \
		"$(printf '%s\n' "$out" | grep '^Number of denials:')"
	t_eq "--api $sel: reason rows = the generator's split of that API" "$(split "$pat")" \
		"$(printf '%s\n' "$out" | report_rows 'Reason Summary Report')"
done
"$BIN" report --input "$W/g.log" --api execveat > /dev/null 2> "$W/e"; rc=$?
t_eq "--api unknown: exit 2, one line" "2 1" "$rc $(wc -l < "$W/e")"
"$BIN" report --input "$W/g.log" --api trusted_for --metrics > /dev/null 2> "$W/e"; rc=$?
t_eq "--api with --metrics: exit 2" 2 "$rc"

# ---- JSON ----
if command -v python3 > /dev/null; then
	"$BIN" report --input "$W/g.log" --json > "$W/r.json"
	split | sed 's/ \([0-9]*\)$/|\1/' > "$W/split.txt"
	t_run "--json: api counts and per-row api/enforced = the generator's" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
T, E, O = map(int, sys.argv[2:5])
assert d["denials"] == T + E + O, d["denials"]
assert d["api"] == {"trusted_for": {"count": T},
                    "execve_check": {"count": E + O, "enforced": E, "observed": O}}, d["api"]
got = sorted("%s %s|%d" % (r["api"] if r["api"] == "trusted_for" else
                           "execve_check/" + ("enforced" if r["enforced"] else "observed"),
                           r["name"], r["count"])
             for r in d["tables"]["reason"]["rows"])
want = sorted(open(sys.argv[5]).read().split("\n")[:-1])
assert got == want, (got, want)
assert all(("enforced" in r) == (r["api"] == "execve_check") for t in d["tables"].values()
           for r in t["rows"]), "enforced only on execve_check rows"
assert d["tables"]["interpreter"]["total"] == T + E + O
' "$W/r.json" "$T" "$E" "$O" "$W/split.txt"
	"$BIN" report --input "$W/g.log" --json --api execve_check/observed > "$W/o.json"
	t_run "--json --api execve_check/observed: only that class" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
O = int(sys.argv[2])
assert d["denials"] == O and d["api"] == {"execve_check": {"count": O, "enforced": 0, "observed": O}}, d
assert {(r["api"], r["enforced"]) for r in d["tables"]["file"]["rows"]} == {("execve_check", False)}
assert sum(r["count"] for r in d["tables"]["reason"]["rows"]) == O
' "$W/o.json" "$O"
else
	t_skip "--json: python3 missing"
	t_skip "--json --api: python3 missing"
fi

# ---- metrics: the api label, enforced on execve_check series ----
"$BIN" report --input "$W/g.log" --metrics > "$W/m.prom"
# "API/ENFORCED REASON COUNT" summed over exe and node (every record is the kernel's)
msplit() {
	sed -n 's/^trustfor_denials_total{exe="[^"]*",reason="\([^"]*\)",node="[^"]*",source="kernel",api="\([^"]*\)"\(,enforced="\([a-z]*\)"\)\{0,1\}} \([0-9]*\)$/\2 \4 \1 \5/p' "$1" |
		awk '{ c = $1; if ($2 == "true") c = c "/enforced"; else if ($2 == "false") c = c "/observed";
			if (NF == 3) { n[c " " $2] += $3 } else { n[c " " $3] += $4 } }
			END { for (k in n) print k, n[k] }' | sort
}
t_eq "metrics: per api, enforced and reason = the generator's split" "$(split)" "$(msplit "$W/m.prom")"
t_eq "metrics: no enforced label on trusted_for series" 0 \
	"$(grep -c 'api="trusted_for",enforced' "$W/m.prom")"
t_eq "metrics: every denial series has an api label" \
	"$(grep -c '^trustfor_denials_total{' "$W/m.prom")" "$(grep -c '^trustfor_denials_total{.*,api="' "$W/m.prom")"

# ---- the plugin: live counts, saved, restarted ----
cat > "$W/p.conf" <<EOC
state_file = $W/st/state.json
save_interval = 3600
eoe_timeout = 1
metrics_dir = $W
EOC
run_plugin() { plugin_feed "$W" "$W/p.conf" "$W/g.log"; } # once, to EOF: flush, save, exit
run_plugin; rc=$?
t_eq "plugin: EOF exits 0" 0 "$rc"
out=$("$BIN" report --state "$W/st/state.json" --table reason)
t_eq "plugin state: denials by API" \
	"Denials by API: trusted_for $T, execve_check $((E + O)) (enforced $E, observed only $O)" \
	"$(printf '%s\n' "$out" | grep '^Denials by API:')"
t_eq "plugin state: reason rows = the generator's split" "$(split)" \
	"$(printf '%s\n' "$out" | report_rows 'Reason Summary Report')"
t_eq "plugin metrics file: same split" "$(split)" "$(msplit "$W/audisp-trusted-for.prom")"
t_eq "state file version 3" 1 "$(grep -c '"version":3' "$W/st/state.json")"
run_plugin
double() { split "$@" | awk '{ $NF = 2 * $NF; print }'; }
out=$("$BIN" report --state "$W/st/state.json" --table reason --api execve_check/observed)
t_eq "after a restart: counts go on per class (--api on the state)" "Number of denials: $((2 * O))" \
	"$(printf '%s\n' "$out" | grep '^Number of denials:')"
t_eq "after a restart: observed rows doubled" "$(double execve_check/observed)" \
	"$(printf '%s\n' "$out" | report_rows 'Reason Summary Report')"
t_eq "after a restart: metrics doubled" "$(double)" "$(msplit "$W/audisp-trusted-for.prom")"

# ---- a trusted_for-only log: no execve_check row, the split says 0 ----
"$GEN" -n 500 -s 3 -o "$W/t.log" 2> /dev/null
out=$("$BIN" report --input "$W/t.log")
t_eq "trusted_for-only log: split line" \
	"Denials by API: trusted_for 500, execve_check 0 (enforced 0, observed only 0)" \
	"$(printf '%s\n' "$out" | grep '^Denials by API:')"
t_eq "trusted_for-only log: every row is trusted_for" 0 \
	"$(printf '%s\n' "$out" | grep -E '^[0-9]+ ' | grep -vc '  trusted_for  ')"

t_done "$SUITE"
