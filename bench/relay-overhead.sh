#!/bin/bash
# Benchmark (not a test, but its counts are checked): what trustfor-relay
# costs, on a kernel with AT_EXECVE_CHECK and no record of its own.
#  - allowed checks (the path every interpreter start takes): checks/s of
#    PROCS concurrent loops of allowed AT_EXECVE_CHECK calls (tests/probe)
#    without anything attached, with the empty-program floor (tt-floor:
#    empty programs where trusttop and the relay attach,
#    sys_exit_execveat) and with the relay; rounds alternate the order, as
#    bench/trusttop-overhead.sh does.  The relay's goal: no cost above the
#    floor beyond the noise (its allowed path is the decoding and one test);
#  - refusals: the refusing loop's time per refusal without and with the
#    relay (the BPF side, paid by the refused process), and the relay's own
#    CPU time per record written (libaudit, the audit socket; paid by the
#    relay, not by the process), with a private auditd writing the log;
#    exactness: logged + lost = issued, from the relay's counters and
#    rl-flood's own count.
# Timings are wall-clock ratios of the same run; the load is printed.
# As root, after make -C relay and make -C trusttop (tt-floor).
# usage: bench/relay-overhead.sh [CHECKS_PER_PROCESS] [ROUNDS] [PROCS]
#   defaults 200000 3 2
# shellcheck source-path=SCRIPTDIR/../tests/lib
set -u
. "$(dirname "$0")/../tests/lib/mountns.sh"
. "$(dirname "$0")/../tests/lib/wait.sh"
. "$(dirname "$0")/../tests/lib/trusttop.sh"
# the programs need tracefs: where none is mounted, a private one
tt_need_tracefs bash "$0" "$@"
. "$(dirname "$0")/../tests/lib/relay.sh"
. "$(dirname "$0")/../tests/lib/auditd.sh"
N=${1:-200000}
ROUNDS=${2:-3}
PROCS=${3:-2}
for v in "$N" "$ROUNDS" "$PROCS"; do
	case $v in '' | *[!0-9]* | 0)
		echo "relay-overhead: '$v' is not a positive whole number (usage: CHECKS ROUNDS PROCS)" >&2
		exit 2 ;;
	esac
done
TOP=$(cd "$(dirname "$0")/.." && pwd)
U=${TF_BUILD:-$TOP/build/user}
RELAY=$U/relay/trustfor-relay FLOOD=$U/relay/tests/rl-flood
PROBE=$U/tests/probe/probe FLOOR=$U/trusttop/tt-floor
for f in "$RELAY" "$FLOOD" "$PROBE" "$FLOOR"; do
	[ -x "$f" ] || { echo "relay-overhead: no $f: run 'make -C relay all test-helpers' and 'make -C trusttop' first" >&2; exit 2; }
done
case $("$PROBE" --kernel) in
*trusted_for*) echo "relay-overhead: the trustfor kernel logs refusals itself: the relay does not run here" >&2; exit 2 ;;
*execve_check*) ;;
*) echo "relay-overhead: this kernel has no AT_EXECVE_CHECK: nothing to measure" >&2; exit 2 ;;
esac
D=$(mktemp -d /tmp/relay-bench.XXXXXX)
BG=
trap '[ -n "$BG" ] && kill $BG 2>/dev/null; relay_kill; auditd_kill; rm -rf "$D"' EXIT
printf '#!/bin/sh\n' > "$D/ok.sh"; chmod 755 "$D/ok.sh"
printf 'x\n' > "$D/no.py"; chmod 644 "$D/no.py"
auditd_conf "$D/audit" RAW && auditd_start "$D/audit" 20 || { echo "relay-overhead: auditd did not start" >&2; exit 2; }
bad=0
now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# allowed: PROCS loops of N allowed checks; prints the seconds.
allowed() {
	local t0 i pids=()
	t0=$(now)
	for i in $(seq "$PROCS"); do
		"$PROBE" -a execve_check -n "$N" "$D/ok.sh" > "$D/a$i" 2>&1 &
		pids+=($!)
	done
	# Only the workers: a bare wait would also wait for the attached tool.
	wait "${pids[@]}"
	for i in $(seq "$PROCS"); do
		grep -qx "allowed $N denied 0 errors 0 checks $N" "$D/a$i" ||
			{ echo "WRONG COUNT: worker $i: $(cat "$D/a$i")" >&2; bad=1; }
	done
	echo "$(now) - $t0" | bc -l
}
# with CMD...: run allowed with CMD attached (ready once it printed a line).
with() {
	"$@" > "$D/bg.out" 2> "$D/bg.err" &
	BG=$!
	wait_for 30 eval '[ -s "$D/bg.out" ] || grep -q ready "$D/bg.err" || ! kill -0 $BG 2>/dev/null'
	allowed
	kill "$BG"; wait "$BG" 2> /dev/null; BG=
}
b=0 f=0 w=0
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then
		rb=$(allowed); rf=$(with "$FLOOR"); rw=$(with "$RELAY")
	else
		rw=$(with "$RELAY"); rf=$(with "$FLOOR"); rb=$(allowed)
	fi
	printf 'allowed, round %d: without %.0f checks/s, floor %.0f, relay %.0f; load %s\n' "$r" \
		"$(echo "$N * $PROCS / $rb" | bc -l)" "$(echo "$N * $PROCS / $rf" | bc -l)" \
		"$(echo "$N * $PROCS / $rw" | bc -l)" "$(load)"
	b=$(echo "$b + $rb" | bc -l); f=$(echo "$f + $rf" | bc -l); w=$(echo "$w + $rw" | bc -l)
done
echo "$b $f $w" | awk '{ printf "allowed checks: floor slowdown %.2f%%, relay slowdown %.2f%%, relay above the floor %.2f%% of the time without\n",
	100 * (1 - $1 / $2), 100 * (1 - $1 / $3), 100 * ($3 - $2) / $1 }'

# Refusals: the refusing loop without and with the relay, and the relay's CPU.
R=$((N / 10))
t0=$(now); "$FLOOD" -n "$R" "$D/no.py" > /dev/null; nb=$(echo "$(now) - $t0" | bc -l)
relay_start "$D/relay.err" ||
	{ echo "relay-overhead: the relay did not start: $(tail -n 3 "$D/relay.err")" >&2; exit 2; }
c0=$(awk '{ print $14 + $15 }' "/proc/$RPID/stat")
t0=$(now); "$FLOOD" -n "$R" "$D/no.py" > "$D/flood.out"; nw=$(echo "$(now) - $t0" | bc -l)
issued=$(sed -n 's/^refused //p' "$D/flood.out")
# settled: every refusal seen, and either logged or lost, none left to send
settled() {
	stats=$(relay_counters "$D/relay.err") &&
		[ "$(echo "$stats" | awk '{ gsub(/,/, ""); print ($3 == $7 + $5 && $9 == 0) ? $3 : -1 }')" = "$issued" ]
}
stats=
wait_for 120 settled
c1=$(awk '{ print $14 + $15 }' "/proc/$RPID/stat")
relay_stop || { echo "relay-overhead: the relay exited $?" >&2; bad=1; }
logged=$(echo "$stats" | sed -n 's/.* logged \([0-9]*\),.*/\1/p')
lost=$(echo "$stats" | sed -n 's/.* lost \([0-9]*\),.*/\1/p')
hz=$(getconf CLK_TCK)
printf 'refusals: %d issued in one loop: %.2f us each without the relay, %.2f us with (the BPF side, paid by the process)\n' \
	"$issued" "$(echo "1000000 * $nb / $R" | bc -l)" "$(echo "1000000 * $nw / $R" | bc -l)"
printf 'relay: %.1f us of CPU per record written (%d written, %d lost by a full ring at this rate)\n' \
	"$(echo "1000000 * ($c1 - $c0) / $hz / ($logged + ($logged == 0))" | bc -l)" "$logged" "$lost"
if [ "$((logged + lost))" = "$issued" ]; then
	echo "counts: logged + lost = issued ($logged + $lost = $issued)"
else
	echo "counts: WRONG: logged $logged + lost $lost != issued $issued" >&2
	bad=1
fi
echo "machine: $(nproc) CPUs, load $(load)"
exit "$bad"
