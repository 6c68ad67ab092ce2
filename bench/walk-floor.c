// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * walk-floor: the least work a check of a tree must do, for
 * bench/policyctl-walk.sh. It reads each directory (getdents64) and
 * opens every regular file, reads its first two bytes and closes it:
 * what telling a script by its "#!" line takes, with no stat, no policy
 * and no report. With -j N, N processes share the work, the entries of
 * DIR dealt out in turn (processes, not threads: no descriptor table is
 * shared, nothing is handed between them), which is how that work
 * spreads over the CPUs at best (a top directory with fewer entries than
 * N leaves processes idle).
 *
 * usage: walk-floor [-j N] DIR
 * Prints "files N shebang N" (regular files, and those starting "#!");
 * exit 1 on an error (named on stderr), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static unsigned long files, shebang;

/* Open, read two bytes of and close file @name of @dfd; -1 on an error. */
static int check_file(int dfd, const char *dir, const char *name)
{
	char head[2];
	int fd = openat(dfd, name,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOATIME);
	ssize_t got;

	if (fd < 0) {
		fprintf(stderr, "walk-floor: %s/%s: %s\n", dir, name, strerror(errno));
		return -1;
	}
	files++;
	got = read(fd, head, 2);
	if (got < 0)
		fprintf(stderr, "walk-floor: %s/%s: %s\n", dir, name, strerror(errno));
	else if (got == 2 && head[0] == '#' && head[1] == '!')
		shebang++;
	close(fd);
	return got < 0 ? -1 : 0;
}

/*
 * Walk the directory open at @dfd (closed here); -1 on an error. At the
 * top (@jobs > 1), only the entries of turn @job.
 */
static int walk(int dfd, const char *name, unsigned int jobs, unsigned int job)
{
	unsigned long turn = 0;
	char buf[64 * 1024] __attribute__((aligned(8)));
	long n;

	while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			int fd;

			off += d->d_reclen;
			if (d->d_type == DT_DIR &&
			    (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..")))
				continue;
			if (d->d_type != DT_DIR && d->d_type != DT_REG)
				continue;
			if (jobs > 1 && turn++ % jobs != job)
				continue;
			if (d->d_type == DT_REG) {
				if (check_file(dfd, name, d->d_name) < 0) {
					close(dfd);
					return -1;
				}
				continue;
			}
			fd = openat(dfd, d->d_name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0 || walk(fd, d->d_name, 1, 0) < 0)
				goto fail;
		}
	}
	if (n < 0)
		goto fail;
	close(dfd);
	return 0;
fail:
	fprintf(stderr, "walk-floor: %s: %s\n", name, strerror(errno));
	close(dfd);
	return -1;
}

int main(int argc, char **argv)
{
	unsigned long sum[2] = { 0, 0 };
	unsigned int jobs = 1;
	int opt, fd, out[2], rc = 0;
	char *end;

	while ((opt = getopt(argc, argv, "j:")) != -1) {
		if (opt != 'j')
			goto usage;
		errno = 0;
		jobs = (unsigned int)strtoul(optarg, &end, 10);
		if (errno || *end || jobs < 1 || jobs > 1024)
			goto usage;
	}
	if (optind != argc - 1) {
usage:
		fprintf(stderr, "usage: walk-floor [-j N] DIR (N: 1..1024 processes)\n");
		return 2;
	}
	if (pipe(out) < 0) {
		perror("walk-floor: pipe");
		return 1;
	}
	for (unsigned int job = 0; job < jobs; job++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("walk-floor: fork");
			return 1;
		}
		if (pid)
			continue;
		close(out[0]);
		fd = open(argv[optind], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "walk-floor: %s: %s\n", argv[optind], strerror(errno));
			_exit(1);
		}
		if (walk(fd, argv[optind], jobs, job) < 0)
			_exit(1);
		sum[0] = files;
		sum[1] = shebang;
		/* one write of 16 bytes to a pipe: atomic (PIPE_BUF) */
		_exit(write(out[1], sum, sizeof(sum)) == sizeof(sum) ? 0 : 1);
	}
	close(out[1]);
	for (unsigned long got[2]; read(out[0], got, sizeof(got)) == sizeof(got);) {
		sum[0] += got[0];
		sum[1] += got[1];
	}
	for (int status; wait(&status) > 0;)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			rc = 1;
	if (rc)
		return 1;
	printf("files %lu shebang %lu\n", sum[0], sum[1]);
	return 0;
}
