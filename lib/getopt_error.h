/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one message for an option getopt_long() refused, for every tool.
 *
 * The tools clear opterr (getopt's own message names argv[0] and comes on
 * a line of its own) and begin their option string with ':' (after a
 * leading '+' or '-'), so that a missing value comes back as ':' and an
 * unknown option as '?'.  tf_getopt_error() then tells which option it
 * was, as the user wrote it: getopt only leaves optopt (0 for an unknown
 * long option, the option's val for a long one given a value it does not
 * take) and optind, and argv[optind - 1] is not the option when it was
 * one of several short ones in one word ("-xj").
 */
#ifndef TF_GETOPT_ERROR_H
#define TF_GETOPT_ERROR_H

#include <getopt.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * After getopt_long(argc, @argv, ..., @longopts, ...) returned @opt ('?'
 * or ':'), write into @buf (@size bytes, NUL-terminated, truncated to fit)
 * one of:
 *   unknown option '-x'
 *   unknown option '--xyz'
 *   ambiguous option '--p' (--path, --policy)
 *   option '-n' needs a value
 *   option '--state' needs a value
 *   option '--json' takes no value
 * with the option as the user wrote it (a long one without its "=VALUE"),
 * its bytes escaped like every name a tool shows (tf_escape_term).
 * @longopts may be NULL (getopt() alone).  Returns @buf.
 */
const char *tf_getopt_error(int opt, char *const argv[],
			    const struct option *longopts, char *buf,
			    size_t size);

#ifdef __cplusplus
}
#endif

#endif /* TF_GETOPT_ERROR_H */
