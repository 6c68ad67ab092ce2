#!/bin/sh
# Benchmark (issue 23): what a flood of refusal records by an unprivileged
# user costs the audited system calls of other processes, and whether every
# refusal reaches the log.  Run in the VM, as root, after `make kernel tools`:
#   TF_VM_APPEND=tsc=reliable tests/vm/run [--kernel IMG] -- \
#       bench/audit-flood.sh [REFUSALS] [CALLS]
# (defaults 1000 and 5000, the README's figures; --kernel: e.g. a kernel without patch 13 to
# compare).
# A real auditd (its own configuration, no plugin), with Debian's audit
# settings (auditctl -b 8192, or TF_BACKLOG; backlog wait 60000 jiffies), and one exit rule on
# uname(2) (key tf-lat), which only the latency probe calls.  Two runs of
# bench/syscall_latency CALLS (1 ms apart): alone, then while user nobody
# floods: 2 processes (copies of tests/probe named python3 and perl), each
# refused REFUSALS times on each of 8 files of a noexec mount (policy 1), at
# their maximum rate.  Beside each, another user (uid 65533) is refused 10
# times on a ninth file, a second apart (syscall_latency -r): the latency
# of the refusals of a user who is not flooding, whose records the wait for
# headroom concerns (patch 18 gives each user a share per pass of kauditd,
# a 1024th of the limit, that does not wait).  Prints the
# latencies (median, p99, max, calls over 10 ms), the flood's length and
# rate, the kernel's lost counter and backlog wait time (auditctl -s)
# before and after, and compares auditd's log with the probes' own counts:
# type-1350 records = refusals issued, and distinct (ino, uid, exe) = 17.
# Exit status: 0, 1 when a count differs, 2 on bad usage or setup.
set -u
R=${1:-1000}
CALLS=${2:-5000}
for v in "$R" "$CALLS"; do
	case $v in '' | *[!0-9]* | 0)
		echo "audit-flood: '$v' is not a positive whole number (usage: REFUSALS CALLS)" >&2
		exit 2 ;;
	esac
done
. tests/lib/wait.sh
. tests/lib/auditd.sh
PROBE=$PWD/build/user/tests/probe/probe
LAT=$PWD/build/bench/syscall_latency
[ -e /proc/sys/fs/trust_policy ] || { echo "audit-flood: not the patched kernel: run it through tests/vm/run" >&2; exit 2; }
[ -x "$PROBE" ] || { echo "audit-flood: no $PROBE: run 'make tools' first" >&2; exit 2; }
command -v auditd > /dev/null || { echo "audit-flood: no auditd: apt-get install auditd" >&2; exit 2; }
LIBTF=$PWD/build/user/lib/pub/libtrustedfor.a
LIBTF_INT=$PWD/build/user/lib/libtf-internal.a # tf_getopt_error()
[ -r "$LIBTF" ] && [ -r "$LIBTF_INT" ] ||
	{ echo "audit-flood: no $LIBTF or $LIBTF_INT: run 'make tools' first" >&2; exit 2; }
mkdir -p "$(dirname "$LAT")"
if [ ! -x "$LAT" ] || [ -n "$(find bench/syscall_latency.c "$LIBTF" "$LIBTF_INT" -newer "$LAT")" ]; then
	gcc -std=c11 -O2 -Wall -Wextra -Werror -Ilib -o "$LAT" \
		bench/syscall_latency.c "$LIBTF" "$LIBTF_INT" || exit 2
fi
OTHER=65533
OCALLS=10

D=$(mktemp -d /tmp/tf-flood.XXXXXX)
chmod 0755 "$D"
AUDITD_PID=
cleanup() {
	auditctl -D > /dev/null 2>&1
	auditd_kill
	umount "$D/noexec" 2> /dev/null
	rm -rf "$D"
}
trap cleanup EXIT
auditd_conf "$D/audit" RAW "flush = INCREMENTAL_ASYNC" "freq = 100" \
	"max_log_file = 0" "max_log_file_action = IGNORE" "q_depth = 2000"
auditd_start "$D/audit" 60 || { echo "audit-flood: auditd did not start: $(tail -3 "$D/audit/auditd.out")" >&2; exit 2; }
auditctl -b "${TF_BACKLOG:-8192}" -r 0 --backlog_wait_time 60000 -e 1 > /dev/null
auditctl -a always,exit -F arch=b64 -S uname -F key=tf-lat > /dev/null

mkdir "$D/noexec" "$D/bin"
mount -t tmpfs -o noexec,mode=0755 tf-flood "$D/noexec"
for i in 1 2 3 4 5 6 7 8; do printf 'x\n' > "$D/noexec/f$i.py"; done
printf 'x\n' > "$D/noexec/other.py"
cp "$PROBE" "$D/bin/python3"
cp "$PROBE" "$D/bin/perl"
chmod 0755 "$D/bin"
old_policy=$(cat /proc/sys/fs/trust_policy)
echo 1 > /proc/sys/fs/trust_policy

status() { auditctl -s | sed -n "s/^$1 //p"; }
echo "# kernel $(uname -r), $(nproc) CPUs, clock $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), backlog limit $(status backlog_limit), wait $(status backlog_wait_time)"

# The other user's refusals, by syscall_latency -r as uid $OTHER.
other() {
	setpriv --reuid=$OTHER --regid=$OTHER --clear-groups \
		"$LAT" -r "$D/noexec/other.py" "$OCALLS" 1000000
}
alone=$("$LAT" "$CALLS")
echo "alone:        $alone"
oalone=$(other) || { echo "audit-flood: uid $OTHER's refusals: $oalone" >&2; exit 2; }
echo "uid $OTHER refused alone:        $oalone"

lost0=$(status lost)
wait0=$(status backlog_wait_time_actual)
# The queue's length during the flood, as often as auditctl -s answers
# (about once a second under TCG): whether it reached the reserve (three
# quarters of the limit), where refusals wait.
( while :; do status backlog; sleep 0.02; done > "$D/backlog.out" ) &
sampler=$!
t0=$(date +%s%N)
pids=
for exe in python3 perl; do
	"$D/bin/$exe" -u nobody -n "$R" "$D"/noexec/f*.py > "$D/$exe.out" &
	pids="$pids $!"
done
other > "$D/other.out" 2>&1 &
opid=$!
# (auditd is a child of this shell too: wait for these only)
"$LAT" "$CALLS" > "$D/lat.out"
lat_end=$(date +%s%N)
wait $opid || { echo "audit-flood: uid $OTHER's refusals: $(cat "$D/other.out")" >&2; exit 2; }
# shellcheck disable=SC2086 # pids: a list of numbers
wait $pids
t1=$(date +%s%N)
kill $sampler
limit=$(status backlog_limit)
echo "queue during the flood: up to $(sort -n "$D/backlog.out" | tail -1) of $limit (sampled), $(awk -v r=$((limit - limit / 4)) '$1 >= r' "$D/backlog.out" | wc -l) of $(wc -l < "$D/backlog.out") samples in the reserve (>= $((limit - limit / 4)))"
echo "during flood: $(cat "$D/lat.out")"
echo "uid $OTHER refused during flood: $(cat "$D/other.out")"
echo "the latency run took $(((lat_end - t0) / 1000000)) ms of the flood's $(((t1 - t0) / 1000000)) ms"
issued=0
for exe in python3 perl; do
	n=$(sed -n 's/^allowed 0 denied \([0-9]*\) errors 0 checks [0-9]*$/\1/p' "$D/$exe.out")
	[ -n "$n" ] || { echo "audit-flood: $exe: $(cat "$D/$exe.out")" >&2; exit 2; }
	issued=$((issued + n))
done
ms=$(((t1 - t0) / 1000000))
echo "flood: $issued refusals by uid $(id -u nobody) in $ms ms ($((issued * 1000 / (ms + 1))) /s)"
issued=$((issued + 2 * OCALLS))

# Every record the kernel queued before the marker is in the log once the
# marker is (the kernel sends them in order).
auditd_marker_wait "$D/audit/log" 600 || echo "# the marker was not logged within 600 s"
lost1=$(status lost)
wait1=$(status backlog_wait_time_actual)
echo "kernel lost counter $lost0 -> $lost1; backlog_wait_time_actual $wait0 -> $wait1"
echo "$old_policy" > /proc/sys/fs/trust_policy

logged=$(grep -ac '^type=UNKNOWN\[1350\] ' "$D"/audit/log/audit.log*)
distinct=$(grep -a '^type=UNKNOWN\[1350\] ' "$D"/audit/log/audit.log* |
	sed -n 's/.* ino=\([0-9]*\) .* uid=\([0-9]*\) .* exe=\("[^"]*"\) .*/\1 \2 \3/p' |
	sort -u | wc -l)
echo "log: $logged refusal records for $issued refusals (uid $OTHER's included); $distinct distinct (ino, uid, exe) for 17"
rc=0
[ "$logged" = "$issued" ] || rc=1
[ "$distinct" = 17 ] || rc=1
[ "$lost0" = "$lost1" ] || rc=1
exit $rc
