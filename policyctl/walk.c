// SPDX-License-Identifier: GPL-2.0-or-later
/* Mount-bounded parallel tree walker; see walk.h. */
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <liburing.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "interp.h"

#define DENTS_BUF (64 * 1024)
#define STX_MASK (STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID | \
		  STATX_INO | STATX_MNT_ID)
#define MAX_THREADS 8

/* A directory handed from a busy thread to an idle one. */
struct item {
	int fd;
	char *path;
};

struct pc_walk_pool {
	pthread_mutex_t lock; /* the stack, idle, problems, callback */
	pthread_cond_t cond;
	struct item *stack;
	size_t n, cap;
	unsigned int threads, idle;
	bool done;
	bool no_uring; /* POLICYCTL_NO_IO_URING set: plain system calls */
	struct pc_mount *pm;
};

struct pathbuf {
	char *s;
	size_t len, cap;
};

#define ADD(var, n) __atomic_fetch_add(&(var), (n), __ATOMIC_RELAXED)

/*
 * One thread's counts for the directory it reads, added to the shared
 * totals once per directory rather than per file (the shared counters
 * would otherwise bounce between the CPUs on every file).
 */
struct tally {
	unsigned long long files, scripts;
};

static void tally_flush(struct pc_walk *w, struct pc_mount *pm,
			struct tally *t)
{
	if (t->files) {
		ADD(w->files, t->files);
		ADD(pm->files, t->files);
	}
	if (t->scripts) {
		ADD(w->scripts, t->scripts);
		ADD(pm->scripts, t->scripts);
	}
	t->files = t->scripts = 0;
}

static int path_push(struct pathbuf *p, const char *name, size_t *saved)
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

static void path_pop(struct pathbuf *p, size_t saved)
{
	p->len = saved;
	p->s[saved] = '\0';
}

/* Record a problem; caller holds no lock. */
static void problem(struct pc_walk *w, const char *path, const char *what,
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
	if (w->nproblems < PC_WALK_MAX_PROBLEMS && (line = malloc(n))) {
		snprintf(line, n, "%s%s", path, buf);
		w->problems[w->nproblems++] = line;
	}
	if (w->pool)
		pthread_mutex_unlock(&w->pool->lock);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull +
	       (unsigned long long)ts.tv_nsec;
}

static void progress(struct pc_walk *w, const char *where)
{
	unsigned long long t;
	char shown[64];

	if (!w->progress || (ADD(w->tick, 1) & 1023))
		return;
	if (pthread_mutex_trylock(&w->pool->lock))
		return;
	t = now_ns();
	if (!w->last_progress_ns) {
		w->last_progress_ns = t; /* nothing drawn for short walks */
	} else if (t - w->last_progress_ns >= 250000000ull) {
		w->last_progress_ns = t;
		w->progress_drawn = true;
		tf_escape_term(where, strlen(where), shown, sizeof(shown));
		fprintf(stderr, "\r\033[K%llu dirs, %llu files, %llu scripts: %s",
			w->dirs, w->files, w->scripts, shown);
	}
	pthread_mutex_unlock(&w->pool->lock);
}

void pc_walk_progress_done(struct pc_walk *w)
{
	if (w->progress && w->progress_drawn)
		fprintf(stderr, "\r\033[K");
}

static bool excluded(const struct pc_walk *w, const char *path)
{
	for (size_t i = 0; i < w->nexcludes; i++)
		if (strcmp(w->excludes[i], path) == 0)
			return true;
	return false;
}

/* Open a regular file without following links, atime untouched if we can. */
static int open_file(int dirfd, const char *name)
{
	int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	int fd = openat(dirfd, name, flags | O_NOATIME);

	if (fd < 0 && errno == EPERM)
		fd = openat(dirfd, name, flags);
	return fd;
}

struct uring;
static void script_found(struct pc_walk *w, struct pc_mount *pm, int fd,
			 const char *path, struct tally *t, struct uring *r);

/*
 * A regular file @name in @dirfd (@by_name: pc_interp_by_name(@name)): is
 * it a script? then hand it over.
 */
static void visit_file(struct pc_walk *w, struct pc_mount *pm, int dirfd,
		       const char *name, bool by_name, const char *path,
		       struct tally *t)
{
	int fd, sb;

	t->files++;
	fd = open_file(dirfd, name);
	if (fd < 0) {
		if (errno == ENOENT) {
			ADD(pm->vanished, 1);
		} else if (errno != ELOOP && errno != ENXIO) {
			/* ELOOP/ENXIO: replaced by a symlink/socket meanwhile */
			ADD(pm->errors, 1);
			problem(w, path, "cannot open", errno);
		}
		return;
	}
	if (!by_name) {
		/* only the first two bytes, and only when the name does not decide */
		sb = pc_interp_shebang(fd);
		if (sb < 0 && errno != ESPIPE && errno != EISDIR) {
			ADD(pm->errors, 1);
			problem(w, path, "cannot read", errno);
		}
		if (sb <= 0) {
			close(fd);
			return;
		}
	}
	script_found(w, pm, fd, path, t, NULL);
}

static void uring_close(struct uring *r, int fd);

/*
 * @fd (open, closed here: with @r's next submission when @r is set) is an
 * interpreted file: stat it, hand it over.
 */
static void script_found(struct pc_walk *w, struct pc_mount *pm, int fd,
			 const char *path, struct tally *t, struct uring *r)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STX_MASK, &stx) < 0) {
		ADD(pm->errors, 1);
		problem(w, path, "cannot stat", errno);
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
		uring_close(r, fd);
	else
		close(fd);
}

/*
 * The regular files of a directory are looked at in batches through a
 * per-thread io_uring: one submission opens a batch, one reads the first
 * two bytes of those whose name does not tell, and the closes ride along
 * with the next batch's opens. The kernel does the same openat, pread and
 * close as the plain path below, with a system call per batch instead of
 * three per file (the three were 77% of the CPU time of a check; the
 * plain open and close of the files whose name tells, 8% more). An open
 * or read error goes to the plain path, visit_file() (re-opened, so errors
 * are counted and reported exactly as there); a script (by name, or "#!")
 * to script_found() with the fd kept. No io_uring (old kernel, seccomp,
 * io_uring_disabled): the plain path.
 */
#define BATCH 32
#define RING_ENTRIES (2 * BATCH) /* a batch's opens + the last one's closes */
#define CLOSE_TAG UINT64_MAX
#define NO_RESULT INT_MIN

/* A thread's ring, and how many of its requests await their results. */
struct uring {
	struct io_uring ring;
	unsigned int queued;
};

static _Thread_local struct uring *tl_ring;

static struct uring *uring_new(void)
{
	static const unsigned int flags[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, 0,
	};
	struct uring *r = calloc(1, sizeof(*r));
	struct io_uring_params p;

	if (!r)
		return NULL;
	/* the first flags need Linux 6.1; older kernels refuse them */
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		memset(&p, 0, sizeof(p));
		p.flags = flags[i];
		if (io_uring_queue_init_params(RING_ENTRIES, &r->ring, &p) == 0)
			return r;
	}
	free(r);
	return NULL;
}

/* A request of @r tagged @data; NULL if the ring is full (never expected). */
static struct io_uring_sqe *uring_sqe(struct uring *r, uint64_t data)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);

	if (sqe) {
		io_uring_sqe_set_data64(sqe, data);
		r->queued++;
	}
	return sqe;
}

/* Close @fd with the ring's next submission, or now if the ring is full. */
static void uring_close(struct uring *r, int fd)
{
	struct io_uring_sqe *sqe = uring_sqe(r, CLOSE_TAG);

	if (sqe)
		io_uring_prep_close(sqe, fd);
	else
		close(fd);
}

/*
 * Submit what is queued and wait for all of it; each result goes to
 * res[user_data] (closes: dropped). 0, or -1 when the ring failed (results
 * not received stay NO_RESULT; a file whose open was in flight then stays
 * open until the process exits).
 */
static int uring_run(struct uring *r, int *res)
{
	unsigned int want = r->queued, got = 0;

	r->queued = 0;
	while (got < want) {
		struct io_uring_cqe *c;
		unsigned int head, n = 0;
		int ret;

		io_uring_for_each_cqe(&r->ring, head, c) {
			if (c->user_data != CLOSE_TAG)
				res[c->user_data] = c->res;
			n++;
		}
		io_uring_cq_advance(&r->ring, n);
		got += n;
		if (got >= want)
			break;
		ret = io_uring_submit_and_wait(&r->ring, want - got);
		/*
		 * EAGAIN/EBUSY (no memory for requests) or worse: give up on
		 * the ring; the plain path redoes what it had not done.
		 */
		if (ret < 0 && ret != -EINTR)
			return -1;
	}
	return 0;
}

/* Submit the closes still queued (the thread's walk is over). */
static void uring_free(struct uring *r)
{
	int none[1];

	if (!r)
		return;
	if (r->queued)
		uring_run(r, none);
	io_uring_queue_exit(&r->ring);
	free(r);
}

struct batch {
	unsigned int n;
	const char *name[BATCH];
	bool by_name[BATCH];
};

/* The plain path for batch entry @name, with its path for the messages. */
static void visit_plain(struct pc_walk *w, struct pc_mount *pm, int dirfd,
			const char *name, bool by_name, struct pathbuf *path,
			struct tally *t)
{
	size_t saved;

	if (path_push(path, name, &saved) < 0) {
		ADD(pm->errors, 1);
		problem(w, path->s, "cannot walk", ENOMEM);
		return;
	}
	visit_file(w, pm, dirfd, name, by_name, path->s, t);
	path_pop(path, saved);
}

/* Look at the batched regular files of @dirfd; empties @b. */
static void batch_run(struct pc_walk *w, struct pc_mount *pm, int dirfd,
		      struct pathbuf *path, struct batch *b, struct tally *t)
{
	struct uring *r = tl_ring;
	int fds[BATCH], got[BATCH];
	char head[BATCH][2];
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
		struct io_uring_sqe *sqe = ok ? uring_sqe(r, i) : NULL;

		fds[i] = got[i] = NO_RESULT;
		if (!sqe) {
			ok = false;
			continue;
		}
		io_uring_prep_openat(sqe, dirfd, b->name[i],
				     O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
				     O_CLOEXEC | O_NOCTTY | O_NOATIME, 0);
	}
	if (uring_run(r, fds) < 0)
		ok = false;
	for (unsigned int i = 0; ok && i < n; i++) {
		struct io_uring_sqe *sqe;

		if (fds[i] < 0 || b->by_name[i])
			continue; /* the name decides: nothing to read */
		sqe = uring_sqe(r, i);
		if (!sqe) {
			ok = false;
			break;
		}
		io_uring_prep_read(sqe, fds[i], head[i], 2, 0);
	}
	if (r->queued && uring_run(r, got) < 0)
		ok = false;
	for (unsigned int i = 0; i < n; i++) {
		bool script = b->by_name[i] ||
			      (got[i] == 2 && head[i][0] == '#' &&
			       head[i][1] == '!');

		if (ok && fds[i] >= 0 && got[i] >= 0 && !script) {
			/* not a script: closed with the next batch's opens */
			t->files++;
			uring_close(r, fds[i]);
			continue;
		}
		if (ok && fds[i] >= 0 && script) {
			size_t saved;

			/* by name, or "#!": a script, open at fds[i] */
			t->files++;
			if (path_push(path, b->name[i], &saved) < 0) {
				ADD(pm->errors, 1);
				problem(w, path->s, "cannot walk", ENOMEM);
				close(fds[i]);
				continue;
			}
			script_found(w, pm, fds[i], path->s, t, r);
			path_pop(path, saved);
			continue;
		}
		/* an error, or the ring failed: the plain path, from the start */
		if (fds[i] >= 0)
			close(fds[i]);
		visit_plain(w, pm, dirfd, b->name[i], b->by_name[i], path, t);
	}
	if (!ok) {
		/* the ring is unusable: this thread goes on without it */
		uring_free(r);
		tl_ring = NULL;
	}
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
static bool donate(struct pc_walk *w, int fd, const char *path)
{
	struct pc_walk_pool *pl = w->pool;
	unsigned int threads = __atomic_load_n(&pl->threads, __ATOMIC_RELAXED);
	size_t limit = (size_t)threads * QUEUE_AHEAD;
	bool taken = false;

	if (threads < 2 || __atomic_load_n(&pl->n, __ATOMIC_RELAXED) >= limit)
		return false;
	pthread_mutex_lock(&pl->lock);
	if (pl->n < limit) {
		if (pl->n == pl->cap) {
			size_t cap = pl->cap ? pl->cap * 2 : 16;
			struct item *s = realloc(pl->stack, cap * sizeof(*s));

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

static void walk_dir(struct pc_walk *w, struct pc_mount *pm, int fd,
		     struct pathbuf *path)
{
	char *buf = malloc(DENTS_BUF);
	struct tally t = { 0 };
	struct batch b;
	ssize_t n;

	ADD(w->dirs, 1);
	ADD(pm->dirs, 1);
	if (!buf) {
		ADD(pm->errors, 1);
		problem(w, path->s, "cannot walk", ENOMEM);
		return;
	}
	b.n = 0;
	while ((n = getdents64(fd, buf, DENTS_BUF)) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			unsigned char type = d->d_type;
			const char *name = d->d_name;
			size_t saved;

			off += d->d_reclen;
			if (name[0] == '.' && (!name[1] ||
					       (name[1] == '.' && !name[2])))
				continue;
			if (type != DT_DIR && type != DT_REG &&
			    type != DT_UNKNOWN)
				continue;
			if (path_push(path, name, &saved) < 0) {
				ADD(pm->errors, 1);
				problem(w, path->s, "cannot walk", ENOMEM);
				continue;
			}
			progress(w, path->s);
			if (w->nexcludes && excluded(w, path->s)) {
				path_pop(path, saved);
				continue;
			}
			if (type == DT_UNKNOWN) {
				struct statx stx;

				if (statx(fd, name, AT_SYMLINK_NOFOLLOW,
					  STATX_TYPE, &stx) < 0) {
					if (errno == ENOENT)
						ADD(pm->vanished, 1);
					path_pop(path, saved);
					continue;
				}
				type = S_ISDIR(stx.stx_mode) ? DT_DIR :
				       S_ISREG(stx.stx_mode) ? DT_REG : DT_UNKNOWN;
			}
			if (type == DT_REG && tl_ring) {
				/* the names point into buf: run before it is reused */
				b.by_name[b.n] = pc_interp_by_name(name);
				b.name[b.n++] = name;
				path_pop(path, saved);
				if (b.n == BATCH)
					batch_run(w, pm, fd, path, &b, &t);
				continue;
			} else if (type == DT_REG) {
				visit_file(w, pm, fd, name, pc_interp_by_name(name),
					   path->s, &t);
			} else if (type == DT_DIR) {
				int sub = openat(fd, name, O_RDONLY | O_DIRECTORY |
						 O_NOFOLLOW | O_CLOEXEC);
				struct statx stx;

				if (sub < 0) {
					if (errno == ENOENT || errno == ENOTDIR ||
					    errno == ELOOP) {
						ADD(pm->vanished, 1);
					} else {
						ADD(pm->unreadable_dirs, 1);
						problem(w, path->s, "unreadable directory",
							errno);
					}
				} else if (statx(sub, "", AT_EMPTY_PATH, STATX_MNT_ID,
						 &stx) < 0 ||
					   stx.stx_mnt_id != pm->m->mnt_id) {
					close(sub); /* another mount's root */
				} else if (!donate(w, sub, path->s)) {
					/* counts stay current for progress */
					tally_flush(w, pm, &t);
					walk_dir(w, pm, sub, path);
					close(sub);
				}
			}
			path_pop(path, saved);
		}
		if (b.n)
			batch_run(w, pm, fd, path, &b, &t);
	}
	tally_flush(w, pm, &t);
	if (n < 0) {
		if (errno == ENOENT) {
			ADD(pm->vanished, 1); /* directory removed while read */
		} else {
			ADD(pm->unreadable_dirs, 1);
			problem(w, path->s, "unreadable directory", errno);
		}
	}
	free(buf);
}

static void walk_one(struct pc_walk *w, struct pc_mount *pm, int fd,
		     const char *start)
{
	struct pathbuf path = { 0 };
	size_t saved;

	if (path_push(&path, start, &saved) < 0) {
		ADD(pm->errors, 1);
		problem(w, start, "cannot walk", ENOMEM);
		return;
	}
	walk_dir(w, pm, fd, &path);
	free(path.s);
}

static void *worker_main(void *arg)
{
	struct pc_walk *w = arg;
	struct pc_walk_pool *pl = w->pool;
	struct item it;

	tl_ring = pl->no_uring ? NULL : uring_new();
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
		walk_one(w, pl->pm, it.fd, it.path);
		close(it.fd);
		free(it.path);
		pthread_mutex_lock(&pl->lock);
	}
	pthread_mutex_unlock(&pl->lock);
	uring_free(tl_ring);
	tl_ring = NULL;
	return NULL;
}

static unsigned int thread_count(const struct pc_walk *w)
{
	long n = w->threads ? (long)w->threads : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (unsigned int)n;
}

/* Walk the directory open at @fd with a pool of threads; takes @fd. */
static void walk_pool(struct pc_walk *w, struct pc_mount *pm, int fd,
		      const char *root)
{
	struct pc_walk_pool pl = { .pm = pm };
	pthread_t tids[MAX_THREADS];
	const char *no_uring = getenv("POLICYCTL_NO_IO_URING");
	unsigned int started = 0, n = thread_count(w);

	pthread_mutex_init(&pl.lock, NULL);
	pthread_cond_init(&pl.cond, NULL);
	pl.stack = malloc(sizeof(*pl.stack));
	if (pl.stack)
		pl.stack[0].path = strdup(root);
	if (!pl.stack || !pl.stack[0].path) {
		ADD(pm->errors, 1);
		problem(w, root, "cannot walk", ENOMEM);
		free(pl.stack);
		close(fd);
		return;
	}
	pl.stack[0].fd = fd;
	pl.n = pl.cap = 1;
	pl.no_uring = no_uring && *no_uring;
	w->pool = &pl;
	/* started threads count; the calling thread is one of them */
	pl.threads = n;
	for (unsigned int i = 1; i < n; i++) {
		if (pthread_create(&tids[started], NULL, worker_main, w) != 0)
			break;
		started++;
	}
	if (started + 1 != n) {
		pthread_mutex_lock(&pl.lock);
		pl.threads = started + 1;
		pthread_mutex_unlock(&pl.lock);
	}
	worker_main(w);
	for (unsigned int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	w->pool = NULL;
	free(pl.stack);
	pthread_cond_destroy(&pl.cond);
	pthread_mutex_destroy(&pl.lock);
}

/* A single file given as the start: visit it alone. */
static void walk_file(struct pc_walk *w, struct pc_mount *pm, const char *root)
{
	struct pc_walk_pool pl = { .pm = pm, .threads = 1 };
	struct tally t = { 0 };
	const char *slash = strrchr(root, '/');
	char *dir = slash ? strndup(root, (size_t)(slash - root) + 1) : strdup(".");
	int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	pthread_mutex_init(&pl.lock, NULL);
	w->pool = &pl;
	if (dfd >= 0) {
		const char *name = slash ? slash + 1 : root;

		visit_file(w, pm, dfd, name, pc_interp_by_name(name), root, &t);
		tally_flush(w, pm, &t);
		close(dfd);
	} else {
		ADD(pm->errors, 1);
		problem(w, root, "cannot open its directory", errno);
	}
	w->pool = NULL;
	pthread_mutex_destroy(&pl.lock);
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
		problem(w, root, "cannot open", errno);
		return -1;
	}
	if (statx(fd, "", AT_EMPTY_PATH, STX_MASK, &stx) < 0) {
		pm->errors++;
		problem(w, root, "cannot stat", errno);
		close(fd);
		return -1;
	}
	if (stx.stx_mnt_id != pm->m->mnt_id) {
		problem(w, root, "not reachable (another mount sits on it)",
			EBUSY);
		close(fd);
		return -1;
	}
	if (S_ISDIR(stx.stx_mode)) {
		walk_pool(w, pm, fd, root);
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
