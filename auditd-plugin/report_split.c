// SPDX-License-Identifier: GPL-2.0-or-later
/* The report's --input parsed by several processes; see report_split.h. */
#include "report_split.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "report_spool.h"

#define PROG "audisp-trusted-for report"
#define BLOCK (1u << 20) /* bytes read at a time */

/* The logs as one byte stream. */
struct stream {
	const int *fds;
	char **names;
	const off_t *sizes;
	int n;
	off_t total;
};

/*
 * Up to @len bytes of the stream from @off into @buf; the count, or -1
 * after a message.  Short only at the stream's end.
 */
static ssize_t stream_read(const struct stream *st, off_t off, char *buf, size_t len)
{
	size_t got = 0;
	off_t base = 0;

	for (int i = 0; i < st->n && got < len; base += st->sizes[i], i++) {
		while (got < len && off + (off_t)got < base + st->sizes[i]) {
			off_t at = off + (off_t)got - base;
			size_t want = len - got;
			ssize_t r;

			if ((off_t)want > st->sizes[i] - at)
				want = (size_t)(st->sizes[i] - at);
			r = pread(st->fds[i], buf + got, want, at);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				int e = r ? errno : EIO; /* a file that shrank */

				fprintf(stderr, PROG ": cannot read ");
				tf_fputs_escaped(st->names[i], stderr);
				fprintf(stderr, ": %s\n", strerror(e));
				return -1;
			}
			got += (size_t)r;
		}
	}
	return (ssize_t)got;
}

/* The first line start at or after @off (the stream's end when none); -1 on error. */
static off_t line_start(const struct stream *st, off_t off, char *buf)
{
	if (off <= 0)
		return 0;
	for (off_t at = off - 1; at < st->total;) {
		ssize_t r = stream_read(st, at, buf, BLOCK);
		const char *nl;

		if (r < 0)
			return -1;
		nl = memchr(buf, '\n', (size_t)r);
		if (nl)
			return at + (nl - buf) + 1;
		at += r;
	}
	return st->total;
}

/* Feed the stream's bytes [@from, @to) to @f. */
static int feed_range(struct ap_feed *f, const struct stream *st, off_t from, off_t to, char *buf)
{
	while (from < to) {
		size_t want = to - from < BLOCK ? (size_t)(to - from) : BLOCK;
		ssize_t r = stream_read(st, from, buf, want);

		if (r <= 0)
			return -1;
		ap_feed_bytes(f, buf, (size_t)r);
		from += r;
	}
	ap_feed_flush(f);
	return 0;
}

/* A worker: its range, its spool, its process. */
struct worker {
	off_t from, to;
	void *mem;
	size_t size;
	pid_t pid;
};

/*
 * Room for a range's spool: an entry holds the strings of its line, decoded
 * (never longer), a canonical reason and a device (at most 111 bytes) and
 * about 100 bytes of fixed fields and lengths; the shortest line that can be
 * counted has 37 bytes ("type=UNKNOWN[2650] msg=audit(1.1:1): ").  Six
 * times the range is more than enough; the memory is only reserved.
 */
static size_t spool_size(off_t len)
{
	return (size_t)len * 6 + (1u << 20);
}

/* The worker's process: parse its range into its spool, then exit. */
static _Noreturn void work(const struct worker *w, const struct stream *st,
			  const struct ap_filter *flt, char *buf)
{
	struct ap_agg counters; /* a feed that spools touches only its counters */
	struct ap_spool spool;
	struct ap_feed feed;
	int err = 0;

	memset(&counters, 0, sizeof(counters));
	if (ap_spool_init(&spool, w->mem, w->size))
		_exit(1);
	if (ap_feed_init(&feed, &counters, flt, 0)) {
		ap_spool_finish(&spool, &counters, ENOMEM);
		_exit(1);
	}
	ap_feed_offline(&feed);
	ap_feed_spool(&feed, &spool);
	if (feed_range(&feed, st, w->from, w->to, buf))
		err = EIO;
	ap_feed_free(&feed);
	ap_spool_finish(&spool, &counters, err);
	_exit(0);
}

static int start(struct worker *w, const struct stream *st, const struct ap_filter *flt,
		 char *buf)
{
	int fd = memfd_create("audisp-trusted-for-spool", MFD_CLOEXEC);

	w->size = spool_size(w->to - w->from);
	if (fd < 0 || ftruncate(fd, (off_t)w->size)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	w->mem = mmap(NULL, w->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
	close(fd);
	if (w->mem == MAP_FAILED) {
		w->mem = NULL;
		return -1;
	}
	/* the head zeroed before the worker runs: "not done" */
	memset(w->mem, 0, sizeof(struct ap_spool_head));
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0)
		return -1;
	if (w->pid == 0)
		work(w, st, flt, buf);
	return 0;
}

/* Count @w's spool into @agg as it fills; 0, or -1 after a message. */
static int replay(struct worker *w, struct ap_agg *agg)
{
	const struct ap_spool_head *head = w->mem;
	const unsigned char *data = (const unsigned char *)w->mem + sizeof(*head);
	struct timespec nap = { 0, 100000 };
	uint64_t at = 0;

	for (;;) {
		uint32_t done = __atomic_load_n(&head->done, __ATOMIC_ACQUIRE);
		uint64_t pub = __atomic_load_n(&head->published, __ATOMIC_ACQUIRE);
		int status;

		if (pub > at) {
			if (pub > w->size - sizeof(*head) ||
			    ap_spool_replay(data, (size_t)at, (size_t)pub, agg) < 0) {
				fprintf(stderr, PROG ": a parsing worker's records are damaged\n");
				return -1;
			}
			at = pub;
			continue;
		}
		if (done)
			break;
		if (waitpid(w->pid, &status, WNOHANG) == w->pid) {
			w->pid = 0;
			fprintf(stderr, PROG ": a parsing worker ended before its part of the logs (%s %d)\n",
				WIFSIGNALED(status) ? "signal" : "exit status",
				WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
			return -1;
		}
		nanosleep(&nap, NULL);
	}
	if (head->error) {
		fprintf(stderr, PROG ": a parsing worker failed: %s\n", strerror(head->error));
		return -1;
	}
	agg->bad_lines += head->bad_lines;
	agg->malformed += head->malformed;
	agg->not_denial += head->not_denial;
	return 0;
}

/*
 * Where the ranges end.  This process parses the first range and replays
 * the workers' spools, which costs about a fifth of parsing them (measured:
 * the aggregation's share of a pass); each worker parses and spools its own
 * range, a twentieth more.  Equal finishing times give the first range a
 * share p and each of the k other ones c, with p + k * c = 1 and
 * p + k * c / 5 = c * 21 / 20.
 */
static void plan(off_t total, unsigned int jobs, off_t *ends)
{
	unsigned int k = jobs - 1;
	double c = 1.0 / (1.05 + k * 0.8), p = 1.0 - k * c;

	for (unsigned int i = 0; i < jobs; i++)
		ends[i] = i + 1 == jobs ? total : (off_t)(total * (p + i * c));
}

unsigned int ap_split_auto_jobs(off_t total, long cpus)
{
	off_t parts = total / (off_t)AP_SPLIT_MIN_PART;

	if (total < (off_t)AP_SPLIT_MIN_BYTES || cpus < 2)
		return 1;
	if (cpus > parts)
		cpus = (long)parts;
	return cpus > (long)AP_SPLIT_MAX_JOBS ? AP_SPLIT_MAX_JOBS : (unsigned int)cpus;
}

int ap_report_read_split(struct ap_agg *agg, const struct ap_filter *flt, const int *fds,
			 char **names, int nfiles, unsigned int jobs)
{
	struct worker w[AP_SPLIT_MAX_JOBS];
	off_t ends[AP_SPLIT_MAX_JOBS];
	struct stream st = { fds, names, NULL, nfiles, 0 };
	unsigned int nw = 0;
	struct ap_feed feed;
	char *buf = NULL;
	bool automatic = jobs == 0;
	off_t *sizes = NULL;
	int rc = -1;
	off_t from;

	if (nfiles == 0 || (jobs < 2 && !automatic))
		return 1;
	sizes = calloc((size_t)nfiles, sizeof(*sizes));
	buf = malloc(BLOCK);
	if (!sizes || !buf) {
		fprintf(stderr, PROG ": out of memory\n");
		goto out;
	}
	st.sizes = sizes;
	for (int i = 0; i < nfiles; i++) {
		struct stat sb;

		if (fstat(fds[i], &sb) || !S_ISREG(sb.st_mode)) {
			rc = 1;
			goto out;
		}
		sizes[i] = sb.st_size;
		st.total += sb.st_size;
	}
	if (automatic) {
		jobs = ap_split_auto_jobs(st.total, sysconf(_SC_NPROCESSORS_ONLN));
		if (jobs < 2) {
			rc = 1;
			goto out;
		}
	}
	plan(st.total, jobs, ends);
	/* the ranges, each starting at a line: [0, end0), [end0, end1)... */
	for (unsigned int i = 0; i + 1 < jobs; i++) {
		ends[i] = line_start(&st, ends[i], buf);
		if (ends[i] < 0)
			goto out;
		if (i && ends[i] < ends[i - 1])
			ends[i] = ends[i - 1];
	}
	from = ends[0];
	for (unsigned int i = 1; i < jobs; i++) {
		if (ends[i] <= from) /* empty: a line longer than the range */
			continue;
		w[nw] = (struct worker){ .from = from, .to = ends[i] };
		from = ends[i];
		if (start(&w[nw], &st, flt, buf)) {
			fprintf(stderr, PROG ": cannot start a parsing worker: %s\n", strerror(errno));
			if (w[nw].mem)
				munmap(w[nw].mem, w[nw].size);
			goto out;
		}
		nw++;
	}
	if (ap_feed_init(&feed, agg, flt, 0)) {
		fprintf(stderr, PROG ": cannot start libauparse: %s\n", strerror(errno));
		goto out;
	}
	ap_feed_offline(&feed);
	rc = feed_range(&feed, &st, 0, ends[0], buf);
	ap_feed_free(&feed);
	for (unsigned int i = 0; i < nw && !rc; i++)
		rc = replay(&w[i], agg);
out:
	for (unsigned int i = 0; i < nw; i++) {
		if (w[i].pid > 0) {
			if (rc)
				kill(w[i].pid, SIGKILL);
			waitpid(w[i].pid, NULL, 0);
		}
		munmap(w[i].mem, w[i].size);
	}
	free(buf);
	free(sizes);
	return rc > 0 ? 1 : rc ? -1 : 0;
}
