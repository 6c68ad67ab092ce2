# shellcheck shell=sh
# Assertions for shell test scripts; source it, then call t_done SUITE at the end.
# Each check prints "ok - ..." or "not ok - ..." and is counted.
#
# Skips: t_skip REASON counts one skipped check and prints
#   "ok - REASON # SKIP" and "SKIPPED <suite>: REASON"
# (the suite name is $SUITE, or "?" when unset).  tests/run lists every
# SKIPPED line at the end of make check, so a skip is never silent.
# t_skip_suite SUITE N REASON: the whole suite cannot run here (the kernel
# lacks what it tests, say); prints N skips and its RESULT line, exits 0.
T_PASS=0
T_FAIL=0
T_SKIP=0
t_ok() { T_PASS=$((T_PASS + 1)); printf 'ok - %s\n' "$*"; }
t_fail() { T_FAIL=$((T_FAIL + 1)); printf 'not ok - %s\n' "$*"; }
t_skip() {
	T_SKIP=$((T_SKIP + 1))
	printf 'ok - %s # SKIP\n' "$*"
	printf 'SKIPPED %s: %s\n' "${SUITE:-?}" "$*"
}
t_skip_suite() {
	printf 'SKIPPED %s: %s (%s checks)\n' "$1" "$3" "$2"
	echo "RESULT $1 0 0 $2"
	exit 0
}
# t_eq WHAT EXPECTED ACTUAL
t_eq() {
	if [ "$2" = "$3" ]; then t_ok "$1"; else t_fail "$1: expected '$2', got '$3'"; fi
}
# t_run WHAT CMD...: passes when CMD exits 0
t_run() {
	what=$1; shift
	if "$@"; then t_ok "$what"; else t_fail "$what (exit $?)"; fi
}
t_done() {
	if [ "$T_SKIP" -gt 0 ]; then
		echo "RESULT $1 $T_PASS $T_FAIL $T_SKIP"
	else
		echo "RESULT $1 $T_PASS $T_FAIL"
	fi
	[ "$T_FAIL" -eq 0 ]
}
