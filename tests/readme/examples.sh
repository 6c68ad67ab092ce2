#!/bin/bash
# Run every command of the README's examples block (between the
# "examples:begin" and "examples:end" markers) and check its exit status:
# 0, or one of those listed in a trailing "# exit N|M" comment.  Commands
# run from the repository root with the tools' build directories on PATH.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
. tests/lib/assert.sh
U=$top/build/user
export PATH=$U/policyctl:$U/trusttop:$U/auditd-plugin:$U/interpreters:$PATH

n=0
while IFS= read -r line; do
	cmd=${line#\$ }
	allowed=0
	case $cmd in
	*'# exit '*) allowed=${cmd##*# exit }; cmd=${cmd%%# exit *} ;;
	esac
	n=$((n + 1))
	out=$(bash -c "$cmd" 2>&1 < /dev/null)
	rc=$?
	if [[ "|$allowed|" == *"|$rc|"* ]]; then
		t_ok "README: $cmd (exit $rc)"
	else
		t_fail "README: $cmd: exit $rc, expected $allowed: $(printf '%s' "$out" | tail -2)"
	fi
done < <(sed -n '/<!-- examples:begin -->/,/<!-- examples:end -->/p' README.md | grep '^\$ ')
[ "$n" -gt 0 ] || t_fail "no example found between the README markers"
t_done readme-examples
