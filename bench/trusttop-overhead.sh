#!/bin/bash
# Benchmark (not a test, but its counts are checked): cost of trusttop on
# exec checks.
#  - checks/s of PROCS concurrent tight trusted_for_exec() loops (tt-workload)
#    without and with trusttop attached, alternating in the same run;
#  - trusttop's own CPU time per second of wall time during the loops;
#  - exactness, every round: each worker reports N allowed checks and no
#    other answer (its own count), and trusttop counts PROCS * N checks for
#    them.  A wrong count exits 1.
# Goals (issue 12): slowdown <= 5 % on mainline (AT_EXECVE_CHECK), <= 15 %
# on the patched kernel (trusted_for, in the VM); the verdict compares the
# unrounded slowdown, computed from the total checks over the total time.
# As root, after `make -C trusttop`.
# usage: bench/trusttop-overhead.sh [CHECKS_PER_PROCESS] [ROUNDS] [PROCS]
#   defaults 200000 3 4
set -u
N=${1:-200000}
ROUNDS=${2:-3}
PROCS=${3:-4}
for v in "$N" "$ROUNDS" "$PROCS"; do
	case $v in '' | *[!0-9]* | 0)
		echo "trusttop-overhead: '$v' is not a positive whole number (usage: CHECKS ROUNDS PROCS)" >&2
		exit 2 ;;
	esac
done
B=${TRUSTTOP_BUILD:-build/user/trusttop}
TRUSTTOP=$B/trusttop
WORKLOAD=$B/tt-workload
[ -x "$TRUSTTOP" ] && [ -x "$WORKLOAD" ] || {
	echo "trusttop-overhead: no $TRUSTTOP or $WORKLOAD: run 'make -C trusttop' first" >&2; exit 2; }
backend=$("$WORKLOAD" -P)
case $backend in
trusted_for*) goal=15 ;;
*execve_check*) goal=5 ;;
*)
	echo "trusttop-overhead: this kernel has neither trusted_for(2) nor AT_EXECVE_CHECK ($backend): no exec checks to measure" >&2
	exit 2 ;;
esac
D=$(mktemp -d /tmp/trusttop-bench.XXXXXX)
TT_PID=
trap '[ -n "$TT_PID" ] && kill $TT_PID 2>/dev/null; rm -rf "$D"' EXIT
cp "$WORKLOAD" "$D/tt-bench"
printf '#!/bin/sh\n' > "$D/ok.sh"; chmod 755 "$D/ok.sh"
bad=0

now() { date +%s.%N; }
# run TAG: PROCS workers at once; prints the elapsed seconds (unrounded);
# every worker must report N allowed checks and nothing else.
run() {
	local t0 t1 i pids=() out
	t0=$(now)
	for i in $(seq "$PROCS"); do
		"$D/tt-bench" -c tt-bench -n "$N" "$D/ok.sh" > "$D/w$i.out" 2>&1 &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || echo "worker $((i + 1)) exited $?" >> "$D/w-errors"
	done
	t1=$(now)
	for i in $(seq "$PROCS"); do
		out=$(cat "$D/w$i.out")
		[ "$out" = "allowed $N denied 0 errors 0" ] ||
			echo "$1: worker $i: '$out', expected 'allowed $N denied 0 errors 0'" >> "$D/w-errors"
	done
	echo "$t1 - $t0" | bc -l
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

base_t=0 with_t=0 cpu=0 wall=0
issued=$((N * PROCS))
for r in $(seq "$ROUNDS"); do
	b=$(run "round $r without")
	rm -f "$D/out.json"
	"$TRUSTTOP" --json -d 1 > "$D/out.json" 2> "$D/err" &
	TT_PID=$!
	while [ ! -s "$D/out.json" ]; do  # first object: attached
		kill -0 "$TT_PID" 2> /dev/null || { cat "$D/err" >&2; exit 2; }
		sleep 0.1
	done
	c0=$(cpu_ticks "$TT_PID"); t0=$(now)
	w=$(run "round $r with")
	c1=$(cpu_ticks "$TT_PID"); t1=$(now)
	kill -TERM "$TT_PID"; wait "$TT_PID"; TT_PID=
	counted=$(tail -n 1 "$D/out.json" | jq '[.interpreters[] | select(.exe == "tt-bench") | .checks] | add')
	printf 'round %d: without %.0f checks/s, with %.0f checks/s, trusttop counted %s of %d issued\n' \
		"$r" "$(echo "$issued / $b" | bc -l)" "$(echo "$issued / $w" | bc -l)" "$counted" "$issued"
	[ -n "${BENCH_DEBUG:-}" ] && tail -n 1 "$D/out.json" | jq -c "[.map_full, .ringbuf_drops, (.interpreters[] | select(.exe == \"tt-bench\") | [.comm, .uid, .checks, .allowed, .denied, .errors])]"
	if [ "$counted" != "$issued" ]; then
		echo "round $r: WRONG COUNT: trusttop counted $counted checks, $issued were issued" >&2
		bad=1
	fi
	if [ -s "$D/w-errors" ]; then
		sed 's/^/WRONG COUNT: /' "$D/w-errors" >&2
		rm -f "$D/w-errors"
		bad=1
	fi
	base_t=$(echo "$base_t + $b" | bc -l)
	with_t=$(echo "$with_t + $w" | bc -l)
	cpu=$((cpu + c1 - c0))
	wall=$(echo "$wall + $t1 - $t0" | bc -l)
done
hz=$(getconf CLK_TCK)
echo "backend: $backend, $PROCS processes x $N checks x $ROUNDS rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$issued $ROUNDS $base_t $with_t $cpu $hz $wall $goal" | awk '{
	base = $1 * $2 / $3; with = $1 * $2 / $4; slow = 100 * (1 - with / base)
	printf "mean without trusttop: %.0f checks/s\n", base
	printf "mean with trusttop:    %.0f checks/s\n", with
	printf "trusttop CPU: %.3f s per s of wall time at that rate\n", ($5 / $6) / $7
	printf "slowdown %.2f%%  goal <= %d%%: %s\n", slow, $8, slow <= $8 ? "MET" : "MISSED"
}'
if [ "$bad" = 0 ]; then
	echo "counts: exact in every round"
else
	echo "counts: WRONG (see above)"
fi
exit "$bad"
