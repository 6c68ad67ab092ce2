// SPDX-License-Identifier: GPL-2.0-or-later
/* `policyctl check`: the dry run and its report. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "options.h"
#include "report.h"

int pc_cmd_check(int argc, char **argv)
{
	struct pc_check c = { 0 };
	struct pc_cmdopts o = { 0 };
	char err[512];
	int rc = PC_EXIT_ERROR, p;

	p = pc_parse_check_args("check", argc, argv, &c, &o, false);
	if (p)
		goto out;
	if (pc_dry_run(&c, err, sizeof(err)) < 0) {
		pc_err("check: %s", err);
		goto out;
	}
	if (pc_print_report("check", &c, o.json, o.all, "") < 0)
		goto out;
	rc = c.ndenials ? PC_EXIT_DENIED : PC_EXIT_OK;
out:
	pc_check_free(&c);
	pc_free_check_args(&c);
	return p == 1 ? PC_EXIT_OK : rc;
}
