/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Audit text in, aggregated records out: splits the byte stream into lines,
 * skips (and counts) lines that are not audit records, and hands the rest to
 * libauparse's feed API. Events are completed by EOE, by a later record, or
 * by age (ap_feed_age() on a timer, ap_feed_flush() at the end): a 1350
 * record of a task without an audit context comes alone, audit.log holds no
 * EOE records, and audisp-remote drops them. An event may hold SYSCALL,
 * PROCTITLE, and under a syscall rule CWD and PATH records beside the 1350
 * or CONFIG_CHANGE record: only the latter counts. The relay's type 2650
 * records come alone.
 */
#ifndef AP_FEED_H
#define AP_FEED_H

#include <auparse.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"

#ifndef TF_LINE_MAX
#define TF_LINE_MAX 16384 /* longer lines are skipped and counted */
#endif
/*
 * libauparse checks every pending event for completion on each record it is
 * fed (a linear scan), so a flood of EOE-less records, all younger than the
 * EOE timeout, costs quadratic time. Counting is per record (a 1350, a 2650
 * or an op=trust_policy record carries everything counted), never per event, so
 * when more than this many records are pending the feed is flushed: pending
 * events are completed early, possibly split from their SYSCALL/PATH/EOE records,
 * which changes no count.
 */
#ifndef TF_PENDING_MAX
#define TF_PENDING_MAX 256 /* the fuzzer builds with small limits to reach these paths */
#endif

struct ap_filter {
	int64_t since_ms, until_ms; /* inclusive bounds */
	const char *node;	    /* NULL: every node; "" : records without node= */
};

#define AP_TYPE_MEMO 8
struct ap_type_memo {
	char name[32];		/* a type= value, NUL-terminated */
	unsigned char len;	/* 0: unused */
	int type;		/* the record type libauparse makes of it */
};

struct ap_feed {
	auparse_state_t *au;
	struct ap_agg *agg;
	const struct ap_filter *filter;
	char *line;
	size_t len;
	bool overlong;	/* discarding the rest of an overlong line */
	uint64_t lines;
	uint64_t fed;	/* records given to libauparse */
	uint64_t done;	/* records it handed back in completed events */
	bool offline;	/* ap_feed_offline() */
	struct ap_type_memo types[AP_TYPE_MEMO];
	unsigned int next_type;
	struct ap_spool *spool;	/* ap_feed_spool() */
};

/*
 * @eoe_timeout: seconds after which an event without EOE is complete, or 0 to
 * keep auditd.conf's end_of_event_timeout. libauparse holds it in a global
 * that auparse_init() resets from auditd.conf, hence it is set here, after it.
 */
int ap_feed_init(struct ap_feed *f, struct ap_agg *agg, const struct ap_filter *filter,
		 unsigned int eoe_timeout);
void ap_feed_free(struct ap_feed *f);
/*
 * For a report over finished logs (not for the live plugin): only the records
 * that can be counted (type 1350, 2650 or CONFIG_CHANGE, as libauparse types
 * them) reach libauparse, and each is handed back at once, in input order, as an
 * event of its own. Counting is per record (see TF_PENDING_MAX), so every
 * count is the same as without it; what changes is the work: the SYSCALL,
 * PATH, CWD, PROCTITLE, EOE... records of a log are checked for their header
 * only (every line still counts as a record or a non-audit line), and
 * libauparse never scans a list of pending events. Events are no longer
 * completed by time (ap_feed_age() has nothing to do), and the order in
 * which records are counted is the input's, where libauparse's event
 * ordering could move a record ahead of an earlier-written one with a later
 * timestamp. Call right after ap_feed_init().
 */
void ap_feed_offline(struct ap_feed *f);
/*
 * A report worker's feed (report_split.c): the denials, lost records and
 * policy changes go to @spool, in order, instead of the aggregator, which
 * keeps only the counters (bad lines, malformed...).  Published every 64 KiB
 * and by ap_spool_finish().
 */
struct ap_spool;
void ap_feed_spool(struct ap_feed *f, struct ap_spool *spool);
/* Feed raw bytes (any chunking). */
void ap_feed_bytes(struct ap_feed *f, const char *data, size_t n);
/* Complete events whose EOE did not come within the timeout. */
void ap_feed_age(struct ap_feed *f);
/* End of input: feed a last line without newline, complete every event. */
void ap_feed_flush(struct ap_feed *f);

/* Whether @line (no newline) looks like an audit record: [node=X ]type=T msg=audit(S.M:N): */
bool ap_line_is_record(const char *line, size_t len);

#endif
