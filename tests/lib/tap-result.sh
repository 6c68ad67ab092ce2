#!/bin/sh
# Run a TAP-producing test (kselftest harness, cmocka in TAP mode) and print
# its result line:  RESULT <suite> <passed> <failed> <skipped>
#  - "ok N ... # SKIP reason" and "not ok N ... # SKIP reason" are skipped
#    tests (cmocka writes the latter; the directive is "#" at the start of
#    the text or after a blank, then the word SKIP in any case, so a name
#    holding "#skip_list" is not skipped); each is also printed as
#    "SKIPPED <suite>: <test> <reason>" so that tests/run can list it.
#  - The plan lines ("1..N", summed over cmocka's groups) must match the
#    tests counted: a run that dies part-way shows as failed, not as fewer
#    passes.  A run with no plan, no test, or a non-zero exit with no
#    failing test reported, counts as one failure.
# usage: tap-result.sh SUITE CMD [ARGS...]
suite=$1; shift
out=$(mktemp)
CMOCKA_MESSAGE_OUTPUT=TAP "$@" > "$out" 2>&1; rc=$?
cat "$out"
# Only top-level TAP lines count (kselftest's nested "# ok" lines do not).
awk -v suite="$suite" -v rc="$rc" '
	/^1\.\.[0-9]+/ { split($1, p, "\\.\\."); plan += p[2]; plans++; next }
	# cmocka says why in a comment before its "not ok N # SKIP test" line.
	/^# SKIP / { why = substr($0, 8); next }
	/^(not )?ok( |$)/ {
		n++
		line = $0
		sub(/^(not )?ok[ \t]*[0-9]*[ \t]*(-[ \t]*)?/, "", line)
		# The SKIP directive (any case, as TAP has it): a "#" at the
		# start or after a blank, then the word SKIP; a "#" or "skip"
		# inside a test name ("a#skip", "#skip_list") is not one.
		i = match(" " line, /[ \t]#[ \t]*[Ss][Kk][Ii][Pp]([ \t]|$)/)
		if (i) {
			skip++
			name = substr(line, 1, i - 1); sub(/[ \t]+$/, "", name)
			rest = substr(line, i - 1 + RLENGTH); sub(/^[ \t]+/, "", rest)
			if (name == "" && why != "" && index(why, rest) == 1)
				text = why
			else if (name == "")
				text = rest
			else
				text = name ": " rest
			printf "SKIPPED %s: %s\n", suite, text
		} else if ($0 ~ /^not ok/) {
			fail++
		} else {
			pass++
		}
		why = ""
	}
	END {
		if (plans == 0) {
			printf "# %s: no TAP plan (1..N) printed\n", suite > "/dev/stderr"
			fail++
		} else if (n != plan) {
			printf "# %s: planned %d tests, ran %d\n", suite, plan, n > "/dev/stderr"
			fail += (plan > n) ? plan - n : 1
		}
		# kselftest exits KSFT_SKIP (4) when every test skipped.
		if (rc == 4 && n > 0 && skip == n)
			rc = 0
		if (rc != 0 && fail == 0) {
			printf "# %s: exited %d with no failing test reported\n", suite, rc > "/dev/stderr"
			fail = 1
		}
		if (n == 0 && fail == 0) {
			printf "# %s: no test ran\n", suite > "/dev/stderr"
			fail = 1
		}
		printf "RESULT %s %d %d %d\n", suite, pass, fail, skip
	}' "$out"
rm -f "$out"
