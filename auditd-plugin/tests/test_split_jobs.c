// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report --input's default number of parsing processes, against the rule
 * audisp-trusted-for(8) gives: one per CPU (at most 64), but no more than
 * one per 8 MiB of input, for regular files of 16 MiB or more, else one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "report_split.h"

#define MIB ((off_t)1 << 20)

static void test_auto_jobs(void **s)
{
	static const struct {
		off_t total;
		long cpus;
		unsigned int want;
	} rows[] = {
		{ 16 * MIB - 1, 8, 1 },	  /* below 16 MiB: one */
		{ 16 * MIB, 1, 1 },	  /* one CPU */
		{ 16 * MIB, -1, 1 },	  /* sysconf() failed */
		{ 16 * MIB, 2, 2 },
		{ 16 * MIB, 8, 2 },	  /* two parts of 8 MiB */
		{ 24 * MIB - 1, 8, 2 },
		{ 24 * MIB, 8, 3 },
		{ 1024 * MIB, 8, 8 },	  /* one per CPU */
		{ 1024 * MIB, 200, 64 },  /* at most 64 */
		{ 400 * MIB, 200, 50 },
	};

	(void)s;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		unsigned int got = ap_split_auto_jobs(rows[i].total, rows[i].cpus);

		if (got != rows[i].want)
			fail_msg("%lld bytes, %ld CPUs: %u processes, want %u",
				 (long long)rows[i].total, rows[i].cpus, got, rows[i].want);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_auto_jobs),
};

int main(void)
{
	return cmocka_run_group_tests(tests, NULL, NULL);
}
