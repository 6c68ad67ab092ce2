// SPDX-License-Identifier: GPL-2.0-or-later
/* What a report shows, shared by text and JSON; see report_view.h. */
#include "report_view.h"

#include <stdlib.h>
#include <string.h>

bool ap_view_shows(const struct tf_report_opts *o, int c)
{
	return !o->apis || (o->apis & (1u << c));
}

uint64_t ap_view_denials(const struct tf_agg *a, const struct tf_report_opts *o)
{
	uint64_t n = 0;

	if (!o->apis)
		return a->denials;
	for (int c = 0; c < API_CLASSES; c++)
		if (ap_view_shows(o, c))
			n += tf_agg_ctable(a, c, TF_DIM_INTERP)->total;
	return n;
}

bool ap_view_range(const struct tf_agg *a, const struct tf_report_opts *o, int64_t *first,
		   int64_t *last)
{
	*first = INT64_MAX;
	*last = INT64_MIN;
	if (!o->apis) {
		*first = a->first;
		*last = a->last;
	} else {
		for (int c = 0; c < API_CLASSES; c++) {
			if (!ap_view_shows(o, c) || !tf_agg_ctable(a, c, TF_DIM_INTERP)->total)
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
	const struct ap_mrow *p = a, *q = b;
	int c = ss_row_cmp(p->r, q->r);

	return c ? c : p->c - q->c;
}

struct ap_mrow *ap_view_rows(const struct tf_agg *a, enum tf_dim d,
			     const struct tf_report_opts *o, size_t *n)
{
	size_t k = 0, total = 0;
	struct ap_mrow *m;

	for (int c = 0; c < API_CLASSES; c++)
		if (ap_view_shows(o, c))
			total += tf_agg_ctable(a, c, d)->n;
	m = malloc((total ? total : 1) * sizeof(*m));
	if (!m)
		return NULL;
	for (int c = 0; c < API_CLASSES; c++) {
		const struct ss_table *t = tf_agg_ctable(a, c, d);

		if (!ap_view_shows(o, c))
			continue;
		for (uint32_t i = 0; i < t->n; i++)
			m[k++] = (struct ap_mrow){ &t->rows[i], c };
	}
	qsort(m, k, sizeof(*m), cmp_mrow);
	*n = k;
	return m;
}

void ap_view_distinct(const struct tf_agg *a, enum tf_dim d, const struct tf_report_opts *o,
		      uint64_t *n, bool *capped)
{
	*n = 0;
	*capped = false;
	for (int c = 0; c < API_CLASSES; c++) {
		const struct ss_table *t = tf_agg_ctable(a, c, d);

		if (!ap_view_shows(o, c))
			continue;
		*capped |= t->evicted || t->unstored;
		for (uint32_t i = 0; i < t->n; i++) {
			bool seen = false;

			for (int e = 0; e < c && !seen; e++)
				seen = ap_view_shows(o, e) &&
				       ss_find(tf_agg_ctable(a, e, d), t->rows[i].key, t->rows[i].klen);
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
	const struct tf_change *a = x, *b = y;

	return a->c.ms < b->c.ms ? -1 : a->c.ms > b->c.ms;
}

struct tf_change *ap_view_changes(const struct tf_agg *a)
{
	struct tf_change *c = malloc((a->nchanges ? a->nchanges : 1) * sizeof(*c));

	if (c && a->nchanges) {
		memcpy(c, a->changes, a->nchanges * sizeof(*c));
		/* Arrival order breaks ties: merge order of the inputs. */
		qsort(c, a->nchanges, sizeof(*c), cmp_change);
	}
	return c;
}

struct tf_mountinfo *ap_view_mounts(const struct tf_report_opts *o, struct tf_mountinfo *mi)
{
	if (!o->interpret || !(o->tables & (1u << TF_DIM_MOUNT)))
		return NULL;
	return tf_mountinfo_load(NULL, mi, NULL) ? NULL : mi;
}

void ap_view_mounts_free(struct tf_mountinfo *mi)
{
	if (mi)
		tf_mountinfo_free(mi);
}
