#!/bin/bash
# policyctl check vs find (and bfs) on a generated tree (a benchmark, not a
# test, but its counts are checked).
#
# Generates N files (default 1000000; mixed: 1 in 10 a script by name, 1 in
# 10 a script by its #! line only, the rest data; modes vary) in a fresh
# tmpfs, then times, in the same run:
#   find ROOT -xdev -type f -perm /111   (one stat per file, the same walk)
#   bfs  ROOT -xdev -type f -perm /111   (when installed: a parallel find)
#   policyctl check --policy 3 --path ROOT --user root
# The generator counts, as it writes them, the interpreted files, those that
# policy 3 denies to root (scripts without any x bit) and those with an x
# bit; policyctl's summary and find's output must give exactly those counts,
# and policyctl must exit 1 (denials predicted).  A wrong count or exit
# status exits 1.  Goal (issue 12): policyctl/find <= 1.0, compared on the
# unrounded times; the verdict is printed with the machine load.
# The peak RSS of policyctl (GNU time) shows that memory does not grow with
# the number of files.
# usage: bench/policyctl-walk.sh [N]   (root; tmpfs needs ~1 GB per 1M files)
set -u
# a private mount namespace: the tmpfs stays invisible to everyone else
if [ -z "${PC_BENCH_NS:-}" ]; then
	exec env PC_BENCH_NS=1 unshare -m --propagation private bash "$0" "$@"
fi
N=${1:-1000000}
case $N in
'' | *[!0-9]*) echo "policyctl-walk: N '$N' is not a number of files: give e.g. 1000000" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
P=$top/build/user/policyctl/policyctl
[ -x "$P" ] || make -s -C "$top/policyctl" || exit 2
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
interp = denied = with_x = 0
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
    else:
        name, data, mode = "f%d.dat" % i, b"some data\n", 0o644
    if mode & 0o111:
        with_x += 1
    elif k <= 1:
        denied += 1   # a script without any x bit: policy 3 denies it to root
    fd = os.open(os.path.join(d, name), os.O_WRONLY | os.O_CREAT, mode)
    os.fchmod(fd, mode)   # not reduced by the umask
    os.write(fd, data)
    os.close(fd)
print(interp, denied, with_x)
PY
) || { echo "policyctl-walk: the generator failed" >&2; exit 2; }
read -r want_interp want_denied want_x <<< "$counts"
echo "generator: $want_interp interpreted files, $want_denied denied by policy 3, $want_x with an x bit"
sync
echo 3 > /proc/sys/vm/drop_caches 2> /dev/null

now() { date +%s.%N; }
# find and bfs write their lists (to tmpfs) as policyctl writes its report.
t0=$(now)
find "$root" -xdev -type f -perm /111 > "$work/find.out"
frc=$?
t1=$(now)
/usr/bin/time -f "%M" -o "$work/rss" "$P" check --policy 3 --path "$root" --user root \
	> "$work/pc.out" 2> "$work/pc.err"
prc=$?
t2=$(now)
bt=
if command -v bfs > /dev/null; then
	t3=$(now)
	bfs "$root" -xdev -type f -perm /111 > "$work/bfs.out"
	brc=$?
	t4=$(now)
	bt=$(echo "$t4 - $t3" | bc -l)
	nb=$(wc -l < "$work/bfs.out")
	if [ "$brc" != 0 ] || [ "$nb" != "$want_x" ]; then
		echo "WRONG COUNT: bfs listed $nb files with an x bit (exit $brc), generator wrote $want_x" >&2
		bad=1
	fi
fi

# The counts.
nf=$(wc -l < "$work/find.out")
if [ "$frc" != 0 ] || [ "$nf" != "$want_x" ]; then
	echo "WRONG COUNT: find listed $nf files with an x bit (exit $frc), generator wrote $want_x" >&2
	bad=1
fi
summary=$(tail -n 1 "$work/pc.out")
echo "policyctl: $summary"
if [[ $summary =~ ^policy\ 3\ would\ deny\ ([0-9]+)\ of\ ([0-9]+)\ interpreted\ files ]]; then
	got_denied=${BASH_REMATCH[1]} got_interp=${BASH_REMATCH[2]}
else
	got_denied=? got_interp=?
	sed 's/^/policyctl stderr: /' "$work/pc.err" | tail -n 3 >&2
fi
want_rc=0
[ "$want_denied" -gt 0 ] && want_rc=1
if [ "$got_denied" != "$want_denied" ] || [ "$got_interp" != "$want_interp" ] ||
	[ "$prc" != "$want_rc" ]; then
	echo "WRONG COUNT: policyctl: denied $got_denied of $got_interp, exit $prc; generator: denied $want_denied of $want_interp, exit $want_rc expected" >&2
	bad=1
fi

ft=$(echo "$t1 - $t0" | bc -l)
pt=$(echo "$t2 - $t1" | bc -l)
ratio=$(echo "$pt / $ft" | bc -l)
printf 'files: %d\nload:  %s\nfind:      %.3f s\npolicyctl: %.3f s (peak RSS %s KiB)\n' \
	"$N" "$(cut -d' ' -f1-3 /proc/loadavg)" "$ft" "$pt" "$(tail -n 1 "$work/rss")"
if [ -n "$bt" ]; then
	printf 'bfs:       %.3f s\nratio policyctl/bfs:  %.3f\n' "$bt" "$(echo "$pt / $bt" | bc -l)"
else
	echo "bfs:       not installed (apt-get install bfs): no policyctl/bfs ratio"
fi
# The goal, on the unrounded ratio.
if [ "$(echo "$ratio <= 1.0" | bc -l)" = 1 ]; then verdict=MET; else verdict=MISSED; fi
printf 'ratio policyctl/find: %.3f  goal <= 1.0: %s\n' "$ratio" "$verdict"
if [ "$bad" = 0 ]; then
	echo "counts: exact (policyctl $got_denied of $got_interp, find $nf)"
else
	echo "counts: WRONG (see above)"
fi
exit "$bad"
