#!/bin/bash
# ShellCheck over trustfor's shell scripts: the shell twin of checkpatch.sh.
#
# Each tracked shell file is one test: every *.sh and *.inc, and every
# other file whose first line is a sh or bash #!.  Files sourced by others
# (no #! of their own) say "# shellcheck shell=sh" on their first line.  A
# file passes when shellcheck reports nothing at the "warning" level or
# above, with the two checks below left out, and with the findings a file
# accepts on purpose disabled on their line, each with its reason
# ("# shellcheck disable=SCnnnn # why").
#
# Left out, and why:
#   SC2034 (assigned, never used) and SC2154 (used, never assigned): the
#     test scripts are split into fragments that share variables (assert.sh
#     and the RESULT line's SUITE, run()'s rc/out/err, model.sh's E_*), and
#     ShellCheck reads one file at a time: it cannot see the other half.
# The "info" and "style" levels are not gated: most of their findings are
# unquoted expansions (SC2086) that split on purpose (option lists, pid
# lists), which the scripts would have to turn into bash arrays.
#
# usage: tests/style/shellcheck.sh [FILE...]   (default: every shell file)
# Prints "RESULT shellcheck P F" and shellcheck's lines for failing files.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2

if ! command -v shellcheck > /dev/null; then
	echo "# shellcheck: not installed (apt-get install shellcheck, or make deps)"
	echo "RESULT shellcheck 0 1"
	exit 1
fi

if [ $# -gt 0 ]; then
	files=("$@")
else
	files=()
	while IFS= read -r f; do
		[ -f "$f" ] || continue
		case $f in
		*.sh | *.inc) files+=("$f") ;;
		*) head -n 1 "$f" | grep -qE '^#! */(usr/)?bin/(env +)?(ba)?sh( |$)' &&
			files+=("$f") ;;
		esac
	done < <(git ls-files)
fi
# Fewer than this means the list above went wrong (not a git tree, say),
# and the suite would pass on nothing.
if [ $# -eq 0 ] && [ ${#files[@]} -lt 50 ]; then
	echo "# shellcheck: found ${#files[@]} shell files in $top, expected 50 or more"
	echo "RESULT shellcheck 0 1"
	exit 1
fi

pass=0 fail=0
for f in "${files[@]}"; do
	if out=$(shellcheck -S warning -e SC2034,SC2154 -f gcc -- "$f" 2>&1); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		printf '%s\n' "$out" | sed 's/^/# /'
		[ -n "$out" ] || echo "# $f: shellcheck failed without a finding"
	fi
done
echo "RESULT shellcheck $pass $fail"
[ "$fail" = 0 ]
