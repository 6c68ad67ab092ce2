#!/bin/sh
# libtrustedfor on the patched kernel: the trusted_for(2) path, under each
# policy (the host runs the same tests on the AT_EXECVE_CHECK path).
# The binary is built by the host suite (make -C lib check).
bin=build/asan/lib/tests/test_trustedfor
if [ ! -x "$bin" ]; then
	echo "lib-syscall: $bin is missing: run 'make -C lib check' first" >&2
	exit 1
fi
for policy in 0 1 2 3; do
	echo "$policy" > /proc/sys/fs/trust_policy
	tests/lib/tap-result.sh "lib-syscall-policy$policy" "$bin"
done
echo 0 > /proc/sys/fs/trust_policy
