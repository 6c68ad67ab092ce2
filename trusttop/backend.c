// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trusttop: the --backend choices, the sets of programs loaded together,
 * the probes of the running kernel and the plan of attempts (backend.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "trustedfor.h"
#include "backend.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --backend: auto first (the default), then each interface's. */
static const struct tt_backend backends[] = {
	{ "auto", TT_P_TRUSTED_FOR | TT_P_EXECVE_CHECK },
	{ "trusted_for", TT_P_TRUSTED_FOR },
	{ "trusted_for-btf", TT_P_TF_BTF },
	{ "trusted_for-tp", TT_P_TF_TP },
	{ "execve_check", TT_P_EXECVE_CHECK },
	{ "execve_check-tp", TT_P_EC_TP },
};

/*
 * The sets of programs, best first: the patched kernel's interfaces in one
 * load (tp_btf first), then one interface, then mainline's syscall exit.
 * What each is called in -b and JSON, in the terminal's header (80 columns:
 * both interfaces by the API column's names), and in load errors.
 */
static const struct tt_flavour flavours[] = {
	{ TT_P_TF_BTF | TT_P_EC_BTF, "trusted_for+execve_check (tp_btf)",
	  "tf+check (tp_btf)",
	  "tp_btf/trusted_for_verdict, tp_btf/execve_check_verdict" },
	{ TT_P_TF_BTF, "trusted_for (tp_btf)", NULL, "tp_btf/trusted_for_verdict" },
	{ TT_P_TF_TP | TT_P_EC_TP, "trusted_for+execve_check (tracepoint)",
	  "tf+check (tracepoint)",
	  "tracepoints trusted_for_verdict, execve_check_verdict" },
	{ TT_P_TF_TP, "trusted_for (tracepoint)", NULL,
	  "tracepoint trusted_for_verdict" },
	{ TT_P_EC_BTF, "execve_check (tp_btf)", NULL, "tp_btf/execve_check_verdict" },
	{ TT_P_EC_TP, "execve_check (tracepoint)", NULL,
	  "tracepoint execve_check_verdict" },
	/* Last resort: only when no set above can be tried. */
	{ TT_P_EC_EXIT, "execve_check", NULL, "tracepoint sys_exit_execveat" },
};

const struct tt_backend *tt_backend_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(backends); i++)
		if (!strcmp(name, backends[i].name))
			return &backends[i];
	return NULL;
}

const char *tt_backend_name_at(size_t i)
{
	return i < ARRAY_SIZE(backends) ? backends[i].name : NULL;
}

const char *tt_backend_list(const char *sep, const char *last, char *out,
			    size_t outsz)
{
	size_t n = ARRAY_SIZE(backends), off = 0;

	out[0] = 0;
	for (size_t i = 0; i < n && off < outsz; i++)
		off += (size_t)snprintf(out + off, outsz - off, "%s%s",
					!i ? "" : i + 1 < n ? sep : last,
					backends[i].name);
	return out;
}

const struct tt_flavour *tt_flavour_of(unsigned int progs)
{
	for (size_t i = 0; i < ARRAY_SIZE(flavours); i++)
		if (flavours[i].progs == progs)
			return &flavours[i];
	return &flavours[ARRAY_SIZE(flavours) - 1];
}

/* The mounted tracefs, NULL when there is none (never mounted here). */
static const char *tracefs_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char p[64];

		snprintf(p, sizeof(p), "%s/events", dirs[i]);
		if (!access(p, F_OK))
			return dirs[i];
	}
	return NULL;
}

static bool tracepoint_exists(const char *dir, const char *cat,
			      const char *name)
{
	char p[256];

	if (!dir)
		return false;
	snprintf(p, sizeof(p), "%s/events/%s/%s/id", dir, cat, name);
	return !access(p, R_OK);
}

/* Does the kernel's BTF describe the tracepoint @name (for tp_btf)? */
static bool btf_has_tp(const struct btf *btf, const char *name)
{
	char type[96];

	snprintf(type, sizeof(type), "btf_trace_%s", name);
	return btf && btf__find_by_name_kind(btf, type, BTF_KIND_TYPEDEF) >= 0;
}

void tt_backend_plan(const struct tt_backend *b, struct tt_plan *p)
{
	const char *dir = tracefs_dir();
	struct btf *btf = NULL;
	unsigned int chosen = 0;

	memset(p, 0, sizeof(*p));
	p->tracefs = dir;
	if (b->allow & (TT_P_TF_BTF | TT_P_EC_BTF))
		btf = btf__load_vmlinux_btf(); /* NULL without BTF: no tp_btf */
	if (btf_has_tp(btf, "trusted_for_verdict"))
		p->avail |= TT_P_TF_BTF;
	if (btf_has_tp(btf, "execve_check_verdict"))
		p->avail |= TT_P_EC_BTF;
	btf__free(btf);
	if (tracepoint_exists(dir, "trusted_for", "trusted_for_verdict"))
		p->avail |= TT_P_TF_TP;
	if (tracepoint_exists(dir, "trusted_for", "execve_check_verdict"))
		p->avail |= TT_P_EC_TP;
	p->avail &= b->allow;
	/* Each set the kernel can feed, unless an earlier attempt already
	 * loads all of its programs.
	 */
	for (size_t i = 0; i + 1 < ARRAY_SIZE(flavours); i++) {
		unsigned int progs = flavours[i].progs;

		if ((progs & p->avail) != progs || (progs & chosen) == progs)
			continue;
		p->order[p->n++] = progs;
		chosen |= progs;
	}
	/* Mainline's AT_EXECVE_CHECK, seen at the syscall's exit: only when
	 * the patched kernel's tracepoints are missing.
	 */
	if (!p->n && (b->allow & TT_P_EC_EXIT) && tf_kernel_has_execve_check()) {
		p->has_ec = true;
		if (tracepoint_exists(dir, "syscalls", "sys_exit_execveat")) {
			p->avail |= TT_P_EC_EXIT;
			p->order[p->n++] = TT_P_EC_EXIT;
		}
	}
}

void tt_plan_why(const struct tt_backend *b, const struct tt_plan *p,
		 const char *kernel, char *out, size_t outsz)
{
	const char *no_tf = b->allow == TT_P_TF_BTF ?
		"no trusted_for_verdict tracepoint in the kernel's BTF (needs the trustfor-patched kernel with CONFIG_DEBUG_INFO_BTF)" :
		!p->tracefs ? "no tracefs to find the trusted_for_verdict tracepoint in (needs the trustfor-patched kernel and CONFIG_TRACING)" :
		"no trusted_for_verdict tracepoint (needs the trustfor-patched kernel)";
	const char *no_ec = !(b->allow & TT_P_EC_EXIT) ?
		"no execve_check_verdict tracepoint (needs the trustfor-patched kernel with AT_EXECVE_CHECK and CONFIG_TRACING)" :
		!p->has_ec ? "no execveat(AT_EXECVE_CHECK) (needs Linux >= 6.14)" :
		"AT_EXECVE_CHECK but no syscall tracepoints (sys_exit_execveat: needs CONFIG_FTRACE_SYSCALLS and tracefs)";
	bool tf = b->allow & TT_P_TRUSTED_FOR, ec = b->allow & TT_P_EXECVE_CHECK;
	/* A choice that could use a classic tracepoint says how to get
	 * tracefs: trusttop does not mount it.
	 */
	bool fix = !p->tracefs &&
		   (b->allow & (TT_P_TF_TP | TT_P_EC_TP | TT_P_EC_EXIT));
	const char *tail = fix ? "; tracefs is not mounted: " TT_TRACEFS_FIX : "";

	if (tf && ec)
		snprintf(out, outsz, "no backend on kernel %s: %s, and %s%s",
			 kernel, no_tf, no_ec, tail);
	else
		snprintf(out, outsz, "backend %s unavailable on kernel %s: %s%s",
			 b->name, kernel, tf ? no_tf : no_ec, tail);
}

void tt_backend_autoload(struct bpf_program *const prog[TT_NPROGS],
			 unsigned int progs)
{
	for (int i = 0; i < TT_NPROGS; i++)
		bpf_program__set_autoload(prog[i], progs & (1u << i));
}

/* The last warnings libbpf printed (a ring of lines). */
#define LOG_LINES 8
static struct {
	bool verbose;
	unsigned int n;
	char line[LOG_LINES][256];
} blog;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	char *l;
	size_t len;

	if (blog.verbose)
		return level == LIBBPF_INFO ? 0 : vfprintf(stderr, fmt, ap);
	if (level != LIBBPF_WARN)
		return 0;
	l = blog.line[blog.n++ % LOG_LINES];
	vsnprintf(l, sizeof(blog.line[0]), fmt, ap);
	len = strlen(l);
	if (len && l[len - 1] == '\n')
		l[len - 1] = 0;
	return 0;
}

void tt_libbpf_log(bool verbose)
{
	blog.verbose = verbose;
	libbpf_set_print(libbpf_print);
}

void tt_libbpf_dump(FILE *f, const char *prefix)
{
	unsigned int first = blog.n > LOG_LINES ? blog.n - LOG_LINES : 0;

	for (unsigned int i = first; i < blog.n; i++)
		fprintf(f, "%s%s\n", prefix, blog.line[i % LOG_LINES]);
}
