# shellcheck shell=sh
# Polling for shell tests (POSIX sh; source it).
# wait_for SECONDS CMD...: run CMD until it succeeds (return 0) or SECONDS
#   have passed (return 1, CMD having failed at or after the deadline).
#   Polls every $WAIT_STEP seconds (default 0.1).
# nonempty FILE / has_lines FILE N: conditions for wait_for.
wait_for() {
	_wf_end=$(($(date +%s) + $1))
	shift
	while ! "$@"; do
		[ "$(date +%s)" -ge "$_wf_end" ] && return 1
		sleep "${WAIT_STEP:-0.1}"
	done
	return 0
}
nonempty() { [ -s "$1" ]; }
has_lines() { [ -e "$1" ] && [ "$(wc -l < "$1")" -ge "$2" ]; }
