// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/escape.c: hostile names are shown without raw control bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "escape.h"

static void check(const char *in, const char *want)
{
	char *out = tf_escape_dup(in);

	assert_non_null(out);
	assert_string_equal(out, want);
	for (const unsigned char *p = (const unsigned char *)out; *p; p++)
		assert_true(*p >= 0x20 && *p != 0x7f);
	free(out);
}

static void test_plain(void **state)
{
	(void)state;
	check("/usr/bin/run.sh", "/usr/bin/run.sh");
	check("with space", "with space");
	check("", "");
}

static void test_controls(void **state)
{
	(void)state;
	check("a\nb\tc\rd", "a\\nb\\tc\\rd");
	check("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m");
	check("bell\a del\x7f", "bell\\x07 del\\x7f");
	check("back\\slash", "back\\\\slash");
	/* a literal "\x1b" text cannot be confused with an escaped ESC */
	check("\\x1b", "\\\\x1b");
}

static void test_utf8(void **state)
{
	(void)state;
	check("caf\xc3\xa9", "caf\xc3\xa9");		 /* é passes */
	check("\xe2\x9c\x93 ok", "\xe2\x9c\x93 ok");	 /* ✓ passes */
	check("\xc2\x9b" "2J", "\\xc2\\x9b2J");		 /* C1 CSI escaped */
	check("bad\xff\xfe", "bad\\xff\\xfe");		 /* invalid bytes */
	check("\xc0\xaf", "\\xc0\\xaf");		 /* overlong '/' */
	check("\xed\xa0\x80", "\\xed\\xa0\\x80");	 /* surrogate */
	check("cut\xe2\x9c", "cut\\xe2\\x9c");		 /* truncated sequence */
	assert_true(tf_utf8_valid("caf\xc3\xa9", 5));
	assert_false(tf_utf8_valid("\xff", 1));
}

static void test_truncation(void **state)
{
	char buf[6];
	size_t need;

	(void)state;
	need = tf_escape_term("ab\ncd", 5, buf, sizeof(buf));
	assert_int_equal(need, 6);
	assert_string_equal(buf, "ab\\nc");
	need = tf_escape_term("abc", 3, NULL, 0);
	assert_int_equal(need, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_truncation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
