/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trusttop: the index of a row table by key, an open-addressing hash table
 * (linear probing, power-of-two size, at most half full) of row indices.
 * Rows are never removed, so neither are entries. A read of N map entries
 * costs O(N) lookups of O(1) expected steps, not the O(N^2) of a scan.
 */
#ifndef TRUSTTOP_ROWHASH_H
#define TRUSTTOP_ROWHASH_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>
#include "trusttop.h"

struct tt_rowhash_slot {
	uint32_t row1;	/* row index + 1; 0: empty */
	uint32_t hash;	/* low bits of the key's hash */
};

struct tt_rowhash {
	struct tt_rowhash_slot *slots;
	size_t cap;	/* 0 or a power of two */
	size_t used;
};

/* Hash of a key: uid, tgid and the names up to their NUL (what the rows'
 * key comparison looks at, so equal keys hash alike).
 */
uint32_t tt_key_hash(const struct tt_key *k);
/* Hash of an executable's identity (all its bytes: no padding). */
uint32_t tt_exe_id_hash(const struct tt_exe_id *id);

void tt_rowhash_free(struct tt_rowhash *h);

/* The row index of the first entry with hash @hash for which
 * @eq(ctx, row, key) holds, or -1. Adds the slots visited to *@steps.
 */
long tt_rowhash_find(const struct tt_rowhash *h, uint32_t hash,
		     int (*eq)(const void *ctx, size_t row, const void *key),
		     const void *ctx, const void *key, uint64_t *steps);

/* Index row @row under @hash (not already there). 0, or -1 (ENOMEM). */
int tt_rowhash_add(struct tt_rowhash *h, size_t row, uint32_t hash);

#endif /* TRUSTTOP_ROWHASH_H */
