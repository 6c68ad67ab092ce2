// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tt-workload: issue a known number of exec checks through libtrustedfor
 * (trusted_for(2) or AT_EXECVE_CHECK, whatever the kernel has), under a
 * chosen comm, and report what the kernel answered.
 *
 *   tt-workload [-c COMM] [-n COUNT] FILE...
 *
 * Each FILE is opened once and checked COUNT times (default 1). Prints
 * "allowed A denied D errors E" and exits 0, or 2 on bad usage, 1 when a
 * FILE cannot be opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "trustedfor.h"

int main(int argc, char **argv)
{
	unsigned long count = 1, allowed = 0, denied = 0, errors = 0;
	char *end;
	int c;

	while ((c = getopt(argc, argv, "c:n:")) != -1) {
		switch (c) {
		case 'c':
			if (prctl(PR_SET_NAME, optarg, 0, 0, 0)) {
				perror("tt-workload: prctl(PR_SET_NAME)");
				return 1;
			}
			break;
		case 'n':
			errno = 0;
			count = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end) {
				fprintf(stderr, "tt-workload: -n '%s': give a whole number\n", optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: tt-workload [-c COMM] [-n COUNT] FILE...\n");
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: tt-workload [-c COMM] [-n COUNT] FILE...\n");
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			fprintf(stderr, "tt-workload: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		for (unsigned long n = 0; n < count; n++) {
			if (trusted_for_exec(fd) == 0)
				allowed++;
			else if (errno == EACCES)
				denied++;
			else
				errors++;
		}
		close(fd);
	}
	printf("allowed %lu denied %lu errors %lu\n", allowed, denied, errors);
	return 0;
}
