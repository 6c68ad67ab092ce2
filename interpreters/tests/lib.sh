# Shared setup for the interpreter tests (host-*.sh here and
# tests/vm/cases/interp-*.sh); source it after setting SUITE and TF_TOP.  Runs the test in a private mount namespace (root only) with
#   $X  a tmpfs mounted exec     $NX  a tmpfs mounted noexec
# and gives run/expect helpers on top of tests/lib/assert.sh.
# TF_TOP: the repository root, set by the sourcing script.
TOP=${TF_TOP:?set TF_TOP to the repository root before sourcing lib.sh}
. "$TOP/tests/lib/assert.sh"
B=${TF_BUILD:-$TOP/build/user/interpreters}
PY=$B/trusted-python3
DASH=$B/trusted-dash
VERDICT=$B/tests/tf-verdict
TFRUN=$B/tests/tf-run

if [ "$(id -u)" != 0 ]; then
	echo "# $SUITE: needs root (mount namespace and tmpfs mounts)" >&2
	t_fail "$SUITE runs as root"
	t_done "$SUITE"
	exit 1
fi
for f in "$PY" "$DASH" "$VERDICT" "$TFRUN"; do
	if [ ! -x "$f" ]; then
		echo "# $SUITE: $f not built (make -C interpreters all test-helpers)" >&2
		t_fail "$f is built"
		t_done "$SUITE"
		exit 1
	fi
done
# The test VM (tests/vm/run) is already private and disposable.
[ -z "$TRUSTFOR_VM" ] || TF_IN_NS=1
if [ -z "$TF_IN_NS" ]; then
	TF_IN_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi

T=$(mktemp -d /tmp/tf-interp.XXXXXX)
X=$T/x
NX=$T/nx
mkdir "$X" "$NX"
mount -t tmpfs -o exec,mode=755 tf-exec "$X"
mount -t tmpfs -o noexec,mode=755 tf-noexec "$NX"
tf_cleanup() {
	umount -R "$X" "$NX" 2>/dev/null
	rm -rf "$T"
}
trap tf_cleanup EXIT

# A clean environment for the interpreters (no PYTHONDONTWRITEBYTECODE etc.
# from the caller), keeping the sanitizer settings of make check.
CLEANENV="env -i PATH=/usr/bin:/bin LANG=C.UTF-8 HOME=$T"
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
	eval "val=\${$v:-}"
	[ -z "$val" ] || CLEANENV="$CLEANENV $v=$val"
done

# run CMD...: sets $rc, $out (stdout) and $err (stderr)
run() {
	out=$("$@" 2>"$T/stderr")
	rc=$?
	err=$(cat "$T/stderr")
}

# t_has WHAT NEEDLE HAYSTACK: passes when HAYSTACK contains NEEDLE
t_has() {
	case $3 in
	*"$2"*) t_ok "$1" ;;
	*) t_fail "$1: '$2' not in '$3'" ;;
	esac
}

# kernel WHAT FILE EXPECTED: the kernel's own verdict (tf-verdict) for FILE
kernel() {
	t_eq "$1: kernel verdict" "$3" "$("$VERDICT" "$2" 2>&1)"
}

# expect_denied WHAT FILE [REASON]: last run was refused because of FILE:
# status 126, one stderr line naming FILE (and REASON), nothing run
expect_denied() {
	t_eq "$1: exit status" 126 "$rc"
	t_eq "$1: one-line error" 1 "$(printf '%s\n' "$err" | wc -l)"
	t_has "$1: error names the file" "$2: refused to interpret" "$err"
	[ -z "$3" ] || t_has "$1: error gives the reason" "$3" "$err"
}

# expect_ran WHAT EXPECTED_OUTPUT: last run succeeded with that output
expect_ran() {
	t_eq "$1: exit status" 0 "$rc"
	t_eq "$1: output" "$2" "$out"
	[ -z "$err" ] || echo "# stderr: $err"
}
