// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tf-verdict FILE...: the kernel's own verdict for each file, as a script
 * interpreter would get it: open it, call trusted_for_exec() on the fd.
 * "-" stands for the inherited stdin, asked about as it is (a pipe stays
 * that pipe, a terminal that terminal: nothing is reopened).
 * Prints one word a file: "allow", "deny" or "error:<errno name>".
 * Exit 0 when every file was allowed, 1 when one was denied, 2 on errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "trustedfor.h"

int main(int argc, char **argv)
{
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: tf-verdict FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		int is_stdin = !strcmp(argv[i], "-");
		int fd = is_stdin ? STDIN_FILENO :
				    open(argv[i], O_RDONLY | O_CLOEXEC | O_NOCTTY);

		if (fd < 0) {
			fprintf(stderr, "tf-verdict: %s: %s\n", argv[i],
				strerror(errno));
			printf("error:open\n");
			rc = 2;
			continue;
		}
		if (trusted_for_exec(fd) == 0) {
			printf("allow\n");
		} else if (errno == EACCES) {
			printf("deny\n");
			if (rc == 0)
				rc = 1;
		} else {
			printf("error:%s\n", errno == ENOSYS ? "ENOSYS" :
							      strerror(errno));
			rc = 2;
		}
		if (!is_stdin)
			close(fd);
	}
	return rc;
}
