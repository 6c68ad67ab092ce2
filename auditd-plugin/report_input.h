/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report's --input: finished audit logs, or stdin, counted in an aggregator. */
#ifndef AP_REPORT_INPUT_H
#define AP_REPORT_INPUT_H

#include "aggregate.h"
#include "feed.h"

/*
 * Feed @nfiles files (none: stdin; "-": stdin) through @flt into @agg, in
 * order. Every file is opened first: a typo yields no partial report.
 * Regular files are parsed by @jobs processes (report_split.h; 0: one per
 * CPU for big inputs, 1: this one), with the same result.
 * Returns 0, or -1 after a one-line message on stderr.
 */
int ap_report_read_inputs(struct ap_agg *agg, const struct ap_filter *flt, char **files,
			  int nfiles, unsigned int jobs);

#endif
