/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trusted-python3's parts:
 *  - trust_hook.c: the kernel's verdict on everything Python is about to
 *    interpret (interpreters/common/tf_interp.c), the io.open_code() hook
 *    and the one-line refusal with status 126;
 *  - run.c: running a script, byte-code file or module from what main()
 *    opened and had judged;
 *  - main.c: CPython's main() again: options, -c, -m, a script, and the
 *    one path for code arriving on stdin (the interactive session too).
 * Include this first: it includes <Python.h>, which must come first.
 */
#ifndef TRUSTED_PYTHON_H
#define TRUSTED_PYTHON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>

#define TP_PROG "trusted-python3"

/* trust_hook.c */

/* Flush what the program already printed, say why, exit with 126. */
_Noreturn void tp_deny(const char *what, const char *reason);
/* Return only if the kernel lets Python interpret the opened file @fd. */
void tp_check_fd_or_deny(int fd, const char *what);
/* Return only if a -c command may run (code that is not a file). */
void tp_check_command_or_deny(void);
/*
 * Return only if the commands on stdin may run; @interactive: a session
 * was asked for (-i, PYTHONINSPECT).  Judged once a run: later calls
 * return at once.
 */
void tp_judge_stdin_or_deny(bool interactive);
/* Before Py_Initialize*(): every io.open_code() goes through the kernel. */
int tp_install_open_code_hook(void);
/* After it: byte-code without a source goes through io.open_code() too. */
int tp_route_sourceless_loader(void);

/* run.c */

/* sys.path[0] as CPython's main() sets it; @entry NULL: leave it. */
int tp_set_path0(const char *entry);
/* runpy._run_module_as_main(@name, @set_argv0). */
int tp_run_module(const char *name, int set_argv0);
/*
 * The script @filename, judged: @fd is its descriptor (taken), or -1 when
 * it is a directory (its __main__ is imported through io.open_code()).
 * Returns 0, or non-zero once the error is printed.
 */
int tp_run_script(const char *filename, int fd, const PyConfig *config,
		  PyCompilerFlags *cf);

#endif /* TRUSTED_PYTHON_H */
