// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rl-flood: execveat(AT_EXECVE_CHECK) refusals at full speed, for
 * trustfor-relay's tests; prints how many it caused, counted from the
 * kernel's own answers (the tests' expected values).
 *
 * usage: rl-flood [-p PROCS] [-n CHECKS] [-m fd|name|stdin] [-s SECBITS] FILE...
 *   PROCS processes (default 1) each check every FILE in turn, CHECKS
 *   times in all (default 1): by descriptor (execveat(fd, "",
 *   AT_EMPTY_PATH | AT_EXECVE_CHECK), the default), by name (the FILE
 *   as given) or as descriptor 0 (the FILE's descriptor duplicated onto it
 *   first: code read on stdin), with SECBITS set first (prctl
 *   PR_SET_SECUREBITS).
 * Output: "refused N" and "allowed N" over all processes; exit status 0,
 * 1 when a check failed otherwise or a process could not run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trustedfor_abi.h"

static char *const no_argv[] = { "rl-flood", NULL };
static char *const no_envp[] = { NULL };

enum mode { BY_FD, BY_NAME, BY_STDIN };

static int check(const char *file, int fd, enum mode mode)
{
	long r;

	if (mode == BY_NAME)
		r = syscall(SYS_execveat, AT_FDCWD, file, no_argv, no_envp, AT_EXECVE_CHECK);
	else if (mode == BY_STDIN && dup2(fd, 0) < 0)
		r = -1;
	else
		r = syscall(SYS_execveat, mode == BY_STDIN ? 0 : fd, "", no_argv, no_envp,
			    AT_EMPTY_PATH | AT_EXECVE_CHECK);
	return r == 0 ? 0 : errno;
}

/* One process's share; writes "refused allowed" to @out. */
static int child(int nfiles, char **files, long n, enum mode mode, int out)
{
	long refused = 0, allowed = 0;
	int fds[64];
	char line[64];

	for (int i = 0; i < nfiles; i++) {
		fds[i] = open(files[i], O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0) {
			fprintf(stderr, "rl-flood: %s: %s\n", files[i], strerror(errno));
			return 1;
		}
	}
	for (long i = 0; i < n; i++) {
		int e = check(files[i % nfiles], fds[i % nfiles], mode);

		if (e == 0)
			allowed++;
		else if (e == EACCES || e == EPERM || e == ETXTBSY)
			refused++;
		else {
			fprintf(stderr, "rl-flood: %s: %s\n", files[i % nfiles], strerror(e));
			return 1;
		}
	}
	snprintf(line, sizeof(line), "%ld %ld\n", refused, allowed);
	return write(out, line, strlen(line)) == (ssize_t)strlen(line) ? 0 : 1;
}

int main(int argc, char **argv)
{
	long procs = 1, n = 1, refused = 0, allowed = 0, r, a;
	unsigned long secbits = 0;
	enum mode mode = BY_FD;
	int c, pfd[2], bad = 0, status;
	FILE *in;

	while ((c = getopt(argc, argv, "p:n:m:s:")) != -1) {
		switch (c) {
		case 'p':
			procs = strtol(optarg, NULL, 10);
			break;
		case 'n':
			n = strtol(optarg, NULL, 10);
			break;
		case 'm':
			if (!strcmp(optarg, "name"))
				mode = BY_NAME;
			else if (!strcmp(optarg, "stdin"))
				mode = BY_STDIN;
			else if (strcmp(optarg, "fd")) {
				fprintf(stderr, "rl-flood: -m '%s': use fd, name or stdin\n", optarg);
				return 2;
			}
			break;
		case 's':
			secbits = strtoul(optarg, NULL, 0);
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc || argc - optind > 64 || procs < 1 || n < 0) {
		fprintf(stderr, "usage: rl-flood [-p PROCS] [-n CHECKS] [-m fd|name|stdin] "
				"[-s SECBITS] FILE...\n");
		return 2;
	}
	if (secbits && prctl(PR_SET_SECUREBITS, secbits, 0, 0, 0)) {
		perror("rl-flood: PR_SET_SECUREBITS");
		return 1;
	}
	if (pipe(pfd))
		return 1;
	for (long p = 0; p < procs; p++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0) {
			close(pfd[0]);
			_exit(child(argc - optind, argv + optind,
				    n / procs + (p < n % procs), mode, pfd[1]));
		}
	}
	close(pfd[1]);
	in = fdopen(pfd[0], "r");
	while (in && fscanf(in, "%ld %ld", &r, &a) == 2) {
		refused += r;
		allowed += a;
	}
	while (wait(&status) > 0)
		bad |= !WIFEXITED(status) || WEXITSTATUS(status);
	printf("refused %ld\nallowed %ld\n", refused, allowed);
	return bad;
}
