/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trusttop: state shared by the main loop, the text/JSON output and the UI. */
#ifndef TRUSTTOP_APP_H
#define TRUSTTOP_APP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "stats.h"

/* Exit statuses (documented in trusttop.8). */
#define TT_EXIT_OK 0
#define TT_EXIT_FAIL 1	   /* runtime failure: load, attach, read */
#define TT_EXIT_USAGE 2	   /* bad command line */
#define TT_EXIT_PRIV 3	   /* missing CAP_BPF/CAP_PERFMON */
#define TT_EXIT_NOBACKEND 4 /* the kernel offers no usable interface */

#define TT_RECENT 256 /* latest denials kept */
/* struct tt_app.apis when both interfaces are followed. */
#define TT_APIS_BOTH ((1u << TT_SRC_TRUSTED_FOR) | (1u << TT_SRC_EXECVE_CHECK))

struct tt_recent {
	struct tt_event ev;
	uint64_t seq;		 /* 1, 2, ... in arrival order */
	double wall;		 /* CLOCK_REALTIME seconds */
	char path[TT_PATH_MAX];	 /* raw bytes */
};

struct tt_app {
	/* options */
	double delay;	   /* seconds between updates */
	long iterations;   /* -n; 0 = forever */
	bool batch, json, per_process, reverse, color;
	enum tt_sort sort;
	char filter[128];
	long uid;	   /* -1 = all */
	unsigned int api;  /* rows and events of one interface (enum
			    * tt_source); 0 = all
			    */

	/* what we run on */
	const char *backend;   /* human name of the attached flavour */
	const char *backend_ui; /* the same, short enough for 80 columns */
	unsigned int apis;     /* interfaces followed: 1 << enum tt_source */
	char kernel[128];
	int policy;	       /* -1: not readable / not applicable */
	const char *policy_note;

	/* data */
	struct tt_table interp; /* per interpreter (exe, comm, uid) */
	struct tt_table procs;	/* per process (+ tgid) */
	struct tt_counts total, total_delta;
	/* The same per interface, indexed by enum tt_source. */
	struct tt_counts api_total[3], api_delta[3];
	double elapsed;		/* seconds covered by the last tick */
	double now;		/* CLOCK_REALTIME at the last tick */
	uint64_t ticks;
	uint64_t rb_drops, map_full, pmap_full;
	struct tt_recent recent[TT_RECENT];
	uint64_t recent_seq;	/* events received so far */
	/* The latest events matching the filter and user, for the pane: kept
	 * apart so other activity cannot push them out.
	 */
	struct tt_recent shown[TT_RECENT];
	uint64_t shown_seq;
	uint64_t json_seq;	/* last event already printed as JSON */
	double self_cpu_pct;	/* trusttop's own CPU, % of one CPU */
	double bpf_ns_per_event; /* BPF programs' run time per invocation */
	double bpf_cpu_pct;	 /* BPF run time, % of one CPU */
	uint64_t bpf_runs;	 /* program runs so far (self-profile) */
	bool paused;
};

/* output.c (json.c: tt_print_json) */
/* Assemble an event's file as raw bytes: "/usr/bin/x", ".../b/x", or
 * "dev 8:1 ino 42" when the kernel gave no name. Returns @out.
 */
char *tt_event_path(const struct tt_event *e, char *out, size_t outsz);
/* Escape hostile bytes for a terminal (lib/escape.h); JSON uses lib/tfjson.h. */
const char *tt_escape(const char *raw, char *out, size_t outsz);
/* Reason bits of an event as names; 0 is "other" when denied, else "-". */
const char *tt_reason_bits_str(unsigned int bits, bool denied, char *buf,
			       size_t len);
/* User name of @uid, or the number; static cache. */
const char *tt_user_name(uint32_t uid);
/* "python3" or "python3(worker)" when comm differs from the exe name. */
const char *tt_interp_name(const struct tt_key *k, char *out, size_t outsz);
/* Compact count in @width columns: 123456, 1.2M... */
const char *tt_fmt_count(uint64_t v, int width, char *out, size_t outsz);
/* Record an event (already in @a->recent) in the shown ring if it matches. */
void tt_shown_add(struct tt_app *a, const struct tt_recent *r);
/* Rebuild the shown ring after the filter or user changed. */
void tt_shown_rebuild(struct tt_app *a);
/* Rows to show, filtered and sorted; caller frees the array. */
struct tt_row **tt_visible_rows(struct tt_app *a, size_t *n);
void tt_print_batch(struct tt_app *a, FILE *f);
/* One JSON object, one line. Returns 0 or -1 (ENOMEM). */
int tt_print_json(struct tt_app *a, FILE *f);

/* ui.c */
int tt_ui_init(struct tt_app *a);
void tt_ui_end(void);
void tt_ui_draw(struct tt_app *a);
/* Handle pending keys; returns false when the user asked to quit. */
bool tt_ui_input(struct tt_app *a);
/* Key group @i of the key table as --help lists it ("< > s sort") in @out;
 * NULL past the last group (@out may be NULL to ask only that).
 */
const char *tt_ui_key_group(size_t i, char *out, size_t outsz);

#endif /* TRUSTTOP_APP_H */
