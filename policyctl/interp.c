// SPDX-License-Identifier: GPL-2.0-or-later
/* Interpreted-file detection; see interp.h. */
#include "interp.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

const char *const pc_interp_exts[] = {
	/* shells */
	"sh", "bash", "dash", "ksh", "zsh", "csh", "tcsh", "fish",
	/* python */
	"py", "pyw",
	/* perl */
	"pl", "pm", "t",
	/* others */
	"rb", "php", "lua", "tcl", "tk", "js", "mjs", "cjs",
	"awk", "sed", "exp", "R", "r", "scm", "ps1",
	NULL,
};

bool pc_interp_by_name(const char *name)
{
	const char *dot = strrchr(name, '.');

	/* ".sh" alone is a hidden file named "sh", not an extension */
	if (!dot || dot == name || !dot[1])
		return false;
	/*
	 * Called for every regular file of a walk: a strcmp() per table entry
	 * was 3% of a check's CPU time. The first byte rules out all but one
	 * or two entries, and no entry is longer than PC_INTERP_EXT_MAX.
	 */
	if (strnlen(dot + 1, PC_INTERP_EXT_MAX + 1) > PC_INTERP_EXT_MAX)
		return false;
	for (size_t i = 0; pc_interp_exts[i]; i++)
		if (pc_interp_exts[i][0] == dot[1] &&
		    strcmp(dot + 1, pc_interp_exts[i]) == 0)
			return true;
	return false;
}

int pc_interp_shebang(int fd)
{
	char buf[2];
	ssize_t n;

	do
		n = pread(fd, buf, sizeof(buf), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	return n == 2 && buf[0] == '#' && buf[1] == '!';
}
