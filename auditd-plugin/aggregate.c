// SPDX-License-Identifier: GPL-2.0-or-later
/* Bounded aggregation of denials; see aggregate.h. */
#include "aggregate.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const dim_names[TF_DIM_COUNT] = {
	[TF_DIM_INTERP] = "interpreter", [TF_DIM_FILE] = "file",
	[TF_DIM_REASON] = "reason",	 [TF_DIM_MOUNT] = "mount",
	[TF_DIM_USER] = "user",		 [TF_DIM_AUID] = "auid",
	[TF_DIM_NODE] = "node",
};

const char *tf_dim_name(enum tf_dim d)
{
	return d < TF_DIM_COUNT ? dim_names[d] : "?";
}

int tf_dim_from_name(const char *name)
{
	for (int i = 0; i < TF_DIM_COUNT; i++)
		if (!strcmp(name, dim_names[i]))
			return i;
	return -1;
}

const char *tf_api_name(enum api_class c)
{
	return c == API_CLASS_TRUSTED_FOR ? "trusted_for" : "execve_check";
}

const char *ap_api_label(enum api_class c)
{
	static const char *const labels[API_CLASSES] = {
		[API_CLASS_TRUSTED_FOR] = "trusted_for",
		[API_CLASS_EC_ENFORCED] = "execve_check/enforced",
		[API_CLASS_EC_OBSERVED] = "execve_check/observed",
	};

	return c < API_CLASSES ? labels[c] : "?";
}

struct ss_table *tf_agg_table(struct tf_agg *a, enum api_class c, enum tf_dim d)
{
	return c == API_CLASS_TRUSTED_FOR ? &a->dim[d] : &a->ec[c - 1][d];
}

const struct ss_table *tf_agg_ctable(const struct tf_agg *a, enum api_class c,
				     enum tf_dim d)
{
	return c == API_CLASS_TRUSTED_FOR ? &a->dim[d] : &a->ec[c - 1][d];
}

int tf_agg_init(struct tf_agg *a, uint32_t cap)
{
	memset(a, 0, sizeof(*a));
	a->cap = cap;
	a->first = INT64_MAX;
	a->last = INT64_MIN;
	for (int c = 0; c < API_CLASSES; c++) {
		a->api_first[c] = INT64_MAX;
		a->api_last[c] = INT64_MIN;
	}
	a->changes_max = TF_AGG_CHANGES_MAX;
	tf_metrics_init(&a->metrics);
	for (int c = 0; c < API_CLASSES; c++) {
		for (int i = 0; i < TF_DIM_COUNT; i++) {
			if (ss_init(tf_agg_table(a, c, i), cap, TF_AGG_KEY_MAX)) {
				tf_agg_free(a);
				return -1;
			}
		}
	}
	return 0;
}

static void change_free(struct tf_change *c)
{
	free(c->node);
	tf_policy_change_clear(&c->c);
}

void tf_agg_free(struct tf_agg *a)
{
	for (int c = 0; c < API_CLASSES; c++)
		for (int i = 0; i < TF_DIM_COUNT; i++)
			ss_free(tf_agg_table(a, c, i));
	for (size_t i = 0; i < a->nchanges; i++)
		change_free(&a->changes[i]);
	free(a->changes);
	tf_metrics_free(&a->metrics);
	memset(a, 0, sizeof(*a));
}

static void add_str(struct ss_table *t, const char *key, const char *note, int64_t ms)
{
	ss_add(t, key, strlen(key), note, 1, ms);
}

static void add_id(struct ss_table *t, long id, int64_t ms)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%ld", id);
	add_str(t, buf, NULL, ms);
}

void tf_agg_add_denial(struct tf_agg *a, const struct tf_denial *d)
{
	enum api_class c = d->api < API_CLASSES ? d->api : API_CLASS_TRUSTED_FOR;
	struct ss_table *t = tf_agg_table(a, c, 0);

	a->denials++;
	if (d->ms < a->first)
		a->first = d->ms;
	if (d->ms > a->last)
		a->last = d->ms;
	if (d->ms < a->api_first[c])
		a->api_first[c] = d->ms;
	if (d->ms > a->api_last[c])
		a->api_last[c] = d->ms;
	add_str(&t[TF_DIM_INTERP], d->exe, d->comm, d->ms);
	add_str(&t[TF_DIM_FILE], d->path, NULL, d->ms);
	add_str(&t[TF_DIM_REASON], d->reason, NULL, d->ms);
	add_str(&t[TF_DIM_MOUNT], d->dev, NULL, d->ms);
	add_id(&t[TF_DIM_USER], d->uid, d->ms);
	add_id(&t[TF_DIM_AUID], d->auid, d->ms);
	add_str(&t[TF_DIM_NODE], d->node ? d->node : "", NULL, d->ms);
	if (!a->no_metrics)
		tf_metrics_denial(&a->metrics, d->exe, d->reason, d->node ? d->node : "", c);
}

/* strdup() that keeps NULL; false when out of memory. */
static bool dup_opt(const char *s, char **out)
{
	*out = s ? strdup(s) : NULL;
	return !s || *out;
}

int tf_agg_add_change(struct tf_agg *a, const struct tf_policy_change *c)
{
	struct tf_change *slot, copy = { .c = *c };

	copy.c.comm = copy.c.exe = NULL; /* the caller's, not ours */
	if (!a->no_metrics)
		tf_metrics_change(&a->metrics, c->node ? c->node : "", c->res, c->new_policy, c->ms);
	copy.node = strdup(c->node ? c->node : "");
	if (!copy.node || !dup_opt(c->comm, &copy.c.comm) || !dup_opt(c->exe, &copy.c.exe)) {
		change_free(&copy);
		a->changes_dropped++;
		return -1;
	}
	if (a->nchanges == a->changes_max) {
		/* Keep the newest changes; count what falls off. */
		change_free(&a->changes[0]);
		memmove(a->changes, a->changes + 1,
			(a->nchanges - 1) * sizeof(*a->changes));
		a->nchanges--;
		a->changes_dropped++;
	}
	if (!a->changes) {
		a->changes = calloc(a->changes_max, sizeof(*a->changes));
		if (!a->changes) {
			change_free(&copy);
			a->changes_dropped++;
			return -1;
		}
	}
	slot = &a->changes[a->nchanges++];
	*slot = copy;
	slot->c.node = slot->node;
	return 0;
}
