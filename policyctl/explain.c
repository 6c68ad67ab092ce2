// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `policyctl explain`: the evaluator's verdict for named files, one line per
 * file and subject. The files may be of any type (a fifo, a device, a
 * /proc/PID/fd/N link to a pipe or memfd); symlinks are followed, as
 * open(2) of that path would.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "escape.h"
#include "facts.h"
#include "options.h"
#include "report.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: policyctl explain --policy N [--user NAME|UID]... [--json] FILE...\n"
			"       policyctl explain --if-restrict-file|--model execve_check [--user NAME|UID]...\n"
			"                         [--json] FILE...\n");
}

int pc_cmd_explain(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "user", required_argument, NULL, 'u' },
		{ "model", required_argument, NULL, 'm' },
		{ "if-restrict-file", no_argument, NULL, 'R' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct pc_check c = { .policy = -1 };
	enum pc_model model = PC_MODEL_TRUSTED_FOR;
	struct json_object *arr = NULL;
	struct pc_writers writers = { 0 };
	bool json = false, any_denied = false, failed = false;
	char err[512], rs[128];
	int ch, rc = PC_EXIT_ERROR;

	c.users = calloc((size_t)argc + 1, sizeof(*c.users));
	if (!c.users)
		return PC_EXIT_ERROR;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":p:u:m:jh", opts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (pc_opt_policy("explain", optarg, &c) < 0)
				goto out;
			break;
		case 'u':
			if (pc_opt_user("explain", optarg, &c) < 0)
				goto out;
			break;
		case 'm':
			if (pc_opt_model("explain", optarg, &model) < 0)
				goto out;
			break;
		case 'R':
			model = PC_MODEL_EXECVE_CHECK;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			rc = PC_EXIT_OK;
			goto out;
		default:
			pc_bad_option("explain", ch, argv, opts, NULL);
			usage(stderr);
			goto out;
		}
	}
	if (c.policy < 0 && model == PC_MODEL_TRUSTED_FOR) {
		pc_err("explain: --policy N is required (0..3)");
		usage(stderr);
		goto out;
	}
	if (model == PC_MODEL_EXECVE_CHECK && c.policy >= 0) {
		pc_err("explain: --policy is for trusted_for(2); execveat(AT_EXECVE_CHECK) has none");
		goto out;
	}
	if (optind >= argc) {
		pc_err("explain: name at least one FILE");
		usage(stderr);
		goto out;
	}
	if (pc_check_init(&c, err, sizeof(err)) < 0) {
		pc_err("explain: %s", err);
		goto out;
	}
	if (model == PC_MODEL_EXECVE_CHECK &&
	    pc_writers_load(&writers, "/proc") < 0) {
		pc_err("explain: cannot list the files open for writing in /proc: %s",
		       strerror(errno));
		goto out;
	}
	if (json)
		arr = json_object_new_array();
	for (int i = optind; i < argc; i++) {
		const char *path = argv[i];
		struct pc_file_facts f;
		struct pc_fsinfo fs;
		struct statx stx;
		struct pc_user *subs[c.nusers ? c.nusers : 2];
		size_t n;

		const char *why = NULL;

		if (statx(AT_FDCWD, path, 0, STATX_TYPE | STATX_MODE |
			  STATX_UID | STATX_GID | STATX_INO | STATX_MNT_ID, &stx) < 0 ||
		    pc_facts_fs(&c.mounts, &stx, path, &fs, &why) < 0 ||
		    pc_facts_load(&f, &stx, -1, path) < 0) {
			pc_err("explain: %s: %s", path, why ? why : strerror(errno));
			failed = true;
			continue;
		}
		f.ino.open_for_write = pc_writers_has(&writers, &stx);
		n = pc_check_subjects(&c, stx.stx_uid, subs,
				      c.nusers ? c.nusers : 2);
		for (size_t s = 0; s < n; s++) {
			unsigned int r = pc_eval(c.policy, model, &fs, &f.ino,
						 &subs[s]->cred);

			any_denied |= r != 0;
			if (json) {
				struct json_object *o = json_object_new_object();

				pc_json_add_bytes(o, "path", path);
				pc_json_add_bytes(o, "user", subs[s]->name);
				json_object_object_add(o, "uid", json_object_new_int64(subs[s]->uid));
				if (model == PC_MODEL_EXECVE_CHECK) {
					json_object_object_add(o, "policy", NULL);
					json_object_object_add(o, "model",
							       json_object_new_string("execve_check"));
				} else {
					json_object_object_add(o, "policy",
							       json_object_new_int(c.policy));
				}
				json_object_object_add(o, "verdict",
						       json_object_new_string(r ? "deny" : "allow"));
				json_object_object_add(o, "reasons", pc_json_reasons(r));
				json_object_array_add(arr, o);
			} else {
				printf("%s %s ", r ? "deny " : "allow",
				       tf_reason_str(r, rs, sizeof(rs)));
				if (model == PC_MODEL_EXECVE_CHECK)
					printf("model=execve_check user=");
				else
					printf("policy=%d user=", c.policy);
				tf_fputs_escaped(subs[s]->name, stdout);
				putchar(' ');
				tf_fputs_escaped(path, stdout);
				putchar('\n');
			}
		}
	}
	if (json)
		pc_json_print(arr, stdout);
	rc = failed ? PC_EXIT_ERROR : any_denied ? PC_EXIT_DENIED : PC_EXIT_OK;
out:
	pc_writers_free(&writers);
	json_object_put(arr);
	pc_check_free(&c);
	free(c.users);
	return rc;
}
