/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rendering an aggregator as an aureport-like text report (report_text.c)
 * or as JSON (report_json.c). The command line that fills the options is
 * report_cli.c.
 */
#ifndef AP_REPORT_H
#define AP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "aggregate.h"

#define AP_TABLE_POLICY AP_DIM_COUNT /* the policy timeline, as a table bit */

struct ap_report_opts {
	bool interpret;	     /* -i: user names, mount points */
	unsigned int top;    /* rows per table, 0 = all */
	unsigned int tables; /* bit (1 << enum ap_dim) and (1 << AP_TABLE_POLICY) */
	const char *source;  /* shown in the header, e.g. "state /var/lib/..." */
	unsigned int apis;   /* bit (1 << enum ap_api_class); 0 = every API */
};

void ap_report_text(FILE *f, const struct ap_agg *a, const struct ap_report_opts *o);
/* Returns 0, or -1 when out of memory (nothing written) or @f could not be written. */
int ap_report_json(FILE *f, const struct ap_agg *a, const struct ap_report_opts *o);

#endif
