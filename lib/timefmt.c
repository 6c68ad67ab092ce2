// SPDX-License-Identifier: LGPL-2.1-or-later
/* The time stamps the tools print; see timefmt.h. */
#include "timefmt.h"

#include <stdio.h>
#include <string.h>

const char *tf_clock_hms(time_t t, char *out, size_t n)
{
	struct tm tm;

	if (n && (!localtime_r(&t, &tm) || !strftime(out, n, "%H:%M:%S", &tm)))
		out[0] = '\0';
	return out;
}

const char *tf_time_local(time_t t, char *out, size_t n)
{
	struct tm tm;

	if (n && (!localtime_r(&t, &tm) || !strftime(out, n, "%x %T", &tm)))
		snprintf(out, n, "%lld", (long long)t);
	return out;
}

/* "YYYY-MM-DDTHH:MM:SS" of @t in UTC, then @tail; "" on failure. */
static const char *iso_utc(time_t t, const char *tail, char *out, size_t n)
{
	struct tm tm;
	size_t len;

	if (!n)
		return out;
	len = gmtime_r(&t, &tm) ? strftime(out, n, "%Y-%m-%dT%H:%M:%S", &tm) : 0;
	if (!len || (size_t)snprintf(out + len, n - len, "%s", tail) >= n - len)
		out[0] = '\0';
	return out;
}

const char *tf_time_iso_utc(time_t t, char *out, size_t n)
{
	return iso_utc(t, "Z", out, n);
}

const char *tf_time_iso_utc_ms(int64_t ms, char *out, size_t n)
{
	char tail[16];

	/* As the plugin always printed it: the seconds truncate toward 0. */
	snprintf(tail, sizeof(tail), ".%03dZ", (int)(ms % 1000));
	return iso_utc((time_t)(ms / 1000), tail, out, n);
}
