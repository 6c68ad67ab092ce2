// SPDX-License-Identifier: GPL-2.0-or-later
/* trusttop: open-addressing index of the row tables, see rowhash.h. */
#include <stdlib.h>
#include <string.h>
#include "rowhash.h"

/* FNV-1a, 32 bits, then a final avalanche so the low bits (the slot) depend
 * on every byte.
 */
static uint32_t fnv(uint32_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t mix(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	h ^= h >> 16;
	return h;
}

uint32_t tt_key_hash(const struct tt_key *k)
{
	uint32_t h = 2166136261u;
	unsigned char sep = 0;

	h = fnv(h, &k->uid, sizeof(k->uid));
	h = fnv(h, &k->tgid, sizeof(k->tgid));
	h = fnv(h, k->exe, strnlen(k->exe, TT_EXE_LEN));
	h = fnv(h, &sep, 1);
	h = fnv(h, k->comm, strnlen(k->comm, TT_COMM_LEN));
	h = fnv(h, &k->api, sizeof(k->api));
	return mix(h);
}

uint32_t tt_exe_id_hash(const struct tt_exe_id *id)
{
	return mix(fnv(2166136261u, id, sizeof(*id)));
}

void tt_rowhash_free(struct tt_rowhash *h)
{
	free(h->slots);
	memset(h, 0, sizeof(*h));
}

long tt_rowhash_find(const struct tt_rowhash *h, uint32_t hash,
		     int (*eq)(const void *ctx, size_t row, const void *key),
		     const void *ctx, const void *key, uint64_t *steps)
{
	if (!h->cap)
		return -1;
	for (size_t i = hash & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		const struct tt_rowhash_slot *s = &h->slots[i];

		++*steps;
		if (!s->row1)
			return -1; /* never full: an empty slot ends the run */
		if (s->hash == hash && eq(ctx, s->row1 - 1, key))
			return (long)s->row1 - 1;
	}
}

static void place(struct tt_rowhash_slot *slots, size_t cap,
		  struct tt_rowhash_slot s)
{
	size_t i = s.hash & (cap - 1);

	while (slots[i].row1)
		i = (i + 1) & (cap - 1);
	slots[i] = s;
}

int tt_rowhash_add(struct tt_rowhash *h, size_t row, uint32_t hash)
{
	if (row >= UINT32_MAX)
		return -1;
	/* Keep the load at most 1/2: short probe runs (a miss, which every new
	 * row costs, examines 2.5 slots on average), and always a hole.
	 */
	if ((h->used + 1) * 2 > h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		struct tt_rowhash_slot *slots = calloc(cap, sizeof(*slots));

		if (!slots)
			return -1;
		for (size_t i = 0; i < h->cap; i++)
			if (h->slots[i].row1)
				place(slots, cap, h->slots[i]);
		free(h->slots);
		h->slots = slots;
		h->cap = cap;
	}
	place(h->slots, h->cap,
	      (struct tt_rowhash_slot){ .row1 = (uint32_t)row + 1, .hash = hash });
	h->used++;
	return 0;
}
