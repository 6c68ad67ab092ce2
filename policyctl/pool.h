/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The worker pool of a walk: a few threads share a small stack of open
 * directories; each thread takes one, works on it (the pool's work
 * callback), and may offer subdirectories it meets back to the stack for
 * threads that run out of work. The pool ends when every thread is idle
 * and the stack is empty. It knows nothing about what the work is.
 */
#ifndef PC_POOL_H
#define PC_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define PC_POOL_MAX_THREADS 8

/* An open directory and its path, waiting for a thread. */
struct pc_pool_item {
	int fd;
	char *path;
};

struct pc_pool {
	/* in: called by every thread, without the lock */
	void (*work)(void *ctx, int fd, const char *path);
	/* in, optional: called once by each thread before/after its work */
	void (*thread_start)(void *ctx);
	void (*thread_end)(void *ctx);
	void *ctx;
	/* the stack, idle, done; also taken by the work to serialise */
	pthread_mutex_t lock;
	/* private */
	pthread_cond_t cond;
	struct pc_pool_item *stack;
	size_t n, cap;
	unsigned int threads, idle;
	bool done;
};

/* Set up the lock; a pool that is never run is only a lock. */
void pc_pool_init(struct pc_pool *pl);
void pc_pool_destroy(struct pc_pool *pl);

/*
 * Run @threads threads (0: one per online CPU; at most
 * PC_POOL_MAX_THREADS; the calling thread is one of them) from directory
 * @fd at @path until all work is done. Takes @fd (closed when done).
 * Returns 0, or -1 (errno ENOMEM) when the first item cannot be made.
 */
int pc_pool_run(struct pc_pool *pl, unsigned int threads, int fd,
		const char *path);

/*
 * Offer directory @fd at @path to an idle thread. True when queued (the
 * pool takes @fd); false when the caller should walk it itself.
 */
bool pc_pool_offer(struct pc_pool *pl, int fd, const char *path);

#endif /* PC_POOL_H */
