// SPDX-License-Identifier: LGPL-2.1-or-later
/* Small file system helpers shared by the tools; see fsutil.h. */
#include "fsutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int tf_mkdir_parent(const char *path, mode_t mode)
{
	const char *slash = strrchr(path, '/');
	size_t len;
	char *dir;
	int rc = 0, err = 0;

	if (!slash)
		return 0; /* in the current directory */
	len = (size_t)(slash - path);
	while (len > 0 && path[len - 1] == '/')
		len--; /* "a//b": the directory is "a" */
	if (!len)
		return 0; /* "/b": the root */
	dir = strndup(path, len);
	if (!dir)
		return -1;
	if (mkdir(dir, mode) < 0 && errno != EEXIST) {
		err = errno;
		rc = -1;
	}
	free(dir);
	if (rc)
		errno = err;
	return rc;
}
