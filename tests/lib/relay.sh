# shellcheck shell=sh
# trustfor-relay in the background, for tests and the demo (POSIX sh;
# source it after tests/lib/wait.sh; $RELAY is the program).
# relay_start OUT [ARGS...]: the relay (stderr to OUT), pid in RPID;
#   returns once it said it is ready (0), 1 when it ended or 20 s passed.
# relay_stop: SIGTERM, wait (it drains its ring buffer first); returns its
#   exit status.
# relay_kill: relay_stop when it runs (for fx_at_exit), whatever it returns.
# relay_counters OUT: SIGUSR1, and its answer, the last line of OUT:
#   "trustfor-relay: seen N, logged N, lost N, unsent N" (empty after 10 s).
RPID=
relay__up() { grep -q ': ready' "$1" || ! kill -0 "$RPID" 2> /dev/null; }
relay_start() {
	_rs_out=$1
	shift
	: > "$_rs_out"
	"$RELAY" "$@" 2> "$_rs_out" &
	RPID=$!
	wait_for 20 relay__up "$_rs_out"
	grep -q ': ready' "$_rs_out"
}
relay_stop() {
	kill "$RPID" && wait "$RPID"
	_rs_rc=$?
	RPID=
	return $_rs_rc
}
relay_kill() { [ -z "$RPID" ] || relay_stop 2> /dev/null || :; }
relay__answered() { [ "$(grep -c '^trustfor-relay: seen ' "$1")" -gt "$2" ]; }
relay_counters() {
	_rc_n=$(grep -c '^trustfor-relay: seen ' "$1")
	kill -USR1 "$RPID" &&
		wait_for 10 relay__answered "$1" "$_rc_n" &&
		grep '^trustfor-relay: seen ' "$1" | tail -n 1
}
