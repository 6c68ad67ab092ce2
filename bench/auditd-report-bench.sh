#!/bin/sh
# Benchmark (not a test) of audisp-trusted-for (issue 4, "Benchmark"):
#  - a generated audit.log of N trusted_for denials in the kernel's exact
#    format (bench/gen-audit-log.c; by default every record a distinct path);
#  - the offline report `audisp-trusted-for report --input LOG` against
#    `ausearch -m 1350 --raw -if LOG`, same file, same run, rounds interleaved;
#    goal (issue 26; 1.0 in issue 12): report median <= 0.5 x ausearch
#    median on that log of denials only (the report parses it with one
#    process per CPU, its default for a log this big);
#  - the same on a realistic mixed log (gen-audit-log -m): about MIXED_LINES
#    lines of ordinary SYSCALL/CWD/PATH/PROCTITLE/EOE events with 1 % denials,
#    some inside syscall-rule events, and a policy change every 1000 denials;
#    goal: report median <= 0.2 x ausearch median;
#  - the plugin's live throughput (the log fed on stdin, records/s) and its
#    peak RSS (goal <= 64 MiB after 1M distinct paths).
# Counts are checked against the generator's own count of what it wrote (and
# the log's line count): the report's denials and policy changes, ausearch's
# records, the plugin's saved state. Goals are compared on unrounded values.
# Each goal gets a verdict; exit status 0: every goal met, 1: a count is wrong
# (or a command failed), 3: counts right but a performance goal missed.
# Needs gcc, ausearch (auditd), /usr/bin/time (package time) and the plugin:
#   make -C auditd-plugin
# usage: bench/auditd-report-bench.sh [N] [ROUNDS] [DISTINCT_PATHS]
#   N default 1000000, ROUNDS default 3, DISTINCT_PATHS default N.
#   MIXED_LINES: lines of the mixed log (default 10000000; 0: no mixed log).
#   BENCH_DIR: where the log goes (default a temporary directory on /dev/shm,
#   else build/bench); TF_BUILD: build directory (default build/user).
set -u
cd "$(dirname "$0")/.." || exit 2
N=${1:-1000000}
ROUNDS=${2:-3}
PATHS=${3:-$N}
MIXED_LINES=${MIXED_LINES:-10000000}
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
TF_BUILD=${TF_BUILD:-build/user}
PLUGIN=$TF_BUILD/auditd-plugin/audisp-trusted-for
GEN=build/bench/gen-audit-log

[ -x "$PLUGIN" ] || { echo "bench: no $PLUGIN: run 'make -C auditd-plugin' first" >&2; exit 2; }
command -v ausearch > /dev/null || { echo "bench: no ausearch (apt-get install auditd)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: no /usr/bin/time (apt-get install time)" >&2; exit 2; }

mkdir -p build/bench || exit 1
if [ ! -x "$GEN" ] || [ -n "$(find bench/gen-audit-log.c -newer "$GEN")" ]; then
	gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$GEN" bench/gen-audit-log.c || exit 1
fi

if [ -n "${BENCH_DIR:-}" ]; then
	mkdir -p "$BENCH_DIR" && D=$(mktemp -d "$BENCH_DIR/tf-report-bench.XXXXXX")
elif [ -d /dev/shm ] && [ -w /dev/shm ]; then
	D=$(mktemp -d /dev/shm/tf-report-bench.XXXXXX)
else
	D=$(mktemp -d "$PWD/build/bench/tf-report-bench.XXXXXX")
fi || exit 1
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM
LOG=$D/audit.log

# generate ERR OTHERS GEN-ARGS...: the generator run with GEN-ARGS (its
# report in $D/ERR, shown); G_DENIALS, G_CHANGES and, with OTHERS=yes,
# G_OTHERS its own count of the records it wrote; exit 1 when unreadable.
generate() {
	e=$D/$1 o=$2
	shift 2
	"$GEN" "$@" 2> "$e" || { cat "$e" >&2; exit 1; }
	cat "$e"
	G_DENIALS=$(sed -n 's/^gen-audit-log: \([0-9]*\) denials .*/\1/p' "$e")
	G_CHANGES=$(sed -n 's/.* \([0-9]*\) CONFIG_CHANGE records$/\1/p' "$e")
	G_OTHERS=$(sed -n 's/^gen-audit-log: \([0-9]*\) other records$/\1/p' "$e")
	g="$G_DENIALS/$G_CHANGES"
	[ "$o" = yes ] && g="$g/$G_OTHERS"
	case "$g" in
	*[!0-9/]* | /* | */ | *//*) echo "bench: cannot read the generator's counts in: $(cat "$e")" >&2; exit 1 ;;
	esac
}

echo "bench: generating $N records ($PATHS distinct paths) into $LOG"
generate gen.err no -n "$N" -p "$PATHS" -o "$LOG"
GEN_DENIALS=$G_DENIALS GEN_CHANGES=$G_CHANGES
LINES=$(wc -l < "$LOG")
MIB=$(du -m "$LOG" | cut -f1)

now() { date +%s.%N; }
elapsed() { echo "$1 $2" | awk '{printf "%.9f\n", $2 - $1}'; }
# min and median of the numbers in a file, unrounded
minmed() { sort -g "$1" | awk '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.9f %.9f\n", v[1], m}'; }
ms() { echo "$1" | awk '{printf "%.3f", $1}'; } # display only
# rss FILE CMD...: CMD, its peak RSS (KiB) written to FILE; "-": not kept
rss() {
	if [ "$1" = - ]; then shift; "$@"; else f=$1; shift; /usr/bin/time -f %M -o "$f" "$@"; fi
}
# rounds LOG TAG WHAT RSS: ROUNDS runs of report --input LOG, each followed
# by ausearch over LOG; their seconds in $D/TAGt.report and
# $D/TAGt.ausearch, report's output in $D/TAGreport.txt, with RSS (yes/no)
# the peak RSS of the last runs in $D/rss.report and $D/rss.ausearch.
# WHAT names the log in the messages ("": the denials-only log).
rounds() {
	rr=- ra=-
	[ "$4" = yes ] && rr=$D/rss.report ra=$D/rss.ausearch
	: > "$D/${2}t.report"; : > "$D/${2}t.ausearch"
	for r in $(seq "$ROUNDS"); do
		t0=$(now)
		rss "$rr" "$PLUGIN" report --input "$1" > "$D/${2}report.txt" ||
			{ echo "bench: report failed${3:+ ($3 log)}" >&2; exit 1; }
		t1=$(now)
		rss "$ra" ausearch -m 1350 --raw -if "$1" > /dev/null ||
			{ echo "bench: ausearch failed${3:+ ($3 log)}" >&2; exit 1; }
		t2=$(now)
		a=$(elapsed "$t0" "$t1"); b=$(elapsed "$t1" "$t2")
		echo "$a" >> "$D/${2}t.report"; echo "$b" >> "$D/${2}t.ausearch"
		echo "${3:+$3 }round $r: report $(ms "$a")s, ausearch $(ms "$b")s"
	done
}

rounds "$LOG" "" "" yes
# shellcheck disable=SC2046 # minmed prints two numbers: split on purpose
set -- $(minmed "$D/t.report"); REP_MIN=$1; REP_MED=$2
# shellcheck disable=SC2046 # minmed prints two numbers: split on purpose
set -- $(minmed "$D/t.ausearch"); AUS_MIN=$1; AUS_MED=$2
REP_DENIALS=$(sed -n 's/^Number of denials: //p' "$D/report.txt")
REP_CHANGES=$(sed -n 's/^Number of policy changes: //p' "$D/report.txt")
REP_RSS=$(tail -n 1 "$D/rss.report")
# ausearch's count of the same records (an untimed run, counted on the fly).
AUS_RECORDS=$({ ausearch -m 1350 --raw -if "$LOG" || echo "$?" > "$D/ausearch.failed"; } |
	grep -c '^type=UNKNOWN\[1350\] ')
[ -e "$D/ausearch.failed" ] && { echo "bench: ausearch failed (exit $(cat "$D/ausearch.failed"))" >&2; exit 1; }

# The plugin, as auditd runs it, with its own config and state directory.
mkdir "$D/state"
cat > "$D/plugin.conf" << EOF
state_file = $D/state/state.json
save_interval = 60
capacity = 4096
eoe_timeout = 2
EOF
t0=$(now)
/usr/bin/time -v -o "$D/time.plugin" "$PLUGIN" -c "$D/plugin.conf" < "$LOG" 2> "$D/plugin.err" ||
	{ echo "bench: plugin failed" >&2; cat "$D/plugin.err" "$D/time.plugin" >&2; exit 1; }
t1=$(now)
PL_S=$(elapsed "$t0" "$t1")
PL_RATE=$(echo "$LINES $PL_S" | awk '{printf "%.0f\n", $1 / $2}')
PL_KIB=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$D/time.plugin")
PL_MIB=$(echo "$PL_KIB" | awk '{printf "%.1f\n", $1 / 1024}')
"$PLUGIN" report --state "$D/state/state.json" > "$D/state.txt" ||
	{ echo "bench: report --state failed" >&2; exit 1; }
PL_DENIALS=$(sed -n 's/^Number of denials: //p' "$D/state.txt")

# The mixed log: 1 % denials among ordinary events (-m 99: 99 other records
# per denial), a policy change every 1000 denials; removed once timed.
if [ "$MIXED_LINES" -gt 0 ]; then
	MN=$((MIXED_LINES / 100))
	MLOG=$D/mixed.log
	echo "bench: generating a mixed log of about $MIXED_LINES lines ($MN denials) into $MLOG"
	rm -f "$LOG"
	generate mgen.err yes -n "$MN" -m 99 -c 1000 -o "$MLOG"
	M_GEN_DENIALS=$G_DENIALS M_GEN_CHANGES=$G_CHANGES M_GEN_OTHERS=$G_OTHERS
	M_LINES=$(wc -l < "$MLOG")
	M_MIB=$(du -m "$MLOG" | cut -f1)
	rounds "$MLOG" m mixed no
	# shellcheck disable=SC2046 # minmed prints two numbers: split on purpose
	set -- $(minmed "$D/mt.report"); M_REP_MIN=$1; M_REP_MED=$2
	# shellcheck disable=SC2046 # minmed prints two numbers: split on purpose
	set -- $(minmed "$D/mt.ausearch"); M_AUS_MIN=$1; M_AUS_MED=$2
	M_REP_DENIALS=$(sed -n 's/^Number of denials: //p' "$D/mreport.txt")
	M_REP_CHANGES=$(sed -n 's/^Number of policy changes: //p' "$D/mreport.txt")
	M_REP_BAD=$(sed -n 's/^Number of non-audit lines skipped: //p' "$D/mreport.txt")
	M_AUS_RECORDS=$({ ausearch -m 1350 --raw -if "$MLOG" || echo "$?" > "$D/ausearch.failed"; } |
		grep -c '^type=UNKNOWN\[1350\] ')
	[ -e "$D/ausearch.failed" ] && { echo "bench: ausearch failed (exit $(cat "$D/ausearch.failed"))" >&2; exit 1; }
	M_RATIO=$(echo "$M_REP_MED $M_AUS_MED" | awk '{printf "%.3f\n", $1 / $2}')
	M_RATIO_MIN=$(echo "$M_REP_MIN $M_AUS_MIN" | awk '{printf "%.3f\n", $1 / $2}')
fi

# Display values (rounded); the verdicts below compare the unrounded ones.
RATIO=$(echo "$REP_MED $AUS_MED" | awk '{printf "%.3f\n", $1 / $2}')
RATIO_MIN=$(echo "$REP_MIN $AUS_MIN" | awk '{printf "%.3f\n", $1 / $2}')
counts_ok=1 perf_ok=1
# goal A B: V="met" when A <= B (unrounded numbers), else MISSED (no subshell:
# the verdict flags must survive)
goal() {
	if echo "$1 $2" | awk '{exit !($1 <= $2)}'; then V=met; else V=MISSED; perf_ok=0; fi
}
# exact VALUE EXPECTED WHAT
exact() {
	if [ -n "$1" ] && [ "$1" = "$2" ]; then V="exact (= $3)"; else V="WRONG (expected $2 = $3)"; counts_ok=0; fi
}
goal "$REP_MED" "$(echo "$AUS_MED" | awk '{printf "%.9f", $1 * 0.5}')"; V_RATIO=$V
goal "${PL_KIB:-inf}" 65536; V_RSS=$V
exact "$LINES" "$((GEN_DENIALS + GEN_CHANGES))" "generator's records"; V_LINES=$V
exact "$REP_DENIALS" "$GEN_DENIALS" "generator's denials"; V_REP=$V
exact "$REP_CHANGES" "$GEN_CHANGES" "generator's changes"; V_REPC=$V
exact "$AUS_RECORDS" "$GEN_DENIALS" "generator's denials"; V_AUS=$V
exact "$PL_DENIALS" "$GEN_DENIALS" "generator's denials"; V_PL=$V
if [ "$MIXED_LINES" -gt 0 ]; then
	goal "$M_REP_MED" "$(echo "$M_AUS_MED" | awk '{printf "%.9f", $1 * 0.2}')"; V_MRATIO=$V
	exact "$M_LINES" "$((M_GEN_DENIALS + M_GEN_CHANGES + M_GEN_OTHERS))" "generator's records"; V_MLINES=$V
	exact "$M_REP_DENIALS" "$M_GEN_DENIALS" "generator's denials"; V_MREP=$V
	exact "$M_REP_CHANGES" "$M_GEN_CHANGES" "generator's changes"; V_MREPC=$V
	exact "$M_REP_BAD" 0 "no non-audit line written"; V_MBAD=$V
	exact "$M_AUS_RECORDS" "$M_GEN_DENIALS" "generator's denials"; V_MAUS=$V
fi
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

echo
echo "audisp-trusted-for benchmark: N=$N denials, $PATHS distinct paths,"
echo "  $LINES lines / $MIB MiB, $ROUNDS rounds, $(nproc) CPUs"
echo "  load (/proc/loadavg 1/5/15 min) before: $LOAD_BEFORE, after: $LOAD_AFTER"
printf '%-50s %-16s %s\n' "measure" "value" "goal: verdict"
printf '%-50s %-16s %s\n' "log lines" "$LINES" "$V_LINES"
printf '%-50s %-16s %s\n' "report --input LOG, s (min / median)" "$(ms "$REP_MIN") / $(ms "$REP_MED")" ""
printf '%-50s %-16s %s\n' "ausearch -m 1350 --raw -if LOG, s (min / median)" "$(ms "$AUS_MIN") / $(ms "$AUS_MED")" ""
printf '%-50s %-16s %s\n' "ratio report/ausearch (median; min)" "$RATIO; $RATIO_MIN" "median <= 0.5: $V_RATIO"
printf '%-50s %-16s %s\n' "report peak RSS, MiB" "$(echo "$REP_RSS" | awk '{printf "%.1f", $1 / 1024}')" ""
printf '%-50s %-16s %s\n' "report denials" "$REP_DENIALS" "$V_REP"
printf '%-50s %-16s %s\n' "report policy changes" "$REP_CHANGES" "$V_REPC"
printf '%-50s %-16s %s\n' "ausearch type-1350 records" "$AUS_RECORDS" "$V_AUS"
printf '%-50s %-16s %s\n' "plugin on stdin: wall s" "$(ms "$PL_S")" ""
printf '%-50s %-16s %s\n' "plugin throughput, records/s" "$PL_RATE" ""
printf '%-50s %-16s %s\n' "plugin peak RSS, MiB" "$PL_MIB" "<= 64 MiB (65536 KiB): $V_RSS"
printf '%-50s %-16s %s\n' "plugin state denials" "$PL_DENIALS" "$V_PL"
if [ "$MIXED_LINES" -gt 0 ]; then
	echo "mixed log: $M_GEN_DENIALS denials, $M_GEN_CHANGES policy changes, $M_GEN_OTHERS other records, $M_MIB MiB"
	printf '%-50s %-16s %s\n' "mixed: log lines" "$M_LINES" "$V_MLINES"
	printf '%-50s %-16s %s\n' "mixed: report --input LOG, s (min / median)" "$(ms "$M_REP_MIN") / $(ms "$M_REP_MED")" ""
	printf '%-50s %-16s %s\n' "mixed: ausearch -m 1350 --raw, s (min / median)" "$(ms "$M_AUS_MIN") / $(ms "$M_AUS_MED")" ""
	printf '%-50s %-16s %s\n' "mixed: ratio report/ausearch (median; min)" "$M_RATIO; $M_RATIO_MIN" "median <= 0.2: $V_MRATIO"
	printf '%-50s %-16s %s\n' "mixed: report denials" "$M_REP_DENIALS" "$V_MREP"
	printf '%-50s %-16s %s\n' "mixed: report policy changes" "$M_REP_CHANGES" "$V_MREPC"
	printf '%-50s %-16s %s\n' "mixed: report non-audit lines" "$M_REP_BAD" "$V_MBAD"
	printf '%-50s %-16s %s\n' "mixed: ausearch type-1350 records" "$M_AUS_RECORDS" "$V_MAUS"
fi
if [ "$counts_ok" = 0 ]; then
	echo "bench: FAILED: a count differs from the generator's (see WRONG above)"
	exit 1
fi
if [ "$perf_ok" = 0 ]; then
	echo "bench: counts exact; a performance goal MISSED (see above)"
	exit 3
fi
echo "bench: counts exact, every goal met"
