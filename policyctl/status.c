// SPDX-License-Identifier: GPL-2.0-or-later
/* `policyctl status`: what this kernel offers and the current policy. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "report.h"
#include "secbits.h"
#include "trustedfor.h"

static const char *const bit_text[2][2] = {
	{ "noexec mounts are not checked",
	  "files on noexec mounts and pseudo filesystems are denied" },
	{ "the exec permission is not checked",
	  "the caller needs exec (and read) permission on the file" },
};

int pc_cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	bool json = false, has_tf, has_ec;
	int c, policy = -1, perr = 0;
	enum tf_backend be;
	struct pc_exec_secbit sb[2];
	int secbits, berr = 0;
	unsigned int ubits;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			printf("usage: policyctl status [--json]\n");
			return PC_EXIT_OK;
		default:
			pc_bad_option("status", c, argv, opts,
				      "policyctl status [--json]");
			return PC_EXIT_ERROR;
		}
	}
	if (optind < argc) {
		pc_err("status: unexpected argument '%s'; usage: policyctl status [--json]",
		       argv[optind]);
		return PC_EXIT_ERROR;
	}
	has_tf = tf_kernel_has_trusted_for();
	has_ec = tf_kernel_has_execve_check();
	be = tf_backend_detect();
	/* this process's, inherited from whoever started it (the session) */
	if (tf_securebits_get(&ubits) < 0) {
		berr = errno;
		secbits = -1;
	} else {
		secbits = (int)ubits;
	}
	pc_exec_secbits(secbits < 0 ? 0 : (unsigned int)secbits, sb);
	if (has_tf && tf_policy_read(&policy) < 0) {
		perr = errno;
		policy = -1;
	}

	if (json) {
		struct json_object *o = json_object_new_object(), *bits;

		json_object_object_add(o, "trusted_for", json_object_new_boolean(has_tf));
		json_object_object_add(o, "policy_path", json_object_new_string(TF_POLICY_PATH));
		json_object_object_add(o, "policy",
				       policy >= 0 ? json_object_new_int(policy) : NULL);
		if (has_tf && policy < 0)
			json_object_object_add(o, "policy_error",
					       json_object_new_string(strerror(perr)));
		bits = json_object_new_array();
		for (int b = 0; b < 2 && policy >= 0; b++) {
			struct json_object *e = json_object_new_object();
			bool on = policy & (1 << b);

			json_object_object_add(e, "bit", json_object_new_int(b));
			json_object_object_add(e, "name", json_object_new_string(
				b ? "exec_permission" : "noexec_mount"));
			json_object_object_add(e, "enabled", json_object_new_boolean(on));
			json_object_object_add(e, "meaning",
					       json_object_new_string(bit_text[b][on]));
			json_object_array_add(bits, e);
		}
		json_object_object_add(o, "bits", bits);
		json_object_object_add(o, "execve_check", json_object_new_boolean(has_ec));
		json_object_object_add(o, "backend",
				       json_object_new_string(tf_backend_name(be)));
		if (secbits >= 0) {
			struct json_object *e = json_object_new_object();

			json_object_object_add(e, "securebits", json_object_new_int(secbits));
			for (int b = 0; b < 2; b++) {
				struct json_object *x = json_object_new_object();

				json_object_object_add(x, "enabled", json_object_new_boolean(sb[b].on));
				json_object_object_add(x, "locked", json_object_new_boolean(sb[b].locked));
				json_object_object_add(x, "meaning", json_object_new_string(sb[b].meaning));
				json_object_object_add(e, sb[b].name, x);
			}
			/* a kernel without AT_EXECVE_CHECK does not know these bits */
			json_object_object_add(e, "honoured", json_object_new_boolean(has_ec));
			json_object_object_add(o, "exec_securebits", e);
		} else {
			json_object_object_add(o, "exec_securebits", NULL);
			json_object_object_add(o, "exec_securebits_error",
					       json_object_new_string(strerror(berr)));
		}
		pc_json_print(o, stdout);
		json_object_put(o);
		return PC_EXIT_OK;
	}

	if (has_tf)
		printf("trusted_for(2):   available (%s exists)\n", TF_POLICY_PATH);
	else
		printf("trusted_for(2):   not in this kernel (no %s); policyctl check still works, apply does not\n",
		       TF_POLICY_PATH);
	if (policy >= 0) {
		printf("fs.trust_policy:  %d\n", policy);
		for (int b = 0; b < 2; b++) {
			bool on = policy & (1 << b);

			printf("  bit %d (%d) %-16s %-3s  %s\n", b, 1 << b,
			       b ? "exec permission" : "noexec mount",
			       on ? "on" : "off", bit_text[b][on]);
		}
	} else if (has_tf) {
		printf("fs.trust_policy:  unreadable: %s%s\n", strerror(perr),
		       perr == EACCES ? " (it is mode 0600: run as root)" : "");
	}
	printf("AT_EXECVE_CHECK:  %s\n",
	       has_ec ? "available (mainline execveat check)" : "not available");
	printf("backend:          %s\n", tf_backend_name(be));
	if (secbits < 0) {
		printf("exec securebits:  unreadable: %s\n", strerror(berr));
	} else if (!has_ec) {
		printf("exec securebits:  0x%x (this process); this kernel has no AT_EXECVE_CHECK: no interpreter enforces anything\n",
		       (unsigned int)secbits);
	} else {
		printf("exec securebits:  0x%x (this process, inherited by what it starts)\n",
		       (unsigned int)secbits);
		for (int b = 0; b < 2; b++)
			printf("  %-28s %-3s %-6s  %s\n", sb[b].secbit,
			       sb[b].on ? "on" : "off",
			       sb[b].locked ? "locked" : "", sb[b].meaning);
	}
	return PC_EXIT_OK;
}
