// SPDX-License-Identifier: GPL-2.0-or-later
/* Naming the exec securebits; see secbits.h. */
#include "secbits.h"

void pc_exec_secbits(unsigned int bits, struct pc_exec_secbit out[2])
{
	out[0] = (struct pc_exec_secbit){
		.name = "exec_restrict_file",
		.secbit = "SECBIT_EXEC_RESTRICT_FILE",
		.on = bits & TF_SECBIT_EXEC_RESTRICT_FILE,
		.locked = bits & TF_SECBIT_EXEC_RESTRICT_FILE_LOCKED,
	};
	out[0].meaning = out[0].on ?
		"interpreters refuse files AT_EXECVE_CHECK refuses" :
		"interpreters check files but run them anyway (check --if-restrict-file: what would break)";
	out[1] = (struct pc_exec_secbit){
		.name = "exec_deny_interactive",
		.secbit = "SECBIT_EXEC_DENY_INTERACTIVE",
		.on = bits & TF_SECBIT_EXEC_DENY_INTERACTIVE,
		.locked = bits & TF_SECBIT_EXEC_DENY_INTERACTIVE_LOCKED,
	};
	out[1].meaning = out[1].on ?
		"interpreters refuse -c, interactive use and code on a descriptor AT_EXECVE_CHECK refuses (a pipe)" :
		"interactive use and -c are allowed";
}
