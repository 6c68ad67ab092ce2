// SPDX-License-Identifier: GPL-2.0-or-later
/* Bounded aggregation of denials; see aggregate.h. */
#include "aggregate.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const dim_names[AP_DIM_COUNT] = {
	[AP_DIM_INTERP] = "interpreter", [AP_DIM_FILE] = "file",
	[AP_DIM_REASON] = "reason",	 [AP_DIM_MOUNT] = "mount",
	[AP_DIM_USER] = "user",		 [AP_DIM_AUID] = "auid",
	[AP_DIM_NODE] = "node",
};

const char *ap_dim_name(enum ap_dim d)
{
	return d < AP_DIM_COUNT ? dim_names[d] : "?";
}

int ap_dim_from_name(const char *name)
{
	for (int i = 0; i < AP_DIM_COUNT; i++)
		if (!strcmp(name, dim_names[i]))
			return i;
	return -1;
}

const char *ap_api_name(enum ap_api_class c)
{
	return c == AP_API_TRUSTED_FOR ? "trusted_for" : "execve_check";
}

const char *ap_api_label(enum ap_api_class c)
{
	static const char *const labels[AP_API_CLASSES] = {
		[AP_API_TRUSTED_FOR] = "trusted_for",
		[AP_API_EC_ENFORCED] = "execve_check/enforced",
		[AP_API_EC_OBSERVED] = "execve_check/observed",
	};

	return c < AP_API_CLASSES ? labels[c] : "?";
}

const char *ap_source_name(enum ap_source s)
{
	return s == AP_SRC_RELAY ? "relay" : "kernel";
}

uint64_t ap_agg_source(const struct ap_agg *a, enum ap_api_class c, enum ap_source s)
{
	uint64_t relay = a->relay[c];

	return s == AP_SRC_RELAY ? relay : ap_agg_ctable(a, c, AP_DIM_INTERP)->total - relay;
}

struct ap_ss_table *ap_agg_table(struct ap_agg *a, enum ap_api_class c, enum ap_dim d)
{
	return c == AP_API_TRUSTED_FOR ? &a->dim[d] : &a->ec[c - 1][d];
}

const struct ap_ss_table *ap_agg_ctable(const struct ap_agg *a, enum ap_api_class c,
					enum ap_dim d)
{
	return c == AP_API_TRUSTED_FOR ? &a->dim[d] : &a->ec[c - 1][d];
}

int ap_agg_init(struct ap_agg *a, uint32_t cap)
{
	memset(a, 0, sizeof(*a));
	a->cap = cap;
	a->first = INT64_MAX;
	a->last = INT64_MIN;
	for (int c = 0; c < AP_API_CLASSES; c++) {
		a->api_first[c] = INT64_MAX;
		a->api_last[c] = INT64_MIN;
	}
	a->changes_max = AP_AGG_CHANGES_MAX;
	ap_metrics_init(&a->metrics);
	for (int c = 0; c < AP_API_CLASSES; c++) {
		for (int i = 0; i < AP_DIM_COUNT; i++) {
			if (ap_ss_init(ap_agg_table(a, c, i), cap, AP_AGG_KEY_MAX)) {
				ap_agg_free(a);
				return -1;
			}
		}
	}
	return 0;
}

static void change_free(struct ap_change *c)
{
	free(c->node);
	ap_policy_change_clear(&c->c);
}

void ap_agg_free(struct ap_agg *a)
{
	for (int c = 0; c < AP_API_CLASSES; c++)
		for (int i = 0; i < AP_DIM_COUNT; i++)
			ap_ss_free(ap_agg_table(a, c, i));
	for (size_t i = 0; i < a->nchanges; i++)
		change_free(&a->changes[i]);
	free(a->changes);
	ap_metrics_free(&a->metrics);
	memset(a, 0, sizeof(*a));
}

static void add_str(struct ap_ss_table *t, const char *key, const char *note, int64_t ms)
{
	ap_ss_add(t, key, strlen(key), note, 1, ms);
}

/* @id in decimal (what snprintf("%ld") writes; not it: twice per record) */
static void add_id(struct ap_ss_table *t, long id, int64_t ms)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long v = id < 0 ? 0UL - (unsigned long)id : (unsigned long)id;

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	if (id < 0)
		*--p = '-';
	ap_ss_add(t, p, (size_t)(buf + sizeof(buf) - p), NULL, 1, ms);
}

void ap_agg_add_denial(struct ap_agg *a, const struct ap_denial *d)
{
	enum ap_api_class c = d->api < AP_API_CLASSES ? d->api : AP_API_TRUSTED_FOR;
	struct ap_ss_table *t = ap_agg_table(a, c, 0);

	a->denials++;
	if (d->ms < a->first)
		a->first = d->ms;
	if (d->ms > a->last)
		a->last = d->ms;
	if (d->ms < a->api_first[c])
		a->api_first[c] = d->ms;
	if (d->ms > a->api_last[c])
		a->api_last[c] = d->ms;
	add_str(&t[AP_DIM_INTERP], d->exe, d->comm, d->ms);
	add_str(&t[AP_DIM_FILE], d->path, NULL, d->ms);
	add_str(&t[AP_DIM_REASON], d->reason, NULL, d->ms);
	add_str(&t[AP_DIM_MOUNT], d->dev, NULL, d->ms);
	add_id(&t[AP_DIM_USER], d->uid, d->ms);
	add_id(&t[AP_DIM_AUID], d->auid, d->ms);
	add_str(&t[AP_DIM_NODE], d->node ? d->node : "", NULL, d->ms);
	a->relay[c] += d->source == AP_SRC_RELAY;
	if (!a->no_metrics)
		ap_metrics_denial(&a->metrics, d->exe, d->reason, d->node ? d->node : "", c,
				  d->source);
}

void ap_agg_add_lost(struct ap_agg *a, const struct ap_denial *d)
{
	a->relay_lost += d->lost;
	a->relay_lost_records++;
}

/* strdup() that keeps NULL; false when out of memory. */
static bool dup_opt(const char *s, char **out)
{
	*out = s ? strdup(s) : NULL;
	return !s || *out;
}

int ap_agg_add_change(struct ap_agg *a, const struct ap_policy_change *c)
{
	struct ap_change *slot, copy = { .c = *c };

	copy.c.comm = copy.c.exe = NULL; /* the caller's, not ours */
	if (!a->no_metrics)
		ap_metrics_change(&a->metrics, c->node ? c->node : "", c->res, c->new_policy,
				  c->ms);
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
