// SPDX-License-Identifier: LGPL-2.1-or-later
/* lib/hex.c: bytes as lowercase hex, two digits a byte, high nibble first. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hex.h"

struct row {
	const char *in;
	size_t n;
	const char *want;
};

#define R(in, want) { in, sizeof(in) - 1, want }

static const struct row rows[] = {
	R("", ""),
	{ "\0", 1, "00" },
	R("\x01\xab\xff", "01abff"),
	R("\xde\xad\xbe\xef", "deadbeef"),
	R("AZ\n", "415a0a"),
	R("\x80\x7f\x10", "807f10"),
};

static void test_table(void **state)
{
	char out[16];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(out, 'x', sizeof(out));
		assert_ptr_equal(tf_hex(rows[i].in, rows[i].n, out, sizeof(out)), out);
		assert_string_equal(out, rows[i].want);
	}
}

/* 2n digits and the NUL must fit, else NULL/ERANGE and "". */
static void test_size(void **state)
{
	struct {
		size_t outsz;
		const char *want; /* NULL: refused */
	} sizes[] = { { 0, NULL }, { 1, NULL }, { 4, NULL }, { 5, "abcd" } };
	char out[8];

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char *got;

		memset(out, 'x', sizeof(out));
		errno = 0;
		got = tf_hex("\xab\xcd", 2, out, sizes[i].outsz);
		if (sizes[i].want) {
			assert_string_equal(got, sizes[i].want);
			continue;
		}
		assert_null(got);
		assert_int_equal(errno, ERANGE);
		assert_int_equal(out[0], sizes[i].outsz ? '\0' : 'x');
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_table),
	cmocka_unit_test(test_size),
};

int main(void)
{
	return cmocka_run_group_tests(tests, NULL, NULL);
}
