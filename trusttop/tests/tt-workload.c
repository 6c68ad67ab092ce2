// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tt-workload: issue a known number of exec checks through libtrustedfor
 * (trusted_for(2) or AT_EXECVE_CHECK: libtrustedfor's default, or the one
 * -a names), under a chosen comm, and report what the kernel answered.
 *
 *   tt-workload [-c COMM] [-n COUNT] [-a API] [-S SECBITS] [-W] FILE...
 *   tt-workload -P
 *
 * Each FILE is opened once (-W: read-write, so that execve(2) would find
 * it busy) and checked COUNT times (default 1). -a trusted_for or
 * execve_check picks the interface; -S sets the securebits first
 * (prctl(PR_SET_SECUREBITS), a number such as 0x100). Prints
 * "allowed A denied D errors E", where a denial is a refusal of the file
 * (EACCES, EPERM, or ETXTBSY from AT_EXECVE_CHECK), and exits 0, or 2 on
 * bad usage, 1 when a FILE cannot be opened or the interface or the
 * securebits are refused.
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
	unsigned long count = 1, allowed = 0, denied = 0, errors = 0, bits;
	enum tf_api api = TF_API_DEFAULT;
	int c, oflags = O_RDONLY | O_CLOEXEC;
	char *end;

	while ((c = getopt(argc, argv, "c:n:a:S:WP")) != -1) {
		switch (c) {
		case 'P':
			return probe();
		case 'a':
			if (!strcmp(optarg, "trusted_for")) {
				api = TF_API_TRUSTED_FOR;
			} else if (!strcmp(optarg, "execve_check")) {
				api = TF_API_EXECVE_CHECK;
			} else {
				fprintf(stderr, "tt-workload: -a '%s': use trusted_for or execve_check\n", optarg);
				return 2;
			}
			break;
		case 'S':
			errno = 0;
			bits = strtoul(optarg, &end, 0);
			if (errno || end == optarg || *end) {
				fprintf(stderr, "tt-workload: -S '%s': give the securebits as a number\n", optarg);
				return 2;
			}
			if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0)) {
				perror("tt-workload: prctl(PR_SET_SECUREBITS)");
				return 1;
			}
			break;
		case 'W':
			oflags = O_RDWR | O_CLOEXEC;
			break;
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
			fprintf(stderr, "usage: tt-workload [-c COMM] [-n COUNT] [-a API] [-S SECBITS] [-W] FILE... | -P\n");
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: tt-workload [-c COMM] [-n COUNT] [-a API] [-S SECBITS] [-W] FILE... | -P\n");
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		int fd = open(argv[i], oflags);

		if (fd < 0) {
			fprintf(stderr, "tt-workload: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		for (unsigned long n = 0; n < count; n++) {
			enum tf_backend by = TF_BACKEND_NONE;

			if (tf_check_exec(fd, api, &by) == 0)
				allowed++;
			else if (errno == EACCES || errno == EPERM ||
				 (errno == ETXTBSY && by == TF_BACKEND_EXECVE_CHECK))
				denied++;
			else if (errno == ENOSYS) {
				fprintf(stderr, "tt-workload: %s: the kernel lacks the interface asked for\n", argv[i]);
				return 1;
			} else
				errors++;
		}
		close(fd);
	}
	printf("allowed %lu denied %lu errors %lu\n", allowed, denied, errors);
	return 0;
}
