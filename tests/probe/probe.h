/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe.h: the questions the test probe asks the kernel (kernel.c), and
 * its probe of what the kernel offers.
 */
#ifndef PROBE_H
#define PROBE_H

#include <stdbool.h>

enum probe_api {
	PROBE_API_NONE = 0,	 /* no interface answered */
	PROBE_API_DEFAULT,	 /* libtrustedfor's choice */
	PROBE_API_TRUSTED_FOR,	 /* syscall 451 itself */
	PROBE_API_EXECVE_CHECK, /* execveat(AT_EXECVE_CHECK) itself */
};

int probe_api_parse(const char *s, enum probe_api *api);
/* "trusted_for", "execve_check", "none" (or "default") */
const char *probe_api_name(enum probe_api api);

/*
 * Ask once about @fd through @api: 0 when allowed, else the errno (ENOSYS:
 * the kernel lacks the interface).  *by is set to the interface that
 * answered (PROBE_API_NONE when none could).
 */
int probe_ask(int fd, enum probe_api api, enum probe_api *by);

/* a refusal of the file: EACCES, EPERM, ETXTBSY */
bool probe_is_refusal(int err);

/* print what the kernel offers (see --kernel); 0, or -1 when it cannot tell */
int probe_kernel_offers(void);

/* libtrustedfor's default backend name */
const char *probe_default_backend(void);

#endif
