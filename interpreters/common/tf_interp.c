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

/* The caller's exec securebits; 0 when they cannot be read. */
static unsigned int secbits(void)
{
	unsigned int bits;

	return tf_securebits_get(&bits) == 0 ? bits : 0;
}

/*
 * Why @fd is not executable, from what the kernel checks: @mask holds the
 * policy bits applied (fs.trust_policy for trusted_for; AT_EXECVE_CHECK
 * applies both).
 */
static void explain_static(int fd, unsigned int mask, char *reason, size_t len)
{
	struct stat st;
	int noexec;

	reason[0] = '\0';
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
}

/* Why trusted_for(2) refused @fd (EACCES), and which check said so. */
static void explain_trusted_for(int fd, char *reason, size_t len)
{
	unsigned int mask = TF_POLICY_EXEC_MOUNT | TF_POLICY_EXEC_FILE;
	size_t used;
	int policy;

	/* Root may read the policy: only name what it actually enforces. */
	if (tf_policy_read(&policy) == 0)
		mask = (unsigned int)policy;
	explain_static(fd, mask, reason, len);
	if (!reason[0])
		append(reason, len, "not trusted by the kernel's policy");
	used = strlen(reason);
	snprintf(reason + used, len - used, " (trusted_for)");
}

/* Why AT_EXECVE_CHECK refused @fd with @err, and why that is enforced. */
static void explain_execve_check(int fd, int err, const char *enforced,
				 char *reason, size_t len)
{
	size_t used;

	reason[0] = '\0';
	if (err == EACCES)
		explain_static(fd, TF_POLICY_EXEC_MOUNT | TF_POLICY_EXEC_FILE,
			       reason, len);
	else if (err == ETXTBSY)
		append(reason, len, "open for writing");
	if (!reason[0]) {
		if (err == EACCES)
			append(reason, len, "not executable for the kernel");
		else
			snprintf(reason, len, "cannot check it: %s",
				 strerror(err));
	}
	used = strlen(reason);
	snprintf(reason + used, len - used, " (AT_EXECVE_CHECK, %s is set)",
		 enforced);
}

/*
 * The kernel has neither interface: deny a file on a noexec mount, allow
 * anything else.
 */
static enum tfi_verdict fallback_fd(int fd, char *reason, size_t len)
{
	if (on_noexec_mount(fd)) {
		snprintf(reason, len,
			 "on a noexec mount (kernel cannot answer, fallback rule)");
		return TFI_DENY;
	}
	return TFI_ALLOW;
}

/*
 * trusted_for(2) on @fd, enforced as fs.trust_policy says (the kernel
 * applies it).  Returns -1 when the kernel has no trusted_for (not asked).
 */
static int ask_trusted_for(int fd, enum tfi_verdict *v, char *reason,
			   size_t len)
{
	enum tf_backend answered;

	if (tf_check_exec(fd, TF_API_TRUSTED_FOR, &answered) == 0) {
		*v = TFI_ALLOW;
		return 0;
	}
	if (answered != TF_BACKEND_TRUSTED_FOR)
		return -1;
	*v = TFI_DENY;
	if (errno == EACCES)
		explain_trusted_for(fd, reason, len);
	else
		/* EPERM: a filter kept us from asking: fail closed */
		snprintf(reason, len, "cannot check it: %s (trusted_for)",
			 strerror(errno));
	return 0;
}

/*
 * AT_EXECVE_CHECK on @fd: *err is 0 when it allowed, else its errno.
 * Returns -1 when the kernel has no AT_EXECVE_CHECK (not asked).
 */
static int ask_execve_check(int fd, int *err)
{
	enum tf_backend answered;

	*err = tf_check_exec(fd, TF_API_EXECVE_CHECK, &answered) ? errno : 0;
	return answered == TF_BACKEND_EXECVE_CHECK ? 0 : -1;
}

/* What a check of a regular file does with AT_EXECVE_CHECK's answer. */
enum xc_use {
	XC_ENFORCE,	/* ask, enforce a refusal (SECBIT_EXEC_RESTRICT_FILE) */
	XC_OBSERVE,	/* ask, never enforce (the refusal is logged) */
	XC_PASSED,	/* already asked, and it allowed */
};

/*
 * A regular file on @fd: AT_EXECVE_CHECK used as @xc says, then
 * trusted_for(2) as fs.trust_policy says, then, when the kernel has
 * neither, the fallback rule.
 */
static enum tfi_verdict check_regular(int fd, enum xc_use xc, char *reason,
				      size_t len)
{
	enum tfi_verdict v = TFI_ALLOW;
	int asked = xc == XC_PASSED, err;

	if (!asked && ask_execve_check(fd, &err) == 0) {
		asked = 1;
		if (err && xc == XC_ENFORCE) {
			explain_execve_check(fd, err,
					     "SECBIT_EXEC_RESTRICT_FILE",
					     reason, len);
			return TFI_DENY;
		}
	}
	/* trusted_for(2): enforced as fs.trust_policy says. */
	if (ask_trusted_for(fd, &v, reason, len) == 0)
		return v;
	if (asked)
		return TFI_ALLOW;
	/* Neither interface: the documented fallback rule. */
	return fallback_fd(fd, reason, len);
}

enum tfi_verdict tfi_check_fd(int fd, char *reason, size_t len)
{
	/*
	 * check_exec.rst: always ask AT_EXECVE_CHECK, enforce its answer only
	 * under SECBIT_EXEC_RESTRICT_FILE.
	 */
	return check_regular(fd,
			     (secbits() & TF_SECBIT_EXEC_RESTRICT_FILE) ?
			     XC_ENFORCE : XC_OBSERVE, reason, len);
}

/* The refusal of an interactive session under SECBIT_EXEC_DENY_INTERACTIVE. */
static enum tfi_verdict deny_session(char *reason, size_t len)
{
	snprintf(reason, len, "interactive commands refused: "
			      "SECBIT_EXEC_DENY_INTERACTIVE is set");
	return TFI_DENY;
}

enum tfi_verdict tfi_check_interactive(char *reason, size_t len)
{
	if (!(secbits() & TF_SECBIT_EXEC_DENY_INTERACTIVE))
		return TFI_ALLOW;
	return deny_session(reason, len);
}

/*
 * SECBIT_EXEC_DENY_INTERACTIVE's rule for code arriving on @fd (-1: -c),
 * the one place it is applied: -c and a terminal are refused, any other
 * descriptor (a regular file too) only passes if AT_EXECVE_CHECK on it
 * succeeds, whatever SECBIT_EXEC_RESTRICT_FILE says.
 */
static enum tfi_verdict deny_interactive_rule(int fd, char *reason, size_t len)
{
	int err;

	if (fd < 0 || isatty(fd)) {
		snprintf(reason, len,
			 "code not read from a regular file and "
			 "SECBIT_EXEC_DENY_INTERACTIVE is set");
		return TFI_DENY;
	}
	if (ask_execve_check(fd, &err) < 0)
		err = ENOSYS;
	if (err) {
		explain_execve_check(fd, err, "SECBIT_EXEC_DENY_INTERACTIVE",
				     reason, len);
		return TFI_DENY;
	}
	return TFI_ALLOW;
}

/* trusted_for(2)'s rule for code that is not a file, on @fd (-1: a pipe). */
static enum tfi_verdict nonfile_trusted_for(int fd, char *reason, size_t len)
{
	enum tfi_verdict v = TFI_ALLOW;
	int p[2] = { -1, -1 };

	if (!tf_kernel_has_trusted_for())
		return TFI_ALLOW;
	if (fd < 0) {
		if (pipe2(p, O_CLOEXEC) < 0) {
			snprintf(reason, len, "cannot check it: %s",
				 strerror(errno));
			return TFI_DENY;
		}
		fd = p[0];
	}
	if (ask_trusted_for(fd, &v, reason, len) == 0 && v == TFI_DENY &&
	    !strncmp(reason, "not a regular file", 18))
		snprintf(reason, len, "code not read from a regular file, "
				      "untrusted under the current "
				      "fs.trust_policy (trusted_for)");
	if (p[0] >= 0) {
		close(p[0]);
		close(p[1]);
	}
	return v;
}

enum tfi_verdict tfi_check_nonfile(int fd, char *reason, size_t len)
{
	if ((secbits() & TF_SECBIT_EXEC_DENY_INTERACTIVE) &&
	    deny_interactive_rule(fd, reason, len) == TFI_DENY)
		return TFI_DENY;
	return nonfile_trusted_for(fd, reason, len);
}

enum tfi_verdict tfi_check_stdin(int interactive, char *reason, size_t len)
{
	struct stat st;
	int deny_interactive = secbits() & TF_SECBIT_EXEC_DENY_INTERACTIVE;

	if (deny_interactive) {
		if (interactive)
			return deny_session(reason, len);
		if (deny_interactive_rule(STDIN_FILENO, reason, len) ==
		    TFI_DENY)
			return TFI_DENY;
	}
	/*
	 * check_exec.rst: code on stdin is interactive input, governed by
	 * SECBIT_EXEC_DENY_INTERACTIVE alone, a regular file too: under
	 * SECBIT_EXEC_RESTRICT_FILE alone AT_EXECVE_CHECK is asked (a refusal
	 * is logged) but not enforced.  trusted_for(2) judges a file as it
	 * judges a script, anything else as a pipe.
	 */
	if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode))
		return check_regular(STDIN_FILENO,
				     deny_interactive ? XC_PASSED : XC_OBSERVE,
				     reason, len);
	return nonfile_trusted_for(STDIN_FILENO, reason, len);
}
