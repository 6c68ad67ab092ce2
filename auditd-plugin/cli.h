/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the plugin's and the report's command lines share: the message for
 * an option getopt_long() refused. Both loops clear opterr (getopt's own
 * message would name argv[0], "report" for the report) and start their
 * option string with ':' so that a missing value is told from an unknown
 * option.
 */
#ifndef AP_CLI_H
#define AP_CLI_H

/*
 * One line on stderr, "PROG: unknown option '--x'", "... option '--x'
 * needs a value" or "... takes no value", after getopt_long() returned
 * @opt '?' or ':' for @argv.
 */
void ap_cli_bad_option(const char *prog, int opt, char *const argv[]);

#endif
