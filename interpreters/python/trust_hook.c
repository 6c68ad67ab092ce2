// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trusted-python3's trust hook: the kernel is asked before Python
 * interprets anything, and a refusal ends the run.
 *
 * Every file Python opens to run code goes through io.open_code(): module
 * sources, byte-code caches, .pth files, zip archives on sys.path, runpy.
 * The open_code hook (PEP 578) opens the file, asks the kernel about that
 * very descriptor (tfi_check_fd(): AT_EXECVE_CHECK enforced under
 * SECBIT_EXEC_RESTRICT_FILE, trusted_for under fs.trust_policy) and hands
 * the same descriptor to Python, so there is no window between the check
 * and the use.  What CPython's main() reads without io.open_code() (the
 * script, PYTHONSTARTUP, stdin) main.c opens itself and has judged here.
 * Code that is not read from a regular file (-c, a pipe or terminal on
 * stdin, an interactive session) follows tfi_check_nonfile() and
 * tfi_check_stdin() (SECBIT_EXEC_DENY_INTERACTIVE and trusted_for; see
 * man/trusted-python3.1).  A denial prints one line naming the file and
 * the reason and exits with status 126.
 */
#include "trusted_python.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "tf_interp.h"

#define REASON_LEN 256

/* Python's sys.stdout and sys.stderr, then C's stdout, before _exit(). */
static void flush_output(void)
{
	static const char *const names[] = { "stdout", "stderr" };

	if (Py_IsInitialized() && PyGILState_Check()) {
		PyErr_Clear();
		for (size_t i = 0; i < 2; i++) {
			PyObject *f = PySys_GetObject(names[i]);
			PyObject *r;

			if (f && f != Py_None) {
				r = PyObject_CallMethod(f, "flush", NULL);
				Py_XDECREF(r);
				PyErr_Clear();
			}
		}
	}
	/*
	 * Output that cannot be written (a closed pipe, a full disk) does
	 * not change the outcome: the refusal is the error this run
	 * reports, 126 its status.  So a failed flush is let go.
	 */
	(void)fflush(stdout);
}

_Noreturn void tp_deny(const char *what, const char *reason)
{
	flush_output();
	/* what is a file name: the user's bytes, shown escaped. */
	fprintf(stderr, "%s: ", TP_PROG);
	tf_fputs_escaped(what, stderr);
	fprintf(stderr, ": refused to interpret: %s\n", reason);
	/* stderr is unbuffered: should it fail, there is nowhere to say so. */
	(void)fflush(stderr);
	_exit(TFI_EXIT_DENIED);
}

void tp_check_fd_or_deny(int fd, const char *what)
{
	char reason[REASON_LEN];

	if (tfi_check_fd(fd, reason, sizeof(reason)) != TFI_ALLOW)
		tp_deny(what, reason);
}

void tp_check_command_or_deny(void)
{
	char reason[REASON_LEN];

	if (tfi_check_nonfile(-1, reason, sizeof(reason)) != TFI_ALLOW)
		tp_deny("-c", reason);
}

void tp_judge_stdin_or_deny(bool interactive)
{
	static bool judged;
	char reason[REASON_LEN];

	if (judged)
		return;
	judged = true;
	if (tfi_check_stdin(interactive, reason, sizeof(reason)) != TFI_ALLOW)
		tp_deny("<stdin>", reason);
}

/* importlib's byte-code cache: DIR/__pycache__/NAME.TAG.pyc */
static int is_cache_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len = strlen(path);

	return slash && slash - path >= 12 &&
	       !strncmp(slash - 12, "/__pycache__", 12) && len > 4 &&
	       !strcmp(path + len - 4, ".pyc");
}

/*
 * io.open_code() hook: open, check the descriptor, return a binary file
 * object reading from that same descriptor.
 */
static PyObject *open_code_hook(PyObject *path, void *data)
{
	PyObject *bytes = NULL, *io = NULL, *file = NULL, *raw, *exc;
	char reason[REASON_LEN];
	int fd;

	(void)data;
	if (!PyUnicode_FSConverter(path, &bytes))
		return NULL;
	do
		fd = open(PyBytes_AS_STRING(bytes),
			  O_RDONLY | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
		goto out;
	}
	if (tfi_check_fd(fd, reason, sizeof(reason)) != TFI_ALLOW) {
		close(fd);
		if (!is_cache_path(PyBytes_AS_STRING(bytes)))
			tp_deny(PyBytes_AS_STRING(bytes), reason);
		/*
		 * An untrusted byte-code cache is a cache miss: importlib
		 * then reads (and checks) the source instead.
		 */
		exc = Py_BuildValue("(isO)", EACCES, reason, path);
		if (exc) {
			PyErr_SetObject(PyExc_PermissionError, exc);
			Py_DECREF(exc);
		}
		goto out;
	}
	/* What the default hook returns, _io.open(path, "rb"), on our fd. */
	io = PyImport_ImportModule("_io");
	raw = io ? PyObject_CallMethod(io, "FileIO", "is", fd, "rb") : NULL;
	if (!raw) {
		close(fd); /* FileIO does not close an fd it failed to take */
		goto out;
	}
	/* Keep the path as the file's name, as the default hook does. */
	if (PyObject_SetAttrString(raw, "name", path) < 0)
		PyErr_Clear();
	file = PyObject_CallMethod(io, "BufferedReader", "O", raw);
	Py_DECREF(raw);
out:
	Py_XDECREF(io);
	Py_XDECREF(bytes);
	return file;
}

int tp_install_open_code_hook(void)
{
	return PyFile_SetOpenCodeHook(open_code_hook, NULL);
}

/*
 * importlib's SourcelessFileLoader (a bare .pyc on sys.path) reads with
 * FileIO instead of io.open_code: route it through the hook as well.
 */
static const char sourceless_fix[] =
	"import _io, _frozen_importlib_external as _e\n"
	"def get_data(self, path):\n"
	"    with _io.open_code(str(path)) as f:\n"
	"        return f.read()\n"
	"_e.SourcelessFileLoader.get_data = get_data\n";

int tp_route_sourceless_loader(void)
{
	PyObject *globals, *res;

	globals = PyDict_New();
	if (!globals)
		return -1;
	if (PyDict_SetItemString(globals, "__builtins__",
				 PyEval_GetBuiltins()) < 0) {
		Py_DECREF(globals);
		return -1;
	}
	res = PyRun_String(sourceless_fix, Py_file_input, globals, globals);
	Py_DECREF(globals);
	if (!res)
		return -1;
	Py_DECREF(res);
	return 0;
}
