/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the plugin's cmocka tests that write files (test_json.c,
 * test_state.c): a scratch directory made by the group setup and emptied
 * and removed by its teardown, the state path in it, and reading a file
 * whole. Include after <cmocka.h>.
 */
#ifndef AP_TESTS_SCRATCH_H
#define AP_TESTS_SCRATCH_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/ap-test.XXXXXX";
static char path[256]; /* dir/state.json */

static int setup(void **s)
{
	(void)s;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/state.json", dir);
	return 0;
}

static int teardown(void **s)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[512];

	(void)s;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	return rmdir(dir);
}

/* The whole file @p, NUL-terminated, malloc'd. */
static char *slurp(const char *p)
{
	FILE *f = fopen(p, "r");
	char *text;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return text;
}

#endif
