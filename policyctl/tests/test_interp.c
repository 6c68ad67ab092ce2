// SPDX-License-Identifier: GPL-2.0-or-later
/* policyctl/interp.c: which files are interpreted files. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* Every entry of the table, and nothing that merely starts like one. */
static void test_by_name_table(void **state)
{
	char name[32];

	(void)state;
	for (size_t i = 0; pc_interp_exts[i]; i++) {
		const char *e = pc_interp_exts[i];
		size_t n = strlen(e);

		assert_true(n >= 1 && n <= PC_INTERP_EXT_MAX);
		snprintf(name, sizeof(name), "f.%s", e);
		assert_true(pc_interp_by_name(name));
		snprintf(name, sizeof(name), "f.%sx", e);
		assert_false(pc_interp_by_name(name));
		snprintf(name, sizeof(name), "f.%s.dat", e);
		assert_false(pc_interp_by_name(name));
		if (n > 1) {
			snprintf(name, sizeof(name), "f.%.*s", (int)n - 1, e);
			/* a shorter entry may be in the table ("t", "r") */
			bool in = false;

			for (size_t j = 0; pc_interp_exts[j]; j++)
				in |= strcmp(name + 2, pc_interp_exts[j]) == 0;
			assert_int_equal(pc_interp_by_name(name), in);
		}
	}
	assert_false(pc_interp_by_name("f.dat"));
	assert_false(pc_interp_by_name("f.bashrc"));
	assert_false(pc_interp_by_name("f.s"));
	assert_false(pc_interp_by_name("f.d"));
	assert_true(pc_interp_by_name("f.R"));
	assert_true(pc_interp_by_name("f.t"));
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
		cmocka_unit_test(test_by_name_table),
		cmocka_unit_test(test_shebang),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
