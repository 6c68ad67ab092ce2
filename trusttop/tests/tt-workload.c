// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tt-workload: issue a known number of exec checks through libtrustedfor
 * (trusted_for(2) or AT_EXECVE_CHECK, whatever the kernel has), under a
 * chosen comm, and report what the kernel answered.
 *
 *   tt-workload [-c COMM] [-n COUNT] FILE...
 *   tt-workload -P
 *
 * Each FILE is opened once and checked COUNT times (default 1). Prints
 * "allowed A denied D errors E" and exits 0, or 2 on bad usage, 1 when a
 * FILE cannot be opened.
 *
 * -P prints what the running kernel offers, probed here without
 * libtrustedfor so that the tests have their own opinion: "trusted_for"
 * and/or "execve_check", or "none". No side effect, no syscall 451.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "trustedfor.h"

/*
 * trusted_for(2) exists iff the patched kernel's sysctl does. Mainline
 * >= 6.14 answers execveat(fd, "", AT_EMPTY_PATH | AT_EXECVE_CHECK) on an
 * executable with 0 instead of executing it; older kernels reject the
 * unknown flag with EINVAL. The executable probed is this program: were it
 * ever run, it would print its usage, not a backend name.
 */
static int probe(void)
{
	static char *const argv[] = { "", NULL };
	static char *const envp[] = { NULL };
	bool tf = access("/proc/sys/fs/trust_policy", F_OK) == 0, ec = false;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ec = syscall(SYS_execveat, fd, "", argv, envp,
			     AT_EMPTY_PATH | 0x10000) == 0;
		close(fd);
	}
	printf("%s%s%s\n", tf ? "trusted_for" : "", tf && ec ? " " : "",
	       ec ? "execve_check" : tf ? "" : "none");
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long count = 1, allowed = 0, denied = 0, errors = 0;
	char *end;
	int c;

	while ((c = getopt(argc, argv, "c:n:P")) != -1) {
		switch (c) {
		case 'P':
			return probe();
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
			fprintf(stderr, "usage: tt-workload [-c COMM] [-n COUNT] FILE... | -P\n");
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: tt-workload [-c COMM] [-n COUNT] FILE... | -P\n");
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
