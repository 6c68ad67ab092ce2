// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The metrics as Prometheus text exposition (ap_metrics_write()) and the
 * node exporter's textfile written atomically (ap_metrics_save()); the
 * counting is metrics.c. See metrics.h.
 */
#include "metrics.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "atomic_file.h"

/* A label value for the exposition format: \\, \" and \n escaped. */
static void put_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void series(FILE *f, const char *name, const char *const *labels,
		   const char *const *values, size_t n)
{
	fputs(name, f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s%s=\"", i ? "," : "{", labels[i]);
		put_value(f, values[i]);
		fputc('"', f);
	}
	if (n)
		fputc('}', f);
}

static void u64_line(FILE *f, const char *name, uint64_t v)
{
	fprintf(f, "%s %llu\n", name, (unsigned long long)v);
}

static void seconds(FILE *f, int64_t ms)
{
	fprintf(f, " %lld.%03lld\n", (long long)(ms / 1000), (long long)(ms % 1000 < 0 ? -(ms % 1000) : ms % 1000));
}

/* Rows in key order, so that the file is the same for the same counts. */
static int cmp_rows(const void *a, const void *b)
{
	const struct ap_mrow *x = *(const struct ap_mrow *const *)a;
	const struct ap_mrow *y = *(const struct ap_mrow *const *)b;
	size_t n = x->klen < y->klen ? x->klen : y->klen;
	int c = memcmp(x->key, y->key, n);

	return c ? c : (x->klen > y->klen) - (x->klen < y->klen);
}

static const struct ap_mrow **sorted(const struct ap_mmap *t)
{
	const struct ap_mrow **v = malloc((t->n ? t->n : 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (uint32_t i = 0; i < t->n; i++)
		v[i] = &t->rows[i];
	qsort(v, t->n, sizeof(*v), cmp_rows);
	return v;
}

int ap_metrics_write(FILE *f, const struct ap_agg *a, const struct ap_metrics_health *h)
{
	static const char *const dl[] = { "exe", "reason", "node", "source", "api", "enforced" };
	static const char *const cl[] = { "node", "result" };
	static const char *const nl[] = { "node" };
	static const char *const tl[] = { "table" };
	static const char *const sl[] = { "source" };
	const struct ap_metrics *m = &a->metrics;
	const struct ap_mrow **v;
	const char *lv[AP_METRICS_NDL];

	head(f, "trustfor_denials_total", "counter",
	     "Refusals logged as audit records, by interpreter executable, reason, node, source (kernel: type 1350; relay: type 2650, written by trustfor-relay) and api (trusted_for, or execve_check with enforced=true|false: whether the caller's securebits made it refuse the file, as the record's enforced= says).");
	v = sorted(&m->denials);
	if (!v)
		return -1;
	for (uint32_t i = 0; i < m->denials.n; i++) {
		if (ap_metrics_labels(v[i], lv, AP_METRICS_NDL) != AP_METRICS_NDL)
			continue;
		/* trusted_for series have no enforced label */
		series(f, "trustfor_denials_total", dl, lv,
		       lv[5][0] ? AP_METRICS_NDL : AP_METRICS_NDL - 1);
		fprintf(f, " %llu\n", (unsigned long long)v[i]->count);
	}
	free(v);

	head(f, "trustfor_policy_changes_total", "counter",
	     "Writes to fs.trust_policy (CONFIG_CHANGE op=trust_policy) by node and result.");
	v = sorted(&m->changes);
	if (!v)
		return -1;
	for (uint32_t i = 0; i < m->changes.n; i++) {
		if (ap_metrics_labels(v[i], lv, 2) != 2)
			continue;
		series(f, "trustfor_policy_changes_total", cl, lv, 2);
		fprintf(f, " %llu\n", (unsigned long long)v[i]->count);
	}
	free(v);

	v = sorted(&m->policy);
	if (!v)
		return -1;
	head(f, "trustfor_policy", "gauge",
	     "fs.trust_policy of the node, as set by its last applied change in the audit trail.");
	for (uint32_t i = 0; i < m->policy.n; i++) {
		lv[0] = v[i]->key;
		series(f, "trustfor_policy", nl, lv, 1);
		fprintf(f, " %d\n", v[i]->value);
	}
	head(f, "trustfor_policy_last_change_timestamp_seconds", "gauge",
	     "Time of the node's last applied fs.trust_policy change, seconds since the epoch.");
	for (uint32_t i = 0; i < m->policy.n; i++) {
		lv[0] = v[i]->key;
		series(f, "trustfor_policy_last_change_timestamp_seconds", nl, lv, 1);
		seconds(f, v[i]->ms);
	}
	free(v);

	head(f, "trustfor_records_total", "counter",
	     "Type 1350, type 2650 and op=trust_policy records processed (counted, not a denial, or malformed).");
	u64_line(f, "trustfor_records_total",
		 a->denials + a->relay_lost_records + a->not_denial + a->malformed + a->nchanges +
		 a->changes_dropped);
	head(f, "trustfor_malformed_records_total", "counter",
	     "Type 1350, type 2650 and op=trust_policy records skipped for missing or bad fields.");
	u64_line(f, "trustfor_malformed_records_total", a->malformed);
	head(f, "trustfor_non_audit_lines_total", "counter",
	     "Input lines skipped as not audit records.");
	u64_line(f, "trustfor_non_audit_lines_total", a->bad_lines);
	head(f, "trustfor_evicted_rows_total", "counter",
	     "Report rows evicted from a full table (their counts go to the table's other row), by table.");
	for (int d = 0; d < AP_DIM_COUNT; d++) {
		lv[0] = ap_dim_name(d);
		series(f, "trustfor_evicted_rows_total", tl, lv, 1);
		uint64_t ev = 0;

		for (int c = 0; c < AP_API_CLASSES; c++)
			ev += ap_agg_ctable(a, c, d)->evicted;
		fprintf(f, " %llu\n", (unsigned long long)ev);
	}
	head(f, "trustfor_lost_total", "counter",
	     "What was not kept, by source: plugin, denials not stored in a report table (out of memory) plus policy changes dropped from the kept timeline; relay, refusals trustfor-relay saw but could not log (its op=lost records).");
	{
		static const char *const sources[] = { "plugin", "relay" };
		uint64_t lost[] = { a->changes_dropped, a->relay_lost };

		for (int c = 0; c < AP_API_CLASSES; c++)
			lost[0] += ap_agg_ctable(a, c, AP_DIM_INTERP)->unstored;
		for (int i = 0; i < 2; i++) {
			series(f, "trustfor_lost_total", sl, &sources[i], 1);
			fprintf(f, " %llu\n", (unsigned long long)lost[i]);
		}
	}
	head(f, "trustfor_metrics_folded_denials_total", "counter",
	     "Denials counted under a label value \"other\" (label or series limits reached).");
	u64_line(f, "trustfor_metrics_folded_denials_total", m->folded);
	if (h && h->plugin) {
		head(f, "trustfor_plugin_last_save_timestamp_seconds", "gauge",
		     "Time of the plugin's last successful state save, seconds since the epoch (0: none yet).");
		fputs("trustfor_plugin_last_save_timestamp_seconds", f);
		seconds(f, h->last_save_ms);
	}
	return ferror(f) ? -1 : 0;
}

int ap_metrics_save(const char *dir, const struct ap_agg *a, const struct ap_metrics_health *h)
{
	char *text = NULL, *path = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc = -1, e;

	if (!f)
		return -1;
	if (ap_metrics_write(f, a, h)) {
		fclose(f);
		free(text);
		errno = ENOMEM;
		return -1;
	}
	if (fclose(f)) {
		free(text);
		return -1;
	}
	if (asprintf(&path, "%s/%s", dir, AP_METRICS_FILE) >= 0)
		rc = tf_atomic_write(path, text, len, 0644);
	else
		path = NULL;
	e = errno;
	free(path);
	free(text);
	errno = e;
	return rc;
}
