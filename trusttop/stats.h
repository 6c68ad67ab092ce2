/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trusttop user-space bookkeeping: rows read from the BPF maps, deltas and
 * rates between two reads, sorting and filtering. No BPF, no terminal:
 * unit-tested on its own (tests/test_stats.c).
 */
#ifndef TRUSTTOP_STATS_H
#define TRUSTTOP_STATS_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "trusttop.h"
#include "rowhash.h"

#define TT_PATH_MAX 512 /* an assembled event path, raw bytes */

struct tt_row {
	struct tt_key key;
	struct tt_counts cur;	/* cumulative, as last read */
	struct tt_counts prev;	/* cumulative at the previous tick */
	struct tt_counts delta; /* cur - prev of the last tick */
	double rate;		/* checks per second over the last tick */
	bool seen;		/* present in the last read */
	char last_file[TT_PATH_MAX]; /* raw bytes, escape before showing */
};

struct tt_table {
	struct tt_row *rows;
	size_t n, cap;
	struct tt_rowhash index;	/* rows by key (rowhash.h) */
	/* Operation counts of the lookups (tt_table_find/get/set): for the
	 * unit test that a read stays O(n), in operations, not wall time.
	 */
	uint64_t lookups;	/* keys looked up */
	uint64_t lookup_steps;	/* rows or slots examined for them */
};

enum tt_sort {
	TT_SORT_RATE, /* CHECKS/s (default) */
	TT_SORT_CHECKS,
	TT_SORT_ALLOWED,
	TT_SORT_DENIED,
	TT_SORT_DENYPCT,
	TT_SORT_WOULD,
	TT_SORT_NAME,
	TT_SORT_UID,
	TT_SORT_COUNT
};

/* Counter-wise a - b; a counter that went backwards (LRU eviction and
 * re-creation of the entry) counts from zero again: result = a.
 */
void tt_counts_sub(const struct tt_counts *a, const struct tt_counts *b,
		   struct tt_counts *out);
void tt_counts_add(struct tt_counts *acc, const struct tt_counts *c);
/* Events per second; 0 when the interval is not positive. */
double tt_rate(uint64_t delta, double seconds);
/* Percentage of denied among verdicts (allowed + denied), 0 when none. */
double tt_deny_pct(const struct tt_counts *c);
/* Slot of the most frequent deny reason, -1 when nothing was denied. */
int tt_top_reason(const struct tt_counts *c);
/* A slot's name: lib's tf_reason_name() of its bit, "other", or "-". */
const char *tt_reason_slot_name(int slot);

void tt_table_init(struct tt_table *t);
void tt_table_free(struct tt_table *t);
/* Start a read: every row becomes unseen. */
void tt_table_begin(struct tt_table *t);
/* Record the cumulative counts of @key; returns the row or NULL (ENOMEM). */
struct tt_row *tt_table_set(struct tt_table *t, const struct tt_key *key,
			    const struct tt_counts *c);
/* The same for one of several map entries of @key (one interpreter name
 * from several executables, see struct tt_bkey): the first of a read sets
 * the row's counts, the others add theirs.
 */
struct tt_row *tt_table_add(struct tt_table *t, const struct tt_key *key,
			    const struct tt_counts *c);
/* The row of @key or NULL; O(1) expected (hash index). */
struct tt_row *tt_table_find(struct tt_table *t, const struct tt_key *key);
/* The row of @key, created with zero counts when new; NULL on ENOMEM. */
struct tt_row *tt_table_get(struct tt_table *t, const struct tt_key *key);
/* End of a read over @seconds: compute deltas and rates, prev = cur. */
void tt_table_tick(struct tt_table *t, double seconds);
/* Sum of the cumulative counts and deltas of the rows of one interface
 * (@api: enum tt_source), or of every row (@api 0).
 */
void tt_table_totals(const struct tt_table *t, unsigned int api,
		     struct tt_counts *cur, struct tt_counts *delta);

/* Names of the executables (struct tt_exe_id), as read from the names
 * map: each is read once.
 */
struct tt_names {
	struct tt_exe_id *ids;
	struct tt_exe_name *names;
	size_t n, cap;
	struct tt_rowhash index;
};

void tt_names_init(struct tt_names *ns);
void tt_names_free(struct tt_names *ns);
/* The name of @id, NULL when not known yet. */
const char *tt_names_find(struct tt_names *ns, const struct tt_exe_id *id);
/* Remember @name (TT_EXE_LEN bytes, NUL-terminated here) for @id (not
 * known yet). 0, or -1 (ENOMEM).
 */
int tt_names_add(struct tt_names *ns, const struct tt_exe_id *id,
		 const char *name);

/* Compare two rows for @by, biggest first (name and uid: ascending); ties
 * broken by exe, comm, uid, tgid so the order is total and stable.
 */
int tt_row_cmp(const struct tt_row *a, const struct tt_row *b, enum tt_sort by);
/* Sort @n row pointers. */
void tt_rows_sort(struct tt_row **rows, size_t n, enum tt_sort by, bool reverse);
const char *tt_sort_name(enum tt_sort by);
/* Sort key from its name ("rate", "checks", ...); -1 when unknown. */
int tt_sort_parse(const char *name);

/* Does the row match the filter (substring of exe, comm or last file; empty
 * or NULL matches all), the uid (-1 = any) and the interface (@api: enum
 * tt_source, 0 = any)?
 */
bool tt_row_match(const struct tt_row *r, const char *filter, long uid,
		  unsigned int api);
/* lib's tf_backend_name() of an enum tt_source (the same values); "?" for
 * anything else.
 */
const char *tt_api_name(unsigned int api);
/* An interface by name: its enum tt_source, 0 for "all", -1 when unknown. */
int tt_api_parse(const char *name);

#endif /* TRUSTTOP_STATS_H */
