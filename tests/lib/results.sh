#!/bin/sh
# The one result gate of every directory's `make check` (and of dh_auto_test):
# reads the "RESULT <suite> <passed> <failed> [<skipped>]" lines of a log and
# exits 0 only when there are exactly EXPECTED of them and none reports a
# failure.  A sub-suite that printed nothing (a helper that failed to build,
# a script that died before its RESULT line), or "RESULT x 0 0" (it ran
# nothing), therefore fails the directory.
# usage: results.sh NAME EXPECTED LOGFILE
# Exit status: 0 all reported and passed, 1 otherwise, 2 bad usage.
[ $# -eq 3 ] || { echo "usage: results.sh NAME EXPECTED LOGFILE" >&2; exit 2; }
name=$1 expected=$2 log=$3
[ -r "$log" ] || { echo "$name: no test log at $log" >&2; exit 1; }
awk -v name="$name" -v expected="$expected" '
	$1 == "RESULT" && NF >= 4 && NF <= 5 && $3 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ {
		n++; p += $3; f += $4; s += $5
		if ($4 > 0) bad = bad " " $2
		# a suite that ran nothing and skipped nothing tested nothing
		if ($3 + $4 + $5 == 0) bad = bad " " $2 "(ran-nothing)"
	}
	END {
		if (n != expected)
			printf "%s: %d result lines, expected %d (a suite reported nothing)\n", \
				name, n, expected > "/dev/stderr"
		if (bad != "")
			printf "%s: failed suites:%s\n", name, bad > "/dev/stderr"
		exit (n == expected && bad == "") ? 0 : 1
	}' "$log"
