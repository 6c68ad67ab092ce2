// SPDX-License-Identifier: GPL-2.0
/*
 * tf-stress: a bounded random-input stress of trusted_for(2) and of the
 * fs.trust_policy sysctl, for the debug kernel (tests/vm/cases/kernel-debug.sh).
 *
 * Several processes, each with several threads, make exactly -n calls of
 * syscall 451, trusted_for(fd, usage, flags), in all, with random fds of
 * many kinds (regular files on an exec and on a noexec tmpfs, with and
 * without execute bits, a directory, /dev/null, both ends of a pipe, a
 * socket, a memfd, a /proc file, O_PATH, O_WRONLY and access mode 3 fds,
 * closed, -1 and huge fd numbers, and a slot that another thread keeps
 * closing and replacing), random usages and random flags.  Meanwhile a
 * thread writes random values to /proc/sys/fs/trust_policy: valid ones,
 * invalid ones, partial writes and two writes on one open file, and reads
 * the value back; and the trusted_for_verdict tracepoint is on for the
 * middle third of the calls (-e).
 *
 * Every answer is checked against trusted_for(2) (man/trusted_for.2) and
 * Documentation/admin-guide/sysctl/fs.rst, the process running as root:
 *   - usage other than 1 or flags other than 0: EINVAL (or EBADF when the
 *     fd is bad too: the order of the checks is not documented);
 *   - fd not open, or not open for reading (O_WRONLY, O_PATH, mode 3): EBADF;
 *   - a readable fd: 0 or EACCES, as the policy of the moment says; and
 *     always 0 for a regular file with execute bits on an exec mount (root
 *     passes the permission check of every policy for such a file);
 *   - each sysctl write: a number 0-3 in one write is taken (read back),
 *     anything else is EINVAL and leaves the value unchanged.
 * Exit status: 0 when every answer was expected and the count reached -n;
 * 1 otherwise (each unexpected answer is printed, up to 20); 2 on bad
 * usage or set-up (not root, no trusted_for in this kernel, ...).
 *
 * usage: tf-stress -d DIR [-n CALLS] [-s SEED] [-p PROCS] [-t THREADS]
 *                  [-e ENABLE_FILE] [-T SECONDS]
 *   DIR holds two mounted tmpfs, DIR/exec and DIR/noexec (mounted noexec);
 *   -T stops the run after SECONDS, which then fails unless -n was reached.
 *
 * Longer than 400 lines: a standalone program (built without lib/, run on
 * the debug kernel) whose fd kinds, writers and checks share one state.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* trusted_for(2), from man/trusted_for.2 (not in libc's headers). */
#define NR_TRUSTED_FOR		451
#define TRUSTED_FOR_EXECUTION	1
#define POLICY_FILE		"/proc/sys/fs/trust_policy"

#define MAX_PRINTED		20
#define BATCH			256

enum kind {
	K_EXEC_0755,		/* regular, exec mount, rwxr-xr-x */
	K_EXEC_RDWR_0755,	/* the same, open O_RDWR */
	K_EXEC_0644,		/* regular, exec mount, no execute bit */
	K_EXEC_0000,		/* regular, exec mount, no permission bit */
	K_NOEXEC_0755,		/* regular, noexec mount */
	K_NOEXEC_0644,
	K_DIR,
	K_DEVNULL,		/* character device */
	K_PIPE_R,
	K_PIPE_W,		/* not readable */
	K_SOCKET,
	K_MEMFD,
	K_PROC,			/* /proc/self/status */
	K_OPATH,
	K_WRONLY,
	K_ACCMODE3,		/* O_RDONLY|O_WRONLY|O_RDWR == 3: ioctl only */
	K_CLOSED,		/* a number never open */
	K_MINUS1,
	K_HUGE,			/* > any open fd, or negative */
	K_CHURN,		/* closed and replaced by another thread */
	K_NKINDS
};

static const char *const kind_name[K_NKINDS] = {
	"exec-0755", "exec-rdwr-0755", "exec-0644", "exec-0000",
	"noexec-0755", "noexec-0644", "dir", "dev-null", "pipe-read",
	"pipe-write", "socket", "memfd", "proc-file", "o-path", "o-wronly",
	"accmode-3", "closed", "minus-1", "huge", "churn",
};

/* Outcomes, as bits of the expected sets. */
enum { O_OK, O_EACCES, O_EBADF, O_EINVAL, O_OTHER, N_OUT };
#define B(o)	(1U << (o))
static const char *const out_name[N_OUT] = {
	"0", "EACCES", "EBADF", "EINVAL", "other"
};

/* What a call with usage 1 and flags 0 may answer, per fd kind. */
static unsigned int valid_args_set(enum kind k)
{
	switch (k) {
	case K_EXEC_0755:
	case K_EXEC_RDWR_0755:
		return B(O_OK);
	case K_PIPE_W:
	case K_OPATH:
	case K_WRONLY:
	case K_ACCMODE3:
	case K_CLOSED:
	case K_MINUS1:
	case K_HUGE:
		return B(O_EBADF);
	case K_CHURN:
		return B(O_OK) | B(O_EACCES) | B(O_EBADF);
	default:
		return B(O_OK) | B(O_EACCES);
	}
}

struct shared {
	atomic_long calls;
	atomic_long unexpected;
	atomic_int printed;
	atomic_int stop;
	atomic_long counts[K_NKINDS][N_OUT];
};

static struct shared *sh;
static const char *dir;
static uint64_t seed;
static long total_calls = 1000000;
static int nprocs = 2, nthreads = 2;

/* Per process: the fds of each kind, shared by its threads. */
static int fds[K_NKINDS];
static int closed_fd, churn_fd;
static atomic_int proc_stop;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("tf-stress: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* splitmix64: small, good enough, and reproducible from the seed. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int outcome(long ret, int err)
{
	if (ret == 0)
		return O_OK;
	if (ret != -1)
		return O_OTHER;
	switch (err) {
	case EACCES: return O_EACCES;
	case EBADF: return O_EBADF;
	case EINVAL: return O_EINVAL;
	default: return O_OTHER;
	}
}

static void report(const char *fmt, ...)
{
	va_list ap;

	atomic_fetch_add(&sh->unexpected, 1);
	if (atomic_fetch_add(&sh->printed, 1) >= MAX_PRINTED)
		return;
	va_start(ap, fmt);
	fputs("tf-stress: unexpected: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void set_names(unsigned int set, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int o = 0; o < N_OUT; o++)
		if (set & B(o))
			n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "",
				      out_name[o]);
}

/* A random fd number that is never open in this process. */
static int huge_fd(uint64_t r)
{
	switch (r % 6) {
	case 0: return INT_MAX;
	case 1: return INT_MIN;
	case 2: return -2 - (int)(r >> 8 & 0xffff);
	case 3: return 1 << 20;
	case 4: return 100000 + (int)(r >> 8 & 0xfffff);
	default: return (int)(0x40000000U | (uint32_t)(r >> 32));
	}
}

static int random_usage(uint64_t r)
{
	static const int odd[] = { 0, 2, 3, -1, INT_MAX, INT_MIN, 256, 1 << 16 };

	switch (r % 8) {
	case 6: return odd[(r >> 8) % (sizeof(odd) / sizeof(odd[0]))];
	case 7: return (int)(uint32_t)(r >> 32);
	default: return TRUSTED_FOR_EXECUTION;
	}
}

static uint32_t random_flags(uint64_t r)
{
	switch (r % 8) {
	case 6: return 1U << ((r >> 8) % 32);
	case 7: return (uint32_t)(r >> 32);
	default: return 0;
	}
}

struct worker {
	pthread_t tid;
	int id;
	long calls;
	long done;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t rs = seed ^ (0x5bd1e995ULL * (uint64_t)(w->id + 1));
	long local[K_NKINDS][N_OUT] = { { 0 } };
	long pending = 0;

	for (w->done = 0; w->done < w->calls; w->done++) {
		uint64_t r = next_rand(&rs);
		enum kind k = (enum kind)(r % K_NKINDS);
		int usage = random_usage(next_rand(&rs));
		uint32_t flags = random_flags(next_rand(&rs));
		int fd = k == K_HUGE ? huge_fd(next_rand(&rs)) : fds[k];
		unsigned int want;
		long ret;
		int err, o;

		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			break;
		errno = 0;
		ret = syscall(NR_TRUSTED_FOR, fd, usage, flags);
		err = errno;
		o = outcome(ret, err);
		local[k][o]++;

		want = valid_args_set(k);
		if (usage != TRUSTED_FOR_EXECUTION || flags)
			want = B(O_EINVAL) | (want & B(O_EBADF));
		if (!(want & B(o))) {
			char ws[64];

			set_names(want, ws, sizeof(ws));
			report("kind=%s fd=%d usage=%d flags=%#x -> %ld %s (expected %s)",
			       kind_name[k], fd, usage, flags, ret,
			       ret ? strerror(err) : "", ws);
		}
		if (++pending == BATCH) {
			atomic_fetch_add(&sh->calls, pending);
			pending = 0;
		}
	}
	atomic_fetch_add(&sh->calls, pending);
	for (int k = 0; k < K_NKINDS; k++)
		for (int o = 0; o < N_OUT; o++)
			if (local[k][o])
				atomic_fetch_add(&sh->counts[k][o], local[k][o]);
	return NULL;
}

/*
 * Close and replace churn_fd while the workers use it: the fd table
 * changes under their fdget()s.  In bursts, so that the workers get the
 * CPUs too (tinyconfig's jiffies make short sleeps 10 ms long).
 */
static void *churn_main(void *arg)
{
	uint64_t rs = seed ^ 0xc0ffee ^ (uint64_t)(intptr_t)arg;
	static const enum kind src[] = {
		K_EXEC_0755, K_EXEC_0644, K_NOEXEC_0755, K_DIR, K_PIPE_R,
		K_PIPE_W, K_SOCKET, K_MEMFD, K_PROC, K_OPATH, K_WRONLY,
	};
	char path[PATH_MAX];

	while (!atomic_load(&proc_stop)) {
		for (int i = 0; i < 64; i++) {
			uint64_t r = next_rand(&rs);
			int fd = -1, p[2];

			switch (r % 4) {
			case 0:
				close(churn_fd);
				break;
			case 1:
				dup2(fds[src[(r >> 8) % (sizeof(src) / sizeof(src[0]))]],
				     churn_fd);
				break;
			case 2:
				/* A new open file, gone as soon as replaced. */
				snprintf(path, sizeof(path), "%s/%s/f0644", dir,
					 r & 0x100 ? "exec" : "noexec");
				fd = open(path, r & 0x200 ? O_RDONLY : O_WRONLY);
				break;
			default:
				if (pipe(p) == 0) {
					fd = p[0];
					close(p[1]);
				}
				break;
			}
			if (fd >= 0) {
				dup2(fd, churn_fd);
				close(fd);
			}
		}
		sleep_ms(1);
	}
	return NULL;
}

static int xopen(const char *sub, int flags)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s%s%s", sub[0] == '/' ? "" : dir,
		 sub[0] == '/' ? "" : "/", sub);
	fd = open(path, flags);
	if (fd < 0)
		die("open %s (flags %#x): %s", path, flags, strerror(errno));
	return fd;
}

/* The fds of one worker process. */
static void open_fds(void)
{
	int p[2], s[2];
	struct rlimit rl;

	fds[K_EXEC_0755] = xopen("exec/f0755", O_RDONLY);
	fds[K_EXEC_RDWR_0755] = xopen("exec/f0755", O_RDWR);
	fds[K_EXEC_0644] = xopen("exec/f0644", O_RDONLY);
	fds[K_EXEC_0000] = xopen("exec/f0000", O_RDONLY);
	fds[K_NOEXEC_0755] = xopen("noexec/f0755", O_RDONLY);
	fds[K_NOEXEC_0644] = xopen("noexec/f0644", O_RDONLY);
	fds[K_DIR] = xopen("exec", O_RDONLY | O_DIRECTORY);
	fds[K_DEVNULL] = xopen("/dev/null", O_RDONLY);
	if (pipe(p))
		die("pipe: %s", strerror(errno));
	fds[K_PIPE_R] = p[0];
	fds[K_PIPE_W] = p[1];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, s))
		die("socketpair: %s", strerror(errno));
	fds[K_SOCKET] = s[0];
	fds[K_MEMFD] = memfd_create("tf-stress", 0);
	if (fds[K_MEMFD] < 0)
		die("memfd_create: %s", strerror(errno));
	if (write(fds[K_MEMFD], "#!/bin/sh\n", 10) != 10)
		die("write memfd: %s", strerror(errno));
	fds[K_PROC] = xopen("/proc/self/status", O_RDONLY);
	fds[K_OPATH] = xopen("exec/f0755", O_PATH);
	fds[K_WRONLY] = xopen("exec/f0644", O_WRONLY);
	fds[K_ACCMODE3] = xopen("exec/f0644", O_ACCMODE);

	/* Two numbers far above the fds the process opens (lowest first). */
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur < 128)
		die("RLIMIT_NOFILE below 128");
	closed_fd = rl.rlim_cur > 1000 ? 1000 : (int)rl.rlim_cur - 1;
	churn_fd = closed_fd - 1;
	close(closed_fd);
	if (dup2(fds[K_EXEC_0644], churn_fd) < 0)
		die("dup2: %s", strerror(errno));
	fds[K_CLOSED] = closed_fd;
	fds[K_MINUS1] = -1;
	fds[K_CHURN] = churn_fd;
}

static int worker_process(int pidx)
{
	struct worker *w = calloc(nthreads, sizeof(*w));
	long nworkers = (long)nprocs * nthreads;
	pthread_t churn;

	if (!w)
		die("out of memory");
	open_fds();
	if (pthread_create(&churn, NULL, churn_main, (void *)(intptr_t)pidx))
		die("pthread_create failed");
	for (int i = 0; i < nthreads; i++) {
		int id = pidx * nthreads + i;

		w[i].id = id;
		w[i].calls = total_calls / nworkers +
			     (id < total_calls % nworkers ? 1 : 0);
		if (pthread_create(&w[i].tid, NULL, worker_main, &w[i]))
			die("pthread_create failed");
	}
	for (int i = 0; i < nthreads; i++)
		pthread_join(w[i].tid, NULL);
	atomic_store(&proc_stop, 1);
	pthread_join(churn, NULL);
	free(w);
	return 0;
}

/* The policy writer: its own oracle of the value, since it is the only writer. */
struct writer {
	pthread_t tid;
	atomic_int stop;
	int cur;		/* the value the sysctl must hold */
	long taken, refused, reads, second_taken, second_refused;
	uint64_t rs;
};

static int read_policy(void)
{
	char buf[32];
	int fd = open(POLICY_FILE, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (n != 2 || buf[0] < '0' || buf[0] > '3' || buf[1] != '\n')
		return -2;
	return buf[0] - '0';
}

static int write_policy(const char *buf, size_t len, int *err)
{
	int fd = open(POLICY_FILE, O_WRONLY);
	ssize_t n;

	if (fd < 0) {
		*err = errno;
		return -1;
	}
	n = write(fd, buf, len);
	*err = errno;
	close(fd);
	return n == (ssize_t)len ? 0 : n < 0 ? -1 : -2;
}

static void check_value(struct writer *wr, const char *what)
{
	int v = read_policy();

	wr->reads++;
	if (v != wr->cur)
		report("sysctl: after %s the value reads %d, expected %d", what,
		       v, wr->cur);
}

/* The first bytes of a written value, printable: \xHH for the others. */
static const char *shown(const char *buf, size_t len)
{
	static _Thread_local char out[16 * 4 + 4];
	size_t n = 0;

	for (size_t i = 0; i < len && i < 16; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"')
			out[n++] = (char)c;
		else
			n += snprintf(out + n, sizeof(out) - n, "\\x%02x", c);
	}
	if (len > 16)
		n += snprintf(out + n, sizeof(out) - n, "...");
	out[n] = '\0';
	return out;
}

static void expect_taken(struct writer *wr, const char *buf, size_t len, int v)
{
	int err, rc = write_policy(buf, len, &err);

	if (rc == 0) {
		wr->taken++;
		wr->cur = v;
	} else {
		report("sysctl: write of \"%s\" (%zu bytes) -> %s, expected it taken",
		       shown(buf, len), len, rc == -1 ? strerror(err) : "short write");
	}
	check_value(wr, "a valid write");
}

static void expect_refused(struct writer *wr, const char *buf, size_t len)
{
	int err, rc = write_policy(buf, len, &err);

	if (rc == -1 && err == EINVAL)
		wr->refused++;
	else
		report("sysctl: write of \"%s\" (%zu bytes) -> %s, expected EINVAL",
		       shown(buf, len), len,
		       rc == 0 ? "taken" : rc == -1 ? strerror(err) : "short write");
	check_value(wr, "an invalid write");
}

/* Two writes on one open file: the first is taken; the second is either
 * taken or refused (not documented), and the value must follow.
 */
static void two_writes(struct writer *wr, int a, int b)
{
	char s[2] = { (char)('0' + a), (char)('0' + b) };
	int fd = open(POLICY_FILE, O_WRONLY);
	ssize_t n;

	if (fd < 0) {
		report("sysctl: open for writing: %s", strerror(errno));
		return;
	}
	n = write(fd, &s[0], 1);
	if (n != 1)
		report("sysctl: first of two writes -> %s, expected taken",
		       n < 0 ? strerror(errno) : "short write");
	else
		wr->cur = a;
	n = write(fd, &s[1], 1);
	if (n == 1) {
		wr->second_taken++;
		wr->cur = b;
	} else if (n == -1 && errno == EINVAL) {
		wr->second_refused++;
	} else {
		report("sysctl: second of two writes -> %s, expected taken or EINVAL",
		       n < 0 ? strerror(errno) : "short write");
	}
	close(fd);
	check_value(wr, "two writes");
}

static void *writer_main(void *arg)
{
	struct writer *wr = arg;
	static const char *const bad[] = {
		"4", "-1", "abc", "3 3", "9999999999", "1.5", "two", "1,2",
		"\n", " ", "99999999999999999999999", "-2147483649",
	};
	static char big[65536];
	char buf[64];

	memset(big, '1', sizeof(big));
	while (!atomic_load(&wr->stop)) {
		for (int i = 0; i < 64; i++) {
			uint64_t r = next_rand(&wr->rs);
			int v = (int)(r >> 8 & 3), len;

			switch (r % 16) {
			case 0: case 1: case 2: case 3: case 4: case 5:
				len = snprintf(buf, sizeof(buf), "%d%s", v,
					       r & 0x400 ? "\n" : "");
				expect_taken(wr, buf, len, v);
				break;
			case 6:
				/* Partial write: one byte of "v<digit>". */
				snprintf(buf, sizeof(buf), "%d%d", v,
					 (int)((r >> 16) % 10));
				expect_taken(wr, buf, 1, v);
				break;
			case 7:
				two_writes(wr, v, (int)(r >> 12 & 3));
				break;
			case 8: case 9: case 10: {
				const char *b = bad[(r >> 16) % (sizeof(bad) / sizeof(bad[0]))];

				expect_refused(wr, b, strlen(b));
				break;
			}
			case 11:
				/* A number out of range. */
				len = snprintf(buf, sizeof(buf), "%ld",
					       r & 0x100 ? 4 + (long)(r >> 20 & 0xfffff)
							 : -1 - (long)(r >> 20 & 0xfffff));
				expect_refused(wr, buf, len);
				break;
			case 12:
				/* The NUL does not end the value. */
				memcpy(buf, "3\0junk", 6);
				buf[0] = (char)('0' + v);
				expect_refused(wr, buf, 6);
				break;
			case 13: {
				/* Random bytes with a letter: never a number. */
				int n = 1 + (int)(r >> 8 & 15);

				for (int j = 0; j < n; j++)
					buf[j] = (char)next_rand(&wr->rs);
				buf[(r >> 16) % n] = 'x';
				expect_refused(wr, buf, n);
				break;
			}
			case 14:
				expect_refused(wr, big, r & 0x100 ? 64 : sizeof(big));
				break;
			default:
				check_value(wr, "nothing");
				break;
			}
		}
		sleep_ms(1);
	}
	return NULL;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static void make_file(const char *sub, mode_t mode)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, "#!/bin/sh\n", 10) != 10 || fchmod(fd, mode))
		die("create %s: %s", path, strerror(errno));
	close(fd);
}

static void check_mount(const char *sub, bool noexec)
{
	char path[PATH_MAX];
	struct statvfs sv;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (statvfs(path, &sv))
		die("%s: %s", path, strerror(errno));
	if (!!(sv.f_flag & ST_NOEXEC) != noexec)
		die("%s must be a mount %s noexec", path, noexec ? "with" : "without");
}

static void usage(void)
{
	fprintf(stderr, "usage: tf-stress -d DIR [-n CALLS] [-s SEED] [-p PROCS] "
		"[-t THREADS] [-e ENABLE_FILE] [-T SECONDS]\n");
	exit(2);
}

static long parse_num(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || *end || end == s || v < min || v > max)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	const char *enable = NULL;
	long limit = 0, reached, tp_on_at, tp_off_at, tp_on_calls = -1, tp_off_calls = -1;
	bool have_seed = false, failed = false;
	struct writer wr = { 0 };
	pid_t *pids;
	double t0, next_progress;
	int opt, running, orig, tp_state = 0;

	while ((opt = getopt(argc, argv, "d:n:s:p:t:e:T:")) != -1) {
		switch (opt) {
		case 'd':
			dir = optarg;
			break;
		case 'n':
			total_calls = parse_num(optarg, 1, LONG_MAX / 2);
			break;
		case 's': {
			char *end;

			errno = 0;
			seed = strtoull(optarg, &end, 0);
			if (errno || *end || end == optarg)
				usage();
			have_seed = true;
			break;
		}
		case 'p':
			nprocs = (int)parse_num(optarg, 1, 64);
			break;
		case 't':
			nthreads = (int)parse_num(optarg, 1, 64);
			break;
		case 'e':
			enable = optarg;
			break;
		case 'T':
			limit = parse_num(optarg, 1, 86400);
			break;
		default:
			usage();
		}
	}
	if (!dir || optind != argc)
		usage();
	if (geteuid() != 0)
		die("needs root: the expected answers assume CAP_DAC_OVERRIDE");
	/* Syscall 451 is cachestat on mainline: only where the sysctl is. */
	if (access(POLICY_FILE, F_OK))
		die("no %s: this kernel has no trusted_for(2)", POLICY_FILE);
	check_mount("exec", false);
	check_mount("noexec", true);
	if (!have_seed && getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != (ssize_t)sizeof(seed))
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	printf("tf-stress: seed %#" PRIx64 " (-s to repeat), %ld calls, "
	       "%d processes x %d threads\n", seed, total_calls, nprocs, nthreads);
	fflush(stdout);

	make_file("exec/f0755", 0755);
	make_file("exec/f0644", 0644);
	make_file("exec/f0000", 0);
	make_file("noexec/f0755", 0755);
	make_file("noexec/f0644", 0644);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	orig = read_policy();
	if (orig < 0)
		die("cannot read %s", POLICY_FILE);
	if (enable && write_file(enable, "0"))
		die("cannot write %s: %s", enable, strerror(errno));
	tp_on_at = total_calls / 3;
	tp_off_at = 2 * (total_calls / 3);

	pids = calloc(nprocs, sizeof(*pids));
	if (!pids)
		die("out of memory");
	fflush(NULL);
	for (int i = 0; i < nprocs; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork: %s", strerror(errno));
		if (pids[i] == 0)
			_exit(worker_process(i));
	}
	wr.cur = orig;
	wr.rs = seed ^ 0x7f4a7c15ULL;
	if (pthread_create(&wr.tid, NULL, writer_main, &wr))
		die("pthread_create failed");

	t0 = now();
	next_progress = t0 + 30;
	running = nprocs;
	while (running) {
		long c = atomic_load(&sh->calls);
		int status;
		pid_t pid;

		if (enable && tp_state == 0 && c >= tp_on_at) {
			if (write_file(enable, "1"))
				die("cannot write %s: %s", enable, strerror(errno));
			tp_state = 1;
			tp_on_calls = c;
		} else if (enable && tp_state == 1 && c >= tp_off_at) {
			if (write_file(enable, "0"))
				die("cannot write %s: %s", enable, strerror(errno));
			tp_state = 2;
			tp_off_calls = c;
		}
		if (now() >= next_progress) {
			printf("tf-stress: %ld calls after %.0f s\n", c, now() - t0);
			fflush(stdout);
			next_progress += 30;
		}
		if (limit && now() - t0 > limit && !atomic_load(&sh->stop)) {
			fprintf(stderr, "tf-stress: time limit of %ld s reached, stopping\n",
				limit);
			atomic_store(&sh->stop, 1);
		}
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			running--;
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				fprintf(stderr, "tf-stress: worker process %d %s %d\n",
					(int)pid, WIFEXITED(status) ? "exited" : "killed by signal",
					WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
				failed = true;
			}
		}
		if (running)
			sleep_ms(20);
	}
	atomic_store(&wr.stop, 1);
	pthread_join(wr.tid, NULL);
	if (enable && tp_state == 1 && write_file(enable, "0"))
		die("cannot write %s: %s", enable, strerror(errno));
	if (write_file(POLICY_FILE, orig == 0 ? "0" : orig == 1 ? "1" :
					orig == 2 ? "2" : "3"))
		die("cannot restore %s", POLICY_FILE);

	reached = atomic_load(&sh->calls);
	printf("tf-stress: %ld calls of trusted_for in %.1f s (bound %ld)\n",
	       reached, now() - t0, total_calls);
	for (int k = 0; k < K_NKINDS; k++) {
		printf("tf-stress:   %-15s", kind_name[k]);
		for (int o = 0; o < N_OUT; o++)
			printf(" %s=%ld", out_name[o], atomic_load(&sh->counts[k][o]));
		printf("\n");
	}
	printf("tf-stress: sysctl writes: %ld taken, %ld refused, two-write files: "
	       "second write taken %ld, refused %ld; %ld reads\n", wr.taken,
	       wr.refused, wr.second_taken, wr.second_refused, wr.reads);
	if (enable)
		printf("tf-stress: tracepoint on from call %ld to call %ld\n",
		       tp_on_calls, tp_off_calls);
	if (reached != total_calls) {
		fprintf(stderr, "tf-stress: the bound was not reached: %ld of %ld calls\n",
			reached, total_calls);
		failed = true;
	}
	if (enable && (tp_on_calls < 0 || tp_off_calls < 0)) {
		fprintf(stderr, "tf-stress: the tracepoint was not turned on and off\n");
		failed = true;
	}
	/*
	 * Over a long run, the answers must show that the policy did change
	 * under the calls: a file refused by some policies only, both allowed
	 * and refused; and that every kind was tried.
	 */
	if (total_calls >= 100000 && reached == total_calls) {
		static const enum kind varies[] = {
			K_EXEC_0644, K_NOEXEC_0755, K_PIPE_R, K_DIR,
		};

		for (size_t i = 0; i < sizeof(varies) / sizeof(varies[0]); i++)
			if (!atomic_load(&sh->counts[varies[i]][O_OK]) ||
			    !atomic_load(&sh->counts[varies[i]][O_EACCES])) {
				fprintf(stderr, "tf-stress: %s was not both allowed and refused: "
					"the policy did not change under the calls\n",
					kind_name[varies[i]]);
				failed = true;
			}
		for (int k = 0; k < K_NKINDS; k++) {
			long n = 0;

			for (int o = 0; o < N_OUT; o++)
				n += atomic_load(&sh->counts[k][o]);
			if (!n) {
				fprintf(stderr, "tf-stress: no call with a %s fd\n", kind_name[k]);
				failed = true;
			}
		}
		if (!wr.taken || !wr.refused) {
			fprintf(stderr, "tf-stress: the policy writer had no write taken or none refused\n");
			failed = true;
		}
	}
	if (atomic_load(&sh->unexpected)) {
		fprintf(stderr, "tf-stress: %ld unexpected answers (the first %d above)\n",
			atomic_load(&sh->unexpected), MAX_PRINTED);
		failed = true;
	}
	printf("tf-stress: %s\n", failed ? "FAILED" : "OK");
	return failed ? 1 : 0;
}
