#!/bin/bash
# Benchmark (not a test, but its counts are checked): cost of trusttop on
# exec checks.
#  - checks/s of PROCS concurrent tight trusted_for_exec() loops (tests/probe)
#    without and with trusttop attached, alternating in the same run (odd
#    rounds without first, even rounds with first), each round's slowdown
#    and the load printed with it;
#  - the floor: the same loops with empty BPF programs where trusttop
#    attaches its own (tt-floor), the cost of the tracepoint and of running
#    any program there, which no change to trusttop's program can remove;
#  - trusttop's own CPU time per second of wall time during the loops;
#  - exactness, every round: each worker reports N allowed checks and no
#    other answer (its own count), and trusttop counts PROCS * N checks for
#    them.  A wrong count exits 1.
# Goals (issue 12): slowdown <= 5 % on mainline (AT_EXECVE_CHECK), <= 15 %
# on the patched kernel (trusted_for, in the VM); the verdict compares the
# unrounded slowdown, computed from the total checks over the total time
# (the median of the rounds is printed beside it), and the goal the kernel
# cannot measure is named as not measured.  Other trusttops attached to the
# same events (other users of the machine) tax both columns: their number
# is printed with the load.
# Wall times are read from the clock of the machine that runs the bench: in
# the test VM, boot with a clock that follows the host's (refined-jiffies,
# the default there, loses ticks under TCG and made rounds disagree by
# 5-40 %):  TF_VM_APPEND=tsc=reliable tests/vm/run -- bench/trusttop-overhead.sh
# The clock source is printed, and a tick-based one is flagged.
# MODE=interp (issue 26, the realistic workload): each worker starts
# trusted-python3 and trusted-dash in turn, N times each, on a small script
# of a checked file; the goal is then a slowdown <= 1 % on either kernel.
# The checks one start of each makes are counted once beforehand with
# strace (execveat with AT_EXECVE_CHECK, trusted_for(2), on a file: not the
# feature probes on descriptor -1), and trusttop must count exactly that
# many per start; every start must print its script's output.
# As root, after `make -C trusttop` (and `make -C interpreters` for interp).
# usage: [MODE=probe|interp] bench/trusttop-overhead.sh [N] [ROUNDS] [PROCS]
#   N: checks (probe) or starts of each interpreter (interp) per process;
#   defaults 200000 (probe) or 200 (interp), 3 rounds, 4 processes
# shellcheck source-path=SCRIPTDIR source-path=SCRIPTDIR/../tests/lib
set -u
. "$(dirname "$0")/interp-starts.sh"
. "$(dirname "$0")/../tests/lib/mountns.sh"
. "$(dirname "$0")/../tests/lib/wait.sh"
. "$(dirname "$0")/../tests/lib/trusttop.sh"
# trusttop needs tracefs and never mounts it: where none is, a private one
tt_need_tracefs bash "$0" "$@"
MODE=${MODE:-probe}
case $MODE in
probe) N=${1:-200000} ;;
interp) N=${1:-200} ;;
*) echo "trusttop-overhead: MODE '$MODE': use probe or interp" >&2; exit 2 ;;
esac
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
WORKLOAD=$(dirname "$B")/tests/probe/probe
FLOOR=$B/tt-floor
[ -x "$TRUSTTOP" ] && [ -x "$WORKLOAD" ] || {
	echo "trusttop-overhead: no $TRUSTTOP or $WORKLOAD: run 'make -C trusttop' first" >&2; exit 2; }
backend=$("$WORKLOAD" --kernel)
# Both goals of issue 12; this kernel measures one of them.
case $backend in
trusted_for*) goal=15 other="AT_EXECVE_CHECK <= 5%: not measured here (needs Linux >= 6.14 without trusted_for)" ;;
*execve_check*) goal=5 other="trusted_for <= 15%: not measured here (needs the patched kernel: in the VM)" ;;
*)
	echo "trusttop-overhead: this kernel has neither trusted_for(2) nor AT_EXECVE_CHECK ($backend): no exec checks to measure" >&2
	exit 2 ;;
esac
D=$(mktemp -d /tmp/trusttop-bench.XXXXXX)
TT_PID=
# floor_run runs in $(...): its tt-floor's pid is in $D/floor.pid for this
# trap too (a SIGTERM to the bench alone never reaches that subshell).
trap '[ -n "$TT_PID" ] && kill $TT_PID 2>/dev/null; [ -s "$D/floor.pid" ] && kill "$(cat "$D/floor.pid")" 2>/dev/null; rm -rf "$D"' EXIT
cp "$WORKLOAD" "$D/tt-bench"
printf '#!/bin/sh\n' > "$D/ok.sh"; chmod 755 "$D/ok.sh"
if [ "$MODE" = interp ]; then
	interp_setup trusttop-overhead "$(dirname "$B")" "$D"
	goal=1 other="(interp: the goal of issue 26 on either kernel)"
fi
bad=0
load() { cut -d' ' -f1-3 /proc/loadavg; }
# Programs of another trusttop already attached to the same events tax
# both columns (said with the load, not subtracted).
foreign=$(bpftool prog show --json 2> /dev/null |
	jq '[.[] | select(.name | test("^(tf_verdict|execveat)"))] | length' 2> /dev/null)

now() { date +%s.%N; }
# run TAG: PROCS workers at once; prints the elapsed seconds (unrounded)
# and leaves the workers' CPU seconds (user + system, where the BPF
# programs run) in $D/cpu; every worker must report N allowed checks and
# nothing else.
run() {
	local t0 t1 i pids=() out
	t0=$(now)
	for i in $(seq "$PROCS"); do
		if [ "$MODE" = interp ]; then
			( interp_loop "$N" "$D" > "$D/w$i.out" 2>&1
			  rc=$?; times > "$D/w$i.times"; exit $rc ) &
		else
			( "$D/tt-bench" -c tt-bench -n "$N" "$D/ok.sh" > "$D/w$i.out" 2>&1
			  rc=$?; times > "$D/w$i.times"; exit $rc ) &
		fi
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || echo "worker $((i + 1)) exited $?" >> "$D/w-errors"
	done
	t1=$(now)
	children_cpu "$D"/w*.times > "$D/cpu"
	for i in $(seq "$PROCS"); do
		if [ "$MODE" = interp ]; then
			got=$(interp_out_ok "$D/w$i.out" "$N") ||
				echo "$1: worker $i: '$got', expected '$N py, $N sh'" >> "$D/w-errors"
			continue
		fi
		out=$(cat "$D/w$i.out")
		[ "$out" = "allowed $N denied 0 errors 0 checks $N" ] ||
			echo "$1: worker $i: '$out', expected 'allowed $N denied 0 errors 0 checks $N'" >> "$D/w-errors"
	done
	echo "$t1 - $t0" | bc -l
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
clock=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2> /dev/null)
case $clock in
*jiffies*) clock="$clock (ticks: wall figures unreliable in a VM; boot it with tsc=reliable)" ;;
'') clock="unknown" ;;
esac
# floor_run TAG: the loops with tt-floor's empty programs attached; prints
# the elapsed seconds, or nothing when they cannot be attached (the reason
# is kept in $D/floor-why).  Called in $(...) only: its traps are the
# subshell's, and kill its tt-floor however the subshell ends (a SIGTERM
# to the bench's process group, say), so that no empty program stays
# attached.
floor_run() {
	FL_PID=  # global: the EXIT trap runs after the function returns
	[ -x "$FLOOR" ] || { echo "no $FLOOR (make -C trusttop)" > "$D/floor-why"; return; }
	trap '[ -n "$FL_PID" ] && kill "$FL_PID" 2> /dev/null; rm -f "$D/floor.pid"' EXIT
	trap 'exit 143' TERM
	trap 'exit 130' INT
	trap 'exit 129' HUP
	"$FLOOR" > "$D/floor.out" 2> "$D/floor.err" &
	FL_PID=$!
	echo "$FL_PID" > "$D/floor.pid"
	while [ ! -s "$D/floor.out" ]; do
		kill -0 "$FL_PID" 2> /dev/null || { cat "$D/floor.err" > "$D/floor-why"; FL_PID=; return; }
		sleep 0.1
	done
	# In the background: wait returns at once on a signal, and the
	# traps run then (not after the round).
	run "$1" > "$D/floor.t" &
	wait $!
	kill -TERM "$FL_PID"; wait "$FL_PID"; FL_PID=
	cat "$D/floor.t"
}

base_t=0 with_t=0 floor_t=0 base_ft=0 with_ft=0 cpu=0 wall=0
issued=$((N * PROCS))
exes='"tt-bench"'
if [ "$MODE" = interp ]; then
	issued=$((N * PROCS * per_start))
	exes="\"$(basename "$PY")\", \"$(basename "$DASH")\""
	echo "interp: one start checks $per_py files (trusted-python3), $per_sh (trusted-dash), by strace; $((N * PROCS)) starts of each a round"
fi
for r in $(seq "$ROUNDS"); do
	# Odd rounds run without trusttop first, even rounds last: what the
	# order does (warm caches, the previous round's clean-up) cancels.
	# The floor runs between the two, so that it also sees both orders.
	[ $((r % 2)) = 1 ] && b=$(run "round $r without") && bc_=$(cat "$D/cpu") &&
		f=$(floor_run "round $r floor") && fc_=$(cat "$D/cpu")
	rm -f "$D/out.json"
	"$TRUSTTOP" --json -d 1 > "$D/out.json" 2> "$D/err" &
	TT_PID=$!
	while [ ! -s "$D/out.json" ]; do  # first object: attached
		kill -0 "$TT_PID" 2> /dev/null || { cat "$D/err" >&2; exit 2; }
		sleep 0.1
	done
	c0=$(cpu_ticks "$TT_PID"); t0=$(now)
	w=$(run "round $r with"); wc_=$(cat "$D/cpu")
	c1=$(cpu_ticks "$TT_PID"); t1=$(now)
	kill -TERM "$TT_PID"; wait "$TT_PID"; TT_PID=
	[ $((r % 2)) = 0 ] && f=$(floor_run "round $r floor") && fc_=$(cat "$D/cpu") &&
		b=$(run "round $r without") && bc_=$(cat "$D/cpu")
	counted=$(tail -n 1 "$D/out.json" | jq "[.interpreters[] | select(.exe | IN($exes)) | .checks] | add")
	if [ -n "$f" ]; then
		fl=$(printf ', floor %.2f%%' "$(echo "100 * (1 - $b / $f)" | bc -l)")
		floor_t=$(echo "$floor_t + $f" | bc -l)
		# without and with over the same rounds, for the floor's figures
		base_ft=$(echo "$base_ft + $b" | bc -l)
		with_ft=$(echo "$with_ft + $w" | bc -l)
	else
		fl=", floor not measured"
	fi
	printf 'round %d: without %.0f checks/s, with %.0f checks/s, slowdown %.2f%%%s; workers CPU %.2f s without, %.2f s with (%+.2f%%); trusttop counted %s of %d issued; load %s\n' \
		"$r" "$(echo "$issued / $b" | bc -l)" "$(echo "$issued / $w" | bc -l)" \
		"$(echo "100 * (1 - $b / $w)" | bc -l)" "$fl" "$bc_" "$wc_" \
		"$(echo "100 * ($wc_ / $bc_ - 1)" | bc -l)" "$counted" "$issued" "$(load)"
	echo "$b $w $bc_ $wc_" >> "$D/rounds"
	[ -n "$f" ] && echo "$bc_ $fc_ $wc_" >> "$D/floor-cpu"
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
echo "backend: $backend, mode $MODE, $PROCS processes x $N $([ "$MODE" = interp ] && echo "starts of each interpreter" || echo checks) x $ROUNDS rounds, $(nproc) CPUs, load $(load), clock $clock, other trusttop programs attached: ${foreign:-?}"
median=$(awk '{ print 100 * (1 - $1 / $2) }' "$D/rounds" | sort -g |
	awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
echo "$issued $ROUNDS $base_t $with_t $cpu $hz $wall $goal $median" | awk '{
	base = $1 * $2 / $3; with = $1 * $2 / $4; slow = 100 * (1 - with / base)
	printf "mean without trusttop: %.0f checks/s\n", base
	printf "mean with trusttop:    %.0f checks/s\n", with
	printf "trusttop CPU: %.3f s per s of wall time at that rate\n", ($5 / $6) / $7
	printf "slowdown %.2f%% (with/without %.4f; median of the rounds %.2f%%)  goal <= %d%%: %s\n", slow, with / base, $9, $8, slow <= $8 ? "MET" : "MISSED"
}'
# The floor: what the same loops lose with empty programs in trusttop's
# place, over the same rounds (trusttop's slowdown cannot go below it).
if [ "$floor_t" != 0 ]; then
	# Issue 26's goal: trusttop's cost above the floor at most half the
	# floor's own, both in time added to the time without anything: in
	# wall time (the totals), and in the workers' CPU time (floor-cpu),
	# over the same rounds.
	awk -v bt="$base_ft" -v ft="$floor_t" -v wt="$with_ft" '
	function goal(what, without, floor_, with_,    floor, above, v) {
		floor = 100 * (floor_ - without) / without; above = 100 * (with_ - floor_) / without
		if (floor <= 0 || above < 0)
			v = "NOT SHOWN (a cost measured below nothing attached: noise; more checks a round)"
		else
			v = above <= floor / 2 ? "MET" : "MISSED"
		printf "%strusttop above the floor %.2f%% of the time without, the floor itself %.2f%%: %.2f of it  goal <= 0.5 of it (issue 26): %s\n",
			what, above, floor, (floor > 0 ? above / floor : 0), v
	}
	{ b += $1; f += $2; w += $3 }
	END {
		printf "floor (empty programs where trusttop attaches): slowdown %.2f%%; trusttop above it: %.2f%% of the time without\n",
			100 * (1 - bt / ft), 100 * (wt - ft) / bt
		goal("", bt, ft, wt)
		goal("in CPU time: ", b, f, w)
	}' "$D/floor-cpu"
else
	echo "floor: not measured: $(head -n 1 "$D/floor-why" 2> /dev/null)"
fi
# The same cost in CPU time: the CPU seconds the workers needed for the
# same checks, with trusttop against without (less sensitive to what else
# the machine runs than wall time; the goal verdict above is on wall time).
awk -v goal="$goal" '{ b += $3; w += $4 } END {
	slow = 100 * (1 - b / w)
	printf "CPU time per check: without %.2f us, with %.2f us, slowdown %.2f%% (without/with %.4f)  goal <= %d%%: %s\n",
		1e6 * b / (NR * '"$issued"'), 1e6 * w / (NR * '"$issued"'), slow, b / w, goal, slow <= goal ? "MET" : "MISSED"
}' "$D/rounds"
echo "goal $other"
if [ "$bad" = 0 ]; then
	echo "counts: exact in every round"
else
	echo "counts: WRONG (see above)"
fi
exit "$bad"
