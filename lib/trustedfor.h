/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libtrustedfor - ask the kernel whether the content of a file descriptor
 * may be executed (interpreted) by user space.
 *
 * Two kernel interfaces answer that question:
 *  - trusted_for(2), syscall 451 on the trustfor-patched Linux 6.1, whose
 *    policy is the fs.trust_policy sysctl;
 *  - mainline's execveat(fd, "", ..., AT_EMPTY_PATH | AT_EXECVE_CHECK)
 *    (Linux >= 6.14).
 *
 * A kernel may offer both (the trustfor 6.1 series from issue 11 on).  Which
 * one answers is the caller's choice (tf_check_exec()); by default
 * (TF_API_DEFAULT, and trusted_for_exec()) it is trusted_for(2) when
 * /proc/sys/fs/trust_policy exists, so that fs.trust_policy keeps governing
 * where it exists, else AT_EXECVE_CHECK.
 *
 * Mainline later gave syscall number 451 to cachestat(2): this library only
 * issues syscall 451 after /proc/sys/fs/trust_policy was seen, and every
 * trustfor tool goes through it instead of calling the syscall itself.
 */
#ifndef TRUSTEDFOR_H
#define TRUSTEDFOR_H

#include <stdbool.h>
#include <stddef.h>

/* Kernel ABI constants (TF_SYSCALL_NR, TF_POLICY_*, TF_REASON_*, ...). */
#include "trustedfor_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The calling thread's securebits (prctl(PR_GET_SECUREBITS)) in *bits.
 * Returns 0, or -1 with errno.  On a kernel without the exec securebits the
 * bits above simply read as 0.
 */
int tf_securebits_get(unsigned int *bits);

enum tf_backend {
	TF_BACKEND_NONE = 0,	 /* the kernel cannot answer */
	TF_BACKEND_TRUSTED_FOR,	 /* trusted_for(2), patched kernel */
	TF_BACKEND_EXECVE_CHECK, /* execveat(AT_EXECVE_CHECK), mainline */
};

/*
 * Which interface this kernel offers; probed once, then cached.
 * Never issues syscall 451 (it looks for TF_POLICY_PATH) and never executes
 * anything (the AT_EXECVE_CHECK probe uses an invalid fd).
 */
enum tf_backend tf_backend_detect(void);
const char *tf_backend_name(enum tf_backend backend);

/* Uncached probes, for tools that report both. */
bool tf_kernel_has_trusted_for(void);
bool tf_kernel_has_execve_check(void);

/*
 * The current fs.trust_policy value (0..3) in *policy.
 * Returns 0, or -1 with errno (ENOENT: kernel without trusted_for,
 * EACCES: not allowed to read it (mode 0600), EPROTO: unparsable).
 */
int tf_policy_read(int *policy);

/* Which kernel interface a check asks. */
enum tf_api {
	/* trusted_for(2) when TF_POLICY_PATH exists, else AT_EXECVE_CHECK */
	TF_API_DEFAULT = 0,
	TF_API_TRUSTED_FOR,  /* trusted_for(2) only, under fs.trust_policy */
	TF_API_EXECVE_CHECK, /* execveat(AT_EXECVE_CHECK) only */
};

/*
 * May the content of @fd be executed by an interpreter, according to @api?
 * Returns 0 when allowed, -1 with errno otherwise:
 *  - EACCES (or, for AT_EXECVE_CHECK, EPERM or ETXTBSY...): refused;
 *  - ENOSYS: the kernel lacks the interface asked for (TF_API_DEFAULT: it
 *    has neither; apply your own rule, see README "When the kernel cannot
 *    answer");
 *  - EPERM: the kernel has the interface (detected) but the call did not
 *    reach it: a seccomp filter answered ENOSYS for its system call.  The
 *    library never passes that ENOSYS on (it would send the caller to the
 *    no-kernel rule while the kernel's policy is in force): treat the file
 *    as refused (fail closed);
 *  - EBADF, EINVAL...
 * When @answered is not NULL it is set to the interface that was asked
 * (TF_BACKEND_NONE when none could be).
 */
int tf_check_exec(int fd, enum tf_api api, enum tf_backend *answered);

/* tf_check_exec(fd, TF_API_DEFAULT, NULL). */
int trusted_for_exec(int fd);

/* Raw trusted_for(2) call; fails with ENOSYS without the patched kernel. */
int tf_trusted_for(int fd, int usage, unsigned int flags);

/* Raw execveat(AT_EXECVE_CHECK) call; ENOSYS on kernels without it. */
int tf_execve_check(int fd);

/*
 * "noexec_mount,file_perm" from a reason bitmask ("-" when 0); unknown bits
 * show as hex. Returns @buf.
 */
const char *tf_reason_str(unsigned int reasons, char *buf, size_t len);
/* Name of one reason bit, NULL when unknown. */
const char *tf_reason_name(unsigned int bit);
/* Parse a comma list back into a bitmask; -1 when a name is unknown. */
int tf_reason_parse(const char *list, unsigned int *reasons);

#ifdef __cplusplus
}
#endif

#endif /* TRUSTEDFOR_H */
