// SPDX-License-Identifier: LGPL-2.1-or-later
/* Atomic file replacement; see atomic_file.h. */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* fsync(2) the directory holding @path: 0, or -1 with errno. */
static int sync_dir(const char *path)
{
	char *dircopy = strdup(path);
	int dfd, rc = -1, saved;

	if (!dircopy)
		return -1;
	dfd = open(dirname(dircopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		rc = fsync(dfd);
		saved = errno;
		close(dfd);
		errno = saved;
	}
	saved = errno;
	free(dircopy);
	errno = saved;
	return rc;
}

int tf_atomic_write(const char *path, const void *data, size_t len,
		    mode_t mode)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 8);
	int fd = -1, saved;

	if (!tmp)
		return -1;
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".XXXXXX", 8);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (write_all(fd, data, len) < 0 || fchmod(fd, mode) < 0 ||
	    fsync(fd) < 0)
		goto fail_unlink;
	if (close(fd) < 0) {
		fd = -1;
		goto fail_unlink;
	}
	fd = -1;
	if (rename(tmp, path) < 0)
		goto fail_unlink;
	free(tmp);
	/* make the rename itself durable; @path is replaced either way */
	return sync_dir(path);
fail_unlink:
	saved = errno;
	unlink(tmp);
	errno = saved;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	free(tmp);
	errno = saved;
	return -1;
}
