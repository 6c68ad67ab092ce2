// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/getopt_error.c: each command line below goes through glibc's own
 * getopt_long(), and the message for the option it refuses must be the one
 * written here by hand from getopt_error.h.
 */
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "getopt_error.h"

static int flag;

static const struct option longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "state", required_argument, NULL, 's' },
	{ "path", required_argument, NULL, 'p' },
	{ "policy", required_argument, NULL, 'P' },
	{ "flag", no_argument, &flag, 1 },
	{ "top", optional_argument, NULL, 't' },
	{ NULL, 0, NULL, 0 }
};

#define SHORTOPTS "+:js:p:n:q"

struct row {
	const char *argv[5];
	const char *want;
};

static const struct row rows[] = {
	{ { "t", "-z" }, "unknown option '-z'" },
	{ { "t", "-jz" }, "unknown option '-z'" },
	/* still inside "-zj": argv[optind - 1] is "t" */
	{ { "t", "-zj" }, "unknown option '-z'" },
	{ { "t", "-n" }, "option '-n' needs a value" },
	{ { "t", "-qn" }, "option '-n' needs a value" },
	{ { "t", "--state" }, "option '--state' needs a value" },
	{ { "t", "--sta" }, "option '--sta' needs a value" },
	{ { "t", "--json=1" }, "option '--json' takes no value" },
	{ { "t", "--js=" }, "option '--js' takes no value" },
	/* a flag option (val 0 in optopt) */
	{ { "t", "--flag=yes" }, "option '--flag' takes no value" },
	{ { "t", "--xyz" }, "unknown option '--xyz'" },
	{ { "t", "--xyz=1" }, "unknown option '--xyz'" },
	{ { "t", "--p", "x" }, "ambiguous option '--p' (--path, --policy)" },
	/* the word before is a long option with '=': still the short one */
	{ { "t", "--state=f", "-zj" }, "unknown option '-z'" },
	{ { "t", "--state=f", "-jz" }, "unknown option '-z'" },
	{ { "t", "--top=3", "-qn" }, "option '-n' needs a value" },
	{ { "t", "--state", "f", "--json=" }, "option '--json' takes no value" },
	/* hostile names, escaped as every tool shows names */
	{ { "t", "--\x1b[31m" }, "unknown option '--\\x1b[31m'" },
	{ { "t", "-\x01" }, "unknown option '-\\x01'" },
	{ { "t", "--\xe2\x80\xaeon=1" }, "unknown option '--\\xe2\\x80\\xaeon'" },
};

/* The message for ARGV's first refused option; "" when none is refused. */
static const char *refusal(const char *const *argv, char *buf, size_t size)
{
	char *av[5] = { 0 };
	int argc = 0, c;

	while (argc < 4 && argv[argc]) {
		av[argc] = (char *)argv[argc];
		argc++;
	}
	optind = 0; /* glibc: start afresh */
	opterr = 0;
	while ((c = getopt_long(argc, av, SHORTOPTS, longopts, NULL)) != -1)
		if (c == '?' || c == ':')
			return tf_getopt_error(c, av, longopts, buf, size);
	return "";
}

static void test_table(void **state)
{
	char buf[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		print_message("row %zu\n", i);
		assert_string_equal(refusal(rows[i].argv, buf, sizeof(buf)),
				    rows[i].want);
	}
}

static void test_accepted_and_short_buffer(void **state)
{
	const char *ok[] = { "t", "-qj", "--state=f", "--top", NULL };
	const char *bad[] = { "t", "--state", NULL };
	char buf[12];

	(void)state;
	assert_string_equal(refusal(ok, buf, sizeof(buf)), "");
	/* cut to fit, NUL-terminated */
	assert_string_equal(refusal(bad, buf, sizeof(buf)), "option '--s");
	assert_string_equal(refusal(bad, buf, 1), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_accepted_and_short_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
