// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/user.c: tf_parse_user()'s rule, from user.h: digits are a uid as is
 * (up to 4294967294), anything else a name from the user database.
 * Names used: root (uid 0 on every system), daemon (uid 1 in Debian's
 * base-passwd), and names no system has.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "user.h"

struct row {
	const char *in;
	int err;       /* 0: accepted */
	uint64_t want; /* the uid when accepted */
};

static const struct row rows[] = {
	{ "root", 0, 0 },
	{ "daemon", 0, 1 },
	{ "0", 0, 0 },
	{ "007", 0, 7 },
	{ "123456", 0, 123456 }, /* no passwd entry needed */
	{ "4294967294", 0, 4294967294u },
	{ "4294967295", ERANGE, 0 },	/* (uid_t)-1: "no uid" */
	{ "4294967296", ERANGE, 0 },
	{ "99999999999999999999999", ERANGE, 0 },
	{ "", EINVAL, 0 },
	{ "no-such-user-tf13", ENOENT, 0 },
	{ "-1", ENOENT, 0 },	/* not digits: a name */
	{ "+5", ENOENT, 0 },
	{ " 7", ENOENT, 0 },
	{ "12ab", ENOENT, 0 },
};

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		uid_t uid = 42;
		int rc;

		errno = 0;
		rc = tf_parse_user(r->in, &uid);
		if (rc != (r->err ? -1 : 0))
			print_message("# '%s': rc %d, errno %d\n", r->in, rc, errno);
		if (r->err) {
			assert_int_equal(rc, -1);
			assert_int_equal(errno, r->err);
			assert_int_equal(uid, 42); /* untouched */
		} else {
			assert_int_equal(rc, 0);
			assert_int_equal(uid, r->want);
		}
	}
}

static void test_null(void **state)
{
	uid_t uid;

	(void)state;
	errno = 0;
	assert_int_equal(tf_parse_user(NULL, &uid), -1);
	assert_int_equal(errno, EINVAL);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_table),
	cmocka_unit_test(test_null),
};

int main(void)
{
	return cmocka_run_group_tests(tests, NULL, NULL);
}
