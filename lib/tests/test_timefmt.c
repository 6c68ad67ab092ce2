// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/timefmt.c: the printed time stamps.  Expected values worked out by
 * hand: 1700000000 s after the epoch is 2023-11-14 22:13:20 UTC
 * (19675 days + 80000 s); "%x" is "mm/dd/yy" in the C locale; the zone
 * "XYZ-2" is two hours east of UTC.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "timefmt.h"

#define T 1700000000

static void zone(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

struct row {
	const char *tz;
	int64_t t;
	const char *hms, *local, *iso;
};

static const struct row rows[] = {
	{ "UTC", 0, "00:00:00", "01/01/70 00:00:00", "1970-01-01T00:00:00Z" },
	{ "UTC", T, "22:13:20", "11/14/23 22:13:20", "2023-11-14T22:13:20Z" },
	/* local time moves, UTC does not */
	{ "XYZ-2", T, "00:13:20", "11/15/23 00:13:20", "2023-11-14T22:13:20Z" },
	/* no calendar date: the local form falls back to the number */
	{ "UTC", INT64_MAX, "", "9223372036854775807", "" },
};

static void test_table(void **state)
{
	char out[64];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];

		zone(r->tz);
		assert_string_equal(tf_clock_hms((time_t)r->t, out, sizeof(out)), r->hms);
		assert_string_equal(tf_time_local((time_t)r->t, out, sizeof(out)), r->local);
		assert_string_equal(tf_time_iso_utc((time_t)r->t, out, sizeof(out)), r->iso);
	}
}

static void test_iso_ms(void **state)
{
	static const struct {
		int64_t ms;
		const char *want;
	} ms[] = {
		{ (int64_t)T * 1000 + 250, "2023-11-14T22:13:20.250Z" },
		{ (int64_t)T * 1000 + 7, "2023-11-14T22:13:20.007Z" },
		{ 999, "1970-01-01T00:00:00.999Z" },
	};
	char out[64];

	(void)state;
	zone("XYZ-2");
	for (size_t i = 0; i < sizeof(ms) / sizeof(ms[0]); i++)
		assert_string_equal(tf_time_iso_utc_ms(ms[i].ms, out, sizeof(out)),
				    ms[i].want);
}

/* A buffer one byte short gives "" (never a cut time stamp). */
static void test_short_buffer(void **state)
{
	char out[32];

	(void)state;
	zone("UTC");
	assert_string_equal(tf_clock_hms(T, out, 8), "");
	assert_string_equal(tf_clock_hms(T, out, 9), "22:13:20");
	assert_string_equal(tf_time_iso_utc(T, out, 20), "");
	assert_string_equal(tf_time_iso_utc(T, out, 21), "2023-11-14T22:13:20Z");
	assert_string_equal(tf_time_iso_utc_ms((int64_t)T * 1000, out, 24), "");
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_table),
	cmocka_unit_test(test_iso_ms),
	cmocka_unit_test(test_short_buffer),
};

int main(void)
{
	return cmocka_run_group_tests_name("timefmt", tests, NULL, NULL);
}
