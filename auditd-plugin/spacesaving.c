// SPDX-License-Identifier: GPL-2.0-or-later
/* Space-Saving heavy-hitter table: see spacesaving.h. */
#include "spacesaving.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint64_t ap_ss_hash(const char *k, size_t n)
{
	/* FNV-1a, then a final mix so that linear probing spreads well. */
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)k[i];
		h *= 0x100000001b3ull;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

int ap_ss_init(struct ap_ss_table *t, uint32_t cap, size_t key_max)
{
	uint32_t slots = 1;

	memset(t, 0, sizeof(*t));
	if (cap == 0 || cap > (1u << 24) || key_max == 0) {
		errno = EINVAL;
		return -1;
	}
	while (slots < cap * 2u)
		slots <<= 1;
	t->rows = calloc(cap, sizeof(*t->rows));
	t->heap = calloc(cap, sizeof(*t->heap));
	t->slot = malloc(slots * sizeof(*t->slot));
	if (!t->rows || !t->heap || !t->slot) {
		ap_ss_free(t);
		errno = ENOMEM;
		return -1;
	}
	memset(t->slot, 0xff, slots * sizeof(*t->slot));
	t->cap = cap;
	t->mask = slots - 1;
	t->key_max = key_max;
	return 0;
}

void ap_ss_free(struct ap_ss_table *t)
{
	for (uint32_t i = 0; t->rows && i < t->n; i++) {
		free(t->rows[i].key);
		free(t->rows[i].note);
	}
	free(t->rows);
	free(t->heap);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* Slot holding @key, or the empty slot where it would go. */
static uint32_t probe(const struct ap_ss_table *t, const char *key, size_t klen,
		      uint64_t h)
{
	uint32_t i = (uint32_t)h & t->mask;

	for (;;) {
		int32_t r = t->slot[i];

		if (r < 0)
			return i;
		if (t->rows[r].klen == klen && !memcmp(t->rows[r].key, key, klen))
			return i;
		i = (i + 1) & t->mask;
	}
}

/* Backward-shift deletion keeps probe chains intact without tombstones. */
static void slot_delete(struct ap_ss_table *t, uint32_t i)
{
	uint32_t j = i;

	t->slot[i] = -1;
	for (;;) {
		int32_t r;
		uint32_t home;

		j = (j + 1) & t->mask;
		r = t->slot[j];
		if (r < 0)
			return;
		home = (uint32_t)t->rows[r].hash & t->mask;
		/* Move r back to i unless its home lies cyclically in (i, j]. */
		if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
			t->slot[i] = r;
			t->slot[j] = -1;
			i = j;
		}
	}
}

static void heap_swap(struct ap_ss_table *t, uint32_t a, uint32_t b)
{
	uint32_t ra = t->heap[a], rb = t->heap[b];

	t->heap[a] = rb;
	t->heap[b] = ra;
	t->rows[rb].heap = a;
	t->rows[ra].heap = b;
}

static void heap_down(struct ap_ss_table *t, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < t->n && t->rows[t->heap[l]].count < t->rows[t->heap[m]].count)
			m = l;
		if (r < t->n && t->rows[t->heap[r]].count < t->rows[t->heap[m]].count)
			m = r;
		if (m == i)
			return;
		heap_swap(t, i, m);
		i = m;
	}
}

static void heap_up(struct ap_ss_table *t, uint32_t i)
{
	while (i > 0) {
		uint32_t p = (i - 1) / 2;

		if (t->rows[t->heap[p]].count <= t->rows[t->heap[i]].count)
			return;
		heap_swap(t, i, p);
		i = p;
	}
}

static int set_note(struct ap_ss_row *row, const char *note)
{
	char *copy;

	if (!note || (row->note && !strcmp(row->note, note)))
		return 0;
	copy = strdup(note);
	if (!copy)
		return -1;
	free(row->note);
	row->note = copy;
	return 0;
}

char *ap_ss_key_dup(const char *key, size_t klen)
{
	char *k = malloc(klen + 1);

	if (k) {
		memcpy(k, key, klen);
		k[klen] = '\0';
	}
	return k;
}

struct ap_ss_row *ap_ss_find(const struct ap_ss_table *t, const char *key, size_t klen)
{
	uint32_t i;

	if (klen > t->key_max)
		klen = t->key_max;
	i = probe(t, key, klen, ap_ss_hash(key, klen));
	return t->slot[i] < 0 ? NULL : &t->rows[t->slot[i]];
}

struct ap_ss_row *ap_ss_add(struct ap_ss_table *t, const char *key, size_t klen,
			    const char *note, uint64_t hits, int64_t ms)
{
	uint64_t h;
	uint32_t i, r;
	struct ap_ss_row *row;
	char *k;

	if (klen > t->key_max)
		klen = t->key_max;
	t->total += hits;
	h = ap_ss_hash(key, klen);
	i = probe(t, key, klen, h);
	if (t->slot[i] >= 0) {
		row = &t->rows[t->slot[i]];
		row->count += hits;
		if (ms < row->first)
			row->first = ms;
		if (ms > row->last)
			row->last = ms;
		set_note(row, note); /* a failed note update loses no count */
		heap_down(t, row->heap);
		return row;
	}
	k = ap_ss_key_dup(key, klen);
	if (!k) {
		t->unstored += hits;
		return NULL;
	}
	if (t->n < t->cap) {
		r = t->n++;
		row = &t->rows[r];
		memset(row, 0, sizeof(*row));
		row->heap = r;
		t->heap[r] = r;
	} else {
		/* Replace the minimum: the newcomer inherits its count as error. */
		uint32_t old_slot;

		r = t->heap[0];
		row = &t->rows[r];
		old_slot = probe(t, row->key, row->klen, row->hash);
		slot_delete(t, old_slot);
		free(row->key);
		free(row->note);
		row->note = NULL;
		row->err = row->count;
		t->evicted++;
		i = probe(t, key, klen, h); /* the deletion may have moved slots */
	}
	row->key = k;
	row->klen = klen;
	row->hash = h;
	row->count += hits;
	row->first = row->last = ms;
	t->slot[i] = (int32_t)r;
	set_note(row, note);
	heap_up(t, row->heap);
	heap_down(t, row->heap);
	return row;
}

int ap_ss_restore(struct ap_ss_table *t, const char *key, size_t klen, const char *note,
		  uint64_t count, uint64_t err, int64_t first, int64_t last)
{
	uint64_t h;
	uint32_t i, r;
	struct ap_ss_row *row;

	if (klen > t->key_max || t->n >= t->cap || err > count) {
		errno = EINVAL;
		return -1;
	}
	h = ap_ss_hash(key, klen);
	i = probe(t, key, klen, h);
	if (t->slot[i] >= 0) {
		errno = EEXIST;
		return -1;
	}
	r = t->n;
	row = &t->rows[r];
	memset(row, 0, sizeof(*row));
	row->key = ap_ss_key_dup(key, klen);
	if (!row->key || (note && set_note(row, note))) {
		free(row->key);
		row->key = NULL;
		errno = ENOMEM;
		return -1;
	}
	t->n++;
	row->klen = klen;
	row->hash = h;
	row->count = count;
	row->err = err;
	row->first = first;
	row->last = last;
	row->heap = r;
	t->heap[r] = r;
	t->slot[i] = (int32_t)r;
	heap_up(t, r);
	return 0;
}

uint64_t ap_ss_other(const struct ap_ss_table *t)
{
	uint64_t o = t->unstored;

	for (uint32_t i = 0; i < t->n; i++)
		o += t->rows[i].err;
	return o;
}

static const struct ap_ss_table *sort_table;

int ap_ss_row_cmp(const struct ap_ss_row *x, const struct ap_ss_row *y)
{
	uint64_t gx = x->count - x->err, gy = y->count - y->err;
	size_t n = x->klen < y->klen ? x->klen : y->klen;
	int c;

	if (gx != gy)
		return gx > gy ? -1 : 1;
	c = memcmp(x->key, y->key, n);
	if (c)
		return c;
	return x->klen < y->klen ? -1 : x->klen > y->klen;
}

static int cmp_rows(const void *a, const void *b)
{
	return ap_ss_row_cmp(&sort_table->rows[*(const uint32_t *)a],
			     &sort_table->rows[*(const uint32_t *)b]);
}

uint32_t *ap_ss_sorted(const struct ap_ss_table *t)
{
	uint32_t *idx = malloc((t->n ? t->n : 1) * sizeof(*idx));

	if (!idx)
		return NULL;
	for (uint32_t i = 0; i < t->n; i++)
		idx[i] = i;
	sort_table = t;
	qsort(idx, t->n, sizeof(*idx), cmp_rows);
	sort_table = NULL;
	return idx;
}
