// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/fsutil.c: tf_mkdir_parent() makes the one directory that holds a
 * path, with the mode asked, in a fresh temporary directory.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fsutil.h"

static char top[] = "/tmp/tf-fsutil.XXXXXX";

static int setup(void **state)
{
	(void)state;
	umask(022);
	return mkdtemp(top) ? 0 : -1;
}

/* Remove what the tests made, which must be all there is: rmdir(2) of a
 * directory holding anything else fails the group.
 */
static int teardown(void **state)
{
	static const char *const made[] = { "a", "b", "" };
	char p[256];

	(void)state;
	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", top, made[i]);
		if (rmdir(p))
			return -1;
	}
	return 0;
}

/* mode of top/rel, or -1 when it is not a directory */
static int dir_mode(const char *rel)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	if (stat(p, &st) || !S_ISDIR(st.st_mode))
		return -1;
	return (int)(st.st_mode & 07777);
}

static void test_cases(void **state)
{
	static const struct {
		const char *path; /* under top */
		mode_t mode;
		int err;	  /* 0: success */
		const char *dir;  /* made (or already there), NULL: none */
		int want_mode;
	} cases[] = {
		{ "a/state.json", 0700, 0, "a", 0700 },
		{ "a/other", 0755, 0, "a", 0700 },	/* already there: kept */
		{ "b//file", 0750, 0, "b", 0750 },	/* slashes collapse */
		{ "c/d/file", 0755, ENOENT, NULL, 0 },	/* one level only */
	};
	char p[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", top, cases[i].path);
		errno = 0;
		if (cases[i].err) {
			assert_int_equal(tf_mkdir_parent(p, cases[i].mode), -1);
			assert_int_equal(errno, cases[i].err);
			assert_int_equal(dir_mode("c"), -1);
		} else {
			assert_int_equal(tf_mkdir_parent(p, cases[i].mode), 0);
			assert_int_equal(dir_mode(cases[i].dir), cases[i].want_mode);
		}
	}
}

/* No directory part, or the root: nothing to make. */
static void test_nothing_to_make(void **state)
{
	char cwd[256];

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(top), 0);
	assert_int_equal(tf_mkdir_parent("plain", 0700), 0);
	assert_int_equal(tf_mkdir_parent("/etc-no-such-tf13", 0700), 0);
	assert_int_equal(chdir(cwd), 0);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_cases),
	cmocka_unit_test(test_nothing_to_make),
};

int main(void)
{
	return cmocka_run_group_tests(tests, setup, teardown);
}
