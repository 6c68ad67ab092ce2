// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * VM test helper: ask trusted_for_exec() N times about each FILE, or about
 * the inherited descriptor FD (-d: a file opened by the caller, e.g. by a
 * root shell before dropping privileges), and print
 * "denied D allowed A errors E". Copied under different names (python3,
 * perl, ...) it plays differently named interpreters (exe and comm).
 * -x asks execveat(AT_EXECVE_CHECK) instead (issue 11): a refusal is
 * EACCES, EPERM or ETXTBSY; -s BITS first ORs BITS into the process's
 * securebits (prctl PR_SET_SECUREBITS), e.g. -s 0x100 for
 * SECBIT_EXEC_RESTRICT_FILE: an interpreter that enforces the verdict.
 * usage: tf-deny [-x] [-s BITS] [-n N] FILE...   |   tf-deny [-x] [-s BITS] [-n N] -d FD
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "trustedfor.h"

static unsigned long denied, allowed, errors;
static int execve_check;

static void ask(int fd, unsigned long n)
{
	for (unsigned long k = 0; k < n; k++) {
		if ((execve_check ? tf_execve_check(fd) : trusted_for_exec(fd)) == 0)
			allowed++;
		else if (errno == EACCES ||
			 (execve_check && (errno == EPERM || errno == ETXTBSY)))
			denied++;
		else
			errors++;
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: tf-deny [-x] [-s BITS] [-n N] FILE... | tf-deny [-x] [-s BITS] [-n N] -d FD\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long n = 1;
	int opt, fd = -1;
	char *end;

	while ((opt = getopt(argc, argv, "n:d:xs:")) != -1) {
		if (opt == 'x') {
			execve_check = 1;
		} else if (opt == 's') {
			unsigned long bits;
			int cur;

			errno = 0;
			bits = strtoul(optarg, &end, 0);
			cur = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
			if (errno || *end || cur < 0 ||
			    prctl(PR_SET_SECUREBITS, (unsigned long)cur | bits, 0, 0, 0)) {
				fprintf(stderr, "tf-deny: -s %s: %s\n", optarg,
					errno ? strerror(errno) : "not a number");
				return 2;
			}
		} else if (opt == 'n') {
			n = strtoul(optarg, NULL, 10);
		} else if (opt == 'd') {
			errno = 0;
			fd = (int)strtol(optarg, &end, 10);
			if (errno || *end || fd < 0 || fcntl(fd, F_GETFD) < 0) {
				fprintf(stderr, "tf-deny: -d %s: not an open descriptor\n", optarg);
				return 2;
			}
		} else {
			return usage();
		}
	}
	if ((fd < 0) == (optind >= argc))
		return usage();
	if (fd >= 0)
		ask(fd, n);
	for (int i = optind; i < argc; i++) {
		fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "tf-deny: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		ask(fd, n);
		close(fd);
	}
	printf("denied %lu allowed %lu errors %lu\n", denied, allowed, errors);
	return errors ? 1 : 0;
}
