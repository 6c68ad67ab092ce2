// SPDX-License-Identifier: GPL-2.0-or-later
/* The message for a refused command-line option; see cli.h. */
#include "cli.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void ap_cli_bad_option(const char *prog, int opt, char *const argv[])
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	bool dashes = arg && !strncmp(arg, "--", 2) && arg[2];
	size_t n;

	/*
	 * optopt is 0 for an unknown long option; a long option's error
	 * (missing or unexpected value) leaves it in argv[optind - 1].
	 */
	if (!optopt || (dashes && (opt == ':' || strchr(arg, '=')))) {
		if (!dashes) {
			fprintf(stderr, "%s: unknown option\n", prog);
			return;
		}
		n = strcspn(arg, "=");
		fprintf(stderr, "%s: %s '%.*s'%s\n", prog, !optopt ? "unknown option" : "option",
			(int)n, arg, !optopt ? "" : opt == ':' ? " needs a value" : " takes no value");
		return;
	}
	if (opt == ':')
		fprintf(stderr, "%s: option '-%c' needs a value\n", prog, optopt);
	else
		fprintf(stderr, "%s: unknown option '-%c'\n", prog, optopt);
}
