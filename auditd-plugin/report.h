/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rendering an aggregator as an aureport-like text report (report_text.c)
 * or as JSON (report_json.c). The command line that fills the options is
 * report_cli.c.
 */
#ifndef TF_REPORT_H
#define TF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "aggregate.h"

#define TF_TABLE_POLICY TF_DIM_COUNT /* the policy timeline, as a table bit */

struct tf_report_opts {
	bool interpret;	     /* -i: user names, mount points */
	unsigned int top;    /* rows per table, 0 = all */
	unsigned int tables; /* bit (1 << enum tf_dim) and (1 << TF_TABLE_POLICY) */
	const char *source;  /* shown in the header, e.g. "state /var/lib/..." */
	unsigned int apis;   /* bit (1 << enum api_class); 0 = every API */
};

void tf_report_text(FILE *f, const struct tf_agg *a, const struct tf_report_opts *o);
/* Returns 0, or -1 when out of memory (nothing written) or @f could not be written. */
int tf_report_json(FILE *f, const struct tf_agg *a, const struct tf_report_opts *o);

#endif
