// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.c: the test probe's questions to the kernel.  The explicit
 * interfaces are asked here directly, not through libtrustedfor, so that
 * the tests compare the code under test with the kernel itself; "default"
 * is libtrustedfor's own choice (what an interpreter linking it gets).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trustedfor.h"
#include "probe.h"

static char *const no_argv[] = { "probe", NULL };
static char *const no_envp[] = { NULL };

int probe_api_parse(const char *s, enum probe_api *api)
{
	if (!strcmp(s, "default"))
		*api = PROBE_API_DEFAULT;
	else if (!strcmp(s, "trusted_for"))
		*api = PROBE_API_TRUSTED_FOR;
	else if (!strcmp(s, "execve_check"))
		*api = PROBE_API_EXECVE_CHECK;
	else
		return -1;
	return 0;
}

const char *probe_api_name(enum probe_api api)
{
	switch (api) {
	case PROBE_API_DEFAULT:
		return "default";
	case PROBE_API_TRUSTED_FOR:
		return "trusted_for";
	case PROBE_API_EXECVE_CHECK:
		return "execve_check";
	default:
		return "none";
	}
}

/* trusted_for(2) exists iff its sysctl does: 451 is cachestat(2) elsewhere */
static bool has_trusted_for(void)
{
	return access(TF_POLICY_PATH, F_OK) == 0;
}

static int raw_execve_check(int fd)
{
	if (!syscall(SYS_execveat, fd, "", no_argv, no_envp,
		     AT_EMPTY_PATH | AT_EXECVE_CHECK))
		return 0;
	/* a valid fd and path: EINVAL is the unknown flag */
	return errno == EINVAL ? ENOSYS : errno;
}

int probe_ask(int fd, enum probe_api api, enum probe_api *by)
{
	enum tf_backend be = TF_BACKEND_NONE;

	*by = api;
	switch (api) {
	case PROBE_API_TRUSTED_FOR:
		if (!has_trusted_for()) {
			*by = PROBE_API_NONE;
			return ENOSYS;
		}
		return syscall(TF_SYSCALL_NR, fd, TF_USAGE_EXECUTION, 0) ? errno : 0;
	case PROBE_API_EXECVE_CHECK:
		return raw_execve_check(fd);
	default:
		break;
	}
	if (!tf_check_exec(fd, TF_API_DEFAULT, &be))
		errno = 0;
	*by = be == TF_BACKEND_TRUSTED_FOR ? PROBE_API_TRUSTED_FOR :
	      be == TF_BACKEND_EXECVE_CHECK ? PROBE_API_EXECVE_CHECK :
	      PROBE_API_NONE;
	return errno;
}

bool probe_is_refusal(int err)
{
	return err == EACCES || err == EPERM || err == ETXTBSY;
}

/*
 * AT_EXECVE_CHECK on a known-good executable: 1 the kernel answers (0),
 * 0 it does not know the flag (EINVAL), -1 cannot tell (none of them may
 * be executed here).  Nothing is executed either way.
 */
static int has_execve_check(void)
{
	static const char *const good[] = { "/proc/self/exe", "/bin/true",
					    "/usr/bin/true" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int fd = open(good[i], O_RDONLY | O_CLOEXEC), err;

		if (fd < 0)
			continue;
		err = raw_execve_check(fd);
		close(fd);
		if (!err)
			return 1;
		if (err == ENOSYS)
			return 0;
	}
	return -1;
}

int probe_kernel_offers(void)
{
	bool tf = has_trusted_for();
	int ec = has_execve_check();

	if (ec < 0) {
		fprintf(stderr, "probe: --kernel: AT_EXECVE_CHECK refused on every "
				"known-good executable (/proc/self/exe, /bin/true): cannot tell\n");
		return -1;
	}
	printf("%s%s%s\n", tf ? "trusted_for" : "", tf && ec ? " " : "",
	       ec ? "execve_check" : tf ? "" : "none");
	return 0;
}

const char *probe_default_backend(void)
{
	return tf_backend_name(tf_backend_detect());
}
