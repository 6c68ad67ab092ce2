// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * walk-floor: the least work a check of a tree must do, for
 * bench/policyctl-walk.sh. One thread reads each directory
 * (getdents64) and opens every regular file, reads its first two bytes
 * and closes it: what telling a script by its "#!" line takes, with no
 * stat, no policy, no report and no threads. Its CPU time against
 * find's bounds what policyctl can reach on a given number of CPUs.
 *
 * usage: walk-floor DIR
 * Prints "files N shebang N" (regular files, and those starting "#!");
 * exit 1 on an error (named on stderr), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

static unsigned long files, shebang;

/* Walk the directory open at @dfd (closed here); -1 on an error. */
static int walk(int dfd, const char *name)
{
	char buf[64 * 1024] __attribute__((aligned(8)));
	long n;

	while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			char head[2];
			int fd;

			off += d->d_reclen;
			if (d->d_type == DT_DIR) {
				if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
					continue;
				fd = openat(dfd, d->d_name,
					    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (fd < 0 || walk(fd, d->d_name) < 0)
					goto fail;
				continue;
			}
			if (d->d_type != DT_REG)
				continue;
			fd = openat(dfd, d->d_name,
				    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOATIME);
			if (fd < 0) {
				fprintf(stderr, "walk-floor: %s/%s: %s\n", name,
					d->d_name, strerror(errno));
				close(dfd);
				return -1;
			}
			files++;
			if (read(fd, head, 2) == 2 && head[0] == '#' && head[1] == '!')
				shebang++;
			close(fd);
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
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: walk-floor DIR\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "walk-floor: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (walk(fd, argv[1]) < 0)
		return 1;
	printf("files %lu shebang %lu\n", files, shebang);
	return 0;
}
