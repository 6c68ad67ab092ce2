// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tf-probe: ask the running kernel, as a given user, whether files may be
 * executed; the ground truth policyctl's predictions are compared with.
 *
 *   tf-probe [--as UID] [--backend trusted_for|execve_check] FILE...
 *
 * --as UID: drop to that uid, its primary gid and supplementary groups from
 * the user/group databases (setgroups, setresgid, setresuid), like a login
 * would; uid 0 keeps every capability. For each FILE (symlinks followed,
 * like an interpreter's open) one line: "allow PATH", "deny PATH" (EACCES
 * from the kernel) or "error ERRNO-NAME PATH" (the file cannot be opened for
 * reading: the fd trusted_for needs does not exist).
 * "fd:pipe" and "fd:memfd" probe a pipe's read end and a memfd instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trustedfor.h"

static int drop_to(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);
	gid_t groups[256];
	int n = 256;
	gid_t gid = pw ? pw->pw_gid : (gid_t)uid;

	if (pw) {
		if (getgrouplist(pw->pw_name, gid, groups, &n) < 0)
			return -1;
	} else {
		n = 0;
	}
	if (setgroups((size_t)n, groups) < 0 || setresgid(gid, gid, gid) < 0 ||
	    setresuid(uid, uid, uid) < 0)
		return -1;
	return 0;
}

static int ask(int fd, int backend)
{
	return backend ? tf_execve_check(fd) : tf_trusted_for(fd, TF_USAGE_EXECUTION, 0);
}

int main(int argc, char **argv)
{
	int i = 1, backend = 0, rc = 0;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--as") && i + 1 < argc) {
			if (drop_to((uid_t)strtoul(argv[++i], NULL, 10)) < 0) {
				fprintf(stderr, "tf-probe: cannot become uid %s: %s\n",
					argv[i], strerror(errno));
				return 2;
			}
		} else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
			backend = !strcmp(argv[++i], "execve_check");
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			fprintf(stderr, "usage: tf-probe [--as UID] [--backend trusted_for|execve_check] FILE...\n");
			return 2;
		}
	}
	for (; i < argc; i++) {
		const char *path = argv[i];
		int fd, p[2] = { -1, -1 }, r;

		if (!strcmp(path, "fd:pipe")) {
			if (pipe(p) < 0)
				return 2;
			fd = p[0];
		} else if (!strcmp(path, "fd:memfd")) {
			fd = memfd_create("tf-probe", MFD_CLOEXEC);
		} else {
			fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		}
		if (fd < 0) {
			printf("error %s %s\n", strerrorname_np(errno), path);
			continue;
		}
		r = ask(fd, backend);
		if (r == 0)
			printf("allow %s\n", path);
		else if (errno == EACCES)
			printf("deny %s\n", path);
		else {
			printf("error %s %s\n", strerrorname_np(errno), path);
			rc = 2;
		}
		close(fd);
		if (p[1] >= 0)
			close(p[1]);
	}
	return rc;
}
