/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trusttop: which BPF programs to attach. One table of the --backend
 * choices (the programs each may use), one of the sets of programs loaded
 * together (their names in the output and in errors), the probes of what
 * the running kernel offers (BTF, tracefs, AT_EXECVE_CHECK), and the plan
 * of attempts that follows. Used by trusttop and by tests/tt-floor.c (the
 * same choice as trusttop's auto mode). No skeleton here: sampling.c maps
 * the program bits to trusttop's programs.
 */
#ifndef TRUSTTOP_BACKEND_H
#define TRUSTTOP_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The BPF programs an attempt loads (trusttop.bpf.c, tests/tt-floor.bpf.c). */
enum {
	TT_P_TF_BTF = 1 << 0,  /* tp_btf/trusted_for_verdict */
	TT_P_TF_TP = 1 << 1,   /* tracepoint trusted_for/trusted_for_verdict */
	TT_P_EC_BTF = 1 << 2,  /* tp_btf/execve_check_verdict */
	TT_P_EC_TP = 1 << 3,   /* tracepoint trusted_for/execve_check_verdict */
	TT_P_EC_EXIT = 1 << 4, /* tracepoint syscalls/sys_exit_execveat */
};
#define TT_NPROGS 5
#define TT_P_TRUSTED_FOR (TT_P_TF_BTF | TT_P_TF_TP)
#define TT_P_EXECVE_CHECK (TT_P_EC_BTF | TT_P_EC_TP | TT_P_EC_EXIT)

/* The fix for an unmounted tracefs, named in the errors. */
#define TT_TRACEFS_FIX "mount -t tracefs nodev /sys/kernel/tracing"

/* A --backend choice. */
struct tt_backend {
	const char *name;    /* --backend NAME */
	unsigned int allow;  /* programs it may use: TT_P_* */
};

/* A set of programs loaded together. */
struct tt_flavour {
	unsigned int progs;
	const char *label;    /* -b and JSON "backend" */
	const char *label_ui; /* the terminal's header (80 columns) */
	const char *programs; /* in load errors */
};

/* The choice named @name, NULL when unknown; "auto" is the default. */
const struct tt_backend *tt_backend_find(const char *name);
/* "auto, trusted_for, ... or execve_check-tp" (for an error). */
const char *tt_backend_list(const char *sep, const char *last, char *out,
			    size_t outsz);
/* Each choice's name, in the table's order (for usage text); NULL ends. */
const char *tt_backend_name_at(size_t i);
/* The set of @progs (a plan's attempt). */
const struct tt_flavour *tt_flavour_of(unsigned int progs);

#define TT_MAX_ATTEMPTS 7

/* What the kernel offers and the attempts to make, best first. */
struct tt_plan {
	unsigned int avail;	/* programs the kernel can feed (allowed ones) */
	bool tracefs;		/* tracefs found */
	bool has_ec;		/* execveat(AT_EXECVE_CHECK) probed and known */
	unsigned int order[TT_MAX_ATTEMPTS];
	int n;
};

/* Probe the kernel for what @b may use and fill @p. 0 attempts: see
 * tt_plan_why(). Never mounts anything.
 */
void tt_backend_plan(const struct tt_backend *b, struct tt_plan *p);
/* One line (no newline) saying why @b has no attempt on kernel @kernel. */
void tt_plan_why(const struct tt_backend *b, const struct tt_plan *p,
		 const char *kernel, char *out, size_t outsz);

struct bpf_program;
/* Load only the programs of @progs: @prog[i] is the object's program for
 * bit 1 << i (TT_P_*), in that order.
 */
void tt_backend_autoload(struct bpf_program *const prog[TT_NPROGS],
			 unsigned int progs);

/*
 * libbpf's messages: passed through to stderr when @verbose, else the last
 * few warnings are kept to explain a failure (tt_libbpf_dump()).
 */
void tt_libbpf_log(bool verbose);
/* Print the kept warnings, each line prefixed with @prefix. */
void tt_libbpf_dump(FILE *f, const char *prefix);

#endif /* TRUSTTOP_BACKEND_H */
