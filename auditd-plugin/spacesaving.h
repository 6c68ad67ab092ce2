/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bounded heavy-hitter counting (Space-Saving, Metwally et al. 2005).
 *
 * A table monitors at most `cap` keys. A known key is incremented; a new key
 * takes a free row, or, when the table is full, replaces the row with the
 * smallest count: it inherits that count (+1) and records it as its error.
 * Invariants: sum(count) == total; the true count of a row lies in
 * [count - err, count]; a key missing from the table occurred at most
 * min(count) times. "other" (sum of err) is the mass of evicted keys, so
 * sum(count - err) + other == total, exactly.
 */
#ifndef AP_SPACESAVING_H
#define AP_SPACESAVING_H

#include <stddef.h>
#include <stdint.h>

struct ap_ss_row {
	char *key;	 /* NUL-terminated copy; may hold bytes of any value */
	size_t klen;	 /* key length without the NUL */
	char *note;	 /* optional free text (last one seen), e.g. comm */
	uint64_t count;	 /* upper bound of the key's hits */
	uint64_t err;	 /* overestimation bound; 0 = exact */
	int64_t first;	 /* first/last seen, ms since the epoch */
	int64_t last;
	uint32_t heap;	 /* position in the min-heap */
	uint64_t hash;	 /* of the key (probing, deletion): computed once */
};

struct ap_ss_table {
	struct ap_ss_row *rows; /* n used rows, cap allocated */
	uint32_t n, cap;
	uint32_t *heap;	     /* row indices, min-heap on count */
	int32_t *slot;	     /* open addressing: row index or -1 */
	uint32_t mask;	     /* slot array size - 1 */
	uint64_t total;	     /* exact number of hits */
	uint64_t evicted;    /* number of evictions */
	uint64_t unstored;   /* hits not stored (allocation failure) */
	size_t key_max;	     /* longer keys are cut to key_max bytes */
};

/* cap: maximum number of rows (>= 1). Returns 0 or -1 (ENOMEM/EINVAL). */
int ap_ss_init(struct ap_ss_table *t, uint32_t cap, size_t key_max);
void ap_ss_free(struct ap_ss_table *t);

/*
 * Count @hits occurrences of @key at time @ms; @note replaces the row's note
 * when not NULL. Returns the row, or NULL on allocation failure (the hit
 * still counts in total and in "other").
 */
struct ap_ss_row *ap_ss_add(struct ap_ss_table *t, const char *key, size_t klen,
			    const char *note, uint64_t hits, int64_t ms);

/* Insert a row as saved (state load). Fails with -1 when full or on a duplicate. */
int ap_ss_restore(struct ap_ss_table *t, const char *key, size_t klen, const char *note,
		  uint64_t count, uint64_t err, int64_t first, int64_t last);

/* Sum of err over rows plus hits that could not be stored. */
uint64_t ap_ss_other(const struct ap_ss_table *t);

/* Row indices sorted by guaranteed count (count - err) desc, then key. Caller frees. */
uint32_t *ap_ss_sorted(const struct ap_ss_table *t);
/* ap_ss_sorted()'s order of two rows: <0, 0 or >0, as for qsort(). */
int ap_ss_row_cmp(const struct ap_ss_row *x, const struct ap_ss_row *y);

/* A NUL-terminated malloc'd copy of the @klen bytes of @key; NULL when out of memory. */
char *ap_ss_key_dup(const char *key, size_t klen);

struct ap_ss_row *ap_ss_find(const struct ap_ss_table *t, const char *key, size_t klen);

/* The keys' hash (FNV-1a with a final mix), for other tables of keys too. */
uint64_t ap_ss_hash(const char *k, size_t n);

#endif
