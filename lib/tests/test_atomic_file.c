// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/atomic_file.c: replace-by-rename, mode, and failures leave no trace. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "atomic_file.h"

static char dir[] = "/tmp/pc-atomic-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void read_back(const char *path, const char *want)
{
	char buf[128] = { 0 };
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), (ssize_t)strlen(want));
	close(fd);
	assert_string_equal(buf, want);
}

static size_t entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_create_and_replace(void **state)
{
	char path[64];
	struct stat st;
	ino_t first;

	(void)state;
	snprintf(path, sizeof(path), "%s/60-trust-policy.conf", dir);
	assert_int_equal(tf_atomic_write(path, "a = 1\n", 6, 0644), 0);
	read_back(path, "a = 1\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	first = st.st_ino;
	assert_int_equal(tf_atomic_write(path, "b = 22\n", 7, 0600), 0);
	read_back(path, "b = 22\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	/* replaced by rename: a new inode, never rewritten in place */
	assert_int_not_equal(st.st_ino, first);
	assert_int_equal(entries(), 1);
}

static void test_failure_leaves_nothing(void **state)
{
	char path[64];

	(void)state;
	snprintf(path, sizeof(path), "%s/missing/file", dir);
	assert_int_equal(tf_atomic_write(path, "x", 1, 0644), -1);
	assert_int_equal(errno, ENOENT);
	/* rename onto a directory fails: the directory stays, no temp file left */
	snprintf(path, sizeof(path), "%s/adir", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(tf_atomic_write(path, "x", 1, 0644), -1);
	assert_int_equal(errno, EISDIR);
	assert_int_equal(entries(), 2); /* the conf of the previous test + adir */
}

/*
 * The directory cannot be synced (here: it cannot be opened, mode 0300 has
 * no read permission, in a child without CAP_DAC_OVERRIDE or any other
 * capability): the file is replaced, but the write is reported as not
 * durable, with errno.
 */
static void test_dir_sync_failure(void **state)
{
	char sub[64], path[80];
	pid_t pid;
	int st;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/noread", dir);
	snprintf(path, sizeof(path), "%s/state", sub);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(chmod(sub, 0300), 0);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		cap_t none = cap_init();

		if (!none || cap_set_proc(none))
			_exit(10);
		if (tf_atomic_write(path, "new\n", 4, 0644) != -1)
			_exit(11);
		_exit(errno == EACCES ? 0 : 12);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(chmod(sub, 0700), 0);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	read_back(path, "new\n"); /* renamed into place all the same */
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_create_and_replace),
	cmocka_unit_test(test_failure_leaves_nothing),
	cmocka_unit_test(test_dir_sync_failure),
};

int main(void)
{
	return cmocka_run_group_tests(tests, setup, teardown);
}
