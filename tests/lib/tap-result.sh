#!/bin/sh
# Run a TAP-producing test (kselftest harness, cmocka in TAP mode) and print
# its result line:  RESULT <suite> <passed> <failed> <skipped>
# "ok ... # SKIP" lines are skipped tests, not passes.  A run that crashes
# or reports nothing counts as one failure.
# usage: tap-result.sh SUITE CMD [ARGS...]
suite=$1; shift
out=$(mktemp)
CMOCKA_MESSAGE_OUTPUT=TAP "$@" > "$out" 2>&1; rc=$?
cat "$out"
skip=$(grep -c -E '^ok [0-9]*.*# (SKIP|skip)' "$out")
ok=$(grep -c -E '^ok ' "$out")
pass=$((ok - skip))
fail=$(grep -c -E '^not ok ' "$out")
rm -f "$out"
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
	echo "# $suite: exited $rc with no failing test reported" >&2
	fail=1
fi
if [ "$ok" -eq 0 ] && [ "$fail" -eq 0 ]; then
	echo "# $suite: no test ran" >&2
	fail=1
fi
echo "RESULT $suite $pass $fail $skip"
