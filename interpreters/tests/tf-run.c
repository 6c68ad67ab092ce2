// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tf-run [--enosys] [--deny-interactive] [--backend] -- CMD [ARG...]
 * Run CMD in a changed environment, for the interpreter tests:
 *  --enosys            execveat(2) fails with ENOSYS (seccomp filter), so
 *                      libtrustedfor finds no kernel interface on a kernel
 *                      without trusted_for(2): the fallback rule applies;
 *  --deny-interactive  set mainline's SECBIT_EXEC_DENY_INTERACTIVE;
 *  --backend           print libtrustedfor's backend name and exit.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trustedfor.h"

#ifndef SECURE_EXEC_DENY_INTERACTIVE
#define SECURE_EXEC_DENY_INTERACTIVE 10
#endif

static int deny_execveat(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execveat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--enosys")) {
			if (deny_execveat() < 0) {
				perror("tf-run: seccomp");
				return 125;
			}
		} else if (!strcmp(argv[i], "--deny-interactive")) {
			int bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);

			if (bits < 0 ||
			    prctl(PR_SET_SECUREBITS,
				  bits | (1 << SECURE_EXEC_DENY_INTERACTIVE), 0,
				  0, 0) < 0) {
				perror("tf-run: PR_SET_SECUREBITS");
				return 125;
			}
		} else if (!strcmp(argv[i], "--backend")) {
			printf("%s\n", tf_backend_name(tf_backend_detect()));
			return 0;
		} else {
			fprintf(stderr, "tf-run: unknown option %s\n", argv[i]);
			return 125;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "usage: tf-run [--enosys] [--deny-interactive] "
				"-- CMD [ARG...]\n");
		return 125;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "tf-run: %s: %s\n", argv[i], strerror(errno));
	return 127;
}
