/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AP_REPORT_CLI_H
#define AP_REPORT_CLI_H

#include <stdint.h>

/*
 * "audisp-trusted-for report ...". Exit status: 0 report written, 1 an input
 * or the state could not be read, 2 usage error.
 */
int ap_report_main(int argc, char **argv);

/* Parse a --since/--until time into ms since the epoch; -1 when invalid. */
int ap_parse_time(const char *s, int end_of_day, int64_t *ms);

#endif
