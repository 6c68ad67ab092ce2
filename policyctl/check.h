/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dry run: `policyctl check` (also the first step of `apply`). */
#ifndef PC_CHECK_H
#define PC_CHECK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "eval.h"
#include "facts.h"
#include "mounts.h"
#include "subject.h"
#include "walk.h"

struct pc_denied_subject {
	const struct pc_user *user;
	unsigned int reasons;
};

/* One interpreted file some subject would be denied. */
struct pc_denial {
	char *path;
	struct pc_mount *pm;
	unsigned int reasons; /* union over the subjects */
	mode_t mode;
	uid_t uid;
	gid_t gid;
	bool acl;
	size_t nsub;
	struct pc_denied_subject sub[];
};

struct pc_check {
	/* in */
	int policy; /* -1 with PC_MODEL_EXECVE_CHECK, which has none */
	/*
	 * PC_MODEL_EXECVE_CHECK: what interpreters would refuse if
	 * SECBIT_EXEC_RESTRICT_FILE were set (check --if-restrict-file)
	 */
	enum pc_model model;
	char **paths;	   /* --path, canonical; none: every mount */
	size_t npaths;
	struct pc_user **users; /* --user; none: root + each file's owner */
	size_t nusers;
	const char *mountinfo; /* NULL: /proc/self/mountinfo */
	/* state */
	struct pc_mounts mounts;
	struct pc_users db;
	struct pc_walk walk;
	/* PC_MODEL_EXECVE_CHECK: the files open for writing (ETXTBSY) */
	struct pc_writers writers;
	/* out */
	struct pc_denial **denials;
	size_t ndenials, cap;
	unsigned long long acl_errors;
	bool oom;
	/* private: the user database and the denials, shared by the walkers */
	pthread_mutex_t lock;
};

/*
 * Load the mount table (@c->mountinfo, or /proc/self/mountinfo): 0, or -1
 * with a message in @err. Called once the options are parsed (their --user
 * arguments already resolved into @c->db), before pc_check_run() or
 * pc_check_subjects().
 */
int pc_check_init(struct pc_check *c, char *err, size_t errlen);

/* Walk the selection and evaluate every interpreted file. */
int pc_check_run(struct pc_check *c, char *err, size_t errlen);

void pc_check_free(struct pc_check *c);

/*
 * The subjects a file owned by @owner is evaluated for (the --user list, or
 * root and @owner), at most @max in @out; returns the count.
 */
size_t pc_check_subjects(struct pc_check *c, uid_t owner,
			 struct pc_user **out, size_t max);

#endif /* PC_CHECK_H */
