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

struct name_case {
	const char *name;
	bool interpreted;
};

static void check_names(const struct name_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pc_interp_by_name(c[i].name) != c[i].interpreted)
			fail_msg("pc_interp_by_name(\"%s\") is not %d", c[i].name,
				 c[i].interpreted);
}

static void test_by_name(void **state)
{
	static const struct name_case cases[] = {
		{ "run.sh", true }, { "a.b.py", true }, { "Module.pm", true },
		{ "x.js", true },
		/* ".sh" alone is a hidden file named "sh" */
		{ ".sh", false }, { "sh", false }, { "file.", false },
		{ "notes.txt", false }, { "x.SH", false }, { "x.shx", false },
	};

	(void)state;
	check_names(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Every entry of the table, and nothing that merely starts like one. */
static void test_by_name_table(void **state)
{
	static const struct name_case more[] = {
		{ "f.dat", false }, { "f.bashrc", false }, { "f.s", false },
		{ "f.d", false }, { "f.R", true }, { "f.t", true },
	};
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
	check_names(more, sizeof(more) / sizeof(more[0]));
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
	static const struct {
		const char *content;
		size_t len;
		int want;
	} cases[] = {
		{ "#!/bin/sh\necho\n", 15, 1 },
		{ "#!", 2, 1 },
		{ "#", 1, 0 },
		{ "", 0, 0 },
		{ "\x7f" "ELF", 4, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int fd = temp_with(cases[i].content, cases[i].len);

		assert_int_equal(pc_interp_shebang(fd), cases[i].want);
		close(fd);
	}
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
