// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walker's regular files: open, tell whether interpreted (name or
 * "#!"), stat and hand over; one at a time by plain system calls, or a
 * directory's files in batches through the thread's io_uring. See walk.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include "interp.h"
#include "pool.h"
#include "walk_priv.h"

#define OPEN_FLAGS (O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)

_Thread_local struct pc_ring *pc_walk_ring;

/* Open a regular file without following links, atime untouched if we can. */
static int open_file(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, OPEN_FLAGS | O_NOATIME);

	if (fd < 0 && errno == EPERM)
		fd = openat(dirfd, name, OPEN_FLAGS);
	return fd;
}

/*
 * @fd (open, closed here: with @r's next submission when @r is set) is an
 * interpreted file: stat it, hand it over.
 */
static void script_found(struct pc_walk *w, struct pc_mount *pm, int fd,
			 const char *path, struct pc_tally *t,
			 struct pc_ring *r)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, PC_WALK_STX_MASK, &stx) < 0) {
		PC_ADD(pm->errors, 1);
		pc_walk_problem(w, path, "cannot stat", errno);
		goto out;
	}
	if (!S_ISREG(stx.stx_mode))
		goto out; /* replaced during the walk */
	if (stx.stx_mnt_id != pm->m->mnt_id)
		goto out; /* a file bind-mounted here: walked as its own mount */
	t->scripts++;
	if (w->concurrent) {
		w->on_script(w->ctx, pm, path, fd, &stx);
	} else {
		pthread_mutex_lock(&w->pool->lock);
		w->on_script(w->ctx, pm, path, fd, &stx);
		pthread_mutex_unlock(&w->pool->lock);
	}
out:
	if (r)
		pc_ring_close(r, fd);
	else
		close(fd);
}

void pc_visit_file(struct pc_walk *w, struct pc_mount *pm, int dirfd,
		   const char *name, bool by_name, const char *path,
		   struct pc_tally *t)
{
	int fd, sb;

	t->files++;
	fd = open_file(dirfd, name);
	if (fd < 0) {
		if (errno == ENOENT) {
			PC_ADD(pm->vanished, 1);
		} else if (errno != ELOOP && errno != ENXIO) {
			/* ELOOP/ENXIO: replaced by a symlink/socket meanwhile */
			PC_ADD(pm->errors, 1);
			pc_walk_problem(w, path, "cannot open", errno);
		}
		return;
	}
	if (!by_name) {
		/* only the first two bytes, and only when the name does not decide */
		sb = pc_interp_shebang(fd);
		if (sb < 0 && errno != ESPIPE && errno != EISDIR) {
			PC_ADD(pm->errors, 1);
			pc_walk_problem(w, path, "cannot read", errno);
		}
		if (sb <= 0) {
			close(fd);
			return;
		}
	}
	script_found(w, pm, fd, path, t, NULL);
}

/*
 * The regular files of a directory are looked at in batches through a
 * per-thread io_uring: one submission opens a batch, one reads the first
 * two bytes of those whose name does not tell, and the closes ride along
 * with the next batch's opens. The kernel does the same openat, pread and
 * close as the plain path above, with a system call per batch instead of
 * three per file (the three were 77% of the CPU time of a check; the
 * plain open and close of the files whose name tells, 8% more). An open
 * or read error goes to the plain path, pc_visit_file() (re-opened, so
 * errors are counted and reported exactly as there); a script (by name, or
 * "#!") to script_found() with the fd kept. No io_uring (old kernel,
 * seccomp, io_uring_disabled): the plain path.
 */

/* The plain path for batch entry @name, with its path for the messages. */
static void visit_plain(struct pc_walk *w, struct pc_mount *pm, int dirfd,
			const char *name, bool by_name,
			struct pc_pathbuf *path, struct pc_tally *t)
{
	size_t saved;

	if (pc_path_push(path, name, &saved) < 0) {
		PC_ADD(pm->errors, 1);
		pc_walk_problem(w, path->s, "cannot walk", ENOMEM);
		return;
	}
	pc_visit_file(w, pm, dirfd, name, by_name, path->s, t);
	pc_path_pop(path, saved);
}

void pc_visit_batch(struct pc_walk *w, struct pc_mount *pm, int dirfd,
		    struct pc_pathbuf *path, struct pc_batch *b,
		    struct pc_tally *t)
{
	struct pc_ring *r = pc_walk_ring;
	int fds[PC_RING_BATCH], got[PC_RING_BATCH];
	char head[PC_RING_BATCH][2];
	unsigned int n = b->n;
	bool ok;

	b->n = 0;
	if (!r) {
		/* the thread's ring failed in a subdirectory meanwhile */
		for (unsigned int i = 0; i < n; i++)
			visit_plain(w, pm, dirfd, b->name[i], b->by_name[i],
				    path, t);
		return;
	}
	ok = true;
	for (unsigned int i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = ok ? pc_ring_sqe(r, i) : NULL;

		fds[i] = got[i] = PC_RING_NO_RESULT;
		if (!sqe) {
			ok = false;
			continue;
		}
		io_uring_prep_openat(sqe, dirfd, b->name[i],
				     OPEN_FLAGS | O_NOATIME, 0);
	}
	if (pc_ring_run(r, fds) < 0)
		ok = false;
	for (unsigned int i = 0; ok && i < n; i++) {
		struct io_uring_sqe *sqe;

		if (fds[i] < 0 || b->by_name[i])
			continue; /* the name decides: nothing to read */
		sqe = pc_ring_sqe(r, i);
		if (!sqe) {
			ok = false;
			break;
		}
		io_uring_prep_read(sqe, fds[i], head[i], 2, 0);
	}
	if (r->queued && pc_ring_run(r, got) < 0)
		ok = false;
	for (unsigned int i = 0; i < n; i++) {
		bool script = b->by_name[i] ||
			      (got[i] == 2 && head[i][0] == '#' &&
			       head[i][1] == '!');

		if (ok && fds[i] >= 0 && got[i] >= 0 && !script) {
			/* not a script: closed with the next batch's opens */
			t->files++;
			pc_ring_close(r, fds[i]);
			continue;
		}
		if (ok && fds[i] >= 0 && script) {
			size_t saved;

			/* by name, or "#!": a script, open at fds[i] */
			t->files++;
			if (pc_path_push(path, b->name[i], &saved) < 0) {
				PC_ADD(pm->errors, 1);
				pc_walk_problem(w, path->s, "cannot walk", ENOMEM);
				close(fds[i]);
				continue;
			}
			script_found(w, pm, fds[i], path->s, t, r);
			pc_path_pop(path, saved);
			continue;
		}
		/* an error, or the ring failed: the plain path, from the start */
		if (fds[i] >= 0)
			close(fds[i]);
		visit_plain(w, pm, dirfd, b->name[i], b->by_name[i], path, t);
	}
	if (!ok) {
		/* the ring is unusable: this thread goes on without it */
		pc_ring_free(r);
		pc_walk_ring = NULL;
	}
}
