/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What walk.c (the directories) and walk_visit.c (the files in them) share
 * inside the walker; not for its callers, who use walk.h.
 */
#ifndef PC_WALK_PRIV_H
#define PC_WALK_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "ring.h"
#include "walk.h"

/* What the walker asks statx() about a file it hands over. */
#define PC_WALK_STX_MASK (STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID | \
			  STATX_INO | STATX_MNT_ID)

#define PC_ADD(var, n) __atomic_fetch_add(&(var), (n), __ATOMIC_RELAXED)

/* A thread's path: the directory it is in, then the entry it looks at. */
struct pc_pathbuf {
	char *s;
	size_t len, cap;
};

/* Append "/@name"; the old length goes to @saved. 0, or -1 (no memory). */
int pc_path_push(struct pc_pathbuf *p, const char *name, size_t *saved);
void pc_path_pop(struct pc_pathbuf *p, size_t saved);

/*
 * One thread's counts for the directory it reads, added to the shared
 * totals once per directory rather than per file (the shared counters
 * would otherwise bounce between the CPUs on every file).
 */
struct pc_tally {
	unsigned long long files, scripts;
};

void pc_tally_flush(struct pc_walk *w, struct pc_mount *pm,
		    struct pc_tally *t);

/* Record a problem for the report; the caller holds no lock. */
void pc_walk_problem(struct pc_walk *w, const char *path, const char *what,
		     int err);

/* The thread's io_uring, NULL when it has none (or it failed). */
extern _Thread_local struct pc_ring *pc_walk_ring;

/* Regular files of one directory waiting for the thread's io_uring. */
struct pc_batch {
	unsigned int n;
	const char *name[PC_RING_BATCH];
	bool by_name[PC_RING_BATCH];
};

/*
 * A regular file @name in @dirfd, at @path (@by_name:
 * pc_interp_by_name(@name)): is it a script? then hand it over.
 */
void pc_visit_file(struct pc_walk *w, struct pc_mount *pm, int dirfd,
		   const char *name, bool by_name, const char *path,
		   struct pc_tally *t);

/* Look at the batched regular files of @dirfd (at @path); empties @b. */
void pc_visit_batch(struct pc_walk *w, struct pc_mount *pm, int dirfd,
		    struct pc_pathbuf *path, struct pc_batch *b,
		    struct pc_tally *t);

#endif /* PC_WALK_PRIV_H */
