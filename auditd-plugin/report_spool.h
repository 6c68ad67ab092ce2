/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The records a report worker counted, in input order, for the aggregator
 * of another process (report_split.c): the parsing of a log splits across
 * processes, the counting stays in one, in the input's order, so that
 * every table is what a single pass would give (a Space-Saving table's
 * rows depend on that order once it evicts).
 *
 * A spool is a byte area, written by one process and read by another while
 * it grows: entries are published whole (ap_spool_publish()), each one a
 * kind byte and the fields of a denial, a lost record or a policy change,
 * strings as a length and their bytes.  Plain memory, no pointers: the
 * area may be mapped at another address in the reader.
 */
#ifndef AP_REPORT_SPOOL_H
#define AP_REPORT_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"
#include "record.h"

/* The area's head: shared by the writer and the reader. */
struct ap_spool_head {
	uint64_t published; /* bytes of whole entries after the head (atomic) */
	uint32_t done;	    /* 1: the writer finished (atomic, after its counters) */
	int32_t error;	    /* 0, or an errno value: the entries are incomplete */
	/* the counters of the writer's aggregator that are not entries */
	uint64_t bad_lines, malformed, not_denial;
};

struct ap_spool {
	struct ap_spool_head *head;
	unsigned char *data; /* the entries: right after the head */
	size_t size;	     /* bytes available for entries */
	size_t used;	     /* written, published or not */
	size_t unpublished;  /* written since the last ap_spool_publish() */
};

/* The area @mem of @size bytes as an empty spool (its head zeroed). */
int ap_spool_init(struct ap_spool *s, void *mem, size_t size);
/* Append one entry; false (and head->error ENOSPC) when it does not fit. */
bool ap_spool_denial(struct ap_spool *s, const struct ap_denial *d);
bool ap_spool_lost(struct ap_spool *s, const struct ap_denial *d);
bool ap_spool_change(struct ap_spool *s, const struct ap_policy_change *p);
/* Make what was written visible to the reader. */
void ap_spool_publish(struct ap_spool *s);
/* The writer is done: its aggregator's counters, then done = 1. */
void ap_spool_finish(struct ap_spool *s, const struct ap_agg *counters, int error);

/*
 * Count the entries of @data[@from, @to) into @agg, in order; returns the
 * offset reached (@to), or -1 for a malformed entry.
 */
long ap_spool_replay(const unsigned char *data, size_t from, size_t to, struct ap_agg *agg);

#endif
