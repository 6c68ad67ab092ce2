# Assertions for shell test scripts; source it, then call t_done SUITE at the end.
# Each check prints "ok - ..." or "not ok - ..." and is counted.
T_PASS=0
T_FAIL=0
t_ok() { T_PASS=$((T_PASS + 1)); printf 'ok - %s\n' "$*"; }
t_fail() { T_FAIL=$((T_FAIL + 1)); printf 'not ok - %s\n' "$*"; }
# t_eq WHAT EXPECTED ACTUAL
t_eq() {
	if [ "$2" = "$3" ]; then t_ok "$1"; else t_fail "$1: expected '$2', got '$3'"; fi
}
# t_run WHAT CMD...: passes when CMD exits 0
t_run() {
	what=$1; shift
	if "$@"; then t_ok "$what"; else t_fail "$what (exit $?)"; fi
}
t_done() { echo "RESULT $1 $T_PASS $T_FAIL"; [ "$T_FAIL" -eq 0 ]; }
