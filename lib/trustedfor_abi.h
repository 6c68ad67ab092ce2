/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trustedfor_abi.h - the kernel ABI of trusted_for(2), fs.trust_policy and
 * AT_EXECVE_CHECK as plain constants: numbers and one path, nothing else.
 *
 * It includes no header at all, so that BPF programs (clang -target bpf,
 * with vmlinux.h instead of libc) share these values with user space.
 * trustedfor.h includes it; both are installed side by side.
 */
#ifndef TRUSTEDFOR_ABI_H
#define TRUSTEDFOR_ABI_H

/* ABI of the patched kernel (kernel/patches/). */
#define TF_SYSCALL_NR 451
#define TF_USAGE_EXECUTION 1 /* TRUSTED_FOR_EXECUTION */
#define TF_POLICY_PATH "/proc/sys/fs/trust_policy"
#define TF_AUDIT_TYPE 1350 /* AUDIT_TRUSTED_FOR */

/*
 * trustfor-relay's record (issue 25): one per execveat(AT_EXECVE_CHECK)
 * refusal seen through BPF on a kernel that logs none, written through
 * libaudit's user-message interface.  A user record type from the range
 * the kernel leaves to user space (AUDIT_FIRST_USER_MSG2..LAST, 2100-2999),
 * outside the blocks libaudit names (anomalies 2100-2299, LSPP 2300-2399,
 * crypto 2400-2499, virt 2500-2599).  docs/CONVENTIONS.md has its fields.
 */
#define TF_AUDIT_USER_TYPE 2650

/* fs.trust_policy bits. */
#define TF_POLICY_EXEC_MOUNT 0x1u /* honour noexec mounts */
#define TF_POLICY_EXEC_FILE 0x2u  /* require the exec permission */
#define TF_POLICY_MAX 3

/* Deny reasons: bitmask of the tracepoint's reason/would_deny fields. */
#define TF_REASON_NOEXEC_MOUNT 0x1u
#define TF_REASON_FILE_PERM 0x2u
#define TF_REASON_NOT_REGULAR 0x4u
#define TF_REASON_PSEUDO_FS 0x8u
/* Only for execveat(AT_EXECVE_CHECK) refusals on the patched kernel: */
#define TF_REASON_WRITE_BUSY 0x10u /* ETXTBSY: the file is open for writing */
#define TF_REASON_LSM 0x20u	   /* an LSM refused the exec credentials */
/*
 * Both interfaces, patched kernel: the check itself failed with an error
 * that is not a refusal (the filesystem's permission or open method
 * returned EIO, ESTALE...: a FUSE server, NFS).  The file could not be
 * checked, and a caller that honours the check refuses it; the call
 * returns that error, not EACCES.  Never in trusted_for_verdict's
 * would_deny, which does not ask the filesystem.
 */
#define TF_REASON_CHECK_ERROR 0x40u
#define TF_REASON_ALL 0x7fu
#define TF_REASON_COUNT 7
/*
 * Bytes of the longest canonical list, all TF_REASON_COUNT names joined by
 * commas, with its NUL: what tf_reason_str() needs for any mask within
 * TF_REASON_ALL (lib's tests check it against the names).
 */
#define TF_REASON_STR_MAX 72

/* Mainline's execveat(2) flag (uapi/linux/fcntl.h since 6.14). */
#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK 0x10000
#endif

/*
 * Mainline's exec securebits (uapi/linux/securebits.h since 6.14, and the
 * trustfor 6.1 series from issue 11 on), as bits of PR_GET_SECUREBITS.
 * check_exec.rst: an interpreter always asks AT_EXECVE_CHECK about the
 * file it interprets but enforces the answer only under
 * TF_SECBIT_EXEC_RESTRICT_FILE; under TF_SECBIT_EXEC_DENY_INTERACTIVE it
 * refuses interactive code (-c, -i, a terminal), and code arriving on a
 * descriptor unless AT_EXECVE_CHECK on that descriptor succeeds.
 */
#define TF_SECBIT_EXEC_RESTRICT_FILE 0x100u	   /* bit 8 */
#define TF_SECBIT_EXEC_RESTRICT_FILE_LOCKED 0x200u    /* bit 9 */
#define TF_SECBIT_EXEC_DENY_INTERACTIVE 0x400u	   /* bit 10 */
#define TF_SECBIT_EXEC_DENY_INTERACTIVE_LOCKED 0x800u /* bit 11 */

/*
 * Whether a refused AT_EXECVE_CHECK is enforced by its caller: the rule of
 * the trustfor kernel's enforced= field and of its tracepoint's reason
 * (check_exec.rst). @secbits: the caller's securebits; @on_stdin: the call
 * checked descriptor 0 itself (dfd 0, AT_EMPTY_PATH, an empty name), which
 * the kernel takes for code read on standard input: interactive input,
 * governed by TF_SECBIT_EXEC_DENY_INTERACTIVE alone, as in the kernel's
 * table of the securebits; any other check is of a file, governed by
 * TF_SECBIT_EXEC_RESTRICT_FILE. Nothing tells the kernel why a file is
 * checked: under TF_SECBIT_EXEC_DENY_INTERACTIVE alone a check of code
 * read on another descriptor counts as not enforced.
 */
static inline int tf_ec_enforced(unsigned int secbits, int on_stdin)
{
	if (on_stdin)
		return !!(secbits & TF_SECBIT_EXEC_DENY_INTERACTIVE);
	return !!(secbits & TF_SECBIT_EXEC_RESTRICT_FILE);
}

#endif /* TRUSTEDFOR_ABI_H */
