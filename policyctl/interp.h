/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which files are "interpreted files": a regular file whose name ends in one
 * of the extensions of pc_interp_exts[] (the table man/policyctl.8 lists), or
 * whose first two bytes are "#!".
 */
#ifndef PC_INTERP_H
#define PC_INTERP_H

#include <stdbool.h>

/* NULL-terminated table of script extensions, without the dot. */
extern const char *const pc_interp_exts[];

/* The longest extension of the table (tests check that none is longer). */
#define PC_INTERP_EXT_MAX 4

/* Whether @name's extension is in the table (case-sensitive). */
bool pc_interp_by_name(const char *name);

/* 1 when the file open at @fd starts with "#!", 0 when not, -1 on error. */
int pc_interp_shebang(int fd);

#endif /* PC_INTERP_H */
