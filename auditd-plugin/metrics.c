// SPDX-License-Identifier: GPL-2.0-or-later
/* The exact labelled counters behind the metrics; written by metrics_export.c. See metrics.h. */
#include "metrics.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "escape.h"
#include "spacesaving.h"

/* ---- a growable hash map of rows ---- */

static void mmap_free(struct ap_mmap *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		free(t->rows[i].key);
	free(t->rows);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

static uint32_t probe(const struct ap_mmap *t, const char *key, size_t klen, uint64_t h)
{
	uint32_t i = (uint32_t)h & t->mask;

	for (;;) {
		int32_t r = t->slot[i];

		if (r < 0 || (t->rows[r].klen == klen && !memcmp(t->rows[r].key, key, klen)))
			return i;
		i = (i + 1) & t->mask;
	}
}

static struct ap_mrow *mmap_find(const struct ap_mmap *t, const char *key, size_t klen)
{
	int32_t r;

	if (!t->n)
		return NULL;
	r = t->slot[probe(t, key, klen, ap_ss_hash(key, klen))];
	return r < 0 ? NULL : &t->rows[r];
}

static int grow(struct ap_mmap *t)
{
	uint32_t cap = t->cap ? t->cap * 2 : 8, slots = cap * 2;
	struct ap_mrow *rows;
	int32_t *slot;

	if (cap > (1u << 24)) {
		errno = ENOMEM;
		return -1;
	}
	rows = realloc(t->rows, cap * sizeof(*rows));
	if (!rows)
		return -1;
	t->rows = rows;
	slot = malloc(slots * sizeof(*slot));
	if (!slot)
		return -1;
	memset(slot, 0xff, slots * sizeof(*slot));
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	t->mask = slots - 1;
	for (uint32_t i = 0; i < t->n; i++)
		t->slot[probe(t, t->rows[i].key, t->rows[i].klen, t->rows[i].hash)] = (int32_t)i;
	return 0;
}

/* The row of @key, created (count 0) when missing; NULL when out of memory. */
static struct ap_mrow *mmap_get(struct ap_mmap *t, const char *key, size_t klen)
{
	struct ap_mrow *r = mmap_find(t, key, klen);
	uint64_t h;

	if (r)
		return r;
	if (t->n == t->cap && grow(t))
		return NULL;
	h = ap_ss_hash(key, klen);
	r = &t->rows[t->n];
	memset(r, 0, sizeof(*r));
	r->key = malloc(klen + 1);
	if (!r->key)
		return NULL;
	memcpy(r->key, key, klen);
	r->key[klen] = '\0';
	r->klen = klen;
	r->hash = h;
	t->slot[probe(t, key, klen, h)] = (int32_t)t->n++;
	return r;
}

/* ---- labels ---- */

void ap_metrics_label(const char *raw, char *out, size_t outsz)
{
	size_t need = tf_escape_term(raw, strlen(raw), out, outsz), len;

	if (need < outsz)
		return;
	/* Cut: drop a UTF-8 sequence the end split. */
	len = strlen(out);
	for (size_t back = 0; back < 4 && len && !tf_utf8_valid(out, len); back++)
		out[--len] = '\0';
}

/* @label if admitted (or admissible within @max), else "other". */
static const char *admit(struct ap_mmap *set, uint32_t max, const char *label, bool *folded)
{
	size_t n = strlen(label);

	if (mmap_find(set, label, n))
		return label;
	if (set->n < max && mmap_get(set, label, n))
		return label;
	*folded = true;
	return AP_METRICS_OTHER;
}

/* Join label values with NUL bytes into @buf; returns the key length. */
static size_t join(char *buf, size_t size, const char *const *v, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(v[i]);

		if (len + l + 1 > size)
			l = size - len - 1; /* cannot happen: labels are cut */
		memcpy(buf + len, v[i], l);
		len += l;
		if (i + 1 < n)
			buf[len++] = '\0';
	}
	return len;
}

#define KEY_MAX (AP_METRICS_NDL * (AP_METRICS_LABEL_MAX + 1))

void ap_metrics_init(struct ap_metrics *m)
{
	memset(m, 0, sizeof(*m));
	m->lim.exe = AP_METRICS_EXE_DEFAULT;
	m->lim.node = AP_METRICS_NODE_DEFAULT;
	m->lim.series = AP_METRICS_SERIES_DEFAULT;
}

void ap_metrics_free(struct ap_metrics *m)
{
	mmap_free(&m->denials);
	mmap_free(&m->changes);
	mmap_free(&m->policy);
	mmap_free(&m->exe);
	mmap_free(&m->reason);
	mmap_free(&m->node);
}

size_t ap_metrics_labels(const struct ap_mrow *r, const char **out, size_t max)
{
	size_t n = 0;

	for (const char *p = r->key; n < max; p += strlen(p) + 1) {
		out[n++] = p;
		if (p + strlen(p) >= r->key + r->klen)
			break;
	}
	return n;
}

/* The api and enforced label values of a class ("" : no enforced label). */
static void class_labels(enum ap_api_class c, const char **api, const char **enforced)
{
	*api = ap_api_name(c);
	*enforced = c == AP_API_EC_ENFORCED ? "true" : c == AP_API_EC_OBSERVED ? "false" : "";
}

/* @v: exe, reason, node, source, api, enforced. The fold keeps source, api and enforced. */
static int count_denial(struct ap_metrics *m, const char *const v[AP_METRICS_NDL], uint64_t hits,
			bool restore)
{
	const char *other[AP_METRICS_NDL] = { AP_METRICS_OTHER, AP_METRICS_OTHER, AP_METRICS_OTHER,
				   v[3], v[4], v[5] };
	char key[KEY_MAX];
	size_t klen = join(key, sizeof(key), v, AP_METRICS_NDL);
	struct ap_mrow *r = mmap_find(&m->denials, key, klen);

	if (!r && !restore && m->denials.n >= m->lim.series) {
		m->folded += hits;
		klen = join(key, sizeof(key), other, AP_METRICS_NDL);
		r = mmap_find(&m->denials, key, klen);
	}
	if (!r)
		r = mmap_get(&m->denials, key, klen);
	if (!r) {
		m->folded += restore ? 0 : hits;
		return -1;
	}
	r->count += hits;
	return 0;
}

int ap_metrics_denial(struct ap_metrics *m, const char *exe, const char *reason,
		      const char *node, enum ap_api_class api, enum ap_source source)
{
	char e[AP_METRICS_LABEL_MAX], rs[AP_METRICS_LABEL_MAX], nd[AP_METRICS_LABEL_MAX];
	const char *v[AP_METRICS_NDL];
	bool folded = false;

	ap_metrics_label(exe, e, sizeof(e));
	ap_metrics_label(reason, rs, sizeof(rs));
	ap_metrics_label(node, nd, sizeof(nd));
	v[0] = admit(&m->exe, m->lim.exe, e, &folded);
	v[1] = admit(&m->reason, AP_METRICS_REASONS, rs, &folded);
	v[2] = admit(&m->node, m->lim.node, nd, &folded);
	v[3] = ap_source_name(source);
	class_labels(api, &v[4], &v[5]);
	if (folded)
		m->folded++;
	return count_denial(m, v, 1, false);
}

/* A saved label value is what ap_metrics_label() makes: short, UTF-8, no control. */
static bool label_ok(const char *s)
{
	size_t n = strlen(s);

	if (n >= AP_METRICS_LABEL_MAX || !tf_utf8_valid(s, n))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

int ap_metrics_restore_denial(struct ap_metrics *m, const char *exe, const char *reason,
			      const char *node, const char *source, const char *api,
			      const char *enforced, uint64_t count)
{
	const char *v[AP_METRICS_NDL] = { exe, reason, node, source ? source : "kernel",
			       api ? api : "trusted_for", enforced ? enforced : "" };
	bool known = false, source_known = false;

	if (!label_ok(exe) || !label_ok(reason) || !label_ok(node)) {
		errno = EINVAL;
		return -1;
	}
	/* source, api and enforced: the values ap_source_name() and class_labels() make */
	for (int s = 0; s < AP_SOURCES; s++)
		source_known |= !strcmp(v[3], ap_source_name(s));
	for (int c = 0; c < AP_API_CLASSES; c++) {
		const char *a, *e;

		class_labels(c, &a, &e);
		known |= !strcmp(v[4], a) && !strcmp(v[5], e);
	}
	if (!known || !source_known) {
		errno = EINVAL;
		return -1;
	}
	/* Admit the saved labels again ("other" is not a label of its own). */
	for (int i = 0; i < 3; i++) {
		struct ap_mmap *set = i == 0 ? &m->exe : i == 1 ? &m->reason : &m->node;

		if (strcmp(v[i], AP_METRICS_OTHER) && !mmap_get(set, v[i], strlen(v[i])))
			return -1;
	}
	return count_denial(m, v, count, true);
}

static struct ap_mrow *change_row(struct ap_metrics *m, const char *node, const char *result)
{
	const char *v[2] = { node, result };
	char key[KEY_MAX];

	return mmap_get(&m->changes, key, join(key, sizeof(key), v, 2));
}

int ap_metrics_change(struct ap_metrics *m, const char *node, int res, int new_policy,
		      int64_t ms)
{
	char nd[AP_METRICS_LABEL_MAX];
	const char *label;
	bool folded = false;
	struct ap_mrow *r;

	ap_metrics_label(node, nd, sizeof(nd));
	label = admit(&m->node, m->lim.node, nd, &folded);
	r = change_row(m, label, res ? "applied" : "refused");
	if (!r)
		return -1;
	r->count++;
	/* The current value is known for a node of its own only, not for "other". */
	if (!res || folded)
		return 0;
	r = mmap_get(&m->policy, label, strlen(label));
	if (!r)
		return -1;
	r->count++;
	if (ms >= r->ms || r->count == 1) {
		r->ms = ms;
		r->value = new_policy;
	}
	return 0;
}

int ap_metrics_restore_change(struct ap_metrics *m, const char *node, const char *result,
			      uint64_t count)
{
	struct ap_mrow *r;

	if (!label_ok(node) || (strcmp(result, "applied") && strcmp(result, "refused"))) {
		errno = EINVAL;
		return -1;
	}
	if (strcmp(node, AP_METRICS_OTHER) && !mmap_get(&m->node, node, strlen(node)))
		return -1;
	r = change_row(m, node, result);
	if (!r)
		return -1;
	r->count += count;
	return 0;
}

int ap_metrics_restore_policy(struct ap_metrics *m, const char *node, int value, int64_t ms)
{
	struct ap_mrow *r;

	if (!label_ok(node)) {
		errno = EINVAL;
		return -1;
	}
	if (!mmap_get(&m->node, node, strlen(node)))
		return -1;
	r = mmap_get(&m->policy, node, strlen(node));
	if (!r)
		return -1;
	r->count = 1;
	r->value = value;
	r->ms = ms;
	return 0;
}
