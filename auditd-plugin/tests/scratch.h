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
#include <stdint.h>
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

/* @text as the whole of the file at path. */
static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * A state file of @version 1 or 2 (the trusted_for "dims" only, written by
 * hand as those plugins did) in @text: @n denials from @first to @last,
 * each dimension with one row {KEY,"count":@n,...}, KEY @key(d) (no row
 * when @n is 0), then @tail after the "dims" object, e.g.
 * "\"policy_changes\":[]". Returns @text.
 */
static char *old_state(char *text, size_t size, int version, int n, int64_t first,
		       int64_t last, const char *(*key)(int d), const char *tail)
{
	size_t w = (size_t)snprintf(text, size,
				    "{\"version\":%d,\"denials\":%d,\"first\":%lld,\"last\":%lld,"
				    "\"bad_lines\":0,\"malformed\":0,\"not_denial\":0,"
				    "\"changes_dropped\":0,\"dims\":{", version, n,
				    (long long)first, (long long)last);

	for (int d = 0; d < AP_DIM_COUNT; d++) {
		w += (size_t)snprintf(text + w, size - w,
				      "%s\"%s\":{\"total\":%d,\"evicted\":0,\"unstored\":0,\"rows\":[",
				      d ? "," : "", ap_dim_name(d), n);
		if (n)
			w += (size_t)snprintf(text + w, size - w,
					      "{%s,\"count\":%d,\"err\":0,\"first\":%lld,"
					      "\"last\":%lld}", key(d), n, (long long)first,
					      (long long)last);
		w += (size_t)snprintf(text + w, size - w, "]}");
	}
	assert_true((size_t)snprintf(text + w, size - w, "},%s}", tail) < size - w);
	return text;
}

#endif
