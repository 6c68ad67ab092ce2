// SPDX-License-Identifier: GPL-2.0
/*
 * libtrustedfor unit tests.  They run on the host (mainline kernel:
 * AT_EXECVE_CHECK path) and in the VM (patched kernel: syscall path); the
 * expected verdicts are derived from the backend and policy in force.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "trustedfor.h"

static void test_reason_str(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(tf_reason_str(0, buf, sizeof(buf)), "-");
	assert_string_equal(tf_reason_str(TF_REASON_NOEXEC_MOUNT, buf,
					  sizeof(buf)),
			    "noexec_mount");
	assert_string_equal(tf_reason_str(TF_REASON_NOEXEC_MOUNT |
						  TF_REASON_FILE_PERM,
					  buf, sizeof(buf)),
			    "noexec_mount,file_perm");
	assert_string_equal(tf_reason_str(TF_REASON_PSEUDO_FS | 0x40, buf,
					  sizeof(buf)),
			    "pseudo_fs,0x40");
	/* Truncation never overflows and stays terminated. */
	assert_string_equal(tf_reason_str(TF_REASON_ALL, buf, 8), "noexec_");
}

static void test_reason_parse(void **state)
{
	unsigned int r;
	char buf[64];

	(void)state;
	for (unsigned int m = 0; m <= TF_REASON_ALL; m++) {
		assert_int_equal(tf_reason_parse(tf_reason_str(m, buf,
							       sizeof(buf)),
						 &r),
				 0);
		assert_int_equal(r, m);
	}
	assert_int_equal(tf_reason_parse("file_perm,bogus", &r), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(tf_reason_parse("file_per", &r), -1);
	assert_null(tf_reason_name(0x10));
	assert_string_equal(tf_reason_name(TF_REASON_NOT_REGULAR),
			    "not_regular");
}

static void test_backend_matches_kernel(void **state)
{
	enum tf_backend b = tf_backend_detect();
	int policy;

	(void)state;
	if (access(TF_POLICY_PATH, F_OK) == 0) {
		assert_int_equal(b, TF_BACKEND_TRUSTED_FOR);
		assert_int_equal(tf_policy_read(&policy), 0);
		assert_in_range(policy, 0, TF_POLICY_MAX);
	} else {
		assert_int_not_equal(b, TF_BACKEND_TRUSTED_FOR);
		assert_int_equal(tf_policy_read(&policy), -1);
		assert_int_equal(errno, ENOENT);
	}
	assert_string_equal(tf_backend_name(TF_BACKEND_EXECVE_CHECK),
			    "execve_check");
}

/* Without the patched kernel, syscall 451 must never be issued: a seccomp
 * filter turns it into EPERM, and the library must still say ENOSYS.
 */
static void test_no_blind_syscall_451(void **state)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TF_SYSCALL_NR, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = filter };
	int status;
	pid_t pid;

	(void)state;
	if (tf_backend_detect() == TF_BACKEND_TRUSTED_FOR) {
		/* Patched kernel: the syscall is the real thing. */
		assert_int_equal(tf_trusted_for(0, 0, 1), -1);
		assert_int_equal(errno, EINVAL);
		return;
	}
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
			_exit(3);
		/* Sanity: the filter does catch a direct call. */
		if (syscall(TF_SYSCALL_NR, 0, 1, 0) != -1 || errno != EPERM)
			_exit(4);
		if (tf_trusted_for(0, TF_USAGE_EXECUTION, 0) != -1 ||
		    errno != ENOSYS)
			_exit(5);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* Expected verdict for a regular file of @mode owned by the caller (root). */
static int expected_regular(mode_t mode)
{
	int policy = 0;
	bool some_x = mode & 0111;

	switch (tf_backend_detect()) {
	case TF_BACKEND_TRUSTED_FOR:
		assert_int_equal(tf_policy_read(&policy), 0);
		/* root has CAP_DAC_OVERRIDE: exec needs some x bit. */
		if ((policy & TF_POLICY_EXEC_FILE) && !some_x)
			return EACCES;
		return 0;
	case TF_BACKEND_EXECVE_CHECK:
		return some_x ? 0 : EACCES;
	case TF_BACKEND_NONE:
		break;
	}
	return ENOSYS;
}

static int check_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	assert_true(fd >= 0);
	ret = trusted_for_exec(fd) ? errno : 0;
	close(fd);
	return ret;
}

static void test_regular_files(void **state)
{
	static const mode_t modes[] = { 0600, 0644, 0700, 0755, 0610, 0601 };
	char path[] = "/tmp/tf-test-XXXXXX";
	int fd;

	(void)state;
	if (geteuid() != 0)
		skip();
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\n", 10), 10);
	close(fd);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		assert_int_equal(chmod(path, modes[i]), 0);
		assert_int_equal(check_path(path), expected_regular(modes[i]));
	}
	unlink(path);
}

static void test_bad_fds(void **state)
{
	int p[2];

	(void)state;
	if (tf_backend_detect() == TF_BACKEND_NONE)
		skip();
	assert_int_equal(trusted_for_exec(-1), -1);
	assert_int_equal(errno, EBADF);
	assert_int_equal(pipe(p), 0);
	close(p[1]);
	/* A pipe is never executable under an enforcing policy. */
	if (tf_backend_detect() == TF_BACKEND_EXECVE_CHECK) {
		assert_int_equal(trusted_for_exec(p[0]), -1);
		assert_int_equal(errno, EACCES);
	}
	close(p[0]);
	assert_int_equal(trusted_for_exec(p[0]), -1);
	assert_int_equal(errno, EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reason_str),
		cmocka_unit_test(test_reason_parse),
		cmocka_unit_test(test_backend_matches_kernel),
		cmocka_unit_test(test_no_blind_syscall_451),
		cmocka_unit_test(test_regular_files),
		cmocka_unit_test(test_bad_fds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
