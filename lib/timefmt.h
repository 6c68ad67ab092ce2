/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * timefmt.h - the time stamps the tools print, one format each.  Each
 * writes at most @n bytes (NUL included) into @out and returns @out.
 */
#ifndef TF_TIMEFMT_H
#define TF_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Local wall clock "14:03:59" (trusttop's header); "" when @t has no
 * local time or @n is too small.
 */
const char *tf_clock_hms(time_t t, char *out, size_t n);

/* Local date and time in the locale's form, strftime "%x %T"
 * ("12/05/26 14:03:59" in the C locale: the report's columns); when @t
 * cannot be shown so, its decimal value ("1796392800").
 */
const char *tf_time_local(time_t t, char *out, size_t n);

/* UTC, ISO 8601 "2026-12-05T14:03:59Z"; "" when @t has no UTC
 * date or @n is too small.
 */
const char *tf_time_iso_utc(time_t t, char *out, size_t n);

/* The same with the milliseconds of @ms (ms since the epoch):
 * "2026-12-05T14:03:59.250Z", the report's JSON time stamps.
 */
const char *tf_time_iso_utc_ms(int64_t ms, char *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* TF_TIMEFMT_H */
