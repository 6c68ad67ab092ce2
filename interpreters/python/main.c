// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trusted-python3's main(): CPython 3.11's main() again, so that what it
 * reads without io.open_code() is opened here and judged by the kernel
 * before Python starts (trust_hook.c).  Options are CPython's own
 * (PyConfig parses argv); then one of -c, -m, a script, or the commands
 * on stdin runs, and -i (or PYTHONINSPECT) opens an interactive session
 * after the first three.  Code arriving on stdin, a session included,
 * has one path: run_stdin().
 */
#include "trusted_python.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The commands on stdin make up an interactive session. */
static bool interactive_session(const PyConfig *config)
{
	return isatty(STDIN_FILENO) || config->interactive;
}

static void call_interactive_hook(void)
{
	PyObject *hook = PySys_GetObject("__interactivehook__"), *res;

	if (!hook)
		return;
	res = PyObject_CallNoArgs(hook);
	if (!res) {
		PyErr_Print();
		return;
	}
	Py_DECREF(res);
}

/*
 * PYTHONSTARTUP, checked like a script.  As CPython's main(): read only
 * when the commands themselves come from stdin interactively (a terminal,
 * or -i), never after a script, -c or -m.
 */
static void run_startup(const PyConfig *config, PyCompilerFlags *cf)
{
	const char *name;
	FILE *fp;
	int fd;

	if (!config->use_environment)
		return;
	name = getenv("PYTHONSTARTUP");
	if (!name || !*name)
		return;
	fd = open(name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		fprintf(stderr, "Could not open PYTHONSTARTUP\n%s: %s\n", name,
			strerror(errno));
		return;
	}
	tp_check_fd_or_deny(fd, name);
	fp = fdopen(fd, "rb");
	if (!fp) {
		close(fd);
		return;
	}
	(void)PyRun_SimpleFileExFlags(fp, name, 0, cf);
	fclose(fp);
	PyErr_Clear();
}

/*
 * Code arriving on stdin, the one path for it: the commands of a run
 * without a script, -c or -m (@after_main false), or the session -i or
 * PYTHONINSPECT opens after one (@after_main true).  tfi_check_stdin()
 * judges stdin once before a byte of it runs: a regular file like a
 * script, anything else as code that is not a file, and under
 * SECBIT_EXEC_DENY_INTERACTIVE a session asked for is refused.  main()
 * has it judged before Python starts when stdin is all there is to run.
 * Returns 0, or non-zero once the error is printed.
 */
static int run_stdin(const PyConfig *config, PyCompilerFlags *cf,
		     bool after_main)
{
	bool session = interactive_session(config);

	tp_judge_stdin_or_deny(after_main || config->interactive);
	if (!after_main) {
		if (tp_set_path0(config->safe_path ? NULL : "") != 0) {
			PyErr_Print();
			return -1;
		}
		if (session && !config->quiet && isatty(STDIN_FILENO))
			fprintf(stderr, "Python %s on %s\n%s\n",
				Py_GetVersion(), Py_GetPlatform(),
				"trusted-python3: every file interpreted "
				"is checked by the kernel "
				"(trusted-python3(1))");
		if (session)
			run_startup(config, cf);
	}
	if (session)
		call_interactive_hook();
	return PyRun_AnyFileExFlags(stdin, "<stdin>", 0, cf);
}

static int wants_inspect(const PyConfig *config)
{
	if (config->inspect)
		return 1;
	/* Programs may set it at run time, as with CPython. */
	return config->use_environment && getenv("PYTHONINSPECT") &&
	       *getenv("PYTHONINSPECT");
}

/* A malloc()ed copy of a command-line argument in the locale encoding. */
static char *wide_to_bytes(const wchar_t *w)
{
	char *s = Py_EncodeLocale(w, NULL), *copy;

	if (!s) {
		fprintf(stderr, "%s: cannot encode a command-line argument\n",
			TP_PROG);
		exit(2);
	}
	copy = strdup(s);
	PyMem_Free(s);
	if (!copy) {
		fprintf(stderr, "%s: out of memory\n", TP_PROG);
		exit(1);
	}
	return copy;
}

/*
 * Open the script and have it judged; returns its descriptor, -1 for a
 * directory (its __main__ is imported through io.open_code), -2 when it
 * cannot be opened (said on stderr).
 */
static int open_script(const char *filename)
{
	struct stat sb;
	int fd, e;

	fd = open(filename, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		fprintf(stderr, "%s: can't open file '%s': [Errno %d] %s\n",
			TP_PROG, filename, e, strerror(e));
		return -2;
	}
	if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		close(fd);
		return -1;
	}
	tp_check_fd_or_deny(fd, filename);
	return fd;
}

/* site runs once the SourcelessFileLoader is routed through the hook. */
static int start_python(PyConfig *config, PyStatus *st)
{
	int want_site = config->site_import;
	PyObject *site, *res = NULL;

	config->site_import = 0;
	*st = Py_InitializeFromConfig(config);
	if (PyStatus_Exception(*st))
		return -1;
	if (tp_route_sourceless_loader() < 0) {
		PyErr_Print();
		fprintf(stderr, "%s: cannot route byte-code loading through "
			"io.open_code\n", TP_PROG);
		return 1;
	}
	if (!want_site)
		return 0;
	site = PyImport_ImportModule("site");
	if (site)
		res = PyObject_CallMethod(site, "main", NULL);
	Py_XDECREF(site);
	if (!res) {
		PyErr_Print();
		return 1;
	}
	Py_DECREF(res);
	return 0;
}

int main(int argc, char **argv)
{
	PyCompilerFlags cf = _PyCompilerFlags_INIT;
	char *command = NULL, *module = NULL, *filename = NULL;
	char path0[PATH_MAX];
	PyConfig config;
	PyStatus st;
	int script_fd = -1, exitcode = 0, ret = 0;

	PyConfig_InitPythonConfig(&config);
	config.parse_argv = 1;
	st = PyConfig_SetBytesArgv(&config, argc, argv);
	if (PyStatus_Exception(st))
		goto fail;
	st = PyConfig_Read(&config);
	if (PyStatus_Exception(st))
		goto fail;

	if (tp_install_open_code_hook() < 0) {
		fprintf(stderr, "%s: cannot install the open_code hook\n",
			TP_PROG);
		return 1;
	}

	if (config.run_command)
		command = wide_to_bytes(config.run_command);
	else if (config.run_module)
		module = wide_to_bytes(config.run_module);
	else if (config.run_filename)
		filename = wide_to_bytes(config.run_filename);

	/* Judge what will run before the interpreter starts. */
	if (command) {
		tp_check_command_or_deny();
	} else if (filename) {
		script_fd = open_script(filename);
		if (script_fd == -2) {
			PyConfig_Clear(&config);
			free(filename);
			return 2;
		}
	} else if (!module) {
		tp_judge_stdin_or_deny(config.interactive);
	}

	ret = start_python(&config, &st);
	if (ret < 0)
		goto fail;
	if (ret > 0) {
		exitcode = 1;
		goto finalize;
	}

	if (command) {
		ret = tp_set_path0(config.safe_path ? NULL : "");
		if (ret == 0)
			ret = PyRun_SimpleStringFlags(command, &cf);
		else
			PyErr_Print();
	} else if (module) {
		ret = tp_set_path0(config.safe_path ? NULL :
				   getcwd(path0, sizeof(path0)));
		if (ret == 0)
			ret = tp_run_module(module, 1);
		if (ret < 0)
			PyErr_Print();
	} else if (filename) {
		ret = tp_run_script(filename, script_fd, &config, &cf);
	} else {
		ret = run_stdin(&config, &cf, false);
	}
	exitcode = ret != 0;

	if ((command || module || filename) && wants_inspect(&config) &&
	    interactive_session(&config))
		exitcode = run_stdin(&config, &cf, true) != 0;

finalize:
	if (Py_FinalizeEx() < 0)
		exitcode = 120;
	PyConfig_Clear(&config);
	free(command);
	free(module);
	free(filename);
	return exitcode;

fail:
	PyConfig_Clear(&config);
	if (PyStatus_IsExit(st))
		return st.exitcode;
	Py_ExitStatusException(st);
}
