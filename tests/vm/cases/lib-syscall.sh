#!/bin/sh
# libtrustedfor on the patched kernel: the trusted_for(2) path, under each
# policy (the host runs the same tests on the AT_EXECVE_CHECK path, or skips
# them where the kernel has neither interface).
# The policy is set here and passed to the test binary (TF_TEST_POLICY),
# whose expected verdicts come from it; the binary checks that the kernel
# reads back the same value.
# The binary is built by the host suite (make -C lib check).
# vm-after: host
. tests/lib/case.sh
bin=build/asan/lib/tests/test_trustedfor
need_build lib-syscall "make -C lib check" "$bin"
fx_policy_save
for policy in 0 1 2 3; do
	if ! echo "$policy" > /proc/sys/fs/trust_policy; then
		echo "lib-syscall: cannot set fs.trust_policy=$policy" >&2
		echo "RESULT lib-syscall-policy$policy 0 1 0"
		continue
	fi
	TF_TEST_POLICY=$policy tests/lib/tap-result.sh "lib-syscall-policy$policy" "$bin"
done
