# shellcheck shell=sh
# trusttop in tests, demos and benches (POSIX sh; source it after
# tests/lib/wait.sh).  $TRUSTTOP is the binary.
# tt_start OUT ERR SECONDS ARGS...: trusttop ARGS in the background
#   (stdout to OUT, stderr to ERR, or to OUT when ERR is "-"), pid in
#   TT_PID; returns 0 once its first snapshot is out, 1 when none came in
#   SECONDS or trusttop ended first.
# tt_stop: SIGTERM (trusttop writes a last, complete snapshot), wait;
#   returns trusttop's exit status; TT_PID is emptied.
# tt_ready FILE: FILE holds a first snapshot (a complete JSON line, or
#   the header line of the text view).
# tt_last_snapshot FILE: the last snapshot of the text view in FILE.
# tt_prog_ids: ids of the loaded BPF programs named as trusttop's verdict
#   programs, sorted (compare before/after to find one trusttop's own).
# tt_fdinfo_runs PID IDS: "RUNS N": the kernel's run count of the programs
#   whose ids IDS lists (a file, one a line) that process PID holds, summed,
#   and N, how many of them it holds.  Read from the descriptors' fdinfo,
#   which gives run_cnt whatever its value (bpftool leaves run_cnt out of
#   its output when run_time_ns is 0, which a coarse sched_clock gives for
#   short programs, and a missing field read as 0 is not a count).
TT_PID=
tt_ready() {
	grep -q '^trusttop - ' "$1" 2>/dev/null ||
		{ has_lines "$1" 1 && head -n 1 "$1" | grep -q '^{'; }
}
tt__up() { tt_ready "$1" || ! kill -0 "$TT_PID" 2>/dev/null; }
tt_start() {
	_tt_out=$1 _tt_err=$2 _tt_secs=$3
	shift 3
	if [ "$_tt_err" = - ]; then
		"$TRUSTTOP" "$@" > "$_tt_out" 2>&1 &
	else
		"$TRUSTTOP" "$@" > "$_tt_out" 2> "$_tt_err" &
	fi
	TT_PID=$!
	wait_for "$_tt_secs" tt__up "$_tt_out"
	tt_ready "$_tt_out"
}
tt_stop() {
	kill -TERM "$TT_PID"
	wait "$TT_PID"
	_tt_rc=$?
	TT_PID=
	return $_tt_rc
}
tt_last_snapshot() {
	awk '/^trusttop - /{s=""} {s = s $0 "\n"} END{printf "%s", s}' "$1"
}
tt_prog_ids() {
	bpftool prog show --json |
		jq -r '.[] | select(.name | test("^(tf_verdict|ec_verdict|execveat)")) | .id' | sort
}
# tt_need_tracefs SHELL SCRIPT ARGS...: trusttop never mounts tracefs
#   (trusttop.8).  Where none is mounted and we are root, run SCRIPT again
#   with SHELL in a private mount namespace (tests/lib/mountns.sh, sourced
#   first) and mount it there, leaving the host's mounts alone.  Call it
#   first thing, as: tt_need_tracefs bash "$0" "$@".
tt_need_tracefs() {
	[ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ] ||
		[ "$(id -u)" != 0 ] && return 0
	mountns_reexec "$@"
	mount -t tracefs nodev /sys/kernel/tracing
}
tt_fdinfo_runs() {
	for _tt_f in /proc/"$1"/fdinfo/*; do
		cat "$_tt_f" 2> /dev/null
		echo
	done | awk -v ids="$2" '
		BEGIN { while ((getline l < ids) > 0) want[l] = 1 }
		/^prog_id:/ { id = $2 }
		/^run_cnt:/ { cnt = $2; has = 1 }
		/^$/ {
			if (has && (id in want) && !(id in seen)) {
				seen[id] = 1; n++; sum += cnt
			}
			id = ""; has = 0
		}
		END { print sum + 0, n + 0 }'
}
