/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bounded aggregation of trusted_for denials and the policy-change timeline.
 * Each dimension is a Space-Saving table (spacesaving.h): its row count is
 * capped, its total is exact, and the "other" row holds what eviction took.
 * A class's tables hold the refusals of both sources (record.h): the kernel's
 * and trustfor-relay's; how many of them the relay logged is counted beside.
 */
#ifndef AP_AGGREGATE_H
#define AP_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "record.h"
#include "spacesaving.h"

enum ap_dim {
	AP_DIM_INTERP,	/* exe, note = comm */
	AP_DIM_FILE,	/* path */
	AP_DIM_REASON,	/* reason list */
	AP_DIM_MOUNT,	/* dev */
	AP_DIM_USER,	/* uid */
	AP_DIM_AUID,	/* auid */
	AP_DIM_NODE,	/* node name, "" for records without node= */
	AP_DIM_COUNT
};

#define AP_AGG_CAP_DEFAULT 4096u    /* rows per dimension */
#define AP_AGG_KEY_MAX 4096u	    /* longest key kept (PATH_MAX) */
#define AP_AGG_CHANGES_MAX 4096u    /* policy changes kept (oldest dropped) */

struct ap_change {
	struct ap_policy_change c; /* c.comm and c.exe are owned */
	char *node; /* owned; c.node points to it */
};

struct ap_agg {
	struct ap_ss_table dim[AP_DIM_COUNT]; /* trusted_for denials (AP_API_TRUSTED_FOR) */
	/* execve_check refusals: [0] enforced, [1] observed (ap_agg_table()) */
	struct ap_ss_table ec[AP_API_CLASSES - 1][AP_DIM_COUNT];
	uint32_t cap;
	uint64_t denials;	/* exact, every API */
	int64_t first, last;	/* ms; first > last when there was none */
	int64_t api_first[AP_API_CLASSES], api_last[AP_API_CLASSES]; /* the same per class */
	struct ap_change *changes; /* sorted by arrival, at most changes_max */
	size_t nchanges, changes_max;
	uint64_t changes_dropped;
	uint64_t bad_lines;	/* lines that are not audit records */
	uint64_t malformed;	/* 1350 / 2650 / trust_policy records missing fields */
	uint64_t not_denial;	/* 1350 records with res != 0 */
	uint64_t relay[AP_API_CLASSES]; /* denials per class logged by the relay (type 2650) */
	uint64_t relay_lost;	/* refusals the relay could not log (its op=lost records) */
	uint64_t relay_lost_records; /* those records */
	struct ap_metrics metrics; /* exact labelled counters (metrics.h) */
	bool no_metrics;	/* not kept (a report without --metrics) */
};

const char *ap_dim_name(enum ap_dim d);	/* "interpreter", "file", ... */
/* "trusted_for", "execve_check", "execve_check" (the api= value of a class) */
const char *ap_api_name(enum ap_api_class c);
/* "trusted_for", "execve_check/enforced", "execve_check/observed" (--api, the report) */
const char *ap_api_label(enum ap_api_class c);
/* A class's table of dimension @d; its total is the class's exact count. */
struct ap_ss_table *ap_agg_table(struct ap_agg *a, enum ap_api_class c, enum ap_dim d);
const struct ap_ss_table *ap_agg_ctable(const struct ap_agg *a, enum ap_api_class c,
					enum ap_dim d);
int ap_dim_from_name(const char *name); /* -1 when unknown */
const char *ap_source_name(enum ap_source s); /* "kernel", "relay" */
/* Denials of class @c logged by source @s (exact). */
uint64_t ap_agg_source(const struct ap_agg *a, enum ap_api_class c, enum ap_source s);

int ap_agg_init(struct ap_agg *a, uint32_t cap);
void ap_agg_free(struct ap_agg *a);
void ap_agg_add_denial(struct ap_agg *a, const struct ap_denial *d);
/* A relay's op=lost record (AP_PARSE_LOST): @d->lost refusals not logged. */
void ap_agg_add_lost(struct ap_agg *a, const struct ap_denial *d);
/*
 * Keeps a copy of @c (its node, comm and exe included). Returns 0, or -1
 * when out of memory (the change is counted as dropped).
 */
int ap_agg_add_change(struct ap_agg *a, const struct ap_policy_change *c);

#endif
