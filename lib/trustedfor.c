// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtrustedfor: see trustedfor.h.
 */
#include "trustedfor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const reason_names[TF_REASON_COUNT] = {
	"noexec_mount", /* TF_REASON_NOEXEC_MOUNT */
	"file_perm",	/* TF_REASON_FILE_PERM */
	"not_regular",	/* TF_REASON_NOT_REGULAR */
	"pseudo_fs",	/* TF_REASON_PSEUDO_FS */
	"write_busy",	/* TF_REASON_WRITE_BUSY */
	"lsm",		/* TF_REASON_LSM */
	"check_error",	/* TF_REASON_CHECK_ERROR */
};

bool tf_kernel_has_trusted_for(void)
{
	return access(TF_POLICY_PATH, F_OK) == 0;
}

bool tf_kernel_has_execve_check(void)
{
	static char *const argv[] = { "", NULL };
	static char *const envp[] = { NULL };
	int saved = errno;
	bool ok;

	/*
	 * Kernels that do not know AT_EXECVE_CHECK reject the unknown flag
	 * with EINVAL before looking at the fd; kernels that do know it
	 * fail on the invalid fd with EBADF.  Nothing can be executed.
	 */
	syscall(SYS_execveat, -1, "", argv, envp,
		AT_EMPTY_PATH | AT_EXECVE_CHECK);
	ok = errno == EBADF;
	errno = saved;
	return ok;
}

enum tf_backend tf_backend_detect(void)
{
	static int cached = -1;

	if (cached < 0) {
		if (tf_kernel_has_trusted_for())
			cached = TF_BACKEND_TRUSTED_FOR;
		else if (tf_kernel_has_execve_check())
			cached = TF_BACKEND_EXECVE_CHECK;
		else
			cached = TF_BACKEND_NONE;
	}
	return (enum tf_backend)cached;
}

const char *tf_backend_name(enum tf_backend backend)
{
	switch (backend) {
	case TF_BACKEND_TRUSTED_FOR:
		return "trusted_for";
	case TF_BACKEND_EXECVE_CHECK:
		return "execve_check";
	case TF_BACKEND_NONE:
		break;
	}
	return "none";
}

int tf_policy_read(int *policy)
{
	char buf[32];
	char *end;
	ssize_t n;
	long v;
	int fd, saved;

	fd = open(TF_POLICY_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR); /* a signal handler without SA_RESTART */
	saved = errno;
	close(fd);
	if (n < 0) {
		errno = saved;
		return -1;
	}
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || v < 0 ||
	    v > TF_POLICY_MAX) {
		errno = EPROTO;
		return -1;
	}
	*policy = (int)v;
	return 0;
}

int tf_trusted_for(int fd, int usage, unsigned int flags)
{
	long ret;

	/* Syscall 451 is cachestat(2) on mainline: only call it when the
	 * patched kernel announced itself.
	 */
	if (tf_backend_detect() != TF_BACKEND_TRUSTED_FOR) {
		errno = ENOSYS;
		return -1;
	}
	ret = syscall(TF_SYSCALL_NR, fd, usage, flags);
	return ret < 0 ? -1 : 0;
}

/* tf_kernel_has_execve_check(), probed once. */
static bool tf_kernel_has_execve_check_cached(void)
{
	static int has = -1;

	if (has < 0)
		has = tf_kernel_has_execve_check();
	return has;
}

int tf_execve_check(int fd)
{
	static char *const argv[] = { "", NULL };
	static char *const envp[] = { NULL };

	if (!tf_kernel_has_execve_check_cached()) {
		errno = ENOSYS;
		return -1;
	}
	/* With AT_EXECVE_CHECK, execveat() returns 0 instead of executing. */
	return syscall(SYS_execveat, fd, "", argv, envp,
		       AT_EMPTY_PATH | AT_EXECVE_CHECK) < 0 ?
		       -1 : 0;
}

int tf_securebits_get(unsigned int *bits)
{
	int ret = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);

	if (ret < 0)
		return -1;
	*bits = (unsigned int)ret;
	return 0;
}

int tf_check_exec(int fd, enum tf_api api, enum tf_backend *answered)
{
	enum tf_backend be = TF_BACKEND_NONE;
	int ret;

	switch (api) {
	case TF_API_DEFAULT:
		be = tf_backend_detect();
		break;
	case TF_API_TRUSTED_FOR:
		if (tf_backend_detect() == TF_BACKEND_TRUSTED_FOR)
			be = TF_BACKEND_TRUSTED_FOR;
		break;
	case TF_API_EXECVE_CHECK:
		if (tf_kernel_has_execve_check_cached())
			be = TF_BACKEND_EXECVE_CHECK;
		break;
	default:
		if (answered)
			*answered = TF_BACKEND_NONE;
		errno = EINVAL;
		return -1;
	}
	if (answered)
		*answered = be;
	switch (be) {
	case TF_BACKEND_TRUSTED_FOR:
		ret = tf_trusted_for(fd, TF_USAGE_EXECUTION, 0);
		break;
	case TF_BACKEND_EXECVE_CHECK:
		ret = tf_execve_check(fd);
		break;
	default:
		errno = ENOSYS;
		return -1;
	}
	/*
	 * The interface was detected, so an ENOSYS now comes from a filter
	 * in front of it (a seccomp profile that does not know the system
	 * call), not from the kernel: passing it on would send the caller to
	 * the rule for kernels that cannot answer, with the kernel's policy
	 * never asked.  The call was refused.
	 */
	if (ret < 0 && errno == ENOSYS)
		errno = EPERM;
	return ret;
}

int trusted_for_exec(int fd)
{
	return tf_check_exec(fd, TF_API_DEFAULT, NULL);
}

const char *tf_reason_name(unsigned int bit)
{
	for (int i = 0; i < TF_REASON_COUNT; i++)
		if (bit == 1u << i)
			return reason_names[i];
	return NULL;
}

const char *tf_reason_str(unsigned int reasons, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!reasons) {
		snprintf(buf, len, "-");
		return buf;
	}
	for (int i = 0; i < TF_REASON_COUNT && off < len; i++) {
		size_t n;

		if (!(reasons & (1u << i)))
			continue;
		/* as snprintf("%s%s") would, cut at @len (a copy: per record) */
		if (off && off + 1 < len)
			buf[off] = ',';
		off += off ? 1 : 0;
		n = strlen(reason_names[i]);
		if (off < len)
			memcpy(buf + off, reason_names[i], off + n < len ? n : len - off - 1);
		off += n;
		buf[off < len ? off : len - 1] = '\0';
	}
	if (reasons & ~TF_REASON_ALL && off < len)
		snprintf(buf + off, len - off, "%s0x%x", off ? "," : "",
			 reasons & ~TF_REASON_ALL);
	return buf;
}

int tf_reason_parse(const char *list, unsigned int *reasons)
{
	unsigned int mask = 0;
	const char *p = list;

	if (!strcmp(list, "-")) {
		*reasons = 0;
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ",");
		int i;

		for (i = 0; i < TF_REASON_COUNT; i++)
			if (strlen(reason_names[i]) == n &&
			    !strncmp(p, reason_names[i], n))
				break;
		if (i == TF_REASON_COUNT) {
			errno = EINVAL;
			return -1;
		}
		mask |= 1u << i;
		p += n;
		if (*p == ',')
			p++;
	}
	*reasons = mask;
	return 0;
}
