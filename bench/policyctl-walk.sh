#!/bin/bash
# policyctl check vs find and bfs on a generated tree (a benchmark, not a
# test, but its counts are checked on every run).
#
# Generates N files (default 1000000; mixed: 1 in 10 a script by name, 1 in
# 10 a script by its #! line only, the rest data; modes vary) in a fresh
# tmpfs, then times, interleaved, ROUNDS times (default 3, at least 3; the
# order rotates each round):
#   find ROOT -xdev -type f -perm /111   (one stat per file, single-threaded)
#   bfs  ROOT -xdev -type f -perm /111   (when installed: a parallel find)
#   policyctl check --policy 3 --path ROOT --user root
#   bench/walk-floor -j CPUS ROOT (with GNU time; see below)
# and prints each round with the machine load, the medians, the ratios
# policyctl/find and policyctl/bfs (the median of the rounds' ratios, each
# ratio from the same round) and the verdict on the goal of issue 12,
# policyctl/find <= 1.0 (compared unrounded), with /proc/loadavg before and
# after. The machine is shared: another process may hold a core, so read
# every figure with its load. Nothing here is niced.
# Counts (any wrong one makes the exit status 1):
#  - the generator counts, as it writes them, the interpreted files, those
#    that policy 3 denies to root (scripts without any x bit) and those
#    with an x bit (every one of them a script, by construction);
#  - find and bfs must list exactly the files with an x bit;
#  - policyctl's summary must give the generator's denied and interpreted
#    counts, exit 1 (denials predicted), and its count of executable
#    scripts (interpreted - denied: under policy 3 root may run exactly the
#    scripts with an x bit) must equal find's count, an independent one.
# The peak RSS of policyctl (GNU time) shows that memory does not grow with
# the number of files. With GNU time each round also gives the CPU time
# (user + system) of find and policyctl and their ratio, the median of
# which is printed too (no goal: it is the work each does, whatever the
# load; policyctl spreads its work over the CPUs, so on an idle machine its
# wall ratio is about its CPU ratio divided by the CPUs it gets). With
# kernel.sched_autogroup_enabled=1 (printed) the scheduler shares the CPUs
# between sessions, not threads: while other sessions keep the CPUs busy,
# policyctl's threads together get about the share of find's one thread
# (at load 8.5 on 2 CPUs each got 23-31% of a CPU), and its wall ratio
# approaches its CPU ratio.
# The floor (issue 26): bench/walk-floor does only what telling scripts by
# their "#!" line needs (read each directory; open, read two bytes and
# close each file), in one process per CPU, the top directory's entries
# dealt out in turn. Its time over find's is the lowest policyctl/find
# that a walker which opens every file reached here; its CPU time over
# find's, what that work costs. Its counts (files, files starting "#!")
# are checked against the generator's.
# usage: [POLICYCTL=binary] bench/policyctl-walk.sh [N [ROUNDS]]
#        (root; the tmpfs needs ~1 GB per 1M files)
set -u
# a private mount namespace: the tmpfs stays invisible to everyone else
# shellcheck source=SCRIPTDIR/../tests/lib/mountns.sh
. "$(dirname "$0")/../tests/lib/mountns.sh"
mountns_reexec bash "$0" "$@"
N=${1:-1000000}
case $N in
'' | *[!0-9]*) echo "policyctl-walk: N '$N' is not a number of files: give e.g. 1000000" >&2; exit 2 ;;
esac
ROUNDS=${2:-3}
case $ROUNDS in
'' | *[!0-9]*) echo "policyctl-walk: ROUNDS '$ROUNDS' is not a number: give 3 or more" >&2; exit 2 ;;
esac
if [ "$ROUNDS" -lt 3 ]; then
	echo "policyctl-walk: ROUNDS $ROUNDS: the medians need at least 3 rounds" >&2
	exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
P=${POLICYCTL:-$top/build/user/policyctl/policyctl}
[ -x "$P" ] || make -s -C "$top/policyctl" || exit 2
FLOOR=$top/build/bench/walk-floor
if [ ! -x "$FLOOR" ] || [ "$top/bench/walk-floor.c" -nt "$FLOOR" ]; then
	mkdir -p "$top/build/bench" &&
		gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$FLOOR" "$top/bench/walk-floor.c" || exit 2
fi
work=$(mktemp -d /tmp/pc-bench.XXXXXX)
root=$work/tree
mkdir "$root"
cleanup() { umount "$root" 2> /dev/null; rm -rf "$work"; }
trap cleanup EXIT
mount -t tmpfs -o size=4g,nr_inodes=0 pcbench "$root" || exit 2
bad=0

echo "generating $N files in $root ..."
counts=$(/usr/bin/python3 - "$root" "$N" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
per_dir = 100
interp = denied = with_x = x_not_script = shebang = 0
for i in range(n):
    if i % per_dir == 0:
        d = os.path.join(root, "d%d" % (i // 10000), "e%d" % (i // per_dir))
        os.makedirs(d, exist_ok=True)
    k = i % 10
    if k == 0:
        name, data, mode = "s%d.sh" % i, b"echo hi\n", 0o755 if i % 20 else 0o644
        interp += 1
    elif k == 1:
        name, data, mode = "t%d" % i, b"#!/bin/sh\necho hi\n", 0o700
        interp += 1
        shebang += 1
    else:
        name, data, mode = "f%d.dat" % i, b"some data\n", 0o644
    if mode & 0o111:
        with_x += 1
        x_not_script += k > 1
    elif k <= 1:
        denied += 1   # a script without any x bit: policy 3 denies it to root
    fd = os.open(os.path.join(d, name), os.O_WRONLY | os.O_CREAT, mode)
    os.fchmod(fd, mode)   # not reduced by the umask
    os.write(fd, data)
    os.close(fd)
# policyctl's executable scripts are compared with find's executable files
assert x_not_script == 0, "a data file with an x bit: the cross-check needs none"
print(interp, denied, with_x, shebang)
PY
) || { echo "policyctl-walk: the generator failed" >&2; exit 2; }
read -r want_interp want_denied want_x want_shebang <<< "$counts"
echo "generator: $want_interp interpreted files, $want_denied denied by policy 3, $want_x with an x bit"
sync
echo 3 > /proc/sys/vm/drop_caches 2> /dev/null

load() { cut -d' ' -f1-3 /proc/loadavg; }
now() { echo "$EPOCHREALTIME"; }
has_bfs=
command -v bfs > /dev/null && has_bfs=1
time_bin=
[ -x /usr/bin/time ] && time_bin=/usr/bin/time

# cpu_of FILE: user + system seconds from GNU time's "%U %S" (last line)
cpu_of() { tail -n 1 "$1" | awk '{ printf "%.2f", $1 + $2 }'; }

# run_find TOOL: one timed listing by find or bfs (written to tmpfs, as
# policyctl writes its report); sets el (and cpu for find); checks the count.
run_find() {
	local tool=$1 t0 t1 rc n
	t0=$(now)
	if [ -n "$time_bin" ]; then
		"$time_bin" -f "%U %S" -o "$work/$tool.cpu" "$tool" "$root" -xdev \
			-type f -perm /111 > "$work/$tool.out"
	else
		"$tool" "$root" -xdev -type f -perm /111 > "$work/$tool.out"
	fi
	rc=$?
	t1=$(now)
	[ -n "$time_bin" ] && [ "$tool" = find ] && fc=$(cpu_of "$work/$tool.cpu")
	el=$(echo "$t1 - $t0" | bc -l)
	n=$(wc -l < "$work/$tool.out")
	if [ "$rc" != 0 ] || [ "$n" != "$want_x" ]; then
		echo "WRONG COUNT: $tool listed $n files with an x bit (exit $rc), generator wrote $want_x" >&2
		bad=1
	fi
	[ "$tool" = find ] && nf=$n
}
# run_pc: one timed policyctl check; sets el; checks its counts.
run_pc() {
	local t0 t1 rc summary got_denied got_interp want_rc=0
	t0=$(now)
	if [ -n "$time_bin" ]; then
		"$time_bin" -f "%M %U %S" -o "$work/rss" "$P" check --policy 3 \
			--path "$root" --user root > "$work/pc.out" 2> "$work/pc.err"
	else
		"$P" check --policy 3 --path "$root" --user root > "$work/pc.out" 2> "$work/pc.err"
	fi
	rc=$?
	t1=$(now)
	el=$(echo "$t1 - $t0" | bc -l)
	if [ -n "$time_bin" ]; then
		read -r rss pu ps < <(tail -n 1 "$work/rss")
		pc_cpu=$(echo "$pu + $ps" | bc -l)
	fi
	summary=$(tail -n 1 "$work/pc.out")
	if [[ $summary =~ ^policy\ 3\ would\ deny\ ([0-9]+)\ of\ ([0-9]+)\ interpreted\ files ]]; then
		got_denied=${BASH_REMATCH[1]} got_interp=${BASH_REMATCH[2]}
	else
		got_denied='?' got_interp='?'
		sed 's/^/policyctl stderr: /' "$work/pc.err" | tail -n 3 >&2
	fi
	[ "$want_denied" -gt 0 ] && want_rc=1
	if [ "$got_denied" != "$want_denied" ] || [ "$got_interp" != "$want_interp" ] ||
		[ "$rc" != "$want_rc" ]; then
		echo "WRONG COUNT: policyctl: denied $got_denied of $got_interp, exit $rc; generator: denied $want_denied of $want_interp, exit $want_rc expected" >&2
		bad=1
		pc_x='?'
	else
		pc_x=$((got_interp - got_denied))
	fi
	pc_summary=$summary
}
# run_floor: bench/walk-floor, a process per CPU (getdents, and open, read
# 2 bytes and close each file: what telling scripts by "#!" takes, nothing
# more); sets fl and flc (its seconds and CPU seconds); checks its counts.
run_floor() {
	local out t0 t1
	t0=$(now)
	out=$("$time_bin" -f "%U %S" -o "$work/floor.cpu" "$FLOOR" -j "$(nproc)" "$root") || {
		echo "WRONG COUNT: walk-floor failed" >&2; bad=1; }
	t1=$(now)
	fl=$(echo "$t1 - $t0" | bc -l)
	flc=$(cpu_of "$work/floor.cpu")
	if [ "$out" != "files $N shebang $want_shebang" ]; then
		echo "WRONG COUNT: walk-floor: '$out', generator: files $N shebang $want_shebang" >&2
		bad=1
	fi
}
# median of the arguments (the mean of the middle two for an even count)
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) printf "%.6f", v[(NR + 1) / 2];
		else printf "%.6f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

tools=(find pc)
[ -n "$has_bfs" ] && tools+=(bfs)
[ -n "$time_bin" ] && tools+=(floor)
ft=() pt=() bt=() rf=() rb=() rc_=() rfl=() rflw=()
rss='?' nf='?' pc_x='?' pc_summary='' fc='' pc_cpu=''
load_before=$(load)
echo "load before: $load_before ($(nproc) CPUs, kernel.sched_autogroup_enabled=$(cat /proc/sys/kernel/sched_autogroup_enabled 2> /dev/null || echo ?))"
for ((r = 0; r < ROUNDS; r++)); do
	lr=$(load)
	# rotate the order so that no tool always runs first
	for ((i = 0; i < ${#tools[@]}; i++)); do
		tool=${tools[(r + i) % ${#tools[@]}]}
		case $tool in
		find) run_find find; f=$el ;;
		bfs) run_find bfs; b=$el ;;
		pc) run_pc; p=$el ;;
		floor) run_floor ;;
		esac
	done
	# policyctl's executable scripts against find's executable files
	if [ "$pc_x" != "$nf" ]; then
		echo "WRONG COUNT: round $((r + 1)): policyctl counts $pc_x executable scripts, find $nf executable files" >&2
		bad=1
	fi
	ft+=("$f") pt+=("$p") rf+=("$(echo "$p / $f" | bc -l)")
	line=$(printf 'round %d (load %s): find %.3f s  policyctl %.3f s' $((r + 1)) "$lr" "$f" "$p")
	if [ -n "$has_bfs" ]; then
		bt+=("$b") rb+=("$(echo "$p / $b" | bc -l)")
		line+=$(printf '  bfs %.3f s  policyctl/find %.3f  policyctl/bfs %.3f' "$b" "${rf[-1]}" "${rb[-1]}")
	else
		line+=$(printf '  policyctl/find %.3f' "${rf[-1]}")
	fi
	if [ -n "$time_bin" ]; then
		# bc -l: a CPU time of 0.00 s (tiny trees) gives no ratio
		rflw+=("$(echo "$fl / $f" | bc -l)")
		line+=$(printf '  floor %.3f s (/find %.3f)' "$fl" "${rflw[-1]}")
		if [ "$(echo "$fc > 0" | bc -l)" = 1 ]; then
			rc_+=("$(echo "$pc_cpu / $fc" | bc -l)")
			rfl+=("$(echo "$flc / $fc" | bc -l)")
			line+=$(printf '  CPU find %.2f s policyctl %.2f s (%.2f) floor %.2f s (%.2f)' \
				"$fc" "$pc_cpu" "${rc_[-1]}" "$flc" "${rfl[-1]}")
		fi
	fi
	echo "$line"
done
load_after=$(load)
echo "load after:  $load_after"
echo "policyctl: $pc_summary"

ratio=$(median "${rf[@]}")
printf 'files: %d, rounds: %d (medians below)\n' "$N" "$ROUNDS"
printf 'find:      %.3f s\npolicyctl: %.3f s (peak RSS %s KiB)\n' \
	"$(median "${ft[@]}")" "$(median "${pt[@]}")" "$rss"
if [ -n "$has_bfs" ]; then
	printf 'bfs:       %.3f s\n' "$(median "${bt[@]}")"
else
	echo "bfs:       not installed (apt-get install bfs): no policyctl/bfs ratio"
fi
printf 'ratio policyctl/find: %.3f (load before %s, after %s)\n' "$ratio" "$load_before" "$load_after"
if [ -n "$has_bfs" ]; then
	printf 'ratio policyctl/bfs:  %.3f (load before %s, after %s)\n' \
		"$(median "${rb[@]}")" "$load_before" "$load_after"
fi
if [ ${#rc_[@]} -gt 0 ]; then
	printf 'CPU time policyctl/find: %.3f (user + system; no goal; %d CPUs)\n' \
		"$(median "${rc_[@]}")" "$(nproc)"
	printf 'CPU time floor/find: %.3f (the work of opening every file, against a stat of each)\n' \
		"$(median "${rfl[@]}")"
	printf 'ratio floor/find: %.3f (%d processes: the least policyctl/find that a walker which opens every file reached here)\n' \
		"$(median "${rflw[@]}")" "$(nproc)"
fi
# The goals, on the unrounded median ratios: issue 12's, then issue 26's
# (find and bfs).
verdict() { if [ "$(echo "$1 <= $2" | bc -l)" = 1 ]; then echo MET; else echo MISSED; fi; }
printf 'goal policyctl/find <= 1.0 (issue 12): %s (%.3f)\n' "$(verdict "$ratio" 1.0)" "$ratio"
printf 'goal policyctl/find <= 0.8 (issue 26): %s (%.3f)\n' "$(verdict "$ratio" 0.8)" "$ratio"
if [ -n "$has_bfs" ]; then
	rbm=$(median "${rb[@]}")
	printf 'goal policyctl/bfs <= 0.9 (issue 26): %s (%.3f)\n' "$(verdict "$rbm" 0.9)" "$rbm"
else
	echo "goal policyctl/bfs <= 0.9 (issue 26): not measured (no bfs)"
fi
if [ "$bad" = 0 ]; then
	echo "counts: exact in every round (policyctl $pc_summary; policyctl's executable scripts $pc_x = find's $nf)"
else
	echo "counts: WRONG (see above)"
fi
exit "$bad"
