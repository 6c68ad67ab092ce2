// SPDX-License-Identifier: GPL-2.0-or-later
/* Subject credentials from the user and group databases; see subject.h. */
#include "subject.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user.h"

static struct pc_user *user_new(uid_t uid)
{
	struct pc_user *u = calloc(1, sizeof(*u));
	struct passwd *pw;
	char num[24];
	int n = 16;

	if (!u)
		return NULL;
	u->uid = uid;
	u->cred.uid = uid;
	u->cred.gid = (gid_t)-1;
	errno = 0;
	pw = getpwuid(uid);
	if (pw) {
		u->in_passwd = true;
		u->name = strdup(pw->pw_name);
		u->cred.gid = pw->pw_gid;
		for (;;) {
			gid_t *g = realloc(u->groups, (size_t)n * sizeof(*g));
			int want = n;

			if (!g)
				goto fail;
			u->groups = g;
			if (getgrouplist(pw->pw_name, pw->pw_gid, g, &want) >= 0) {
				u->cred.ngroups = (size_t)want;
				break;
			}
			n = want > n ? want : n * 2;
		}
		u->cred.groups = u->groups;
	} else {
		snprintf(num, sizeof(num), "%u", (unsigned int)uid);
		u->name = strdup(num);
	}
	if (!u->name)
		goto fail;
	/* root runs scripts with its full capability set */
	u->cred.cap_dac_override = uid == 0;
	u->cred.cap_dac_read_search = uid == 0;
	return u;
fail:
	free(u->groups);
	free(u->name);
	free(u);
	return NULL;
}

struct pc_user *pc_users_get(struct pc_users *us, uid_t uid)
{
	struct pc_user *u;

	for (size_t i = 0; i < us->n; i++)
		if (us->v[i]->uid == uid)
			return us->v[i];
	if (us->n == us->cap) {
		size_t cap = us->cap ? us->cap * 2 : 16;
		struct pc_user **v = realloc(us->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		us->v = v;
		us->cap = cap;
	}
	u = user_new(uid);
	if (u)
		us->v[us->n++] = u;
	return u;
}

struct pc_user *pc_users_arg(struct pc_users *us, const char *arg,
			     const char **why)
{
	struct pc_user *u;
	uid_t uid;

	if (tf_parse_user(arg, &uid) == 0) {
		u = pc_users_get(us, uid);
		if (!u)
			*why = "out of memory";
		return u;
	}
	switch (errno) {
	case EINVAL:
		*why = "empty user name";
		break;
	case ERANGE:
		*why = "not a valid uid (0..4294967294)";
		break;
	case ENOENT:
		*why = "no such user in the user database";
		break;
	default:
		*why = "the user database cannot be read";
		break;
	}
	return NULL;
}

void pc_users_free(struct pc_users *us)
{
	for (size_t i = 0; i < us->n; i++) {
		free(us->v[i]->groups);
		free(us->v[i]->name);
		free(us->v[i]);
	}
	free(us->v);
	memset(us, 0, sizeof(*us));
}
