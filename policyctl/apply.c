// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `policyctl apply` and `policyctl rollback`.
 *
 * apply: kernel support and CAP_SYS_ADMIN are checked first, then the dry
 * run; denials refuse the change unless --force. Before the sysctl is
 * written, the current value is recorded in the state file
 * (PC_STATE_FILE, or --state FILE, or $POLICYCTL_STATE) so that `rollback`
 * can restore it. The value is read back after the write. --persist also
 * replaces PC_SYSCTL_CONF atomically.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sys/capability.h>

#include "atomic_file.h"
#include "caps.h"
#include "check.h"
#include "cli.h"
#include "escape.h"
#include "fsutil.h"
#include "options.h"
#include "report.h"
#include "trustedfor.h"

#define PC_STATE_FILE "/var/lib/policyctl/last-apply"
#define PC_SYSCTL_CONF "/etc/sysctl.d/60-trust-policy.conf"

static const char *state_path(const char *opt)
{
	const char *env = getenv("POLICYCTL_STATE");

	if (opt)
		return opt;
	return env && *env ? env : PC_STATE_FILE;
}

static const char *conf_path(void)
{
	const char *env = getenv("POLICYCTL_SYSCTL_CONF");

	return env && *env ? env : PC_SYSCTL_CONF;
}

/* Common preconditions of apply and rollback; 0 or an exit status. */
static int preflight(const char *cmd)
{
	int cap;

	if (!tf_kernel_has_trusted_for()) {
		pc_err("%s: this kernel has no trusted_for(2) (no %s); nothing was written; "
		       "boot the trustfor kernel first (policyctl check still works)",
		       cmd, TF_POLICY_PATH);
		return PC_EXIT_ERROR;
	}
	cap = tf_cap_effective(CAP_SYS_ADMIN);
	if (cap < 0) {
		pc_err("%s: cannot read this process's capabilities: %m", cmd);
		return PC_EXIT_ERROR;
	}
	if (!cap) {
		pc_err("%s: setting fs.trust_policy needs CAP_SYS_ADMIN, which this process "
		       "lacks; nothing was written; run it as root", cmd);
		return PC_EXIT_ERROR;
	}
	return 0;
}

static int write_policy(int policy)
{
	char buf[4];
	int fd = open(TF_POLICY_PATH, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int saved;

	if (fd < 0)
		return -1;
	snprintf(buf, sizeof(buf), "%d\n", policy);
	n = write(fd, buf, strlen(buf));
	saved = errno;
	close(fd);
	errno = saved;
	if (n < 0)
		return -1;
	if ((size_t)n != strlen(buf)) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* Write @policy, read it back; 0 or an exit status (message printed). */
static int set_policy(const char *cmd, int old, int policy)
{
	int now;

	if (write_policy(policy) < 0) {
		pc_err("%s: writing %d to %s failed: %m; the policy stays %d", cmd,
		       policy, TF_POLICY_PATH, old);
		return PC_EXIT_ERROR;
	}
	if (tf_policy_read(&now) < 0) {
		pc_err("%s: wrote %d to %s but cannot read it back: %m", cmd, policy,
		       TF_POLICY_PATH);
		return PC_EXIT_ERROR;
	}
	if (now != policy) {
		pc_err("%s: wrote %d to %s but the kernel reports %d", cmd, policy,
		       TF_POLICY_PATH, now);
		return PC_EXIT_ERROR;
	}
	printf("fs.trust_policy: %d -> %d\n", old, now);
	return 0;
}

static int persist(const char *cmd, int policy)
{
	char buf[256];
	const char *conf = conf_path();
	int n = snprintf(buf, sizeof(buf),
			 "# Written by policyctl apply --persist; see policyctl(8).\n"
			 "fs.trust_policy = %d\n", policy);

	if (tf_atomic_write(conf, buf, (size_t)n, 0644) < 0) {
		pc_err("%s: cannot write %s: %m; the running policy is set, "
		       "but it will not survive a reboot", cmd, conf);
		return PC_EXIT_ERROR;
	}
	fputs("persisted in ", stdout);
	tf_fputs_escaped(conf, stdout); /* POLICYCTL_SYSCTL_CONF may be anything */
	putchar('\n');
	return 0;
}

int pc_cmd_apply(int argc, char **argv)
{
	struct pc_check c = { 0 };
	struct pc_cmdopts o = { 0 };
	char err[512], state[160];
	const char *sp;
	int rc = PC_EXIT_ERROR, p, old, n;

	p = pc_parse_check_args("apply", argc, argv, &c, &o, true);
	if (p)
		goto out;
	rc = preflight("apply");
	if (rc)
		goto out;
	rc = PC_EXIT_ERROR;
	if (tf_policy_read(&old) < 0) {
		pc_err("apply: cannot read %s: %m", TF_POLICY_PATH);
		goto out;
	}
	if (pc_dry_run(&c, err, sizeof(err)) < 0) {
		pc_err("apply: dry run failed: %s; nothing was written", err);
		goto out;
	}
	if (c.ndenials) {
		if (pc_print_report("apply", &c, o.json, o.all,
				    "; nothing was written") < 0)
			goto out;
		if (!o.force) {
			pc_err("apply: refusing to set fs.trust_policy=%d: %zu interpreted file%s "
			       "would be denied (listed above); fix them, or use --force",
			       c.policy, c.ndenials, c.ndenials == 1 ? "" : "s");
			rc = PC_EXIT_DENIED;
			goto out;
		}
		pc_err("apply: --force: applying although %zu file%s would be denied",
		       c.ndenials, c.ndenials == 1 ? "" : "s");
	} else if (!o.json) {
		char verdict[256];

		pc_verdict(&c, verdict, sizeof(verdict));
		printf("dry run: %s\n", verdict);
	}
	/* record the value to roll back to, before touching anything */
	sp = state_path(o.state);
	n = snprintf(state, sizeof(state), "old=%d\nnew=%d\npersist=%d\ntime=%lld\n",
		     old, c.policy, o.persist, (long long)time(NULL));
	if (tf_mkdir_parent(sp, 0755) < 0 || tf_atomic_write(sp, state, (size_t)n, 0600) < 0) {
		pc_err("apply: cannot record the rollback state in %s: %m; nothing was written "
		       "(use --state FILE for another place)", sp);
		goto out;
	}
	rc = set_policy("apply", old, c.policy);
	if (rc)
		goto out;
	rc = o.persist ? persist("apply", c.policy) : 0;
	if (rc)
		goto out;
	rc = PC_EXIT_OK;
	if (fflush(stdout) != 0)
		pc_err("apply: applied, but cannot write what was done: %m");
out:
	pc_check_free(&c);
	pc_free_check_args(&c);
	return p == 1 ? PC_EXIT_OK : rc;
}

/* Parse the state file; 0 or -1 (errno EPROTO when malformed). */
static int read_state(const char *path, int *old, int *persisted)
{
	FILE *f = fopen(path, "re");
	char line[128];
	int got = 0;

	if (!f)
		return -1;
	*persisted = 0;
	while (fgets(line, sizeof(line), f)) {
		int v;

		if (sscanf(line, "old=%d", &v) == 1 && v >= 0 && v <= TF_POLICY_MAX) {
			*old = v;
			got = 1;
		} else if (sscanf(line, "persist=%d", &v) == 1) {
			*persisted = v == 1;
		}
	}
	fclose(f);
	if (!got) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

int pc_cmd_rollback(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *opt_state = NULL, *sp;
	int ch, rc, old, persisted, cur;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (ch) {
		case 's':
			opt_state = optarg;
			break;
		case 'h':
			printf("usage: policyctl rollback [--state FILE]\n");
			return PC_EXIT_OK;
		default:
			pc_bad_option("rollback", ch, argv, opts,
				      "policyctl rollback [--state FILE]");
			return PC_EXIT_ERROR;
		}
	}
	if (optind < argc) {
		pc_err("rollback: unexpected argument; usage: policyctl rollback [--state FILE]");
		return PC_EXIT_ERROR;
	}
	rc = preflight("rollback");
	if (rc)
		return rc;
	sp = state_path(opt_state);
	if (read_state(sp, &old, &persisted) < 0) {
		if (errno == ENOENT)
			pc_err("rollback: no apply recorded (%s does not exist); nothing to roll back",
			       sp);
		else
			pc_err("rollback: cannot use %s: %s; nothing was written", sp,
			       errno == EPROTO ? "no valid old=N line" : strerror(errno));
		return PC_EXIT_ERROR;
	}
	if (tf_policy_read(&cur) < 0) {
		pc_err("rollback: cannot read %s: %m", TF_POLICY_PATH);
		return PC_EXIT_ERROR;
	}
	rc = set_policy("rollback", cur, old);
	if (rc)
		return rc;
	rc = persisted ? persist("rollback", old) : 0;
	if (rc)
		return rc;
	if (unlink(sp) < 0)
		pc_err("rollback: rolled back, but cannot remove %s: %m", sp);
	if (fflush(stdout) != 0)
		pc_err("rollback: rolled back, but cannot write what was done: %m");
	return PC_EXIT_OK;
}
