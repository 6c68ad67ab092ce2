/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a report shows, shared by its text (report_text.c) and JSON
 * (report_json.c) renderings: the API classes --api selects, a dimension's
 * rows merged over those classes, the policy changes in time order, and
 * the mounts -i names.
 */
#ifndef AP_REPORT_VIEW_H
#define AP_REPORT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"
#include "mountinfo.h"
#include "report.h"

/* Whether the report shows class @c. */
bool ap_view_shows(const struct ap_report_opts *o, int c);

/* Denials of the classes shown (exact: a table's total is). */
uint64_t ap_view_denials(const struct ap_agg *a, const struct ap_report_opts *o);

/* Denials of the classes shown logged by source @s (exact). */
uint64_t ap_view_source(const struct ap_agg *a, const struct ap_report_opts *o, enum ap_source s);

/* The refusals the relay lost, when execve_check (the only API it sees) is shown; else 0. */
uint64_t ap_view_relay_lost(const struct ap_agg *a, const struct ap_report_opts *o);

/* The time range of the classes shown; false when none was denied. */
bool ap_view_range(const struct ap_agg *a, const struct ap_report_opts *o, int64_t *first,
		   int64_t *last);

/* A row of a table merged over the classes shown. */
struct ap_view_row {
	const struct ap_ss_row *r;
	int c;
};

/*
 * The rows of dimension @d of the classes shown, in ap_ss_sorted()'s order
 * (guaranteed count desc, then key), then by class; *n their number.
 * Caller frees; NULL when out of memory.
 */
struct ap_view_row *ap_view_rows(const struct ap_agg *a, enum ap_dim d,
			     const struct ap_report_opts *o, size_t *n);

/* Distinct keys over the classes shown (a key in two classes counts once). */
void ap_view_distinct(const struct ap_agg *a, enum ap_dim d, const struct ap_report_opts *o,
		      uint64_t *n, bool *capped);

/*
 * Hits per minute over the row's first..last span (at least one minute).
 * The span is computed in double: a record's time out of range is clamped
 * to INT64_MIN or INT64_MAX (record.c), and their difference overflows.
 */
double ap_view_rate(uint64_t hits, int64_t first, int64_t last);

/* The policy changes by time, arrival order among equals. Caller frees. */
struct ap_change *ap_view_changes(const struct ap_agg *a);

/* This machine's mounts when -i and the mount table are asked for, else NULL. */
struct tf_mountinfo *ap_view_mounts(const struct ap_report_opts *o, struct tf_mountinfo *mi);
void ap_view_mounts_free(struct tf_mountinfo *mi);

#endif
