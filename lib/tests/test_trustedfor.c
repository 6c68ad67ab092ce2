// SPDX-License-Identifier: GPL-2.0
/*
 * libtrustedfor unit tests.  They run on the host (AT_EXECVE_CHECK on
 * mainline >= 6.14, or no interface at all on Debian 12's 6.1) and in the VM
 * (patched kernel: trusted_for(2), tests/vm/cases/lib-syscall.sh).
 *
 * Expected verdicts come from a model of the documented rules (trusted_for(2)
 * man page, README), applied to the backend probed here independently of the
 * library and, on the patched kernel, to the policy the caller says it set:
 *   TF_TEST_POLICY=N   the fs.trust_policy value in force (0..3)
 * Tests that need the kernel to answer are skipped, with the reason, where it
 * cannot.
 *
 * Longer than 400 lines: the model of the documented rules and the cases
 * it judges belong together.
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

#include <sched.h>
#include <sys/mount.h>

/* Skip the current test, with the reason as a TAP diagnostic line
 * "# SKIP test_x: reason" (tests/lib/tap-result.sh lists it).
 */
#define tf_skip(...)                                  \
	do {                                          \
		printf("# SKIP %s: ", __func__);      \
		printf(__VA_ARGS__);                  \
		printf("\n");                         \
		fflush(stdout);                       \
		skip();                               \
	} while (0)

/* The fs.trust_policy the caller set (TF_TEST_POLICY), -1 when not given. */
static int intended_policy(void)
{
	const char *v = getenv("TF_TEST_POLICY");

	if (!v || !*v)
		return -1;
	if (v[1] || v[0] < '0' || v[0] > '0' + TF_POLICY_MAX) {
		fprintf(stderr, "test_trustedfor: TF_TEST_POLICY is not a policy: set it to 0, 1, 2 or 3\n");
		exit(2);
	}
	return v[0] - '0';
}

/* execveat(AT_EXECVE_CHECK) of our own executable: 0 on kernels that know
 * the flag (nothing is executed), EINVAL on the others.
 */
static bool probe_execve_check(void)
{
	static char *const argv[] = { "probe", NULL };
	static char *const envp[] = { NULL };
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	long ret;

	if (fd < 0) {
		fprintf(stderr, "test_trustedfor: /proc/self/exe: %s: mount /proc\n",
			strerror(errno));
		exit(2);
	}
	ret = syscall(SYS_execveat, fd, "", argv, envp,
		      AT_EMPTY_PATH | AT_EXECVE_CHECK);
	if (ret != 0 && errno != EINVAL) {
		fprintf(stderr, "test_trustedfor: execveat(AT_EXECVE_CHECK) probe: %s (expected 0 or EINVAL)\n",
			strerror(errno));
		exit(2);
	}
	close(fd);
	return ret == 0;
}

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
	assert_string_equal(tf_reason_str(TF_REASON_PSEUDO_FS | 0x80, buf,
					  sizeof(buf)),
			    "pseudo_fs,0x80");
	/* The kernel's reason for a check that failed with EIO, ESTALE... */
	assert_string_equal(tf_reason_str(TF_REASON_CHECK_ERROR, buf,
					  sizeof(buf)),
			    "check_error");
	assert_string_equal(tf_reason_str(TF_REASON_NOEXEC_MOUNT |
						  TF_REASON_CHECK_ERROR | 0x100,
					  buf, sizeof(buf)),
			    "noexec_mount,check_error,0x100");
	/* TF_REASON_STR_MAX: the longest canonical list, whole, with its NUL */
	{
		char all[256], exact[TF_REASON_STR_MAX];

		tf_reason_str(TF_REASON_ALL, all, sizeof(all));
		assert_int_equal(strlen(all) + 1, TF_REASON_STR_MAX);
		assert_string_equal(tf_reason_str(TF_REASON_ALL, exact,
						  sizeof(exact)),
				    all);
	}
	/* Truncation never overflows and stays terminated. */
	assert_string_equal(tf_reason_str(TF_REASON_ALL, buf, 8), "noexec_");
	/*
	 * Every mask (and an unknown bit) in every buffer size: what one
	 * snprintf() of the whole list would leave, the list built here from
	 * the single names.
	 */
	for (unsigned int m = 0; m <= (TF_REASON_ALL | 0x80u); m++) {
		char full[256] = "", want[64], got[64];
		size_t off = 0;

		if ((m & ~TF_REASON_ALL) && (m & ~TF_REASON_ALL) != 0x80u)
			continue;
		for (int i = 0; i < TF_REASON_COUNT; i++)
			if (m & (1u << i))
				off += (size_t)snprintf(full + off, sizeof(full) - off, "%s%s",
							off ? "," : "",
							tf_reason_str(1u << i, buf, sizeof(buf)));
		if (m & ~TF_REASON_ALL)
			snprintf(full + off, sizeof(full) - off, "%s0x80", off ? "," : "");
		if (!m)
			strcpy(full, "-");
		for (size_t len = 1; len <= sizeof(got); len++) {
			snprintf(want, len, "%s", full);
			memset(got, 'X', sizeof(got));
			tf_reason_str(m, got, len);
			assert_string_equal(got, want);
		}
	}
}

static void test_reason_parse(void **state)
{
	unsigned int r;
	char buf[128];

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
	assert_null(tf_reason_name(0x80));
	assert_string_equal(tf_reason_name(TF_REASON_NOT_REGULAR),
			    "not_regular");
	/* The names of the kernel's AT_EXECVE_CHECK reasons (patch 8). */
	assert_string_equal(tf_reason_name(TF_REASON_WRITE_BUSY), "write_busy");
	assert_string_equal(tf_reason_name(TF_REASON_LSM), "lsm");
	/* A check that failed with an error (EIO...), both interfaces (patch 16). */
	assert_string_equal(tf_reason_name(TF_REASON_CHECK_ERROR), "check_error");
	assert_int_equal(tf_reason_parse("check_error", &r), 0);
	assert_int_equal(r, TF_REASON_CHECK_ERROR);
	assert_int_equal(tf_reason_parse("file_perm,check_error", &r), 0);
	assert_int_equal(r, TF_REASON_FILE_PERM | TF_REASON_CHECK_ERROR);
	assert_int_equal(tf_reason_parse("check_errors", &r), -1);
	/* Every name once: the longest list, back and forth. */
	assert_string_equal(tf_reason_str(TF_REASON_ALL, buf, sizeof(buf)),
			    "noexec_mount,file_perm,not_regular,pseudo_fs,"
			    "write_busy,lsm,check_error");
	assert_int_equal(tf_reason_parse(buf, &r), 0);
	assert_int_equal(r, TF_REASON_ALL);
}

/*
 * What the running kernel offers, probed here without the library:
 * trusted_for(2) iff its sysctl exists (syscall 451 is never issued blind),
 * AT_EXECVE_CHECK iff execveat() of a known-good executable with that flag
 * returns 0 (it checks, never executes) instead of EINVAL.
 */
static enum tf_backend kernel_backend(void)
{
	static int cached = -1;

	if (cached < 0) {
		if (access(TF_POLICY_PATH, F_OK) == 0)
			cached = TF_BACKEND_TRUSTED_FOR;
		else if (probe_execve_check())
			cached = TF_BACKEND_EXECVE_CHECK;
		else
			cached = TF_BACKEND_NONE;
	}
	return (enum tf_backend)cached;
}

static void test_backend_matches_kernel(void **state)
{
	int policy;

	(void)state;
	assert_int_equal(tf_backend_detect(), kernel_backend());
	assert_int_equal(tf_kernel_has_trusted_for(),
			 kernel_backend() == TF_BACKEND_TRUSTED_FOR);
	assert_int_equal(tf_kernel_has_execve_check(), probe_execve_check());
	if (kernel_backend() != TF_BACKEND_TRUSTED_FOR) {
		assert_int_equal(tf_policy_read(&policy), -1);
		assert_int_equal(errno, ENOENT);
	}
	assert_string_equal(tf_backend_name(TF_BACKEND_EXECVE_CHECK),
			    "execve_check");
	assert_string_equal(tf_backend_name(TF_BACKEND_TRUSTED_FOR),
			    "trusted_for");
	assert_string_equal(tf_backend_name(TF_BACKEND_NONE), "none");
}

/* Why a test cannot run here, NULL when it can. */
static const char *why_skip_readback(void)
{
	if (kernel_backend() != TF_BACKEND_TRUSTED_FOR)
		return intended_policy() < 0 ?
			       "no trusted_for(2) on this kernel (" TF_POLICY_PATH " missing): no policy to read" :
			       NULL; /* a failure, not a skip */
	if (intended_policy() < 0)
		return "trusted_for(2) kernel but TF_TEST_POLICY is not set: the intended policy is unknown";
	if (geteuid() != 0)
		return "not root: " TF_POLICY_PATH " is mode 0600";
	return NULL;
}

/* Verdict tests need a kernel that answers, on trusted_for the policy, and
 * root (the model assumes CAP_DAC_OVERRIDE; noexec mounts need it too).
 */
static const char *why_skip_verdicts(void)
{
	if (kernel_backend() == TF_BACKEND_NONE)
		return "this kernel has neither trusted_for(2) nor AT_EXECVE_CHECK";
	if (kernel_backend() == TF_BACKEND_TRUSTED_FOR && intended_policy() < 0)
		return "trusted_for(2) kernel but TF_TEST_POLICY is not set: the expected verdicts are unknown";
	if (geteuid() != 0)
		return "not root: the model assumes CAP_DAC_OVERRIDE";
	return NULL;
}

static const char *why_skip_enosys(void)
{
	switch (kernel_backend()) {
	case TF_BACKEND_TRUSTED_FOR:
		return "this kernel answers (trusted_for): no ENOSYS path to test";
	case TF_BACKEND_EXECVE_CHECK:
		return "this kernel answers (AT_EXECVE_CHECK): no ENOSYS path to test";
	case TF_BACKEND_NONE:
		break;
	}
	return NULL;
}

/*
 * The policy in force is the one the caller set (TF_TEST_POLICY, from
 * tests/vm/cases/lib-syscall.sh, which writes fs.trust_policy itself): the
 * expected verdicts below come from it, never from the value read back.
 */
static void test_policy_readback(void **state)
{
	int policy, want;

	(void)state;
	want = intended_policy();
	if (kernel_backend() != TF_BACKEND_TRUSTED_FOR && want >= 0)
		fail_msg("TF_TEST_POLICY=%d but this kernel has no trusted_for(2) (%s missing)",
			 want, TF_POLICY_PATH);
	if (why_skip_readback())
		tf_skip("%s", why_skip_readback());
	assert_int_equal(tf_policy_read(&policy), 0);
	assert_int_equal(policy, want);
}

/* Confine the calling process: system call @nr fails with @err; 0 or -1. */
static int filter_syscall(unsigned int nr, unsigned int err)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return -1;
	return 0;
}

/* Without the patched kernel, syscall 451 must never be issued: a seccomp
 * filter turns it into EPERM, and the library must still say ENOSYS.
 */
static void test_no_blind_syscall_451(void **state)
{
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
		if (filter_syscall(TF_SYSCALL_NR, EPERM))
			_exit(3);
		/* Sanity: the filter does catch a direct call. */
		if (syscall(TF_SYSCALL_NR, 0, 1, 0) != -1 || errno != EPERM)
			_exit(4);
		if (tf_trusted_for(0, TF_USAGE_EXECUTION, 0) != -1 ||
		    errno != ENOSYS)
			_exit(5);
		/* Nor through the explicit choice of that interface. */
		if (tf_check_exec(0, TF_API_TRUSTED_FOR, NULL) != -1 ||
		    errno != ENOSYS)
			_exit(6);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * A kernel with the interface behind a seccomp filter that answers ENOSYS
 * for it (a container profile that does not know the system call): the
 * library must not report ENOSYS, which sends callers to their fallback
 * rule with the kernel's policy never asked; it says EPERM.
 */
static void test_filtered_call_fails_closed(void **state)
{
	enum tf_backend backend = kernel_backend();
	unsigned int nr = backend == TF_BACKEND_TRUSTED_FOR ? TF_SYSCALL_NR :
			  SYS_execveat;
	int status, fd;
	pid_t pid;

	(void)state;
	if (backend == TF_BACKEND_NONE)
		tf_skip("this kernel has neither interface: nothing to filter");
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	/* the backend's own probe, done before the filter as in a process
	 * that starts unfiltered and is confined later
	 */
	(void)tf_backend_detect();
	if (backend == TF_BACKEND_EXECVE_CHECK)
		assert_int_equal(tf_execve_check(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		enum tf_backend answered;

		if (filter_syscall(nr, ENOSYS))
			_exit(3);
		/* Sanity: the filter does answer ENOSYS to a direct call. */
		if (syscall(nr, -1, 0, 0, 0, 0) != -1 || errno != ENOSYS)
			_exit(4);
		if (trusted_for_exec(fd) != -1)
			_exit(5);
		if (errno != EPERM)
			_exit(errno == ENOSYS ? 6 : 7);
		/* The same through the explicit choice of that interface. */
		if (tf_check_exec(fd, backend == TF_BACKEND_TRUSTED_FOR ?
					      TF_API_TRUSTED_FOR :
					      TF_API_EXECVE_CHECK,
				  &answered) != -1)
			_exit(8);
		if (errno != EPERM)
			_exit(errno == ENOSYS ? 9 : 10);
		_exit(answered == backend ? 0 : 11);
	}
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	/* 6, 9: ENOSYS passed on (fail open) */
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * The model: what trusted_for_exec() must answer (0 or an errno) for a file
 * owned by root, checked by root (CAP_DAC_OVERRIDE: the exec permission is
 * "some x bit"), opened read-only.  From trusted_for(2): policy 0 allows
 * what is readable; any policy bit refuses non-regular files; bit 0 refuses
 * files on noexec mounts; bit 1 refuses files without an x bit.  Mainline's
 * AT_EXECVE_CHECK refuses all three.  Without either interface: ENOSYS.
 */
static int model(bool regular, bool noexec_mount, mode_t mode)
{
	int policy;

	switch (kernel_backend()) {
	case TF_BACKEND_TRUSTED_FOR:
		policy = intended_policy();
		if (!policy)
			return 0;
		if (!regular)
			return EACCES;
		if ((policy & TF_POLICY_EXEC_MOUNT) && noexec_mount)
			return EACCES;
		if ((policy & TF_POLICY_EXEC_FILE) && !(mode & 0111))
			return EACCES;
		return 0;
	case TF_BACKEND_EXECVE_CHECK:
		return !regular || noexec_mount || !(mode & 0111) ? EACCES : 0;
	case TF_BACKEND_NONE:
		break;
	}
	return ENOSYS;
}

#define need_verdicts()                                  \
	do {                                             \
		if (why_skip_verdicts())                 \
			tf_skip("%s", why_skip_verdicts()); \
	} while (0)

static int check_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	assert_true(fd >= 0);
	ret = trusted_for_exec(fd) ? errno : 0;
	close(fd);
	return ret;
}

static const mode_t modes[] = { 0600, 0644, 0700, 0755, 0610, 0601, 0000 };
#define NMODES (sizeof(modes) / sizeof(modes[0]))

static void test_regular_files(void **state)
{
	char path[] = "/tmp/tf-test-XXXXXX";
	int fd;

	(void)state;
	need_verdicts();
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\n", 10), 10);
	close(fd);
	for (size_t i = 0; i < NMODES; i++) {
		assert_int_equal(chmod(path, modes[i]), 0);
		assert_int_equal(check_path(path), model(true, false, modes[i]));
	}
	unlink(path);
}

/*
 * The same files on a tmpfs mounted noexec, in a private mount namespace (a
 * child process): policy bit 0 at work.  The child sends one verdict per
 * mode through a pipe.
 */
static void test_noexec_mount(void **state)
{
	char dir[] = "/tmp/tf-noexec-XXXXXX";
	int verdicts[NMODES];
	int p[2], status;
	size_t got;
	pid_t pid;

	(void)state;
	need_verdicts();
	assert_non_null(mkdtemp(dir));
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char path[64];
		int fd;

		close(p[0]);
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
			_exit(3);
		if (mount("tf-test", dir, "tmpfs", MS_NOEXEC, "mode=0755"))
			_exit(4);
		snprintf(path, sizeof(path), "%s/s.sh", dir);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0 || write(fd, "#!/bin/sh\n", 10) != 10)
			_exit(5);
		close(fd);
		for (size_t i = 0; i < NMODES; i++) {
			int v;

			if (chmod(path, modes[i]))
				_exit(6);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				_exit(7);
			v = trusted_for_exec(fd) ? errno : 0;
			close(fd);
			if (write(p[1], &v, sizeof(v)) != sizeof(v))
				_exit(8);
		}
		_exit(0);
	}
	close(p[1]);
	got = 0;
	while (got < sizeof(verdicts)) {
		ssize_t n = read(p[0], (char *)verdicts + got,
				 sizeof(verdicts) - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	rmdir(dir);
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 3 ||
				  WEXITSTATUS(status) == 4))
		tf_skip("cannot mount a noexec tmpfs in a new mount namespace here");
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(got, sizeof(verdicts));
	for (size_t i = 0; i < NMODES; i++) {
		print_message("# noexec mount, mode %04o: verdict %d, model %d\n",
			      (unsigned int)modes[i], verdicts[i],
			      model(true, true, modes[i]));
		assert_int_equal(verdicts[i], model(true, true, modes[i]));
	}
}

static void test_bad_fds(void **state)
{
	int p[2];

	(void)state;
	need_verdicts();
	assert_int_equal(trusted_for_exec(-1), -1);
	assert_int_equal(errno, EBADF);
	assert_int_equal(pipe(p), 0);
	close(p[1]);
	/* A pipe: not a regular file, on a pseudo filesystem. */
	assert_int_equal(trusted_for_exec(p[0]) ? errno : 0,
			 model(false, false, 0600));
	close(p[0]);
	assert_int_equal(trusted_for_exec(p[0]), -1);
	assert_int_equal(errno, EBADF);
}

/*
 * The caller's choice of interface (tf_check_exec()), on a kernel that may
 * have both.  Expected, per interface, from the probes above (not from the
 * library): an interface the kernel lacks answers ENOSYS and names no
 * backend; one it has answers as its own model says (trusted_for(2): the
 * policy the caller set; AT_EXECVE_CHECK: regular, exec mount, an x bit,
 * whatever fs.trust_policy says, ABI note 1); the default is trusted_for(2)
 * where its sysctl exists, else AT_EXECVE_CHECK.
 */
static int model_api(enum tf_api api, bool regular, mode_t mode,
		     enum tf_backend *who)
{
	int policy = intended_policy();
	bool has_tf = access(TF_POLICY_PATH, F_OK) == 0;
	bool has_xc = probe_execve_check();

	if (api == TF_API_DEFAULT)
		api = has_tf ? TF_API_TRUSTED_FOR :
		      has_xc ? TF_API_EXECVE_CHECK : (enum tf_api)-1;
	if (api == TF_API_TRUSTED_FOR && has_tf) {
		*who = TF_BACKEND_TRUSTED_FOR;
		if (!policy)
			return 0;
		if (!regular)
			return EACCES;
		return (policy & TF_POLICY_EXEC_FILE) && !(mode & 0111) ?
			       EACCES : 0;
	}
	if (api == TF_API_EXECVE_CHECK && has_xc) {
		*who = TF_BACKEND_EXECVE_CHECK;
		return regular && (mode & 0111) ? 0 : EACCES;
	}
	*who = TF_BACKEND_NONE;
	return ENOSYS;
}

static void test_api_choice(void **state)
{
	static const enum tf_api apis[] = { TF_API_DEFAULT, TF_API_TRUSTED_FOR,
					    TF_API_EXECVE_CHECK };
	static const mode_t fmodes[] = { 0644, 0755 };
	char path[] = "/tmp/tf-api-XXXXXX";
	enum tf_backend who, answered;
	int fd, p[2], want, got;
	bool tf_policy_known = intended_policy() >= 0;

	(void)state;
	if (geteuid() != 0)
		tf_skip("not root: the model assumes CAP_DAC_OVERRIDE");
	if (access(TF_POLICY_PATH, F_OK) == 0 && !tf_policy_known)
		tf_skip("trusted_for(2) kernel but TF_TEST_POLICY is not set: the expected verdicts are unknown");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\n", 10), 10);
	close(fd);
	assert_int_equal(pipe(p), 0);
	for (size_t a = 0; a < sizeof(apis) / sizeof(apis[0]); a++) {
		for (size_t m = 0; m < 2; m++) {
			assert_int_equal(chmod(path, fmodes[m]), 0);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			assert_true(fd >= 0);
			want = model_api(apis[a], true, fmodes[m], &who);
			answered = (enum tf_backend)99;
			got = tf_check_exec(fd, apis[a], &answered) ? errno : 0;
			close(fd);
			print_message("# api %d, mode %04o: %d (%s), model %d (%s)\n",
				      (int)apis[a], (unsigned int)fmodes[m], got,
				      tf_backend_name(answered), want,
				      tf_backend_name(who));
			assert_int_equal(got, want);
			assert_int_equal(answered, who);
		}
		want = model_api(apis[a], false, 0600, &who);
		got = tf_check_exec(p[0], apis[a], &answered) ? errno : 0;
		assert_int_equal(got, want);
		assert_int_equal(answered, who);
	}
	close(p[0]);
	close(p[1]);
	unlink(path);
	/* trusted_for_exec() is the default */
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	want = tf_check_exec(fd, TF_API_DEFAULT, NULL) ? errno : 0;
	assert_int_equal(trusted_for_exec(fd) ? errno : 0, want);
	/* an unknown choice */
	assert_int_equal(tf_check_exec(fd, (enum tf_api)7, &answered), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(answered, TF_BACKEND_NONE);
	close(fd);
}

/*
 * The exec securebits: the constants are mainline's values (ABI note 2:
 * bits 8-11), and tf_securebits_get() reads back what a child set with
 * prctl() itself.  A kernel without them refuses to set them (EPERM or
 * EINVAL): skipped there.
 */
static void test_securebits(void **state)
{
	int status;
	pid_t pid;

	(void)state;
	assert_int_equal(TF_SECBIT_EXEC_RESTRICT_FILE, 1u << 8);
	assert_int_equal(TF_SECBIT_EXEC_RESTRICT_FILE_LOCKED, 1u << 9);
	assert_int_equal(TF_SECBIT_EXEC_DENY_INTERACTIVE, 1u << 10);
	assert_int_equal(TF_SECBIT_EXEC_DENY_INTERACTIVE_LOCKED, 1u << 11);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static const unsigned int sets[] = { 0, 0x100, 0x400, 0x500 };
		unsigned int bits;
		int base = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);

		if (base < 0)
			_exit(3);
		for (size_t i = 0; i < 4; i++) {
			unsigned int want = ((unsigned int)base & ~0x500u) |
					    sets[i];

			if (prctl(PR_SET_SECUREBITS, want, 0, 0, 0) < 0) {
				if (sets[i] && (errno == EPERM ||
						errno == EINVAL))
					_exit(42); /* kernel lacks them */
				if (!sets[i] && errno == EPERM &&
				    want == (unsigned int)base)
					continue; /* unchanged: legacy EPERM */
				_exit(4);
			}
			if (tf_securebits_get(&bits) || bits != want)
				_exit(5);
		}
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 42)
		tf_skip("this kernel has no exec securebits (PR_SET_SECUREBITS refuses bit 8)");
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* Without either interface the library says ENOSYS (the caller applies the
 * fallback rule of the README), whatever the file.
 */
static void test_enosys_without_backend(void **state)
{
	(void)state;
	if (why_skip_enosys())
		tf_skip("%s", why_skip_enosys());
	errno = 0;
	assert_int_equal(check_path("/proc/self/exe"), ENOSYS);
	assert_int_equal(tf_execve_check(0), -1);
	assert_int_equal(errno, ENOSYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reason_str),
		cmocka_unit_test(test_reason_parse),
		cmocka_unit_test(test_backend_matches_kernel),
		cmocka_unit_test(test_policy_readback),
		cmocka_unit_test(test_no_blind_syscall_451),
		cmocka_unit_test(test_filtered_call_fails_closed),
		cmocka_unit_test(test_regular_files),
		cmocka_unit_test(test_noexec_mount),
		cmocka_unit_test(test_bad_fds),
		cmocka_unit_test(test_api_choice),
		cmocka_unit_test(test_securebits),
		cmocka_unit_test(test_enosys_without_backend),
	};

	(void)intended_policy(); /* a bad value stops here, before any test */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
