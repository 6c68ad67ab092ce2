#!/bin/sh
# Benchmark (not a test): run time of trusttop's BPF programs per event
# (the kernel's BPF run-time statistics, enabled for the run), for N allowed
# checks through libtrustedfor.
# usage: bench/trusttop-progcost.sh [CHECKS]   (root, after make -C trusttop)
set -u
N=${1:-20000}
B=${TRUSTTOP_BUILD:-build/user/trusttop}
D=$(mktemp -d /tmp/trusttop-cost.XXXXXX)
P=
old_stats=$(cat /proc/sys/kernel/bpf_stats_enabled)
trap 'echo "$old_stats" > /proc/sys/kernel/bpf_stats_enabled; [ -n "$P" ] && kill $P 2>/dev/null; rm -rf "$D"' EXIT
echo 1 > /proc/sys/kernel/bpf_stats_enabled
"$B/trusttop" -b -d 1 > "$D/out" 2> "$D/err" &
P=$!
while [ ! -s "$D/out" ]; do
	kill -0 "$P" 2>/dev/null || { cat "$D/err" >&2; exit 1; }
	sleep 0.1
done
printf '#!/bin/sh\n' > "$D/ok.sh"; chmod 755 "$D/ok.sh"
"$B/tt-workload" -c tt-cost -n "$N" "$D/ok.sh"
bpftool prog show | awk '/ name (tf_verdict|execveat)/ {
	for (i = 1; i <= NF; i++) {
		if ($i == "name") n = $(i + 1)
		if ($i == "run_time_ns") t = $(i + 1)
		if ($i == "run_cnt") c = $(i + 1)
	}
	if (c) printf "%s: %.0f ns/run over %d runs\n", n, t / c, c
}'
kill -TERM "$P"; wait "$P"; P=
