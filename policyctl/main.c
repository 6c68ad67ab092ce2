// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policyctl - dry-run a proposed fs.trust_policy against every mount, then
 * apply it safely. See man/policyctl.8.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "escape.h"
#include "getopt_error.h"

const char *pc_prog = "policyctl";

/*
 * The whole message is escaped: it holds file names, mount points and
 * option values the user or the kernel chose, so callers pass them raw.
 */
void pc_err(const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: ", pc_prog);
	if (n < 0)
		fputs("(out of memory formatting a message)", stderr);
	else
		tf_fputs_escaped(msg, stderr);
	fputc('\n', stderr);
	free(msg);
}

void pc_bad_option(const char *cmd, int ch, char *const argv[],
		   const struct option *opts, const char *usage)
{
	char msg[256];

	/* already escaped: not through pc_err(), which would escape it again */
	fprintf(stderr, "%s: %s: %s%s%s\n", pc_prog, cmd,
		tf_getopt_error(ch, argv, opts, msg, sizeof(msg)),
		usage ? "; usage: " : "", usage ? usage : "");
}

int pc_parse_policy(const char *s)
{
	if (s && s[0] >= '0' && s[0] <= '3' && !s[1])
		return s[0] - '0';
	return -1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: policyctl status [--json]\n"
		"       policyctl check --policy N [--path PATH]... [--exclude PATH]...\n"
		"                       [--user NAME|UID]... [--all] [--json]\n"
		"       policyctl check --if-restrict-file [check options but --policy]\n"
		"       policyctl explain --policy N [--user NAME|UID]... [--json] FILE...\n"
		"       policyctl explain --if-restrict-file [--user NAME|UID]... [--json] FILE...\n"
		"       policyctl apply --policy N [--force] [--persist] [--state FILE] [check options]\n"
		"       policyctl rollback [--state FILE]\n"
		"N is the fs.trust_policy value, 0..3. --if-restrict-file (= --model execve_check):\n"
		"what interpreters would refuse with SECBIT_EXEC_RESTRICT_FILE set (AT_EXECVE_CHECK).\n"
		"Exit status: 0 nothing denied or done,\n"
		"1 denials predicted (apply refused), 2 error. See policyctl(8).\n");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "status", pc_cmd_status },   { "check", pc_cmd_check },
		{ "explain", pc_cmd_explain }, { "apply", pc_cmd_apply },
		{ "rollback", pc_cmd_rollback },
	};

	if (argc < 2) {
		usage(stderr);
		return PC_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return PC_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	pc_err("unknown command '%s'; use status, check, explain, apply or rollback",
	       argv[1]);
	return PC_EXIT_ERROR;
}
