// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared check/apply options; see options.h. */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "escape.h"

enum { OPT_MOUNTINFO = 256, OPT_STATE, OPT_MODEL, OPT_IF_RESTRICT_FILE };

static void usage_line(FILE *f, const char *cmd, bool apply)
{
	if (apply)
		fprintf(f, "usage: policyctl apply --policy N [--force] [--persist] [--state FILE]\n"
				"         [--path PATH]... [--exclude PATH]... [--user NAME|UID]... [--all] [--json]\n");
	else
		fprintf(f, "usage: policyctl %s --policy N [--path PATH]... [--exclude PATH]...\n"
				"         [--user NAME|UID]... [--all] [--json]\n"
				"       policyctl %s --if-restrict-file [--path PATH]... [--exclude PATH]...\n"
				"         [--user NAME|UID]... [--all] [--json]\n", cmd, cmd);
}

/* The name of the long option whose val is @val in @opts. */
static const char *long_name(const struct option *opts, int val)
{
	for (; opts->name; opts++)
		if (opts->val == val)
			return opts->name;
	return "?";
}

static char *canonical(const char *opt, const char *arg)
{
	char *p = realpath(arg, NULL);

	if (!p)
		pc_err("%s %s: %s; give an existing file or directory", opt,
		       arg, strerror(errno));
	return p;
}

int pc_opt_policy(const char *cmd, const char *arg, struct pc_check *c)
{
	c->policy = pc_parse_policy(arg);
	if (c->policy < 0) {
		pc_err("%s: --policy '%s' is not a policy; give 0, 1, 2 or 3",
		       cmd, arg);
		return -1;
	}
	return 0;
}

int pc_opt_user(const char *cmd, const char *arg, struct pc_check *c)
{
	const char *why;

	c->users[c->nusers] = pc_users_arg(&c->db, arg, &why);
	if (!c->users[c->nusers]) {
		pc_err("%s: --user '%s': %s; give a user name or a uid", cmd,
		       arg, why);
		return -1;
	}
	c->nusers++;
	return 0;
}

int pc_opt_model(const char *cmd, const char *arg, enum pc_model *model)
{
	if (!strcmp(arg, "execve_check")) {
		*model = PC_MODEL_EXECVE_CHECK;
	} else if (!strcmp(arg, "trusted_for")) {
		*model = PC_MODEL_TRUSTED_FOR;
	} else {
		pc_err("%s: --model '%s' is not a model; give trusted_for or execve_check",
		       cmd, arg);
		return -1;
	}
	return 0;
}

int pc_parse_check_args(const char *cmd, int argc, char **argv,
			struct pc_check *c, struct pc_cmdopts *o, bool apply)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "path", required_argument, NULL, 'P' },
		{ "exclude", required_argument, NULL, 'x' },
		{ "user", required_argument, NULL, 'u' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "force", no_argument, NULL, 'f' },
		{ "persist", no_argument, NULL, 'S' },
		{ "state", required_argument, NULL, OPT_STATE },
		{ "mountinfo", required_argument, NULL, OPT_MOUNTINFO },
		{ "model", required_argument, NULL, OPT_MODEL },
		{ "if-restrict-file", no_argument, NULL, OPT_IF_RESTRICT_FILE },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	size_t max = (size_t)argc + 1;
	int ch;

	c->policy = -1;
	c->paths = calloc(max, sizeof(*c->paths));
	c->users = calloc(max, sizeof(*c->users));
	c->walk.excludes = calloc(max, sizeof(*c->walk.excludes));
	if (!c->paths || !c->users || !c->walk.excludes) {
		pc_err("out of memory");
		return -1;
	}
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":p:P:x:u:ajh", opts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (pc_opt_policy(cmd, optarg, c) < 0)
				return -1;
			break;
		case 'P':
			c->paths[c->npaths] = canonical("--path", optarg);
			if (!c->paths[c->npaths])
				return -1;
			c->npaths++;
			break;
		case 'x':
			c->walk.excludes[c->walk.nexcludes] = canonical("--exclude", optarg);
			if (!c->walk.excludes[c->walk.nexcludes])
				return -1;
			c->walk.nexcludes++;
			break;
		case 'u':
			if (pc_opt_user(cmd, optarg, c) < 0)
				return -1;
			break;
		case 'a':
			o->all = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'f':
		case 'S':
		case OPT_STATE:
			if (!apply)
				goto unknown;
			if (ch == 'f')
				o->force = true;
			else if (ch == 'S')
				o->persist = true;
			else
				o->state = optarg;
			break;
		case OPT_MOUNTINFO:
			c->mountinfo = optarg;
			break;
		case OPT_MODEL:
		case OPT_IF_RESTRICT_FILE:
			/* apply sets fs.trust_policy: trusted_for(2) only */
			if (apply)
				goto unknown;
			if (ch == OPT_IF_RESTRICT_FILE)
				c->model = PC_MODEL_EXECVE_CHECK;
			else if (pc_opt_model(cmd, optarg, &c->model) < 0)
				return -1;
			break;
		case 'h':
			usage_line(stdout, cmd, apply);
			return 1;
		case ':':
			pc_bad_option(cmd, ch, argv, opts, NULL);
			usage_line(stderr, cmd, apply);
			return -1;
		default:
			pc_bad_option(cmd, ch, argv, opts, NULL);
			usage_line(stderr, cmd, apply);
			return -1;
unknown:
			/* a long-only option of the other command (opts[]) */
			pc_err("%s: unknown option '--%s'", cmd, long_name(opts, ch));
			usage_line(stderr, cmd, apply);
			return -1;
		}
	}
	if (optind < argc) {
		pc_err("%s: unexpected argument '%s' (limit the walk with --path)",
		       cmd, argv[optind]);
		return -1;
	}
	if (c->model == PC_MODEL_EXECVE_CHECK) {
		if (c->policy >= 0) {
			pc_err("%s: --policy is for trusted_for(2); execveat(AT_EXECVE_CHECK) has none (--if-restrict-file asks what SECBIT_EXEC_RESTRICT_FILE would refuse)",
			       cmd);
			return -1;
		}
		return 0;
	}
	if (c->policy < 0) {
		pc_err("%s: --policy N is required (0..3)", cmd);
		usage_line(stderr, cmd, apply);
		return -1;
	}
	return 0;
}

void pc_free_check_args(struct pc_check *c)
{
	for (size_t i = 0; i < c->npaths; i++)
		free(c->paths[i]);
	for (size_t i = 0; i < c->walk.nexcludes; i++)
		free(c->walk.excludes[i]);
	free(c->paths);
	free(c->users);
	free(c->walk.excludes);
}
