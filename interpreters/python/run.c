// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trusted-python3: running what main.c opened and had judged (the script
 * given on the command line: a source file, a .pyc, a directory or a zip
 * archive) or a module (-m), as CPython's main() would, but from the
 * descriptor the kernel was asked about: never opened again by name.
 */
#include "trusted_python.h"

#include <marshal.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tp_set_path0(const char *entry)
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

int tp_run_module(const char *name, int set_argv0)
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

/* A plain script (source or .pyc) from @fd, which it takes. */
static int run_file(const char *filename, int fd, const PyConfig *config,
		    PyCompilerFlags *cf)
{
	char path0[PATH_MAX];
	const char *dir = NULL;
	int ret;

	if (!config->safe_path && realpath(filename, path0) != NULL) {
		char *slash = strrchr(path0, '/');

		if (slash == path0)
			slash[1] = '\0';
		else if (slash)
			*slash = '\0';
		dir = path0;
	}
	ret = tp_set_path0(dir);
	if (ret == 0 && ends_with(filename, ".pyc")) {
		ret = run_pyc_fd(fd, filename);
		close(fd);
		if (ret < 0)
			PyErr_Print();
	} else if (ret == 0) {
		ret = run_source_fd(fd, filename,
				    config->skip_source_first_line, cf);
	} else {
		PyErr_Print();
	}
	return ret;
}

int tp_run_script(const char *filename, int fd, const PyConfig *config,
		  PyCompilerFlags *cf)
{
	PyObject *imp = NULL, *p = PyUnicode_DecodeFSDefault(filename);
	int ret;

	/* A directory or zip archive runs its __main__ module. */
	if (p && fd >= 0 && !may_be_zip(fd)) {
		imp = Py_None;
		Py_INCREF(imp);
	} else if (p) {
		imp = PyImport_GetImporter(p);
	}
	Py_XDECREF(p);
	if (imp == Py_None && fd >= 0) {
		Py_DECREF(imp);
		return run_file(filename, fd, config, cf);
	}
	if (!imp) {
		PyErr_Print();
		ret = -1;
	} else {
		/* zipimport reads the archive through io.open_code. */
		ret = tp_set_path0(filename);
		if (ret == 0)
			ret = tp_run_module("__main__", 0);
		if (ret < 0)
			PyErr_Print();
		Py_DECREF(imp);
	}
	if (fd >= 0)
		close(fd);
	return ret;
}
