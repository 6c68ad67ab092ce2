#!/bin/sh
# Host test of the report parsed by several processes (report_split.c,
# issue 26): for every input, the report with --jobs N (N = 2, 3, 7) must
# be byte for byte the report of one process (--jobs 1, the streaming
# path: another code path, the reference), as text with every table,
# JSON and metrics, filtered or not.  Inputs: the fixture logs with
# hostile bytes (tests/data, auditd-plugin/tests/data), the fuzzer's seeds
# and, when make fuzz kept one, its corpus; a generated mixed log whose
# file table evicts (the rows then depend on the order of counting); inputs
# cut across files, a file without its last newline, a line longer than
# the parser takes at a split point.  That the work was split is checked
# on the processes strace sees.
# usage: TF_BIN=path/to/audisp-trusted-for TF_GEN=path/to/gen-audit-log sh split.sh
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/assert.sh"
SUITE=auditd-plugin-split
BIN=${TF_BIN:-$TOP/build/user/auditd-plugin/audisp-trusted-for}
W=$(mktemp -d /tmp/tf-split.XXXXXX)
trap 'rm -rf "$W"' EXIT
export TZ=UTC LC_ALL=C

# bench/gen-audit-log.c, built by make -C auditd-plugin check
GEN=${TF_GEN:-$TOP/build/user/auditd-plugin/tests/gen-audit-log}
. "$TOP/tests/lib/build.sh"
need_build "$SUITE" "make -C auditd-plugin check" "$GEN"

# same NAME ARGS...: the report with ARGS, --jobs 1 against 2, 3 and 7
# (stdout and exit status), one check.
same() {
	_name=$1
	shift
	"$BIN" report --jobs 1 "$@" > "$W/ref" 2>&1
	_rc=$?
	for _j in 2 3 7; do
		"$BIN" report --jobs "$_j" "$@" > "$W/got" 2>&1
		_gr=$?
		if [ "$_gr" != "$_rc" ]; then
			t_fail "$_name: --jobs $_j exits $_gr, one process $_rc: $(head -c 300 "$W/got" | tr '\n' ' ')"
			return
		fi
		if ! cmp -s "$W/ref" "$W/got"; then
			t_fail "$_name: --jobs $_j differs from one process: $(diff "$W/ref" "$W/got" | head -4 | tr '\n' ' ')"
			return
		fi
	done
	t_ok "$_name: --jobs 2, 3 and 7 give one process's report (exit $_rc)"
}
# every_view NAME FILE...: text with all tables, JSON, metrics, filtered.
every_view() {
	_n=$1
	shift
	same "$_n: text" --table interpreter,file,reason,mount,user,auid,node,policy --input "$@"
	same "$_n: json" --json --input "$@"
	same "$_n: metrics" --metrics --input "$@"
	same "$_n: --since --node ''" --json --since @1764750001 --node '' --input "$@"
}

# the fixtures and the fuzzer's seeds, each alone, then all in one input
n=0
for f in "$TOP"/tests/data/audit-*.log "$TOP"/auditd-plugin/tests/data/audit-*.log \
	"$TOP"/auditd-plugin/fuzz/regressions/*; do
	same "$(basename "$f")" --json --input "$f"
	n=$((n + 1))
done
corpus=$TOP/build/fuzz/auditd-plugin/corpus
if [ -d "$corpus" ] && [ -n "$(ls -A "$corpus")" ]; then
	find "$corpus" -type f -exec cat {} + > "$W/corpus.log"
	every_view "the fuzzer's corpus ($(find "$corpus" -type f | wc -l) inputs)" "$W/corpus.log"
fi
cat "$TOP"/tests/data/audit-*.log "$TOP"/auditd-plugin/tests/data/audit-*.log \
	"$TOP"/auditd-plugin/fuzz/regressions/* > "$W/all.log"
every_view "the $n fixtures and seeds in one log" "$W/all.log"

# A mixed log: 20000 denials among ordinary events, 5000 distinct paths
# (the file table holds 4096: it evicts), 3 nodes, hostile names, AT_EXECVE_CHECK
# refusals and policy changes.
"$GEN" -n 20000 -p 5000 -x 50 -H 3 -m 2 -e 5 -c 1000 -s 7 -o "$W/mixed.log" 2> "$W/gen.err"
every_view "a generated mixed log, evicting" "$W/mixed.log"
# the same log as three files, cut mid-line (the second without its last newline)
split -n 3 "$W/mixed.log" "$W/part."
every_view "the mixed log in three files cut mid-line" "$W/part.aa" "$W/part.ab" "$W/part.ac"

# A line longer than the parser takes (16 KiB), where a split may fall.
{
	head -n 50 "$W/mixed.log"
	printf 'type=UNKNOWN[1350] msg=audit(1764750001.000:1): path="'
	head -c 40000 /dev/zero | tr '\0' a
	printf '"\n'
	tail -n 50 "$W/mixed.log"
} > "$W/long.log"
same "an overlong line" --json --input "$W/long.log"

# It was split: with --jobs 3 strace sees the workers, processes of their
# own (no CLONE_VM; LeakSanitizer, which cannot run under ptrace, is off).
# workers JOBS: the processes a report with --jobs JOBS starts.
workers() {
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=clone,clone3,fork,vfork -o "$W/trace" \
		"$BIN" report --jobs "$1" --json --input "$W/mixed.log" > /dev/null 2>&1
	grep -E '^[0-9]+ +(clone|clone3|fork|vfork)\(' "$W/trace" | grep -vc 'CLONE_VM'
}
if command -v strace > /dev/null; then
	t_eq "--jobs 3: two worker processes" 2 "$(workers 3)"
	t_eq "--jobs 1: no worker" 0 "$(workers 1)"
else
	t_fail "no strace (apt-get install strace)"
fi
# stdin is streamed by this process, whatever --jobs says
t_eq "stdin: one process's report" "$("$BIN" report --json --jobs 1 --input < "$W/mixed.log" | md5sum)" \
	"$("$BIN" report --json --jobs 3 --input < "$W/mixed.log" | md5sum)"

# usage errors: one line, exit 2
out=$("$BIN" report --jobs 0 --input "$W/mixed.log" 2>&1)
t_eq "--jobs 0: exit 2 and why" "2 audisp-trusted-for report: --jobs '0': use a number of processes 1..64" \
	"$? $out"
out=$("$BIN" report --jobs 2 --state "$W/none.json" 2>&1)
t_eq "--jobs without --input: exit 2 and why" \
	"2 audisp-trusted-for report: --jobs splits the parsing of --input logs: use it with --input" "$? $out"
t_done "$SUITE"
