/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exec securebits (uapi/linux/securebits.h since Linux 6.14, and the
 * trustfor 6.1 series): whether interpreters of this session enforce
 * execveat(AT_EXECVE_CHECK). Documentation/userspace-api/check_exec.rst.
 */
#ifndef PC_SECBITS_H
#define PC_SECBITS_H

#include <stdbool.h>

#include "trustedfor.h" /* TF_SECBIT_EXEC_* */

struct pc_exec_secbit {
	const char *name;    /* "exec_restrict_file" */
	const char *secbit;  /* "SECBIT_EXEC_RESTRICT_FILE" */
	bool on, locked;
	const char *meaning; /* what it does, on or off */
};

/*
 * The two exec securebits of @bits (a PR_GET_SECUREBITS value), in
 * @out[0] (restrict_file) and @out[1] (deny_interactive).
 */
void pc_exec_secbits(unsigned int bits, struct pc_exec_secbit out[2]);

#endif /* PC_SECBITS_H */
