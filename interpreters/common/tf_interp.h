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
 *  - AT_EXECVE_CHECK, when the kernel has it, is always asked, and its
 *    refusal enforced only when SECBIT_EXEC_RESTRICT_FILE is set
 *    (check_exec.rst);
 *  - trusted_for(2), when the kernel has it, is asked too and enforced as
 *    fs.trust_policy says (the kernel applies the policy);
 *  - refused when either enforced check refuses;
 *  - the kernel has neither: fallback rule, deny only files on a noexec
 *    mount;
 *  - any other error of an enforced check: deny (fail closed), including
 *    libtrustedfor's EPERM for a call a seccomp filter kept from a kernel
 *    that has the interface.
 * On TFI_DENY, @reason (size @len) says why and names the check, e.g.
 * "on a noexec mount (trusted_for)" or "no execute permission
 * (AT_EXECVE_CHECK, SECBIT_EXEC_RESTRICT_FILE is set)".
 */
enum tfi_verdict tfi_check_fd(int fd, char *reason, size_t len);

/*
 * May code that does not come from a regular file be interpreted
 * (a terminal or pipe on stdin, a command line -c)?
 * @fd is the descriptor the code arrives on (0 for stdin), or -1 for code
 * given on the command line, which is judged like code arriving on a pipe.
 *  - SECBIT_EXEC_DENY_INTERACTIVE set: -c and a terminal are refused; code
 *    on another descriptor only if AT_EXECVE_CHECK on it succeeds (a pipe
 *    never does);
 *  - trusted_for(2): the kernel is asked about that descriptor (or a pipe):
 *    fs.trust_policy 0 allows it, policies 1-3 never trust non-regular
 *    files;
 *  - otherwise allowed.
 */
enum tfi_verdict tfi_check_nonfile(int fd, char *reason, size_t len);

/*
 * Commands read from stdin: interactive input (check_exec.rst), whatever
 * stdin is.  @interactive: the user asked for an interactive session (-i).
 * Under SECBIT_EXEC_DENY_INTERACTIVE, -i and a terminal are refused, and
 * any other stdin must pass AT_EXECVE_CHECK.  SECBIT_EXEC_RESTRICT_FILE
 * does not apply: a regular file on stdin is asked about but only
 * trusted_for(2) (or the fallback rule) can refuse it, as it would the
 * same file as a script; anything else is judged as in
 * tfi_check_nonfile().
 */
enum tfi_verdict tfi_check_stdin(int interactive, char *reason, size_t len);

/*
 * Interactive use that reads no descriptor of its own (-i after a script):
 * refused when SECBIT_EXEC_DENY_INTERACTIVE is set.
 */
enum tfi_verdict tfi_check_interactive(char *reason, size_t len);

#endif /* TF_INTERP_H */
