// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The evaluator against the running (host) kernel's
 * execveat(fd, "", ..., AT_EMPTY_PATH | AT_EXECVE_CHECK), on generated
 * script files: every permission mode 0000..0777 (plus setuid/setgid
 * variants) for three owners, a noexec mount, POSIX ACLs with named users,
 * named groups and masks; for root and two unprivileged subjects (setgroups
 * + setresgid + setresuid in a forked child; the fds are opened by root
 * before, as AT_EMPTY_PATH re-checks the permission on the fd's file).
 *
 * Semantic differences with trusted_for(2) (kernel/patches/0001), which the
 * VM test tests/vm/cases/policyctl-proof.sh checks against the real thing:
 *  - AT_EXECVE_CHECK asks MAY_EXEC only: a file with x but without r
 *    (mode 0111) is allowed; trusted_for asks MAY_READ | MAY_EXEC and
 *    refuses it (test_read_requirement_differs below shows both);
 *  - AT_EXECVE_CHECK has no policy: it always behaves like policy 3;
 *  - trusted_for also refuses any file of a pseudo filesystem
 *    (SB_NOUSER/SB_KERNMOUNT/SB_NOEXEC, e.g. a memfd); AT_EXECVE_CHECK
 *    only refuses those through path_noexec() (SB_I_NOEXEC or noexec);
 *  - AT_EXECVE_CHECK refuses a file open for writing with ETXTBSY
 *    (write_busy; test_write_busy), once the open for execution succeeded.
 * So the prediction compared here is pc_eval(PC_MODEL_EXECVE_CHECK).
 * Needs root. The three comparisons need a kernel with AT_EXECVE_CHECK
 * (>= 6.14): on others (Debian 12's 6.1, our trusted_for kernel) they are
 * reported as skipped (TAP "# SKIP") with the reason; the kernel is asked
 * by execveat(AT_EMPTY_PATH | AT_EXECVE_CHECK) on this test's own binary,
 * which returns 0 where the flag is known and EINVAL where it is not,
 * and executes nothing either way. PC_TEST_PRETEND_NO_EXECVE_CHECK=1
 * (honoured by this test only) makes it behave as on an old kernel.
 *
 * Longer than 400 lines: one binary for one oracle; the generated corpus,
 * the subjects and the comparison share their set-up.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/acl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "eval.h"
#include "facts.h"
#include "trustedfor.h"

#define MAX_FILES 4096

struct corpus_file {
	char path[128];
	int fd;
	bool noexec;
	struct pc_file_facts facts;
};

static struct corpus_file files[MAX_FILES];
static size_t nfiles;
static char top[] = "/tmp/pc-xcheck-XXXXXX";
static char noexec_dir[96];

#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK 0x10000
#endif

/* Why the comparisons are skipped; NULL when the kernel can answer. */
static const char *no_execve_check;

/*
 * cmocka's skip line names only the test: the reason goes first in a
 * "# SKIP test: reason" diagnostic line, which tests/lib/tap-result.sh
 * lists with it.
 */
static void skip_why(const char *test)
{
	printf("# SKIP %s: %s\n", test, no_execve_check);
	fflush(stdout);
	skip();
}

/*
 * Whether the running kernel knows AT_EXECVE_CHECK: 1 yes, 0 no, -1 the
 * question could not be asked (reported as a failure, not as a skip).
 */
static int kernel_has_execve_check(void)
{
	static char *const argv[] = { "test_execve_check", NULL };
	static char *const envp[] = { NULL };
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	long r;

	if (fd < 0)
		return -1;
	r = syscall(SYS_execveat, fd, "", argv, envp,
		    AT_EMPTY_PATH | AT_EXECVE_CHECK);
	if (r < 0 && errno == EINVAL) {
		close(fd);
		return 0;
	}
	close(fd);
	return r == 0 ? 1 : -1;
}

static const gid_t alice_groups[] = { 1500, 1600 };
static const struct pc_subject subjects[] = {
	{ 0, 0, NULL, 0, true, true },			/* root */
	{ 1500, 1500, alice_groups, 2, false, false },	/* owner of some */
	{ 1501, 1501, NULL, 0, false, false },		/* another user */
};

static struct corpus_file *add(const char *dir, const char *name, mode_t mode,
			       uid_t uid, gid_t gid, const char *acl_text)
{
	struct corpus_file *f = &files[nfiles];
	struct statx stx;
	int fd;

	assert_true(nfiles < MAX_FILES);
	snprintf(f->path, sizeof(f->path), "%s/%s", dir, name);
	fd = open(f->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\nexit 0\n", 17), 17);
	assert_int_equal(fchown(fd, uid, gid), 0);
	if (acl_text) {
		acl_t acl = acl_from_text(acl_text);

		assert_non_null(acl);
		assert_int_equal(acl_set_fd(fd, acl), 0);
		acl_free(acl);
	} else {
		assert_int_equal(fchmod(fd, mode), 0);
	}
	close(fd);
	/* read-only fd, opened by root; the check re-opens it as the subject */
	f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	assert_true(f->fd >= 0);
	assert_int_equal(statx(f->fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx), 0);
	assert_int_equal(pc_facts_load(&f->facts, &stx, f->fd, NULL), 0);
	f->noexec = dir == noexec_dir;
	nfiles++;
	return f;
}

static int setup(void **state)
{
	static const uid_t owners[] = { 0, 1500, 1501 };
	static const gid_t groups[] = { 0, 1600, 1501 };
	static const char *const acls[] = {
		"u::rw-,u:1500:r-x,g::r--,m::r-x,o::---",
		"u::rw-,u:1500:rwx,g::r--,m::r--,o::---",
		"u::rw-,u:1500:rwx,g::---,m::---,o::r-x",
		"u::rw-,g::r--,g:1600:r-x,m::rwx,o::r--",
		"u::rw-,g::---,g:1500:r--,g:1600:--x,m::rwx,o::rwx",
		"u::rw-,g::---,g:1600:r--,m::rwx,o::rwx",
		"u::---,u:1501:r-x,g::r-x,m::r-x,o::---",
		"u::r-x,u:1500:---,g::r-x,m::r-x,o::r-x",
	};
	char name[32];
	struct corpus_file *f;
	struct rlimit rl;

	(void)state;
	/*
	 * Every file's fd stays open (about 1,600): more than the usual soft
	 * limit of 1024 (Debian, the VM); the hard limit is at least 4096.
	 */
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -1;
	if (rl.rlim_cur < MAX_FILES + 64) {
		rl.rlim_cur = rl.rlim_max < MAX_FILES + 64 ? rl.rlim_max : MAX_FILES + 64;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			return -1;
	}
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 || !mkdtemp(top) ||
	    mount("pcxcheck", top, "tmpfs", 0, "mode=0755") < 0) {
		fprintf(stderr, "test_execve_check: cannot set up a tmpfs: %s (run as root)\n",
			strerror(errno));
		return -1;
	}
	snprintf(noexec_dir, sizeof(noexec_dir), "%s/noexec", top);
	if (mkdir(noexec_dir, 0755) < 0 ||
	    mount("pcxnoexec", noexec_dir, "tmpfs", MS_NOEXEC, "mode=0755") < 0)
		return -1;
	for (size_t o = 0; o < 3; o++) {
		for (mode_t m = 0; m <= 0777; m++) {
			snprintf(name, sizeof(name), "m%04o-u%u.sh", (unsigned int)m,
				 (unsigned int)owners[o]);
			add(top, name, m, owners[o], groups[o], NULL);
		}
		for (mode_t m = 04000; m <= 06000; m += 02000) {
			snprintf(name, sizeof(name), "s%04o-u%u.sh", (unsigned int)(m | 0744),
				 (unsigned int)owners[o]);
			add(top, name, m | 0744, owners[o], groups[o], NULL);
		}
		for (mode_t m = 0; m <= 0777; m += 0111) {
			snprintf(name, sizeof(name), "n%04o-u%u.sh", (unsigned int)m,
				 (unsigned int)owners[o]);
			add(noexec_dir, name, m, owners[o], groups[o], NULL);
		}
	}
	for (size_t a = 0; a < sizeof(acls) / sizeof(acls[0]); a++) {
		snprintf(name, sizeof(name), "acl%zu.sh", a);
		f = add(top, name, 0, 0, 1600, acls[a]);
		/* the ACL really is there (tmpfs with POSIX ACL support) */
		assert_non_null(f->facts.ino.acl);
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < nfiles; i++)
		close(files[i].fd);
	umount(noexec_dir);
	umount(top);
	rmdir(top);
	return 0;
}

/* In a forked child: take subject @s's credentials (root stays as it is). */
static void become(const struct pc_subject *s)
{
	if (s->uid != 0 &&
	    (setgroups(s->ngroups, s->groups) < 0 ||
	     setresgid(s->gid, s->gid, s->gid) < 0 ||
	     setresuid(s->uid, s->uid, s->uid) < 0))
		_exit(3);
}

/* Ask the kernel as @s for every file; returns the number of disagreements. */
static int compare_as(const struct pc_subject *s)
{
	int pfd[2], status, bad = 0;
	pid_t pid;
	char line[256];
	FILE *in;

	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		FILE *out = fdopen(pfd[1], "w");

		close(pfd[0]);
		become(s);
		for (size_t i = 0; i < nfiles; i++) {
			int r = tf_execve_check(files[i].fd);

			fprintf(out, "%zu %d\n", i, r == 0 ? 0 : errno);
		}
		fclose(out);
		_exit(0);
	}
	close(pfd[1]);
	in = fdopen(pfd[0], "r");
	assert_non_null(in);
	size_t count = 0;

	while (fgets(line, sizeof(line), in)) {
		size_t i;
		int err;
		struct pc_fsinfo fs = { files[0].noexec, false };

		int got = sscanf(line, "%zu %d", &i, &err);

		assert_int_equal(got, 2);
		assert_true(i < nfiles);
		fs.noexec_mount = files[i].noexec;
		unsigned int predicted = pc_eval(3, PC_MODEL_EXECVE_CHECK, &fs,
						 &files[i].facts.ino, s);

		count++;
		if (err != 0 && err != EACCES) {
			print_error("%s as uid %u: unexpected %s\n", files[i].path,
				    (unsigned int)s->uid, strerror(err));
			bad++;
		} else if ((predicted != 0) != (err == EACCES)) {
			print_error("%s as uid %u: kernel %s, predicted %s (reasons 0x%x)\n",
				    files[i].path, (unsigned int)s->uid,
				    err ? "deny" : "allow", predicted ? "deny" : "allow",
				    predicted);
			bad++;
		}
	}
	fclose(in);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(count, nfiles);
	print_message("uid %u: agreement: %zu/%zu\n", (unsigned int)s->uid,
		      nfiles - (size_t)bad, nfiles);
	return bad;
}

/* The whole corpus as one subject: root, the owner, another user. */
struct compare_case {
	const char *name;
	const struct pc_subject *subject;
};

static struct compare_case compare_cases[] = {
	{ "test_root", &subjects[0] },
	{ "test_owner_user", &subjects[1] },
	{ "test_other_user", &subjects[2] },
};

static void test_compare(void **state)
{
	const struct compare_case *c = *state;

	if (no_execve_check)
		skip_why(c->name);
	assert_int_equal(compare_as(c->subject), 0);
}

/* mode 0111, owned by the subject: exec without read */
static void test_read_requirement_differs(void **state)
{
	struct pc_fsinfo fs = { false, false };
	struct corpus_file *f = NULL;

	(void)state;
	for (size_t i = 0; i < nfiles; i++)
		if (strstr(files[i].path, "/m0111-u1500.sh"))
			f = &files[i];
	assert_non_null(f);
	assert_int_equal(pc_eval(3, PC_MODEL_EXECVE_CHECK, &fs, &f->facts.ino,
				 &subjects[1]), 0);
	assert_int_equal(pc_eval(3, PC_MODEL_TRUSTED_FOR, &fs, &f->facts.ino,
				 &subjects[1]), TF_REASON_FILE_PERM);
}

/* errno of AT_EXECVE_CHECK on each of @fds as @s (in a child), into @errs */
static void ask_as(const struct pc_subject *s, const int *fds, int *errs, size_t n)
{
	int pfd[2], status;
	pid_t pid;

	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(pfd[0]);
		become(s);
		for (size_t i = 0; i < n; i++) {
			int e = tf_execve_check(fds[i]) == 0 ? 0 : errno;

			if (write(pfd[1], &e, sizeof(e)) != sizeof(e))
				_exit(4);
		}
		_exit(0);
	}
	close(pfd[1]);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(read(pfd[0], &errs[i], sizeof(errs[i])), sizeof(errs[i]));
	close(pfd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/*
 * Files open for writing: the kernel's ETXTBSY against write_busy, with the
 * writers found by pc_writers_load() in /proc (this process holds them).
 * A subject without the exec permission gets EACCES first (the open for
 * execution fails before deny_write_access()); a file open read-only only
 * is not busy.
 */
static void test_write_busy(void **state)
{
	static const struct {
		const char *name;
		mode_t mode;
		uid_t uid;
		gid_t gid;
		bool write;
	} spec[] = {
		{ "busy-0755-u0.sh", 0755, 0, 0, true },
		{ "busy-0750-u1500.sh", 0750, 1500, 1600, true },
		{ "busy-0644-u0.sh", 0644, 0, 0, true },
		{ "ro-0755-u0.sh", 0755, 0, 0, false },
		{ "busy-noexec-0755.sh", 0755, 0, 0, true },
	};
	enum { N = sizeof(spec) / sizeof(spec[0]) };
	int rfd[N], wfd[N], errs[N];
	struct pc_file_facts facts[N];
	struct pc_writers w;
	struct statx stx[N];
	char path[N][160];
	int bad = 0, busy_seen = 0;

	(void)state;
	if (no_execve_check)
		skip_why(__func__);
	for (size_t i = 0; i < N; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/%s",
			 strstr(spec[i].name, "noexec") ? noexec_dir : top, spec[i].name);
		wfd[i] = open(path[i], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		assert_true(wfd[i] >= 0);
		assert_int_equal(write(wfd[i], "#!/bin/sh\n", 10), 10);
		assert_int_equal(fchown(wfd[i], spec[i].uid, spec[i].gid), 0);
		assert_int_equal(fchmod(wfd[i], spec[i].mode), 0);
		if (!spec[i].write) {
			close(wfd[i]);
			wfd[i] = -1;
		}
		rfd[i] = open(path[i], O_RDONLY | O_CLOEXEC);
		assert_true(rfd[i] >= 0);
		assert_int_equal(statx(rfd[i], "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx[i]), 0);
		assert_int_equal(pc_facts_load(&facts[i], &stx[i], rfd[i], NULL), 0);
	}
	assert_int_equal(pc_writers_load(&w, "/proc"), 0);
	for (size_t i = 0; i < N; i++) {
		facts[i].ino.open_for_write = pc_writers_has(&w, &stx[i]);
		/* the facts themselves: which files this process holds for writing */
		assert_int_equal(facts[i].ino.open_for_write, spec[i].write);
	}
	/*
	 * A memfd, O_RDWR from memfd_create() and held: the kernel executes
	 * it (its descriptor took no write access), so it is no writer.
	 */
	int mfd = memfd_create("pc-xcheck", MFD_CLOEXEC);
	struct statx mstx;

	assert_true(mfd >= 0);
	assert_int_equal(write(mfd, "#!/bin/sh\n", 10), 10);
	assert_int_equal(statx(mfd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &mstx), 0);
	assert_int_equal(pc_writers_has(&w, &mstx), false);
	pc_writers_free(&w);
	assert_int_equal(pc_writers_load(&w, "/proc"), 0);
	assert_int_equal(pc_writers_has(&w, &mstx), false);
	pc_writers_free(&w);
	for (size_t s = 0; s < 3; s++) {
		int merr;

		ask_as(&subjects[s], &mfd, &merr, 1);
		if (merr != 0) {
			print_error("memfd as uid %u: kernel %s, predicted allow\n",
				    (unsigned int)subjects[s].uid, strerror(merr));
			bad++;
		}
	}
	close(mfd);
	for (size_t s = 0; s < 3; s++) {
		ask_as(&subjects[s], rfd, errs, N);
		for (size_t i = 0; i < N; i++) {
			struct pc_fsinfo fs = { strstr(spec[i].name, "noexec") != NULL, false };
			unsigned int r = pc_eval(-1, PC_MODEL_EXECVE_CHECK, &fs,
						 &facts[i].ino, &subjects[s]);
			int want = !r ? 0 : r == TF_REASON_WRITE_BUSY ? ETXTBSY : EACCES;

			busy_seen += errs[i] == ETXTBSY;
			if (errs[i] != want) {
				print_error("%s as uid %u: kernel %s, predicted %s (reasons 0x%x)\n",
					    path[i], (unsigned int)subjects[s].uid,
					    errs[i] ? strerror(errs[i]) : "allow",
					    want ? strerror(want) : "allow", r);
				bad++;
			}
		}
	}
	for (size_t i = 0; i < N; i++) {
		close(rfd[i]);
		if (wfd[i] >= 0)
			close(wfd[i]);
		unlink(path[i]);
	}
	assert_int_equal(bad, 0);
	/* the kernel did refuse some with ETXTBSY: the case is exercised */
	assert_true(busy_seen > 0);
}

int main(void)
{
	static const char why[] =
		"this kernel has no AT_EXECVE_CHECK (mainline < 6.14 or Debian's 6.1: execveat() "
		"refuses the flag with EINVAL); the VM case policyctl-proof "
		"checks this model against the trustfor kernel's AT_EXECVE_CHECK";
	const char *pretend = getenv("PC_TEST_PRETEND_NO_EXECVE_CHECK");
	const struct CMUnitTest tests[] = {
		{ "test_root", test_compare, NULL, NULL, &compare_cases[0] },
		{ "test_owner_user", test_compare, NULL, NULL, &compare_cases[1] },
		{ "test_other_user", test_compare, NULL, NULL, &compare_cases[2] },
		cmocka_unit_test(test_read_requirement_differs),
		cmocka_unit_test(test_write_busy),
	};
	int has = kernel_has_execve_check();

	if (has < 0) {
		fprintf(stderr, "test_execve_check: cannot ask the kernel about "
				"AT_EXECVE_CHECK: %s\n", strerror(errno));
		return 1;
	}
	if (!has || (pretend && !strcmp(pretend, "1")))
		no_execve_check = why;
	return cmocka_run_group_tests(tests, setup, teardown);
}
