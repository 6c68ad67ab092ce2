/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Subjects: the users a prediction is made for, with the credentials
 * trusted_for(2) would see when they run a script: their uid, primary gid and
 * supplementary groups from the user and group databases (getpwuid(3),
 * getgrouplist(3)); root also has CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH.
 */
#ifndef PC_SUBJECT_H
#define PC_SUBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "eval.h"

struct pc_user {
	uid_t uid;
	char *name;	 /* from passwd, or the decimal uid */
	bool in_passwd;	 /* false: no groups known, gid unknown */
	gid_t *groups;
	struct pc_subject cred;
};

/* Users looked up once each (owners of many files repeat). */
struct pc_users {
	struct pc_user **v;
	size_t n, cap;
};

/* The user with that uid, looked up and cached; NULL when out of memory. */
struct pc_user *pc_users_get(struct pc_users *u, uid_t uid);

/*
 * Resolve a --user argument: a user name, or a decimal uid (any uid, even
 * one without a passwd entry): lib/user.h tf_parse_user(). Returns NULL and
 * sets *why when the name is unknown, the number is out of range, or
 * there is no memory for it.
 */
struct pc_user *pc_users_arg(struct pc_users *u, const char *arg,
			     const char **why);

void pc_users_free(struct pc_users *u);

#endif /* PC_SUBJECT_H */
