/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TF_REPORT_CLI_H
#define TF_REPORT_CLI_H

#include <stdint.h>

/*
 * "audisp-trusted-for report ...". Exit status: 0 report written, 1 an input
 * or the state could not be read, 2 usage error.
 */
int tf_report_main(int argc, char **argv);

/* Parse a --since/--until time into ms since the epoch; -1 when invalid. */
int tf_parse_time(const char *s, int end_of_day, int64_t *ms);

#endif
