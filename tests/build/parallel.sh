#!/bin/bash
# The parallel build: `make -jN tools` from an empty output directory, as
# dpkg-buildpackage runs it (parallel=N by default since dpkg 1.21.10).
# Each directory's Makefile builds what it links from other directories
# (lib's archive, the test probe) on demand, so the top-level Makefile must
# order those directories first; otherwise several sub-makes write the same
# object at once and, now and then, one links a torn file (this failed
# `make deb` in CI once).  A race shows rarely as a failed build but always
# as a file built twice, so that is what is checked, from the quiet build
# lines ("  CC      user/tests/probe/probe.o", mk/quiet.mk): every target
# at most once.  Then a second run must have nothing to do.
# Prints "RESULT build-parallel <passed> <failed>".
# usage: tests/build/parallel.sh    (no root needed; builds into a temp dir)
#   TF_BUILD_JOBS=N    make -jN (default 4: more jobs than this machine's
#                      two cores, so that the sub-makes overlap)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/assert.sh"
suite=build-parallel
SUITE=$suite # read by t_skip (assert.sh)
jobs=${TF_BUILD_JOBS:-4}
tmp=$(mktemp -d /tmp/tf-build-par.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The caller's make (make check) must not make this build silent (-s) or
# join its jobserver: the build lines are what is checked.
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$top" -j"$jobs" V=0 O="$tmp/out" tools
}

# lines LOG: the quiet build lines, "VERB TARGET" each.
lines() {
	grep -a -E '^  [A-Z]+ +[^ ]+$' "$1" | awk -v o="$tmp/out/" '
		{ t = $2; if (index(t, o) == 1) t = substr(t, length(o) + 1); print $1, t }'
}

if mk > "$tmp/first.log" 2>&1; then
	t_ok "make -j$jobs tools from an empty output directory"
else
	tail -20 "$tmp/first.log"
	t_fail "make -j$jobs tools from an empty output directory (log above)"
fi

n=$(lines "$tmp/first.log" | wc -l)
# Far fewer would mean the build printed no lines (make -s, V=1): the
# check below would then pass on nothing.
if [ "$n" -ge 50 ]; then
	t_ok "the build printed its lines ($n)"
else
	t_fail "the build printed $n build lines, expected at least 50"
fi

twice=$(lines "$tmp/first.log" | awk '{ print $2 }' | sort | uniq -d)
if [ -z "$twice" ]; then
	t_ok "every target built once"
else
	t_fail "built more than once under -j$jobs (a race between sub-makes):" \
		"$(echo $twice)"
fi

# What the tools' suites and the package need, by the names they install
# or run (README, debian/*.install): each must be there.
for f in policyctl/policyctl trusttop/trusttop auditd-plugin/audisp-trusted-for relay/trustfor-relay \
	interpreters/trusted-python3 interpreters/trusted-dash \
	tests/probe/probe lib/libtf-internal.a; do
	if [ -s "$tmp/out/$f" ]; then
		t_ok "built $f"
	else
		t_fail "no $f after make tools"
	fi
done

mk > "$tmp/second.log" 2>&1
rc=$?
t_eq "a second make -j$jobs tools succeeds" 0 "$rc"
again=$(lines "$tmp/second.log" | awk '{ print $2 }' | tr '\n' ' ')
t_eq "a second make -j$jobs tools has nothing to do" "" "$again"

t_done "$suite"
