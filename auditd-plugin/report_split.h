/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report's --input parsed by several processes (issue 26): the logs,
 * taken as one byte stream, are cut at line starts into ranges; the first
 * is parsed by this process into @agg, each other one by a forked worker
 * with its own libauparse state, which spools what it counted
 * (report_spool.h) into shared memory; this process replays the spools in
 * the input's order as they fill.  Counting is per record (feed.h), so the
 * result is the single pass's, table rows included.
 */
#ifndef AP_REPORT_SPLIT_H
#define AP_REPORT_SPLIT_H

#include <sys/types.h>

#include "aggregate.h"
#include "feed.h"

/* Inputs smaller than this are parsed by one process unless --jobs says otherwise. */
#define AP_SPLIT_MIN_BYTES (16u << 20)
/* Nor, by default, by more processes than parts of this size. */
#define AP_SPLIT_MIN_PART (AP_SPLIT_MIN_BYTES / 2)
#define AP_SPLIT_MAX_JOBS 64u

/*
 * The processes for @total bytes of input on @cpus CPUs by default: one per
 * CPU, at most one per AP_SPLIT_MIN_PART bytes and AP_SPLIT_MAX_JOBS; 1
 * (no split) below AP_SPLIT_MIN_BYTES or with fewer than 2 CPUs.
 */
unsigned int ap_split_auto_jobs(off_t total, long cpus);

/*
 * Parse the @nfiles open logs @fds (named @names, for messages) with
 * @jobs processes (0: ap_split_auto_jobs()).  Returns 0 when done, 1 when the inputs are not all regular files
 * or one process is to parse them (nothing read: the caller streams them),
 * -1 after a message on stderr.
 */
int ap_report_read_split(struct ap_agg *agg, const struct ap_filter *flt, const int *fds,
			 char **names, int nfiles, unsigned int jobs);

#endif
