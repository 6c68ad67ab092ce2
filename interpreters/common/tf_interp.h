/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Verdict helpers shared by trusted-python3 and trusted-dash: ask the
 * kernel (libtrustedfor) whether an opened file may be interpreted, apply
 * the documented fallback when the kernel cannot answer, and explain a
 * denial in a few words for the one-line error message.
 */
#ifndef TF_INTERP_H
#define TF_INTERP_H

#include <stddef.h>

/* Exit status of an interpreter that refuses to interpret something. */
#define TFI_EXIT_DENIED 126

enum tfi_verdict {
	TFI_ALLOW = 0,
	TFI_DENY = 1,
};

/*
 * May the content of the opened file @fd be interpreted?
 *  - the kernel answers (trusted_for(2) or AT_EXECVE_CHECK): its verdict;
 *  - it cannot (ENOSYS): fallback rule, deny only files on a noexec mount;
 *  - any other error: deny (fail closed).
 * On TFI_DENY, @reason (size @len) says why, e.g. "on a noexec mount".
 */
enum tfi_verdict tfi_check_fd(int fd, char *reason, size_t len);

/*
 * May code that does not come from a regular file be interpreted
 * (interactive terminal, pipe on stdin, command line -c)?
 * @fd is the descriptor the code arrives on (0 for stdin), or -1 for code
 * given on the command line, which is judged like code arriving on a pipe.
 *  - trusted_for(2): the kernel is asked about that descriptor (or a pipe):
 *    fs.trust_policy 0 allows it, policies 1-3 never trust non-regular files;
 *  - AT_EXECVE_CHECK: denied when the process has the securebit
 *    SECBIT_EXEC_DENY_INTERACTIVE set (mainline's switch for this case);
 *  - the kernel cannot answer: allowed.
 */
enum tfi_verdict tfi_check_nonfile(int fd, char *reason, size_t len);

/*
 * The fallback rule on its own (used when the kernel cannot answer):
 * deny a file on a noexec mount, allow anything else.
 */
enum tfi_verdict tfi_fallback_fd(int fd, char *reason, size_t len);

/* Describe why @fd was denied by the kernel ("on a noexec mount", ...). */
void tfi_explain(int fd, char *reason, size_t len);

#endif /* TF_INTERP_H */
