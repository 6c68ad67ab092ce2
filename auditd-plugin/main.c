// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * audisp-trusted-for: auditd plugin counting trusted_for(2) denials, and
 * its report command. See audisp-trusted-for(8).
 */
#include <string.h>

#include "plugin.h"
#include "report_cli.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "report"))
		return ap_report_main(argc - 1, argv + 1);
	return ap_plugin_main(argc, argv);
}
