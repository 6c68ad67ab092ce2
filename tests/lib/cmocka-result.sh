#!/bin/sh
# Run one cmocka test binary with TAP output and print its result line:
#   RESULT <suite> <passed> <failed>
# A binary that crashes or prints no TAP plan counts as one failure.
# usage: cmocka-result.sh SUITE BINARY [ARGS...]
suite=$1; shift
out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$@" 2>&1); rc=$?
printf '%s\n' "$out"
pass=$(printf '%s\n' "$out" | grep -c '^ok ')
fail=$(printf '%s\n' "$out" | grep -c '^not ok ')
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
	echo "# $suite: exited $rc with no failing test reported" >&2
	fail=1
fi
if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ]; then
	echo "# $suite: no test ran" >&2
	fail=1
fi
echo "RESULT $suite $pass $fail"
