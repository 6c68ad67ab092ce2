#!/bin/bash
# The kernel selftests must skip, and do nothing else, on a kernel without
# trusted_for(2): the host (6.18: syscall 451 is cachestat there) or
# Debian 12's 6.1.  Runs build/kernel/selftests/trusted_for_test (made by
# `make kernel`) as root under strace -f and checks:
#   - it exits KSFT_SKIP (4), and every test of its TAP plan is a SKIP
#     naming the missing syscall, none passes or fails;
#   - no process issues syscall 451, closes or replaces its stdin, mounts,
#     unmounts or unshares, or creates, removes or renames a file.
# The run happens in a private mount namespace where / and /tmp are
# read-only (but for its own work directory), so that a regression is seen (strace shows the attempt) without
# harming the machine.
# Prints: RESULT kernel-selftests-host <passed> <failed> [<skipped>]
# First runs the AT_EXECVE_CHECK selftest on this kernel (see below):
#         RESULT execve-check-host <passed> <failed> [<skipped>]
# usage: kernel/selftests-skip.sh [TEST_BINARY [EXECVE_CHECK_TEST_BINARY]]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
SUITE=kernel-selftests-host
. "$top/tests/lib/assert.sh"
bin=${1:-$top/build/kernel/selftests/trusted_for_test}
checks=12

# The AT_EXECVE_CHECK selftest is written to pass on mainline (>= 6.14)
# as on the patched kernel: the same binary runs here, on the host's
# kernel, and in the VM (tests/vm/cases/kernel-selftests.sh), and each run
# must give the verdicts the test states for its corpus ("# corpus:"
# lines), so the two kernels agree case by case.  A kernel without the
# flag (Debian's 6.1) refuses it with EINVAL: skipped.
ebin=${2:-$top/build/kernel/selftests/execve_check_test}
echk=$(python3 -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
# execveat(AT_FDCWD, missing file, NULL, NULL, AT_EXECVE_CHECK): ENOENT
# when the flag is known, EINVAL when it is not.
r = libc.syscall(322, -100, b"/nonexistent/execve-check-probe", None, None, 0x10000)
print(os.strerror(ctypes.get_errno()) if r else "ok")' 2>&1)
if [ "$(id -u)" != 0 ]; then
	echo "SKIPPED execve-check-host: needs root (mounts a tmpfs) (1 checks)"
	echo "RESULT execve-check-host 0 0 1"
elif [ ! -x "$ebin" ]; then
	echo "SKIPPED execve-check-host: $ebin not built: run 'make kernel' (1 checks)"
	echo "RESULT execve-check-host 0 0 1"
elif [ "$echk" != "No such file or directory" ]; then
	echo "SKIPPED execve-check-host: this kernel has no AT_EXECVE_CHECK (probe: $echk) (1 checks)"
	echo "RESULT execve-check-host 0 0 1"
else
	"$top/tests/lib/tap-result.sh" execve-check-host "$ebin"
fi

[ -e /proc/sys/fs/trust_policy ] &&
	t_skip_suite $SUITE $checks "this kernel has trusted_for(2): the selftests run, the VM case checks them"
[ -x "$bin" ] ||
	t_skip_suite $SUITE $checks "$bin not built: run 'make kernel'"
[ "$(id -u)" = 0 ] ||
	t_skip_suite $SUITE $checks "needs root (the selftests run as root)"
command -v strace >/dev/null ||
	t_skip_suite $SUITE $checks "strace is not installed: apt-get install strace"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$(readlink -f "$bin")

# In a private mount namespace: / and /tmp read-only, the binary run with
# stdin from a file and its output kept.
: > "$work/stdin"
unshare -m /bin/sh -c '
	mount --make-rprivate / &&
	mount --bind "$1" "$1" &&
	mount -o remount,bind,ro / &&
	{ ! mountpoint -q /tmp || mount -o remount,bind,ro /tmp; } &&
	cd / &&
	exec strace -f -qq -o "$1/strace" "$2" < "$1/stdin" > "$1/out" 2>&1
' sh "$work" "$bin" </dev/null
rc=$?
sed 's/^/# /' "$work/out"

t_eq "exit status is KSFT_SKIP" 4 "$rc"
plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$work/out")
skips=$(grep -c '^ok [0-9][0-9]* # SKIP kernel without trusted_for(2)' "$work/out")
t_run "a TAP plan with tests" test "${plan:-0}" -gt 0
t_eq "every planned test skipped for the missing syscall" "$plan" "$skips"
t_eq "no test failed" 0 "$(grep -c '^not ok' "$work/out")"
t_eq "no test passed" 0 "$(grep -E '^ok ' "$work/out" | grep -vc '# SKIP')"

# strace -f lines: "PID name(args) = result".
trace=$work/strace
none() {
	local what=$1 re=$2 hits
	hits=$(grep -E "^[0-9]+ +($re)" "$trace" | head -3 | tr "\n" ";")
	if [ -z "$hits" ]; then t_ok "$what"; else t_fail "$what: $hits"; fi
}
t_run "strace recorded the run" grep -q 'execve(' "$trace"
# Syscall 451 is syscall_0x1c3 to strace < 6.5, cachestat to later ones.
none "no syscall 451 (cachestat upstream)" '(syscall_0x1c3|syscall_451|cachestat)\('
none "stdin never closed" 'close\(0\)|close_range\(0,'
none "stdin never replaced" 'dup[23]\([0-9]+, 0[,)]'
none "no mount, umount or unshare" '(mount|umount2|unshare|mount_setattr|move_mount|fsmount|pivot_root)\('
none "no file created" '(open|openat|openat2)\(.*O_CREAT|(mkdir|mkdirat|mknod|mknodat|symlink|symlinkat|link|linkat|creat)\('
none "no file removed or renamed" '(unlink|unlinkat|rmdir|rename|renameat|renameat2)\('
t_done $SUITE
