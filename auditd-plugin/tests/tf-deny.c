// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * VM test helper: ask trusted_for_exec() N times about each FILE, or about
 * the inherited descriptor FD (-d: a file opened by the caller, e.g. by a
 * root shell before dropping privileges), and print
 * "denied D allowed A errors E". Copied under different names (python3,
 * perl, ...) it plays differently named interpreters (exe and comm).
 * usage: tf-deny [-n N] FILE...   |   tf-deny [-n N] -d FD
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trustedfor.h"

static unsigned long denied, allowed, errors;

static void ask(int fd, unsigned long n)
{
	for (unsigned long k = 0; k < n; k++) {
		if (trusted_for_exec(fd) == 0)
			allowed++;
		else if (errno == EACCES)
			denied++;
		else
			errors++;
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: tf-deny [-n N] FILE... | tf-deny [-n N] -d FD\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long n = 1;
	int opt, fd = -1;
	char *end;

	while ((opt = getopt(argc, argv, "n:d:")) != -1) {
		if (opt == 'n') {
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
