/* SPDX-License-Identifier: GPL-2.0-or-later */
/* policyctl's subcommands and their shared option handling. */
#ifndef PC_CLI_H
#define PC_CLI_H

#include <stdbool.h>
#include <stddef.h>

/* Exit statuses (man/policyctl.8 EXIT STATUS) */
#define PC_EXIT_OK 0     /* nothing would be denied / done */
#define PC_EXIT_DENIED 1 /* denials predicted (apply: refused) */
#define PC_EXIT_ERROR 2  /* usage error, or could not do it */

extern const char *pc_prog;

/* "policyctl: " + message + "\n" on stderr */
void pc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct option;

/*
 * "policyctl: CMD: " + what getopt_long() refused (@ch '?' or ':', the
 * option as the user wrote it, escaped: tf_getopt_error()), then
 * "; usage: " @usage when not NULL, and "\n".
 */
void pc_bad_option(const char *cmd, int ch, char *const argv[],
		   const struct option *opts, const char *usage);

/* Parse a policy value: exactly one of "0".."3"; -1 otherwise. */
int pc_parse_policy(const char *s);

struct pc_check;

/*
 * The dry run of check and apply: pc_check_init() and pc_check_run(), with
 * a progress line on stderr while it walks when stderr is a terminal
 * (dry_run.c). 0, or -1 with a message in @err.
 */
int pc_dry_run(struct pc_check *c, char *err, size_t errlen);

/*
 * Print the report of the dry run @c on stdout (JSON, or text with every
 * file when @all) and flush it: 0, or -1 after a one-line error naming
 * @cmd and ending with @then.
 */
int pc_print_report(const char *cmd, struct pc_check *c, bool json, bool all,
		    const char *then);

int pc_cmd_status(int argc, char **argv);
int pc_cmd_check(int argc, char **argv);
int pc_cmd_explain(int argc, char **argv);
int pc_cmd_apply(int argc, char **argv);
int pc_cmd_rollback(int argc, char **argv);

#endif /* PC_CLI_H */
