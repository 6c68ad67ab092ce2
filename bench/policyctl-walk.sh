#!/bin/bash
# policyctl check vs find on a generated tree (not a test).
#
# Generates N files (default 1000000; mixed: 1 in 10 a script by name, 1 in
# 10 a script by its #! line only, the rest data; modes vary) in a fresh
# tmpfs, then times, in the same run:
#   find ROOT -xdev -type f -perm /111   (one stat per file, the same walk)
#   policyctl check --policy 3 --path ROOT --user root
# and prints both times and the ratio policyctl/find (goal: <= 1.0).
# The peak RSS of policyctl (GNU time) shows that memory does not grow with
# the number of files.
# usage: bench/policyctl-walk.sh [N]   (root; tmpfs needs ~1 GB per 1M files)
set -eu
# a private mount namespace: the tmpfs stays invisible to everyone else
if [ -z "${PC_BENCH_NS:-}" ]; then
	exec env PC_BENCH_NS=1 unshare -m --propagation private bash "$0" "$@"
fi
N=${1:-1000000}
top=$(cd "$(dirname "$0")/.." && pwd)
P=$top/build/user/policyctl/policyctl
[ -x "$P" ] || make -s -C "$top/policyctl"
root=$(mktemp -d /tmp/pc-bench.XXXXXX)
cleanup() { umount "$root" 2>/dev/null; rmdir "$root"; }
trap cleanup EXIT
mount -t tmpfs -o size=4g,nr_inodes=0 pcbench "$root"

echo "generating $N files in $root ..."
/usr/bin/python3 - "$root" "$N" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
per_dir = 100
for i in range(n):
    if i % per_dir == 0:
        d = os.path.join(root, "d%d" % (i // 10000), "e%d" % (i // per_dir))
        os.makedirs(d, exist_ok=True)
    k = i % 10
    if k == 0:
        name, data, mode = "s%d.sh" % i, b"echo hi\n", 0o755 if i % 20 else 0o644
    elif k == 1:
        name, data, mode = "t%d" % i, b"#!/bin/sh\necho hi\n", 0o700
    else:
        name, data, mode = "f%d.dat" % i, b"some data\n", 0o644
    fd = os.open(os.path.join(d, name), os.O_WRONLY | os.O_CREAT, mode)
    os.write(fd, data)
    os.close(fd)
PY
sync
echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true

t0=$(date +%s.%N)
find "$root" -xdev -type f -perm /111 > /dev/null
t1=$(date +%s.%N)
/usr/bin/time -f "%M" -o /tmp/pc-bench.rss "$P" check --policy 3 --path "$root" --user root \
	> /tmp/pc-bench.out || true
t2=$(date +%s.%N)
tail -n 1 /tmp/pc-bench.out
ft=$(echo "$t1 - $t0" | bc -l)
pt=$(echo "$t2 - $t1" | bc -l)
printf 'files: %d\nfind:      %.2f s\npolicyctl: %.2f s (peak RSS %s KiB)\nratio policyctl/find: %.2f\n' \
	"$N" "$ft" "$pt" "$(tail -n 1 /tmp/pc-bench.rss)" "$(echo "$pt / $ft" | bc -l)"
