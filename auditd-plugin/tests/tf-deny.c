// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * VM test helper: ask trusted_for_exec() N times about each FILE and print
 * "denied D allowed A errors E". Copied under different names (python3,
 * perl, ...) it plays differently named interpreters (exe and comm).
 * usage: tf-deny [-n N] FILE...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trustedfor.h"

int main(int argc, char **argv)
{
	unsigned long n = 1, denied = 0, allowed = 0, errors = 0;
	int opt;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n') {
			fprintf(stderr, "usage: tf-deny [-n N] FILE...\n");
			return 2;
		}
		n = strtoul(optarg, NULL, 10);
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: tf-deny [-n N] FILE...\n");
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			fprintf(stderr, "tf-deny: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		for (unsigned long k = 0; k < n; k++) {
			if (trusted_for_exec(fd) == 0)
				allowed++;
			else if (errno == EACCES)
				denied++;
			else
				errors++;
		}
		close(fd);
	}
	printf("denied %lu allowed %lu errors %lu\n", denied, allowed, errors);
	return errors ? 1 : 0;
}
