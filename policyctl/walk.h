/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The walker: visits one mount's tree below a starting directory without
 * ever crossing into another mount (every directory's STATX_MNT_ID must be
 * the mount's id; a different id is another mount's root, walked on its own)
 * and hands every interpreted file (interp.h) to a callback, open read-only.
 * Symbolic links are never followed. Unreadable directories and entries that
 * vanish during the walk are counted in the mount's counters, never fatal.
 *
 * Several threads walk one mount together (pool.h): each goes depth first
 * with its own path buffer, and keeps a few subdirectories (eight per
 * thread) queued in a small shared stack for threads that run out of work,
 * so memory grows with the depth, not with the number of files. The
 * callback is called with the walk's lock held (one at a time), unless the
 * caller sets .concurrent: then each thread calls it on its own, without
 * any lock, so its I/O (xattrs, ...) runs in parallel, and it must be
 * thread-safe.
 *
 * The walk draws nothing: a caller that shows progress sets .on_progress,
 * which gets the running totals now and then (walk.c, walk_visit.c; the
 * io_uring in ring.h).
 *
 * Regular files are opened (and, when their name does not make them
 * interpreted, their first two bytes read) in batches through a per-thread
 * io_uring where the kernel offers one (the same openat/pread/close, one
 * system call per batch); any error is redone by plain system calls, so
 * counts and problems are the same either way. A batch is opened at once:
 * a file removed after that, while an earlier one is handed over, is still
 * handed over (it existed when opened), where the plain path counts it as
 * vanished. POLICYCTL_NO_IO_URING=1 in the environment forces the plain
 * system calls (tests compare both).
 */
#ifndef PC_WALK_H
#define PC_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "mounts.h"

struct pc_pool;

/*
 * Called for each interpreted file: @path is the full path, @fd an O_RDONLY
 * descriptor of it (closed by the walker afterwards), @stx its statx
 * (type, mode, uid, gid, ino, mnt_id).
 */
typedef void (*pc_script_fn)(void *ctx, struct pc_mount *pm, const char *path,
			     int fd, const struct statx *stx);

#define PC_WALK_MAX_PROBLEMS 20

struct pc_walk {
	pc_script_fn on_script;
	void *ctx;
	/* absolute, canonical paths whose trees are skipped */
	char **excludes;
	size_t nexcludes;
	/*
	 * optional: called every 1024 directory entries met, one thread at a
	 * time and only when the walk's lock is free at once, with the
	 * totals so far (dirs, files, scripts) and the path just reached
	 */
	void (*on_progress)(void *progress_ctx, const struct pc_walk *w,
			    const char *where);
	void *progress_ctx;
	/* walker threads; 0: one per online CPU, at most 8 */
	unsigned int threads;
	/* on_script is thread-safe: call it without the walk's lock */
	bool concurrent;
	/* out: totals and the first few problem paths for the report */
	unsigned long long dirs, files, scripts;
	char *problems[PC_WALK_MAX_PROBLEMS];
	size_t nproblems;
	unsigned long long nproblems_total;
	/* private */
	unsigned long long tick;
	struct pc_pool *pool;
};

/*
 * Walk mount @pm from @start (a directory or a file on that mount; NULL
 * means the mount point). Returns 0, or -1 when @start itself cannot be
 * opened or is not on @pm (the reason is recorded as a problem).
 */
int pc_walk_mount(struct pc_walk *w, struct pc_mount *pm, const char *start);

void pc_walk_free(struct pc_walk *w);

#endif /* PC_WALK_H */
