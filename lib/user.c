// SPDX-License-Identifier: LGPL-2.1-or-later
/* A user name or a decimal uid to a uid; the rule is in user.h. */
#include "user.h"

#include <errno.h>
#include <pwd.h>
#include <stdint.h>
#include <string.h>

/* Largest uid accepted: (uid_t)-1 means "no uid". */
#define TF_UID_MAX ((uint64_t)(uid_t)-1 - 1)

static int parse_digits(const char *s, uid_t *uid)
{
	uint64_t v = 0;

	for (; *s; s++) {
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > TF_UID_MAX) {
			errno = ERANGE;
			return -1;
		}
	}
	*uid = (uid_t)v;
	return 0;
}

int tf_parse_user(const char *s, uid_t *uid)
{
	struct passwd *pw;

	if (!s || !*s) {
		errno = EINVAL;
		return -1;
	}
	if (strspn(s, "0123456789") == strlen(s))
		return parse_digits(s, uid);
	errno = 0;
	pw = getpwnam(s);
	if (!pw) {
		/* getpwnam(3): 0, ENOENT, ESRCH, EBADF, EPERM all say "not found". */
		if (!errno || errno == ENOENT || errno == ESRCH || errno == EBADF ||
		    errno == EPERM)
			errno = ENOENT;
		return -1;
	}
	*uid = pw->pw_uid;
	return 0;
}
