// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tf-run [--enosys] [--filter-only] [--deny-interactive] [--secbits VALUE]
 *        -- CMD [ARG...]
 * Run CMD in a changed environment, for the interpreter tests:
 *  --enosys            hide the kernel's interfaces completely, as on a
 *                      kernel that has neither: in a private mount
 *                      namespace, an empty read-only tmpfs over
 *                      /proc/sys/fs (no fs.trust_policy to be seen), and
 *                      execveat(2) and syscall 451 (trusted_for(2) on the
 *                      trustfor kernel) fail with ENOSYS (seccomp filter),
 *                      so libtrustedfor gets no answer from the kernel on
 *                      any kernel: the fallback rule applies (root only);
 *  --filter-only       the seccomp filter alone, the sysctl left visible:
 *                      a kernel with the interface behind a container
 *                      profile that does not know its system call;
 *  --deny-interactive  set mainline's SECBIT_EXEC_DENY_INTERACTIVE;
 *  --secbits VALUE     set the exec securebits (0x100 SECBIT_EXEC_RESTRICT_FILE,
 *                      0x400 SECBIT_EXEC_DENY_INTERACTIVE, mainline's values,
 *                      written here from check_exec.rst, not from
 *                      libtrustedfor) to exactly VALUE, the other bits kept.
 * What the kernel offers, and its verdicts, are the test probe's
 * (tests/probe: probe --kernel, probe --backend).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
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
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execveat, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TF_SYSCALL_NR, 0, 1),
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

/* An empty read-only tmpfs over /proc/sys/fs, in a mount namespace of our
 * own: TF_POLICY_PATH is gone for this process and its children only.
 */
static int hide_trust_policy(void)
{
	if (unshare(CLONE_NEWNS) < 0) {
		perror("tf-run: unshare(CLONE_NEWNS)");
		return -1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		perror("tf-run: private mounts");
		return -1;
	}
	if (mount("tf-hide", "/proc/sys/fs", "tmpfs", MS_RDONLY | MS_NOSUID |
		  MS_NODEV | MS_NOEXEC, "mode=0555") < 0) {
		perror("tf-run: tmpfs over /proc/sys/fs");
		return -1;
	}
	if (access(TF_POLICY_PATH, F_OK) == 0) {
		fprintf(stderr, "tf-run: %s still visible\n", TF_POLICY_PATH);
		return -1;
	}
	return 0;
}

/* The exec securebits (bits 8-11) set to exactly @value. */
static int set_exec_secbits(unsigned long value)
{
	int bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	unsigned long want;

	if (bits < 0 || value & ~0xf00ul)
		return -1;
	want = ((unsigned long)bits & ~0xf00ul) | value;
	if (want == (unsigned long)bits)
		return 0; /* unchanged: mainline's legacy EPERM */
	return prctl(PR_SET_SECUREBITS, want, 0, 0, 0);
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--enosys")) {
			if (hide_trust_policy() < 0)
				return 125;
			if (deny_execveat() < 0) {
				perror("tf-run: seccomp");
				return 125;
			}
		} else if (!strcmp(argv[i], "--filter-only")) {
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
		} else if (!strcmp(argv[i], "--secbits") && i + 1 < argc) {
			char *end;
			unsigned long v = strtoul(argv[++i], &end, 0);

			if (*end || set_exec_secbits(v) < 0) {
				fprintf(stderr, "tf-run: --secbits %s: %s\n",
					argv[i], *end ? "not a number" :
					strerror(errno));
				return 125;
			}
		} else {
			fprintf(stderr, "tf-run: unknown option %s\n", argv[i]);
			return 125;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "usage: tf-run [--enosys] [--filter-only] [--deny-interactive] "
				"[--secbits VALUE] -- CMD [ARG...]\n");
		return 125;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "tf-run: %s: %s\n", argv[i], strerror(errno));
	return 127;
}
