// SPDX-License-Identifier: GPL-2.0-or-later
/* Naming the exec securebits; see secbits.h. */
#include "secbits.h"

static const struct {
	const char *name, *secbit;
	unsigned int bit, lock;
	const char *meaning_on, *meaning_off;
} exec_bits[2] = {
	{ "exec_restrict_file", "SECBIT_EXEC_RESTRICT_FILE",
	  TF_SECBIT_EXEC_RESTRICT_FILE, TF_SECBIT_EXEC_RESTRICT_FILE_LOCKED,
	  "interpreters refuse files AT_EXECVE_CHECK refuses",
	  "interpreters check files but run them anyway (check --if-restrict-file: what would break)" },
	{ "exec_deny_interactive", "SECBIT_EXEC_DENY_INTERACTIVE",
	  TF_SECBIT_EXEC_DENY_INTERACTIVE, TF_SECBIT_EXEC_DENY_INTERACTIVE_LOCKED,
	  "interpreters refuse -c, interactive use and code on a descriptor AT_EXECVE_CHECK refuses (a pipe)",
	  "interactive use and -c are allowed" },
};

void pc_exec_secbits(unsigned int bits, struct pc_exec_secbit out[2])
{
	for (int i = 0; i < 2; i++) {
		out[i] = (struct pc_exec_secbit){
			.name = exec_bits[i].name,
			.secbit = exec_bits[i].secbit,
			.on = bits & exec_bits[i].bit,
			.locked = bits & exec_bits[i].lock,
		};
		out[i].meaning = out[i].on ? exec_bits[i].meaning_on :
					     exec_bits[i].meaning_off;
	}
}
