// SPDX-License-Identifier: GPL-2.0-or-later
/* The dry run; see check.h. */
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"

/* on_script runs in several walker threads at once (walk.concurrent) */
#define ADD(var, n) __atomic_fetch_add(&(var), (n), __ATOMIC_RELAXED)

int pc_check_init(struct pc_check *c, char *err, size_t errlen)
{
	return pc_mounts_load(&c->mounts, c->mountinfo, err, errlen);
}

size_t pc_check_subjects(struct pc_check *c, uid_t owner,
			 struct pc_user **out, size_t max)
{
	size_t n = 0;
	struct pc_user *u;

	if (c->nusers) {
		for (size_t i = 0; i < c->nusers && n < max; i++)
			out[n++] = c->users[i];
		return n;
	}
	u = pc_users_get(&c->db, 0);
	if (u && n < max)
		out[n++] = u;
	if (owner != 0) {
		u = pc_users_get(&c->db, owner);
		if (u && n < max)
			out[n++] = u;
	}
	return n;
}

static void add_denial(struct pc_check *c, struct pc_mount *pm,
		       const char *path, const struct pc_inode *ino,
		       struct pc_denied_subject *sub, size_t nsub,
		       unsigned int reasons)
{
	struct pc_denial *d;

	if (c->ndenials == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct pc_denial **v = realloc(c->denials, cap * sizeof(*v));

		if (!v) {
			c->oom = true;
			return;
		}
		c->denials = v;
		c->cap = cap;
	}
	d = calloc(1, sizeof(*d) + nsub * sizeof(d->sub[0]));
	if (d)
		d->path = strdup(path);
	if (!d || !d->path) {
		free(d);
		c->oom = true;
		return;
	}
	d->pm = pm;
	d->reasons = reasons;
	d->mode = ino->mode;
	d->uid = ino->uid;
	d->gid = ino->gid;
	d->acl = ino->acl != NULL;
	d->nsub = nsub;
	memcpy(d->sub, sub, nsub * sizeof(*sub));
	c->denials[c->ndenials++] = d;
}

/*
 * Called by every walker thread without the walk's lock: the file's own I/O
 * (its ACL xattr) and the evaluation run in parallel; only the user database
 * (filled on first use) and the list of denials are shared, under c->lock.
 */
static void on_script(void *ctx, struct pc_mount *pm, const char *path,
		      int fd, const struct statx *stx)
{
	struct pc_check *c = ctx;
	struct pc_file_facts f;
	size_t max = c->nusers ? c->nusers : 2, n, nden = 0;
	struct pc_user *subs[max];
	struct pc_denied_subject den[max];
	unsigned int all = 0;

	if (pc_facts_load(&f, stx, fd, path) < 0) {
		/* evaluated on its mode bits alone, and reported */
		ADD(c->acl_errors, 1);
		ADD(pm->errors, 1);
		f.ino.acl = NULL;
		f.ino.acl_count = 0;
	}
	if (c->model == PC_MODEL_EXECVE_CHECK)
		f.ino.open_for_write = pc_writers_has(&c->writers, stx);
	if (c->nusers) {
		n = pc_check_subjects(c, stx->stx_uid, subs, max);
	} else {
		pthread_mutex_lock(&c->lock);
		n = pc_check_subjects(c, stx->stx_uid, subs, max);
		pthread_mutex_unlock(&c->lock);
	}
	for (size_t i = 0; i < n; i++) {
		unsigned int r = pc_eval(c->policy, c->model, &pm->fs, &f.ino,
					 &subs[i]->cred);

		if (r) {
			den[nden].user = subs[i];
			den[nden++].reasons = r;
			all |= r;
		}
	}
	(void)fd;
	if (!all)
		return;
	ADD(pm->denied, 1);
	for (unsigned int b = 0; b < TF_REASON_COUNT; b++)
		if (all & (1u << b))
			ADD(pm->by_reason[b], 1);
	pthread_mutex_lock(&c->lock);
	add_denial(c, pm, path, &f.ino, den, nden, all);
	pthread_mutex_unlock(&c->lock);
}

/* Whether @path is @dir or inside it (both canonical). */
static bool path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return true;
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || !path[n]);
}

/* Is the mount point of @pm the top of its path (not hidden)? */
static bool reachable(struct pc_mount *pm)
{
	struct statx stx;

	if (statx(AT_FDCWD, pm->m->mount_point, AT_SYMLINK_NOFOLLOW |
		  AT_NO_AUTOMOUNT, STATX_MNT_ID, &stx) < 0)
		return false;
	return stx.stx_mnt_id == pm->m->mnt_id;
}

static bool is_excluded(struct pc_check *c, const char *path)
{
	for (size_t i = 0; i < c->walk.nexcludes; i++)
		if (path_under(path, c->walk.excludes[i]))
			return true;
	return false;
}

static int check_walk(struct pc_check *c, char *err, size_t errlen)
{
	c->walk.on_script = on_script;
	c->walk.ctx = c;
	c->walk.concurrent = true;
	for (size_t i = 0; i < c->mounts.n; i++) {
		struct pc_mount *pm = &c->mounts.v[i];

		if (!pm->skip && !reachable(pm))
			pm->skip = "hidden by another mount";
	}
	if (!c->npaths) {
		for (size_t i = 0; i < c->mounts.n; i++) {
			struct pc_mount *pm = &c->mounts.v[i];

			if (pm->skip || is_excluded(c, pm->m->mount_point))
				continue;
			pm->selected = true;
			pc_walk_mount(&c->walk, pm, NULL);
		}
	}
	for (size_t p = 0; p < c->npaths; p++) {
		const char *path = c->paths[p];
		struct statx stx;
		struct pc_mount *pm;

		if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID,
			  &stx) < 0) {
			snprintf(err, errlen, "--path %s: %s", path,
				 strerror(errno));
			return -1;
		}
		pm = pc_mounts_find(&c->mounts, stx.stx_mnt_id);
		if (!pm) {
			snprintf(err, errlen,
				 "--path %s: its mount (id %llu) is not in the mount table",
				 path, (unsigned long long)stx.stx_mnt_id);
			return -1;
		}
		if (!pm->skip && !is_excluded(c, path)) {
			pm->selected = true;
			pc_walk_mount(&c->walk, pm, path);
		}
		/* the mounts below it, each on its own */
		for (size_t i = 0; i < c->mounts.n; i++) {
			struct pc_mount *sub = &c->mounts.v[i];

			if (sub == pm || sub->skip ||
			    strcmp(sub->m->mount_point, path) == 0 ||
			    !path_under(sub->m->mount_point, path) ||
			    is_excluded(c, sub->m->mount_point))
				continue;
			sub->selected = true;
			pc_walk_mount(&c->walk, sub, NULL);
		}
	}
	if (c->oom) {
		snprintf(err, errlen, "out of memory keeping the denied files");
		return -1;
	}
	return 0;
}

int pc_check_run(struct pc_check *c, char *err, size_t errlen)
{
	int r;

	/*
	 * Before the walk: a file the walk itself opens is open for reading
	 * only, and ETXTBSY is about writers.
	 */
	if (c->model == PC_MODEL_EXECVE_CHECK &&
	    pc_writers_load(&c->writers, "/proc") < 0) {
		snprintf(err, errlen, "cannot list the files open for writing in /proc: %s",
			 strerror(errno));
		return -1;
	}
	pthread_mutex_init(&c->lock, NULL);
	r = check_walk(c, err, errlen);
	pthread_mutex_destroy(&c->lock);
	return r;
}

void pc_check_free(struct pc_check *c)
{
	for (size_t i = 0; i < c->ndenials; i++) {
		free(c->denials[i]->path);
		free(c->denials[i]);
	}
	free(c->denials);
	pc_writers_free(&c->writers);
	pc_walk_free(&c->walk);
	pc_mounts_free(&c->mounts);
	pc_users_free(&c->db);
}
