// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tf-probe: ask the running kernel, as a given user, whether files may be
 * executed: the ground truth tests/vm/cases/policyctl-proof.sh compares
 * policyctl's predictions with.
 *
 *   tf-probe [--as UID] [--backend trusted_for|execve_check] [--hold] FILE...
 *
 * Every FILE is opened read-only (O_NONBLOCK, symlinks followed) by the
 * caller (root) first; then --as UID drops to that uid, its primary gid and
 * supplementary groups from the user/group databases (setgroups, setresgid,
 * setresuid: every capability is lost), and trusted_for(2) is called on
 * each fd, so the verdict is the subject's even for files it could not open
 * itself. uid 0 keeps its capabilities.
 * The pseudo names fd:pipe, fd:memfd and fd:socket are a pipe's read end, a
 * memfd and a unix socket, created after the drop (owned by the subject).
 * One line per FILE: "allow FILE", "deny FILE" (EACCES), or
 * "error ERRNO FILE" (cannot open, or another error from the kernel).
 * For fd: names the line ends with " /proc/PID/fd/N"; with --hold the probe
 * then keeps those fds open until its standard input is closed, so that
 * `policyctl explain` can look at them.
 * Exit status: 0, or 2 on a usage or setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
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

static int make_fd(const char *kind, int *extra)
{
	int p[2];

	*extra = -1;
	if (!strcmp(kind, "fd:pipe")) {
		if (pipe(p) < 0)
			return -1;
		*extra = p[1];
		return p[0];
	}
	if (!strcmp(kind, "fd:memfd"))
		return memfd_create("tf-probe", 0);
	if (!strcmp(kind, "fd:socket"))
		return socket(AF_UNIX, SOCK_STREAM, 0);
	errno = EINVAL;
	return -1;
}

int main(int argc, char **argv)
{
	int i = 1, backend = 0, hold = 0, as = -1;
	char buf[64];

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--as") && i + 1 < argc) {
			as = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
			backend = !strcmp(argv[++i], "execve_check");
		} else if (!strcmp(argv[i], "--hold")) {
			hold = 1;
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			fprintf(stderr, "usage: tf-probe [--as UID] [--backend trusted_for|execve_check] [--hold] FILE...\n");
			return 2;
		}
	}
	int n = argc - i;
	int *fds = calloc((size_t)n + 1, sizeof(int));
	int *errs = calloc((size_t)n + 1, sizeof(int));

	if (!fds || !errs)
		return 2;
	for (int k = 0; k < n; k++) {
		fds[k] = -1;
		if (strncmp(argv[i + k], "fd:", 3) == 0)
			continue;
		fds[k] = open(argv[i + k], O_RDONLY | O_NONBLOCK | O_NOCTTY);
		errs[k] = fds[k] < 0 ? errno : 0;
	}
	if (as >= 0 && drop_to((uid_t)as) < 0) {
		fprintf(stderr, "tf-probe: cannot become uid %d: %s\n", as, strerror(errno));
		return 2;
	}
	for (int k = 0; k < n; k++) {
		const char *name = argv[i + k];
		int extra = -1, r;

		if (strncmp(name, "fd:", 3) == 0) {
			fds[k] = make_fd(name, &extra);
			errs[k] = fds[k] < 0 ? errno : 0;
		}
		if (fds[k] < 0) {
			printf("error %s %s\n", strerrorname_np(errs[k]), name);
			continue;
		}
		r = backend ? tf_execve_check(fds[k])
			    : tf_trusted_for(fds[k], TF_USAGE_EXECUTION, 0);
		if (r == 0)
			printf("allow %s", name);
		else if (errno == EACCES)
			printf("deny %s", name);
		else
			printf("error %s %s", strerrorname_np(errno), name);
		if (strncmp(name, "fd:", 3) == 0)
			printf(" /proc/%d/fd/%d", (int)getpid(), fds[k]);
		putchar('\n');
		(void)extra; /* a pipe's write end stays open with the read end */
	}
	fflush(stdout);
	if (hold)
		while (read(STDIN_FILENO, buf, sizeof(buf)) > 0)
			;
	return 0;
}
