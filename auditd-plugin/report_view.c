// SPDX-License-Identifier: GPL-2.0-or-later
/* What a report shows, shared by text and JSON; see report_view.h. */
#include "report_view.h"

#include <stdlib.h>
#include <string.h>

bool ap_view_shows(const struct ap_report_opts *o, int c)
{
	return !o->apis || (o->apis & (1u << c));
}

uint64_t ap_view_denials(const struct ap_agg *a, const struct ap_report_opts *o)
{
	uint64_t n = 0;

	if (!o->apis)
		return a->denials;
	for (int c = 0; c < AP_API_CLASSES; c++)
		if (ap_view_shows(o, c))
			n += ap_agg_ctable(a, c, AP_DIM_INTERP)->total;
	return n;
}

uint64_t ap_view_source(const struct ap_agg *a, const struct ap_report_opts *o, enum ap_source s)
{
	uint64_t n = 0;

	for (int c = 0; c < AP_API_CLASSES; c++)
		if (ap_view_shows(o, c))
			n += ap_agg_source(a, c, s);
	return n;
}

uint64_t ap_view_relay_lost(const struct ap_agg *a, const struct ap_report_opts *o)
{
	bool ec = ap_view_shows(o, AP_API_EC_ENFORCED) || ap_view_shows(o, AP_API_EC_OBSERVED);

	return ec ? a->relay_lost : 0;
}

bool ap_view_range(const struct ap_agg *a, const struct ap_report_opts *o, int64_t *first,
		   int64_t *last)
{
	*first = INT64_MAX;
	*last = INT64_MIN;
	if (!o->apis) {
		*first = a->first;
		*last = a->last;
	} else {
		for (int c = 0; c < AP_API_CLASSES; c++) {
			if (!ap_view_shows(o, c) || !ap_agg_ctable(a, c, AP_DIM_INTERP)->total)
				continue;
			if (a->api_first[c] < *first)
				*first = a->api_first[c];
			if (a->api_last[c] > *last)
				*last = a->api_last[c];
		}
	}
	return ap_view_denials(a, o) != 0;
}

static int cmp_mrow(const void *a, const void *b)
{
	const struct ap_view_row *p = a, *q = b;
	int c = ap_ss_row_cmp(p->r, q->r);

	return c ? c : p->c - q->c;
}

struct ap_view_row *ap_view_rows(const struct ap_agg *a, enum ap_dim d,
			     const struct ap_report_opts *o, size_t *n)
{
	size_t k = 0, total = 0;
	struct ap_view_row *m;

	for (int c = 0; c < AP_API_CLASSES; c++)
		if (ap_view_shows(o, c))
			total += ap_agg_ctable(a, c, d)->n;
	m = malloc((total ? total : 1) * sizeof(*m));
	if (!m)
		return NULL;
	for (int c = 0; c < AP_API_CLASSES; c++) {
		const struct ap_ss_table *t = ap_agg_ctable(a, c, d);

		if (!ap_view_shows(o, c))
			continue;
		for (uint32_t i = 0; i < t->n; i++)
			m[k++] = (struct ap_view_row){ &t->rows[i], c };
	}
	qsort(m, k, sizeof(*m), cmp_mrow);
	*n = k;
	return m;
}

void ap_view_distinct(const struct ap_agg *a, enum ap_dim d, const struct ap_report_opts *o,
		      uint64_t *n, bool *capped)
{
	*n = 0;
	*capped = false;
	for (int c = 0; c < AP_API_CLASSES; c++) {
		const struct ap_ss_table *t = ap_agg_ctable(a, c, d);

		if (!ap_view_shows(o, c))
			continue;
		*capped |= t->evicted || t->unstored;
		for (uint32_t i = 0; i < t->n; i++) {
			bool seen = false;

			for (int e = 0; e < c && !seen; e++)
				seen = ap_view_shows(o, e) &&
				       ap_ss_find(ap_agg_ctable(a, e, d), t->rows[i].key,
						  t->rows[i].klen);
			*n += !seen;
		}
	}
}

double ap_view_rate(uint64_t hits, int64_t first, int64_t last)
{
	double min = ((double)last - (double)first) / 60000.0;

	return (double)hits / (min < 1.0 ? 1.0 : min);
}

static int cmp_change(const void *x, const void *y)
{
	const struct ap_change *a = x, *b = y;

	return a->c.ms < b->c.ms ? -1 : a->c.ms > b->c.ms;
}

struct ap_change *ap_view_changes(const struct ap_agg *a)
{
	struct ap_change *c = malloc((a->nchanges ? a->nchanges : 1) * sizeof(*c));

	if (c && a->nchanges) {
		memcpy(c, a->changes, a->nchanges * sizeof(*c));
		/* Arrival order breaks ties: merge order of the inputs. */
		qsort(c, a->nchanges, sizeof(*c), cmp_change);
	}
	return c;
}

struct tf_mountinfo *ap_view_mounts(const struct ap_report_opts *o, struct tf_mountinfo *mi)
{
	if (!o->interpret || !(o->tables & (1u << AP_DIM_MOUNT)))
		return NULL;
	return tf_mountinfo_load(NULL, mi, NULL) ? NULL : mi;
}

void ap_view_mounts_free(struct tf_mountinfo *mi)
{
	if (mi)
		tf_mountinfo_free(mi);
}
