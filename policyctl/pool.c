// SPDX-License-Identifier: GPL-2.0-or-later
/* The worker pool of a walk; see pool.h. */
#include "pool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void pc_pool_init(struct pc_pool *pl)
{
	pthread_mutex_init(&pl->lock, NULL);
	pthread_cond_init(&pl->cond, NULL);
	pl->threads = 1;
}

void pc_pool_destroy(struct pc_pool *pl)
{
	free(pl->stack);
	pl->stack = NULL;
	pthread_cond_destroy(&pl->cond);
	pthread_mutex_destroy(&pl->lock);
}

/*
 * Queue @fd/@path for any thread while fewer than QUEUE_AHEAD directories
 * per thread wait; true when taken. Keeping some queued ahead means a
 * thread that finishes a directory takes the next at once, instead of
 * sleeping until a busy thread meets its next subdirectory. Two per thread
 * were not enough on a loaded machine: while the thread that queues them
 * was preempted the other used up the queued leaf directories (0.3 ms
 * each) and slept, 0.7 to 1.1 s of a 4 s check of 300000 files at load 8.
 * Eight per thread: no such sleep. Each holds a directory fd.
 */
#define QUEUE_AHEAD 8
bool pc_pool_offer(struct pc_pool *pl, int fd, const char *path)
{
	unsigned int threads = __atomic_load_n(&pl->threads, __ATOMIC_RELAXED);
	size_t limit = (size_t)threads * QUEUE_AHEAD;
	bool taken = false;

	if (threads < 2 || __atomic_load_n(&pl->n, __ATOMIC_RELAXED) >= limit)
		return false;
	pthread_mutex_lock(&pl->lock);
	if (pl->n < limit) {
		if (pl->n == pl->cap) {
			size_t cap = pl->cap ? pl->cap * 2 : 16;
			struct pc_pool_item *s = realloc(pl->stack, cap * sizeof(*s));

			if (!s)
				goto out;
			pl->stack = s;
			pl->cap = cap;
		}
		char *copy = strdup(path);

		if (!copy)
			goto out;
		pl->stack[pl->n].fd = fd;
		pl->stack[pl->n++].path = copy;
		if (pl->idle)
			pthread_cond_signal(&pl->cond);
		taken = true;
	}
out:
	pthread_mutex_unlock(&pl->lock);
	return taken;
}

static void *worker_main(void *arg)
{
	struct pc_pool *pl = arg;
	struct pc_pool_item it;

	if (pl->thread_start)
		pl->thread_start(pl->ctx);
	pthread_mutex_lock(&pl->lock);
	for (;;) {
		while (!pl->n && !pl->done) {
			if (++pl->idle == pl->threads) {
				/* everyone is idle and nothing is left */
				pl->done = true;
				pthread_cond_broadcast(&pl->cond);
				break;
			}
			pthread_cond_wait(&pl->cond, &pl->lock);
			pl->idle--;
		}
		if (!pl->n)
			break;
		it = pl->stack[--pl->n];
		pthread_mutex_unlock(&pl->lock);
		pl->work(pl->ctx, it.fd, it.path);
		close(it.fd);
		free(it.path);
		pthread_mutex_lock(&pl->lock);
	}
	pthread_mutex_unlock(&pl->lock);
	if (pl->thread_end)
		pl->thread_end(pl->ctx);
	return NULL;
}

static unsigned int thread_count(unsigned int want)
{
	long n = want ? (long)want : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > PC_POOL_MAX_THREADS ? PC_POOL_MAX_THREADS :
						    (unsigned int)n;
}

int pc_pool_run(struct pc_pool *pl, unsigned int threads, int fd,
		const char *path)
{
	pthread_t tids[PC_POOL_MAX_THREADS];
	unsigned int started = 0, n = thread_count(threads);

	pl->stack = malloc(sizeof(*pl->stack));
	if (pl->stack)
		pl->stack[0].path = strdup(path);
	if (!pl->stack || !pl->stack[0].path) {
		free(pl->stack);
		pl->stack = NULL;
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	pl->stack[0].fd = fd;
	pl->n = pl->cap = 1;
	/* started threads count; the calling thread is one of them */
	pl->threads = n;
	for (unsigned int i = 1; i < n; i++) {
		if (pthread_create(&tids[started], NULL, worker_main, pl) != 0)
			break;
		started++;
	}
	if (started + 1 != n) {
		pthread_mutex_lock(&pl->lock);
		pl->threads = started + 1;
		pthread_mutex_unlock(&pl->lock);
	}
	worker_main(pl);
	for (unsigned int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	return 0;
}
