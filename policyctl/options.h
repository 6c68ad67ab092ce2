/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Option parsing shared by `check` and `apply` (which runs check first). */
#ifndef PC_OPTIONS_H
#define PC_OPTIONS_H

#include <stdbool.h>

#include "check.h"

struct pc_cmdopts {
	bool json, all;
	bool force, persist; /* apply only */
	const char *state;   /* apply only: --state FILE */
};

/*
 * Parse @argv of subcommand @cmd into @c and @o. Returns 0, -1 on a usage
 * error (already reported), 1 when --help was printed.
 */
int pc_parse_check_args(const char *cmd, int argc, char **argv,
			struct pc_check *c, struct pc_cmdopts *o, bool apply);

/*
 * --policy, --user (@c->users has room for one more) and --model, as check,
 * apply and explain take them: 0, or -1 after a one-line error naming @cmd.
 */
int pc_opt_policy(const char *cmd, const char *arg, struct pc_check *c);
int pc_opt_user(const char *cmd, const char *arg, struct pc_check *c);
int pc_opt_model(const char *cmd, const char *arg, enum pc_model *model);

/* Free what pc_parse_check_args() allocated in @c. */
void pc_free_check_args(struct pc_check *c);

#endif /* PC_OPTIONS_H */
