/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bounded aggregation of trusted_for denials and the policy-change timeline.
 * Each dimension is a Space-Saving table (spacesaving.h): its row count is
 * capped, its total is exact, and the "other" row holds what eviction took.
 */
#ifndef TF_AGGREGATE_H
#define TF_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "record.h"
#include "spacesaving.h"

enum tf_dim {
	TF_DIM_INTERP,	/* exe, note = comm */
	TF_DIM_FILE,	/* path */
	TF_DIM_REASON,	/* reason list */
	TF_DIM_MOUNT,	/* dev */
	TF_DIM_USER,	/* uid */
	TF_DIM_AUID,	/* auid */
	TF_DIM_NODE,	/* node name, "" for records without node= */
	TF_DIM_COUNT
};

#define TF_AGG_CAP_DEFAULT 4096u    /* rows per dimension */
#define TF_AGG_KEY_MAX 4096u	    /* longest key kept (PATH_MAX) */
#define TF_AGG_CHANGES_MAX 4096u    /* policy changes kept (oldest dropped) */

struct tf_change {
	struct tf_policy_change c; /* c.comm and c.exe are owned */
	char *node; /* owned; c.node points to it */
};

struct tf_agg {
	struct ss_table dim[TF_DIM_COUNT]; /* trusted_for denials (API_CLASS_TRUSTED_FOR) */
	/* execve_check refusals: [0] enforced, [1] observed (tf_agg_table()) */
	struct ss_table ec[API_CLASSES - 1][TF_DIM_COUNT];
	uint32_t cap;
	uint64_t denials;	/* exact, every API */
	int64_t first, last;	/* ms; first > last when there was none */
	int64_t api_first[API_CLASSES], api_last[API_CLASSES]; /* the same per class */
	struct tf_change *changes; /* sorted by arrival, at most changes_max */
	size_t nchanges, changes_max;
	uint64_t changes_dropped;
	uint64_t bad_lines;	/* lines that are not audit records */
	uint64_t malformed;	/* 1350 / trust_policy records missing fields */
	uint64_t not_denial;	/* 1350 records with res != 0 */
	struct tf_metrics metrics; /* exact labelled counters (metrics.h) */
	bool no_metrics;	/* not kept (a report without --metrics) */
};

const char *tf_dim_name(enum tf_dim d);	/* "interpreter", "file", ... */
/* "trusted_for", "execve_check", "execve_check" (the api= value of a class) */
const char *tf_api_name(enum api_class c);
/* "trusted_for", "execve_check/enforced", "execve_check/observed" (--api, the report) */
const char *ap_api_label(enum api_class c);
/* A class's table of dimension @d; its total is the class's exact count. */
struct ss_table *tf_agg_table(struct tf_agg *a, enum api_class c, enum tf_dim d);
const struct ss_table *tf_agg_ctable(const struct tf_agg *a, enum api_class c,
				     enum tf_dim d);
int tf_dim_from_name(const char *name); /* -1 when unknown */

int tf_agg_init(struct tf_agg *a, uint32_t cap);
void tf_agg_free(struct tf_agg *a);
void tf_agg_add_denial(struct tf_agg *a, const struct tf_denial *d);
/*
 * Keeps a copy of @c (its node, comm and exe included). Returns 0, or -1
 * when out of memory (the change is counted as dropped).
 */
int tf_agg_add_change(struct tf_agg *a, const struct tf_policy_change *c);

#endif
