// SPDX-License-Identifier: LGPL-2.1-or-later
/* Verdict helpers shared by trusted-python3 and trusted-dash. */
#include "tf_interp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "trustedfor.h"

/* Mainline securebit (uapi/linux/securebits.h since 6.14). */
#ifndef SECURE_EXEC_DENY_INTERACTIVE
#define SECURE_EXEC_DENY_INTERACTIVE 10
#endif

static void append(char *buf, size_t len, const char *what)
{
	size_t used = strlen(buf);

	if (used + 1 >= len)
		return;
	snprintf(buf + used, len - used, "%s%s", used ? ", " : "", what);
}

static int on_noexec_mount(int fd)
{
	struct statvfs sv;

	return fstatvfs(fd, &sv) == 0 && (sv.f_flag & ST_NOEXEC);
}

static int lacks_exec_perm(int fd, const struct stat *st)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (faccessat(AT_FDCWD, path, X_OK, AT_EACCESS) == 0)
		return 0;
	if (errno == EACCES)
		return 1;
	/* No /proc: judge from the mode bits alone. */
	return !(st->st_mode & (S_IXUSR | S_IXGRP | S_IXOTH));
}

void tfi_explain(int fd, char *reason, size_t len)
{
	enum tf_backend be = tf_backend_detect();
	unsigned int mask = TF_POLICY_EXEC_MOUNT | TF_POLICY_EXEC_FILE;
	struct stat st;
	int policy, noexec;

	if (!len)
		return;
	reason[0] = '\0';
	/* Root may read the policy: only name what it actually enforces. */
	if (be == TF_BACKEND_TRUSTED_FOR && tf_policy_read(&policy) == 0)
		mask = (unsigned int)policy;
	if (fstat(fd, &st) < 0) {
		snprintf(reason, len, "cannot stat it: %s", strerror(errno));
		return;
	}
	if (!S_ISREG(st.st_mode))
		append(reason, len, "not a regular file");
	noexec = on_noexec_mount(fd);
	if ((mask & TF_POLICY_EXEC_MOUNT) && noexec)
		append(reason, len, "on a noexec mount");
	/* access(X_OK) fails on any noexec mount: judge by the mode there. */
	if ((mask & TF_POLICY_EXEC_FILE) && S_ISREG(st.st_mode) &&
	    (noexec ? !(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) :
		      lacks_exec_perm(fd, &st)))
		append(reason, len, "no execute permission");
	if (!reason[0])
		append(reason, len, "not trusted by the kernel's policy");
	if (be != TF_BACKEND_NONE) {
		size_t used = strlen(reason);

		snprintf(reason + used, len - used, " (%s)",
			 be == TF_BACKEND_TRUSTED_FOR ? "trusted_for" :
							"AT_EXECVE_CHECK");
	}
}

enum tfi_verdict tfi_fallback_fd(int fd, char *reason, size_t len)
{
	if (on_noexec_mount(fd)) {
		snprintf(reason, len,
			 "on a noexec mount (kernel cannot answer, fallback rule)");
		return TFI_DENY;
	}
	return TFI_ALLOW;
}

enum tfi_verdict tfi_check_fd(int fd, char *reason, size_t len)
{
	if (trusted_for_exec(fd) == 0)
		return TFI_ALLOW;
	switch (errno) {
	case EACCES:
		tfi_explain(fd, reason, len);
		return TFI_DENY;
	case ENOSYS:
		return tfi_fallback_fd(fd, reason, len);
	default:
		snprintf(reason, len, "cannot check it: %s", strerror(errno));
		return TFI_DENY;
	}
}

enum tfi_verdict tfi_check_nonfile(int fd, char *reason, size_t len)
{
	int p[2] = { -1, -1 };
	int ret, bits;

	switch (tf_backend_detect()) {
	case TF_BACKEND_TRUSTED_FOR:
		if (fd < 0) {
			if (pipe2(p, O_CLOEXEC) < 0) {
				snprintf(reason, len, "cannot check it: %s",
					 strerror(errno));
				return TFI_DENY;
			}
			fd = p[0];
		}
		ret = trusted_for_exec(fd);
		if (ret < 0 && errno == ENOSYS) {
			/* The kernel cannot answer after all: allowed. */
			ret = 0;
		} else if (ret < 0) {
			int e = errno;

			if (e == EACCES)
				snprintf(reason, len,
					 "code not read from a regular file, "
					 "untrusted under the current "
					 "fs.trust_policy (trusted_for)");
			else
				snprintf(reason, len, "cannot check it: %s",
					 strerror(e));
		}
		if (p[0] >= 0) {
			close(p[0]);
			close(p[1]);
		}
		return ret == 0 ? TFI_ALLOW : TFI_DENY;
	case TF_BACKEND_EXECVE_CHECK:
		bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
		if (bits >= 0 && (bits & (1 << SECURE_EXEC_DENY_INTERACTIVE))) {
			snprintf(reason, len,
				 "code not read from a regular file and "
				 "SECBIT_EXEC_DENY_INTERACTIVE is set");
			return TFI_DENY;
		}
		return TFI_ALLOW;
	case TF_BACKEND_NONE:
		break;
	}
	return TFI_ALLOW;
}
