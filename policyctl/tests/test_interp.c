// SPDX-License-Identifier: GPL-2.0-or-later
/* policyctl/interp.c: which files are interpreted files. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "interp.h"

static void test_by_name(void **state)
{
	(void)state;
	assert_true(pc_interp_by_name("run.sh"));
	assert_true(pc_interp_by_name("a.b.py"));
	assert_true(pc_interp_by_name("Module.pm"));
	assert_true(pc_interp_by_name("x.js"));
	assert_false(pc_interp_by_name(".sh"));
	assert_false(pc_interp_by_name("sh"));
	assert_false(pc_interp_by_name("file."));
	assert_false(pc_interp_by_name("notes.txt"));
	assert_false(pc_interp_by_name("x.SH"));
	assert_false(pc_interp_by_name("x.shx"));
}

static int temp_with(const char *content, size_t len)
{
	char path[] = "/tmp/pc-interp-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	return fd;
}

static void test_shebang(void **state)
{
	int fd;

	(void)state;
	fd = temp_with("#!/bin/sh\necho\n", 15);
	assert_int_equal(pc_interp_shebang(fd), 1);
	close(fd);
	fd = temp_with("#!", 2);
	assert_int_equal(pc_interp_shebang(fd), 1);
	close(fd);
	fd = temp_with("#", 1);
	assert_int_equal(pc_interp_shebang(fd), 0);
	close(fd);
	fd = temp_with("", 0);
	assert_int_equal(pc_interp_shebang(fd), 0);
	close(fd);
	fd = temp_with("\x7f" "ELF", 4);
	assert_int_equal(pc_interp_shebang(fd), 0);
	close(fd);
	assert_int_equal(pc_interp_shebang(-1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_name),
		cmocka_unit_test(test_shebang),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
