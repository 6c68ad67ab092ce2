/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Prometheus metrics of the aggregator, in node exporter's textfile-collector
 * format (text exposition format 0.0.4), written atomically into a
 * directory the collector reads (issue 14).
 *
 * Counters are exact and monotonic: each series is a counter kept in the
 * aggregator (and in its state file), never a Space-Saving row, which an
 * eviction could lower. Label values are bounded by admission: the first
 * `exe` distinct interpreter labels, the first AP_METRICS_REASONS reason
 * labels and the first `node` node labels seen are admitted for good (they
 * are kept in the state file); later values are counted under the label
 * value "other". A combination of labels beyond `series` series is counted
 * under exe="other",reason="other",node="other" (with its own source, api and
 * enforced labels). So an "other" series only grows, an admitted one only
 * grows, and at most series + 6 denial series exist. No path, uid or comm is
 * ever a label. Each denial series has a source label (kernel: a type 1350
 * record; relay: trustfor-relay's type 2650 record) and an api label
 * (trusted_for, execve_check); execve_check series also have
 * enforced="true" (the caller's securebits made it refuse the file: the
 * record's enforced=1, ap_api_class) or enforced="false" (observed only).
 *
 * Label values are the names escaped as terminal text (lib/escape.h: controls,
 * format characters and invalid UTF-8 as \xHH, a backslash as \\), then
 * escaped for the exposition format (\\, \", \n): the file is printable
 * UTF-8 whatever the bytes of a name. Series are keyed by their label value,
 * so two names that give the same label value share one series (never a
 * duplicate series).
 */
#ifndef AP_METRICS_H
#define AP_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record.h"

#define AP_METRICS_FILE "audisp-trusted-for.prom"
#define AP_METRICS_OTHER "other"
#define AP_METRICS_REASONS (TF_REASON_ALL + 1) /* reason labels admitted: every canonical list, and one */
#define AP_METRICS_EXE_DEFAULT 32  /* metrics_top */
#define AP_METRICS_NODE_DEFAULT 1024 /* metrics_nodes */
#define AP_METRICS_SERIES_DEFAULT 16384 /* metrics_series */
#define AP_METRICS_LABEL_MAX 1024  /* bytes of a label value (escaped), longer is cut */
#define AP_METRICS_NDL 6 /* labels of a denial series: exe, reason, node, source, api, enforced */

struct ap_mrow {
	char *key;	/* NUL-separated label values */
	size_t klen;
	uint64_t hash;
	uint64_t count;
	int64_t ms;	/* policy: time of the last applied change */
	int value;	/* policy: its new value */
};

/* A growable hash map of rows (no eviction, ever). */
struct ap_mmap {
	struct ap_mrow *rows;
	uint32_t n, cap;
	int32_t *slot;
	uint32_t mask;
};

struct ap_metrics_limits {
	uint32_t exe;	 /* interpreter labels admitted */
	uint32_t node;	 /* node labels admitted */
	uint32_t series; /* denial series */
};

struct ap_metrics {
	/* exe \0 reason \0 node \0 source \0 api \0 enforced -> count */
	struct ap_mmap denials;
	struct ap_mmap changes;	/* node \0 result -> count */
	struct ap_mmap policy;	/* node -> value, ms of its last applied change */
	struct ap_mmap exe, reason, node; /* admitted label values */
	struct ap_metrics_limits lim;
	uint64_t folded;	/* denials counted under at least one "other" */
};

struct ap_agg;

void ap_metrics_init(struct ap_metrics *m);
void ap_metrics_free(struct ap_metrics *m);
/* Returns 0, or -1 when out of memory (the hit is then counted as folded). */
int ap_metrics_denial(struct ap_metrics *m, const char *exe, const char *reason,
		      const char *node, enum ap_api_class api, enum ap_source source);
int ap_metrics_change(struct ap_metrics *m, const char *node, int res, int new_policy,
		      int64_t ms);

/* State load: label values as saved (already escaped), admitted whatever the limits. */
/*
 * @source NULL: "kernel"; @api NULL: "trusted_for"; @enforced NULL: "" (a
 * state of an older plugin).
 */
int ap_metrics_restore_denial(struct ap_metrics *m, const char *exe, const char *reason,
			      const char *node, const char *source, const char *api,
			      const char *enforced, uint64_t count);
int ap_metrics_restore_change(struct ap_metrics *m, const char *node, const char *result,
			      uint64_t count);
int ap_metrics_restore_policy(struct ap_metrics *m, const char *node, int value, int64_t ms);

/* Row @i's label values: up to @max pointers into its key; returns how many. */
size_t ap_metrics_labels(const struct ap_mrow *r, const char **out, size_t max);

/* The plugin's own health, beside what the aggregator counts. */
struct ap_metrics_health {
	int64_t last_save_ms;	/* last successful state save, 0: none yet */
	bool plugin;		/* false: an offline report (no plugin gauges) */
};

/* The exposition text of @a. Returns 0, or -1 when writing fails. */
int ap_metrics_write(FILE *f, const struct ap_agg *a, const struct ap_metrics_health *h);

/*
 * Write dir/AP_METRICS_FILE atomically (temporary file in @dir, then rename).
 * Returns 0, or -1 with errno.
 */
int ap_metrics_save(const char *dir, const struct ap_agg *a, const struct ap_metrics_health *h);

/* A label value: @raw escaped as terminal text, cut to AP_METRICS_LABEL_MAX. */
void ap_metrics_label(const char *raw, char *out, size_t outsz);

#endif
