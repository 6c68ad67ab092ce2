// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walker's directories: mount-bounded traversal, each directory read
 * depth first or offered to the pool (pool.h); its regular files go to
 * walk_visit.c. See walk.h.
 */
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interp.h"
#include "pool.h"
#include "walk_priv.h"

#define DENTS_BUF (64 * 1024)

/* One walk of a mount's tree by the pool's threads. */
struct walk_run {
	struct pc_walk *w;
	struct pc_mount *pm;
	bool no_uring; /* POLICYCTL_NO_IO_URING set: plain system calls */
};

void pc_tally_flush(struct pc_walk *w, struct pc_mount *pm,
		    struct pc_tally *t)
{
	if (t->files) {
		PC_ADD(w->files, t->files);
		PC_ADD(pm->files, t->files);
	}
	if (t->scripts) {
		PC_ADD(w->scripts, t->scripts);
		PC_ADD(pm->scripts, t->scripts);
	}
	t->files = t->scripts = 0;
}

int pc_path_push(struct pc_pathbuf *p, const char *name, size_t *saved)
{
	size_t n = strlen(name), need;
	bool slash = p->len && p->s[p->len - 1] != '/';

	need = p->len + slash + n + 1;
	if (need > p->cap) {
		size_t cap = p->cap ? p->cap : 256;
		char *s;

		while (cap < need)
			cap *= 2;
		s = realloc(p->s, cap);
		if (!s)
			return -1;
		p->s = s;
		p->cap = cap;
	}
	*saved = p->len;
	if (slash)
		p->s[p->len++] = '/';
	memcpy(p->s + p->len, name, n + 1);
	p->len += n;
	return 0;
}

void pc_path_pop(struct pc_pathbuf *p, size_t saved)
{
	p->len = saved;
	p->s[saved] = '\0';
}

void pc_walk_problem(struct pc_walk *w, const char *path, const char *what,
		     int err)
{
	char buf[96];
	char *line = NULL;
	size_t n;

	snprintf(buf, sizeof(buf), ": %s: %s", what, strerror(err));
	n = strlen(path) + strlen(buf) + 1;
	if (w->pool)
		pthread_mutex_lock(&w->pool->lock);
	w->nproblems_total++;
	if (w->nproblems < PC_WALK_MAX_PROBLEMS)
		line = malloc(n);
	if (line) {
		snprintf(line, n, "%s%s", path, buf);
		w->problems[w->nproblems++] = line;
	}
	if (w->pool)
		pthread_mutex_unlock(&w->pool->lock);
}

/* Every 1024th entry: the caller's progress callback, if the lock is free. */
static void progress(struct pc_walk *w, const char *where)
{
	if (!w->on_progress || (PC_ADD(w->tick, 1) & 1023))
		return;
	if (pthread_mutex_trylock(&w->pool->lock))
		return;
	w->on_progress(w->progress_ctx, w, where);
	pthread_mutex_unlock(&w->pool->lock);
}

static bool excluded(const struct pc_walk *w, const char *path)
{
	for (size_t i = 0; i < w->nexcludes; i++)
		if (strcmp(w->excludes[i], path) == 0)
			return true;
	return false;
}

static void walk_dir(struct pc_walk *w, struct pc_mount *pm, int fd,
		     struct pc_pathbuf *path);

/* Subdirectory @name of @fd, at @path: walked here, or by another thread. */
static void sub_dir(struct pc_walk *w, struct pc_mount *pm, int fd,
		    const char *name, struct pc_pathbuf *path,
		    struct pc_tally *t)
{
	int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			 O_CLOEXEC);
	struct statx stx;

	if (sub < 0) {
		if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP) {
			PC_ADD(pm->vanished, 1);
		} else {
			PC_ADD(pm->unreadable_dirs, 1);
			pc_walk_problem(w, path->s, "unreadable directory", errno);
		}
	} else if (statx(sub, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0 ||
		   stx.stx_mnt_id != pm->m->mnt_id) {
		close(sub); /* another mount's root */
	} else if (!pc_pool_offer(w->pool, sub, path->s)) {
		/* counts stay current for progress */
		pc_tally_flush(w, pm, t);
		walk_dir(w, pm, sub, path);
		close(sub);
	}
}

/* The type of entry @name of @fd when getdents did not say; -1: vanished. */
static int entry_type(struct pc_mount *pm, int fd, const char *name)
{
	struct statx stx;

	if (statx(fd, name, AT_SYMLINK_NOFOLLOW, STATX_TYPE, &stx) < 0) {
		if (errno == ENOENT)
			PC_ADD(pm->vanished, 1);
		return -1;
	}
	return S_ISDIR(stx.stx_mode) ? DT_DIR :
	       S_ISREG(stx.stx_mode) ? DT_REG : DT_UNKNOWN;
}

static void walk_dir(struct pc_walk *w, struct pc_mount *pm, int fd,
		     struct pc_pathbuf *path)
{
	char *buf = malloc(DENTS_BUF);
	struct pc_tally t = { 0 };
	struct pc_batch b;
	ssize_t n;

	PC_ADD(w->dirs, 1);
	PC_ADD(pm->dirs, 1);
	if (!buf) {
		PC_ADD(pm->errors, 1);
		pc_walk_problem(w, path->s, "cannot walk", ENOMEM);
		return;
	}
	b.n = 0;
	while ((n = getdents64(fd, buf, DENTS_BUF)) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			int type = d->d_type;
			const char *name = d->d_name;
			size_t saved;

			off += d->d_reclen;
			if (name[0] == '.' && (!name[1] ||
					       (name[1] == '.' && !name[2])))
				continue;
			if (type != DT_DIR && type != DT_REG &&
			    type != DT_UNKNOWN)
				continue;
			if (pc_path_push(path, name, &saved) < 0) {
				PC_ADD(pm->errors, 1);
				pc_walk_problem(w, path->s, "cannot walk", ENOMEM);
				continue;
			}
			progress(w, path->s);
			if (w->nexcludes && excluded(w, path->s)) {
				pc_path_pop(path, saved);
				continue;
			}
			if (type == DT_UNKNOWN)
				type = entry_type(pm, fd, name);
			if (type < 0) {
				pc_path_pop(path, saved);
				continue;
			}
			if (type == DT_REG && pc_walk_ring) {
				/* the names point into buf: run before it is reused */
				b.by_name[b.n] = pc_interp_by_name(name);
				b.name[b.n++] = name;
				pc_path_pop(path, saved);
				if (b.n == PC_RING_BATCH)
					pc_visit_batch(w, pm, fd, path, &b, &t);
				continue;
			} else if (type == DT_REG) {
				pc_visit_file(w, pm, fd, name,
					      pc_interp_by_name(name), path->s, &t);
			} else if (type == DT_DIR) {
				sub_dir(w, pm, fd, name, path, &t);
			}
			pc_path_pop(path, saved);
		}
		if (b.n)
			pc_visit_batch(w, pm, fd, path, &b, &t);
	}
	pc_tally_flush(w, pm, &t);
	if (n < 0) {
		if (errno == ENOENT) {
			PC_ADD(pm->vanished, 1); /* directory removed while read */
		} else {
			PC_ADD(pm->unreadable_dirs, 1);
			pc_walk_problem(w, path->s, "unreadable directory", errno);
		}
	}
	free(buf);
}

/* The pool's work: directory @fd at @start, depth first. */
static void walk_one(void *ctx, int fd, const char *start)
{
	struct walk_run *run = ctx;
	struct pc_pathbuf path = { 0 };
	size_t saved;

	if (pc_path_push(&path, start, &saved) < 0) {
		PC_ADD(run->pm->errors, 1);
		pc_walk_problem(run->w, start, "cannot walk", ENOMEM);
		return;
	}
	walk_dir(run->w, run->pm, fd, &path);
	free(path.s);
}

static void thread_start(void *ctx)
{
	struct walk_run *run = ctx;

	pc_walk_ring = run->no_uring ? NULL : pc_ring_new();
}

static void thread_end(void *ctx)
{
	(void)ctx;
	pc_ring_free(pc_walk_ring);
	pc_walk_ring = NULL;
}

/* Walk the directory open at @fd with a pool of threads; takes @fd. */
static void walk_tree(struct pc_walk *w, struct pc_mount *pm, int fd,
		      const char *root)
{
	const char *no_uring = getenv("POLICYCTL_NO_IO_URING");
	struct walk_run run = { .w = w, .pm = pm,
				.no_uring = no_uring && *no_uring };
	struct pc_pool pl = { .work = walk_one, .thread_start = thread_start,
			      .thread_end = thread_end, .ctx = &run };

	pc_pool_init(&pl);
	w->pool = &pl;
	if (pc_pool_run(&pl, w->threads, fd, root) < 0) {
		w->pool = NULL;
		PC_ADD(pm->errors, 1);
		pc_walk_problem(w, root, "cannot walk", ENOMEM);
	}
	w->pool = NULL;
	pc_pool_destroy(&pl);
}

/* A single file given as the start: visit it alone. */
static void walk_file(struct pc_walk *w, struct pc_mount *pm, const char *root)
{
	struct pc_pool pl = { 0 };
	struct pc_tally t = { 0 };
	const char *slash = strrchr(root, '/');
	char *dir = slash ? strndup(root, (size_t)(slash - root) + 1) : strdup(".");
	int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	pc_pool_init(&pl); /* its lock only */
	w->pool = &pl;
	if (dfd >= 0) {
		const char *name = slash ? slash + 1 : root;

		pc_visit_file(w, pm, dfd, name, pc_interp_by_name(name), root, &t);
		pc_tally_flush(w, pm, &t);
		close(dfd);
	} else {
		PC_ADD(pm->errors, 1);
		pc_walk_problem(w, root, "cannot open its directory", errno);
	}
	w->pool = NULL;
	pc_pool_destroy(&pl);
	free(dir);
}

int pc_walk_mount(struct pc_walk *w, struct pc_mount *pm, const char *start)
{
	const char *root = start ? start : pm->m->mount_point;
	struct statx stx;
	int fd;

	fd = open(root, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
			      O_NOCTTY);
	if (fd < 0 && errno == ELOOP)
		return 0; /* a symlink given with --path: nothing to walk */
	if (fd < 0) {
		if (errno == EACCES)
			pm->unreadable_dirs++;
		else
			pm->errors++;
		pc_walk_problem(w, root, "cannot open", errno);
		return -1;
	}
	if (statx(fd, "", AT_EMPTY_PATH, PC_WALK_STX_MASK, &stx) < 0) {
		pm->errors++;
		pc_walk_problem(w, root, "cannot stat", errno);
		close(fd);
		return -1;
	}
	if (stx.stx_mnt_id != pm->m->mnt_id) {
		pc_walk_problem(w, root, "not reachable (another mount sits on it)",
				EBUSY);
		close(fd);
		return -1;
	}
	if (S_ISDIR(stx.stx_mode)) {
		walk_tree(w, pm, fd, root);
		return 0;
	}
	close(fd);
	if (S_ISREG(stx.stx_mode))
		walk_file(w, pm, root);
	return 0;
}

void pc_walk_free(struct pc_walk *w)
{
	for (size_t i = 0; i < w->nproblems; i++)
		free(w->problems[i]);
	w->nproblems = 0;
}
