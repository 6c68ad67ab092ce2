/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * user.h - a user given on a command line or at a prompt: a name from the
 * user database or a decimal uid.  One rule for every tool.
 */
#ifndef TF_USER_H
#define TF_USER_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The uid that @s names, in *@uid.  The rule:
 *  - @s made of decimal digits only ("0", "1000", "007") is that uid,
 *    taken as is: no user database look-up, so a uid without a passwd
 *    entry is accepted.  It must be at most 4294967294: (uid_t)-1 is
 *    "no uid" to the kernel (chown(2), setreuid(2)) and is refused.
 *  - anything else ("root", "-1", "+5", " 7") is a user name, looked up
 *    with getpwnam(3).
 * Returns 0, or -1 with errno:
 *  EINVAL  @s is NULL or empty;
 *  ERANGE  all digits, but above 4294967294 (or (uid_t)-1);
 *  ENOENT  no user of that name in the user database;
 *  other   the user database could not be read (getpwnam's errno: EIO,
 *          EMFILE, ENOMEM...).
 * *@uid is only written on success.
 */
int tf_parse_user(const char *s, uid_t *uid);

#ifdef __cplusplus
}
#endif

#endif /* TF_USER_H */
