// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trusted-python3 - CPython 3.11 that asks the kernel before interpreting.
 *
 * Every file Python opens to run code goes through io.open_code(): module
 * sources, byte-code caches, .pth files, zip archives on sys.path, runpy.
 * The open_code hook (PEP 578) opens the file, asks the kernel about that
 * very descriptor (tfi_check_fd(): AT_EXECVE_CHECK enforced under
 * SECBIT_EXEC_RESTRICT_FILE, trusted_for under fs.trust_policy) and hands
 * the same descriptor to Python, so there is no window between the check
 * and the use.
 * The main script, PYTHONSTARTUP and stdin are not opened through
 * io.open_code by CPython's own main(), so this launcher drives them
 * itself, again checking the descriptor it then reads from.
 * Code that is not read from a regular file (-c, a pipe or terminal on
 * stdin, interactive mode) follows tfi_check_nonfile() and
 * tfi_check_stdin() (SECBIT_EXEC_DENY_INTERACTIVE and trusted_for; see
 * man/trusted-python3.1).  A denial prints one line naming the file and
 * the reason and exits with status 126.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <marshal.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "escape.h"

#include "tf_interp.h"
#include "trustedfor.h"

#define PROG "trusted-python3"
#define REASON_LEN 256

/* Flush what the program already printed, then stop with status 126. */
static _Noreturn void deny(const char *what, const char *reason)
{
	if (Py_IsInitialized() && PyGILState_Check()) {
		const char *names[] = { "stdout", "stderr" };

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
	fflush(stdout);
	/* what is a file name: the user's bytes, shown escaped. */
	fprintf(stderr, "%s: ", PROG);
	tf_fputs_escaped(what, stderr);
	fprintf(stderr, ": refused to interpret: %s\n", reason);
	fflush(stderr);
	_exit(TFI_EXIT_DENIED);
}

static void check_fd_or_deny(int fd, const char *what)
{
	char reason[REASON_LEN];

	if (tfi_check_fd(fd, reason, sizeof(reason)) != TFI_ALLOW)
		deny(what, reason);
}

static void check_nonfile_or_deny(int fd, const char *what)
{
	char reason[REASON_LEN];

	if (tfi_check_nonfile(fd, reason, sizeof(reason)) != TFI_ALLOW)
		deny(what, reason);
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
			deny(PyBytes_AS_STRING(bytes), reason);
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

static int install_sourceless_fix(void)
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

/* sys.path[0] as CPython's main() sets it; @entry NULL = skip. */
static int set_path0(const char *entry)
{
	PyObject *path = PySys_GetObject("path"), *item;
	int ret;

	if (!entry)
		return 0;
	if (!path || !PyList_Check(path)) {
		PyErr_SetString(PyExc_RuntimeError, "unable to get sys.path");
		return -1;
	}
	item = PyUnicode_DecodeFSDefault(entry);
	if (!item)
		return -1;
	ret = PyList_Insert(path, 0, item);
	Py_DECREF(item);
	return ret;
}

static int run_module(const char *name, int set_argv0)
{
	PyObject *runpy, *res;

	runpy = PyImport_ImportModule("runpy");
	if (!runpy)
		return -1;
	res = PyObject_CallMethod(runpy, "_run_module_as_main", "si", name,
				  set_argv0);
	Py_DECREF(runpy);
	if (!res)
		return -1;
	Py_DECREF(res);
	return 0;
}

/* Run a byte-code file from the already checked descriptor. */
static int run_pyc_fd(int fd, const char *filename)
{
	PyObject *main_mod, *d, *code = NULL, *res = NULL, *fn;
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	long magic = PyImport_GetMagicNumber();
	ssize_t n;

	for (;;) {
		if (len == cap) {
			unsigned char *nb;

			cap = cap ? cap * 2 : 65536;
			nb = PyMem_RawRealloc(buf, cap);
			if (!nb) {
				PyErr_NoMemory();
				goto out;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			PyErr_SetFromErrnoWithFilename(PyExc_OSError, filename);
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len < 16 || buf[0] != (magic & 0xff) ||
	    buf[1] != ((magic >> 8) & 0xff) || buf[2] != '\r' ||
	    buf[3] != '\n') {
		PyErr_Format(PyExc_RuntimeError, "Bad magic number in .pyc file %s",
			     filename);
		goto out;
	}
	code = PyMarshal_ReadObjectFromString((const char *)buf + 16,
					      (Py_ssize_t)(len - 16));
	if (!code)
		goto out;
	if (!PyCode_Check(code)) {
		PyErr_Format(PyExc_RuntimeError, "Bad code object in .pyc file %s",
			     filename);
		goto out;
	}
	main_mod = PyImport_AddModule("__main__");
	if (!main_mod)
		goto out;
	d = PyModule_GetDict(main_mod);
	fn = PyUnicode_DecodeFSDefault(filename);
	if (!fn || PyDict_SetItemString(d, "__file__", fn) < 0 ||
	    PyDict_SetItemString(d, "__cached__", Py_None) < 0) {
		Py_XDECREF(fn);
		goto out;
	}
	Py_DECREF(fn);
	res = PyEval_EvalCode(code, d, d);
out:
	PyMem_RawFree(buf);
	Py_XDECREF(code);
	if (!res)
		return -1;
	Py_DECREF(res);
	return 0;
}

/* Run a source file from the already checked descriptor; takes @fd. */
static int run_source_fd(int fd, const char *filename, int skip_first_line,
			 PyCompilerFlags *cf)
{
	FILE *fp = fdopen(fd, "rb");
	int ret, c;

	if (!fp) {
		close(fd);
		PyErr_SetFromErrnoWithFilename(PyExc_OSError, filename);
		return -1;
	}
	if (skip_first_line) {
		while ((c = getc(fp)) != EOF && c != '\n')
			;
		/* CPython keeps line numbers right by re-adding the newline. */
		if (c == '\n')
			ungetc('\n', fp);
	}
	/* closeit=0: CPython would otherwise re-open a .pyc by path. */
	ret = PyRun_AnyFileExFlags(fp, filename, 0, cf);
	fclose(fp);
	return ret;
}

/*
 * Could @fd be a zip archive (which runs its __main__ module)?  A zip ends
 * with its end-of-central-directory record ("PK\5\6", then at most 64 KiB
 * of comment), whatever precedes it (a #! line).  Asking zipimport
 * instead would open the script a second time through io.open_code, and
 * so check it twice: two verdicts, and two audit records for a refusal,
 * for one run.
 */
static int may_be_zip(int fd)
{
	static unsigned char tail[65535 + 22];
	struct stat sb;
	off_t len;
	ssize_t n;

	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		return 1; /* let zipimport decide */
	len = sb.st_size < (off_t)sizeof(tail) ? sb.st_size : (off_t)sizeof(tail);
	do
		n = pread(fd, tail, (size_t)len, sb.st_size - len);
	while (n < 0 && errno == EINTR);
	if (n != len)
		return 1;
	for (off_t i = len - 22; i >= 0; i--)
		if (tail[i] == 'P' && tail[i + 1] == 'K' && tail[i + 2] == 5 &&
		    tail[i + 3] == 6)
			return 1;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int stdin_is_tty(void)
{
	return isatty(STDIN_FILENO);
}

static int call_interactive_hook(void)
{
	PyObject *hook = PySys_GetObject("__interactivehook__"), *res;

	if (!hook)
		return 0;
	res = PyObject_CallNoArgs(hook);
	if (!res) {
		PyErr_Print();
		return 0;
	}
	Py_DECREF(res);
	return 0;
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
	check_fd_or_deny(fd, name);
	fp = fdopen(fd, "rb");
	if (!fp) {
		close(fd);
		return;
	}
	(void)PyRun_SimpleFileExFlags(fp, name, 0, cf);
	fclose(fp);
	PyErr_Clear();
}

static int wants_inspect(const PyConfig *config)
{
	if (config->inspect)
		return 1;
	/* Programs may set it at run time, as with CPython. */
	return config->use_environment && getenv("PYTHONINSPECT") &&
	       *getenv("PYTHONINSPECT");
}

/*
 * Commands read from stdin: a regular file is checked like a script;
 * @interactive: -i (refused under SECBIT_EXEC_DENY_INTERACTIVE).
 */
static void check_stdin_or_deny(int interactive)
{
	char reason[REASON_LEN];

	if (tfi_check_stdin(interactive, reason, sizeof(reason)) != TFI_ALLOW)
		deny("<stdin>", reason);
}

/* -i after a script, -c or -m: stdin is judged as at start-up. */
static int repl(PyCompilerFlags *cf)
{
	check_stdin_or_deny(1);
	call_interactive_hook();
	return PyRun_AnyFileExFlags(stdin, "<stdin>", 0, cf) != 0;
}

/* A malloc()ed copy of a command-line argument in the locale encoding. */
static char *wide_to_bytes(const wchar_t *w)
{
	char *s = Py_EncodeLocale(w, NULL), *copy;

	if (!s) {
		fprintf(stderr, "%s: cannot encode a command-line argument\n",
			PROG);
		exit(2);
	}
	copy = strdup(s);
	PyMem_Free(s);
	if (!copy) {
		fprintf(stderr, "%s: out of memory\n", PROG);
		exit(1);
	}
	return copy;
}

int main(int argc, char **argv)
{
	PyCompilerFlags cf = _PyCompilerFlags_INIT;
	char *command = NULL, *module = NULL, *filename = NULL;
	char path0[PATH_MAX];
	PyConfig config;
	PyStatus st;
	int want_site, script_fd = -1, is_dir = 0, exitcode = 0, ret = 0;
	struct stat sb;

	PyConfig_InitPythonConfig(&config);
	config.parse_argv = 1;
	st = PyConfig_SetBytesArgv(&config, argc, argv);
	if (PyStatus_Exception(st))
		goto fail;
	st = PyConfig_Read(&config);
	if (PyStatus_Exception(st))
		goto fail;

	if (PyFile_SetOpenCodeHook(open_code_hook, NULL) < 0) {
		fprintf(stderr, "%s: cannot install the open_code hook\n", PROG);
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
		check_nonfile_or_deny(-1, "-c");
	} else if (filename) {
		script_fd = open(filename, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (script_fd < 0) {
			int e = errno;

			fprintf(stderr, "%s: can't open file '%s': [Errno %d] %s\n",
				PROG, filename, e, strerror(e));
			PyConfig_Clear(&config);
			free(filename);
			return 2;
		}
		if (fstat(script_fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			/* Its __main__ is imported through io.open_code. */
			is_dir = 1;
			close(script_fd);
			script_fd = -1;
		} else {
			check_fd_or_deny(script_fd, filename);
		}
	} else if (!module) {
		check_stdin_or_deny(config.interactive);
	}

	/* site runs after the SourcelessFileLoader fix is in place. */
	want_site = config.site_import;
	config.site_import = 0;
	st = Py_InitializeFromConfig(&config);
	if (PyStatus_Exception(st))
		goto fail;
	if (install_sourceless_fix() < 0) {
		PyErr_Print();
		fprintf(stderr, "%s: cannot route byte-code loading through "
			"io.open_code\n", PROG);
		exitcode = 1;
		goto finalize;
	}
	if (want_site) {
		PyObject *site = PyImport_ImportModule("site"), *res = NULL;

		if (site)
			res = PyObject_CallMethod(site, "main", NULL);
		Py_XDECREF(site);
		if (!res) {
			PyErr_Print();
			exitcode = 1;
			goto finalize;
		}
		Py_DECREF(res);
	}

	if (command) {
		ret = set_path0(config.safe_path ? NULL : "");
		if (ret == 0)
			ret = PyRun_SimpleStringFlags(command, &cf);
		else
			PyErr_Print();
	} else if (module) {
		ret = set_path0(config.safe_path ? NULL :
				getcwd(path0, sizeof(path0)));
		if (ret == 0)
			ret = run_module(module, 1);
		if (ret < 0)
			PyErr_Print();
	} else if (filename) {
		PyObject *imp = NULL, *p = PyUnicode_DecodeFSDefault(filename);

		/* A directory or zip archive runs its __main__ module. */
		if (p && !is_dir && !may_be_zip(script_fd)) {
			imp = Py_None;
			Py_INCREF(imp);
		} else if (p) {
			imp = PyImport_GetImporter(p);
		}
		Py_XDECREF(p);
		if (!imp) {
			PyErr_Print();
			ret = -1;
		} else if (is_dir || imp != Py_None) {
			ret = set_path0(filename);
			if (ret == 0)
				ret = run_module("__main__", 0);
			if (ret < 0)
				PyErr_Print();
		} else {
			const char *dir = NULL;

			if (!config.safe_path &&
			    realpath(filename, path0) != NULL) {
				char *slash = strrchr(path0, '/');

				if (slash == path0)
					slash[1] = '\0';
				else if (slash)
					*slash = '\0';
				dir = path0;
			}
			ret = set_path0(dir);
			if (ret == 0 && ends_with(filename, ".pyc")) {
				ret = run_pyc_fd(script_fd, filename);
				close(script_fd);
				if (ret < 0)
					PyErr_Print();
			} else if (ret == 0) {
				ret = run_source_fd(script_fd, filename,
						    config.skip_source_first_line,
						    &cf);
			} else {
				PyErr_Print();
			}
			script_fd = -1;
		}
		Py_XDECREF(imp);
	} else {
		/* stdin, already judged above */
		ret = set_path0(config.safe_path ? NULL : "");
		if (ret == 0 && (stdin_is_tty() || config.interactive)) {
			if (!config.quiet && stdin_is_tty())
				fprintf(stderr, "Python %s on %s\n%s\n",
					Py_GetVersion(), Py_GetPlatform(),
					"trusted-python3: every file interpreted "
					"is checked by the kernel "
					"(trusted-python3(1))");
			run_startup(&config, &cf);
			call_interactive_hook();
		}
		if (ret == 0)
			ret = PyRun_AnyFileExFlags(stdin, "<stdin>", 0, &cf);
		else
			PyErr_Print();
	}
	exitcode = ret != 0;

	if ((command || module || filename) && wants_inspect(&config) &&
	    (stdin_is_tty() || config.interactive))
		exitcode = repl(&cf);

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
