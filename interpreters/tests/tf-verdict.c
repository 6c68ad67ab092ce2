// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tf-verdict [--trusted-for | --execve-check] FILE...: the kernel's own
 * verdict for each file, as a script interpreter would get it: open it, ask
 * about the fd.  "-" stands for the inherited stdin, asked about as it is
 * (a pipe stays that pipe, a terminal that terminal: nothing is reopened).
 *   (default)       trusted_for_exec() on the fd (libtrustedfor's default
 *                   backend: trusted_for(2) where fs.trust_policy exists);
 *   --trusted-for   syscall 451 itself, without libtrustedfor, and only
 *                   where /proc/sys/fs/trust_policy exists (else ENOSYS:
 *                   451 is cachestat(2) on mainline);
 *   --execve-check  execveat(fd, "", ..., AT_EMPTY_PATH | AT_EXECVE_CHECK)
 *                   itself, without libtrustedfor: the answer an
 *                   interpreter gets whatever fs.trust_policy says.
 * The raw modes let a test compare an interpreter with each of the kernel's
 * two interfaces, not with the library the interpreter links.
 * Prints one word a file: "allow", "deny" (EACCES) or "error:<errno name>".
 * Exit 0 when every file was allowed, 1 when one was denied, 2 on errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trustedfor.h"

enum mode { LIB, RAW_TRUSTED_FOR, RAW_EXECVE_CHECK };

/* 0, or -1 with errno, as trusted_for_exec() */
static int ask(enum mode mode, int fd)
{
	static char *const argv[] = { "tf-verdict", NULL };
	static char *const envp[] = { NULL };

	switch (mode) {
	case RAW_TRUSTED_FOR:
		if (access(TF_POLICY_PATH, F_OK) != 0) {
			errno = ENOSYS;
			return -1;
		}
		return syscall(TF_SYSCALL_NR, fd, TF_USAGE_EXECUTION, 0) ? -1 : 0;
	case RAW_EXECVE_CHECK:
		return syscall(SYS_execveat, fd, "", argv, envp,
			       AT_EMPTY_PATH | AT_EXECVE_CHECK) ? -1 : 0;
	default:
		return trusted_for_exec(fd);
	}
}

int main(int argc, char **argv)
{
	enum mode mode = LIB;
	int rc = 0, first = 1;

	if (argc > 1 && !strcmp(argv[1], "--trusted-for"))
		mode = RAW_TRUSTED_FOR, first = 2;
	else if (argc > 1 && !strcmp(argv[1], "--execve-check"))
		mode = RAW_EXECVE_CHECK, first = 2;
	if (argc <= first) {
		fprintf(stderr, "usage: tf-verdict [--trusted-for | --execve-check] FILE...\n");
		return 2;
	}
	for (int i = first; i < argc; i++) {
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
		if (ask(mode, fd) == 0) {
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
