#!/bin/sh
# Benchmark (not a test): cost of trusttop on exec checks.
#  - checks/s of a tight trusted_for_exec() loop without and with trusttop
#    attached, in the same run (goal: <= 15% slowdown);
#  - trusttop's own CPU time per second of wall time during the loop;
#  - exactness: checks counted by trusttop = checks issued.
# Runs on the patched kernel (trusted_for) or mainline (AT_EXECVE_CHECK),
# as root, after `make -C trusttop`.
# usage: bench/trusttop-overhead.sh [CHECKS] [ROUNDS]
set -u
N=${1:-200000}
ROUNDS=${2:-3}
B=${TRUSTTOP_BUILD:-build/user/trusttop}
TRUSTTOP=$B/trusttop
WORKLOAD=$B/tt-workload
[ -x "$TRUSTTOP" ] && [ -x "$WORKLOAD" ] || {
	echo "bench: no $TRUSTTOP or $WORKLOAD: run 'make -C trusttop' first" >&2; exit 2; }
D=$(mktemp -d /tmp/trusttop-bench.XXXXXX)
trap 'kill $TT_PID 2>/dev/null; rm -rf "$D"' EXIT
TT_PID=
cp "$WORKLOAD" "$D/tt-bench"
printf '#!/bin/sh\n' > "$D/ok.sh"; chmod 755 "$D/ok.sh"

now() { date +%s.%N; }
run() { # prints checks/s of one run
	t0=$(now)
	"$D/tt-bench" -c tt-bench -n "$N" "$D/ok.sh" > /dev/null
	t1=$(now)
	echo "$N $t0 $t1" | awk '{printf "%.0f\n", $1 / ($3 - $2)}'
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

base=0; with=0; cpu=0; wall=0
for r in $(seq "$ROUNDS"); do
	b=$(run)
	rm -f "$D/out.json"
	"$TRUSTTOP" --json -d 1 > "$D/out.json" 2> "$D/err" &
	TT_PID=$!
	while [ ! -s "$D/out.json" ]; do  # first object: attached
		kill -0 "$TT_PID" 2>/dev/null || { cat "$D/err" >&2; exit 1; }
		sleep 0.1
	done
	c0=$(cpu_ticks "$TT_PID"); t0=$(now)
	w=$(run)
	c1=$(cpu_ticks "$TT_PID"); t1=$(now)
	kill -TERM "$TT_PID"; wait "$TT_PID"; TT_PID=
	counted=$(tail -n 1 "$D/out.json" | jq '[.interpreters[] | select(.exe == "tt-bench") | .checks] | add')
	echo "round $r: without $b/s, with $w/s, counted $counted of $N issued"
	[ -n "${BENCH_DEBUG:-}" ] && tail -n 1 "$D/out.json" | jq -c "[.map_full, .ringbuf_drops, (.interpreters[] | select(.exe == \"tt-bench\") | [.comm, .uid, .checks, .allowed, .denied, .errors])]"
	base=$((base + b)); with=$((with + w))
	cpu=$((cpu + c1 - c0))
	wall=$(echo "$wall $t0 $t1" | awk '{print $1 + $3 - $2}')
	[ "$counted" = "$N" ] || echo "round $r: NOT EXACT" >&2
done
hz=$(getconf CLK_TCK)
echo "$base $with $ROUNDS $cpu $hz $wall" | awk '{
	printf "mean without trusttop: %.0f checks/s\n", $1 / $3
	printf "mean with trusttop:    %.0f checks/s (slowdown %.1f%%, goal <= 15%%)\n", $2 / $3, 100 * (1 - $2 / $1)
	printf "trusttop CPU: %.3f s per s of wall time at that rate\n", ($4 / $5) / $6
}'
