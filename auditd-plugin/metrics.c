// SPDX-License-Identifier: GPL-2.0-or-later
/* Prometheus textfile-collector output; see metrics.h. */
#include "metrics.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "atomic_file.h"
#include "escape.h"
#include "spacesaving.h"

/* ---- a growable hash map of rows ---- */

static void mmap_free(struct ap_mmap *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		free(t->rows[i].key);
	free(t->rows);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

static uint32_t probe(const struct ap_mmap *t, const char *key, size_t klen, uint64_t h)
{
	uint32_t i = (uint32_t)h & t->mask;

	for (;;) {
		int32_t r = t->slot[i];

		if (r < 0 || (t->rows[r].klen == klen && !memcmp(t->rows[r].key, key, klen)))
			return i;
		i = (i + 1) & t->mask;
	}
}

static struct ap_mrow *mmap_find(const struct ap_mmap *t, const char *key, size_t klen)
{
	int32_t r;

	if (!t->n)
		return NULL;
	r = t->slot[probe(t, key, klen, ap_ss_hash(key, klen))];
	return r < 0 ? NULL : &t->rows[r];
}

static int grow(struct ap_mmap *t)
{
	uint32_t cap = t->cap ? t->cap * 2 : 8, slots = cap * 2;
	struct ap_mrow *rows;
	int32_t *slot;

	if (cap > (1u << 24)) {
		errno = ENOMEM;
		return -1;
	}
	rows = realloc(t->rows, cap * sizeof(*rows));
	if (!rows)
		return -1;
	t->rows = rows;
	slot = malloc(slots * sizeof(*slot));
	if (!slot)
		return -1;
	memset(slot, 0xff, slots * sizeof(*slot));
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	t->mask = slots - 1;
	for (uint32_t i = 0; i < t->n; i++)
		t->slot[probe(t, t->rows[i].key, t->rows[i].klen, t->rows[i].hash)] = (int32_t)i;
	return 0;
}

/* The row of @key, created (count 0) when missing; NULL when out of memory. */
static struct ap_mrow *mmap_get(struct ap_mmap *t, const char *key, size_t klen)
{
	struct ap_mrow *r = mmap_find(t, key, klen);
	uint64_t h;

	if (r)
		return r;
	if (t->n == t->cap && grow(t))
		return NULL;
	h = ap_ss_hash(key, klen);
	r = &t->rows[t->n];
	memset(r, 0, sizeof(*r));
	r->key = malloc(klen + 1);
	if (!r->key)
		return NULL;
	memcpy(r->key, key, klen);
	r->key[klen] = '\0';
	r->klen = klen;
	r->hash = h;
	t->slot[probe(t, key, klen, h)] = (int32_t)t->n++;
	return r;
}

/* ---- labels ---- */

void ap_metrics_label(const char *raw, char *out, size_t outsz)
{
	size_t need = tf_escape_term(raw, strlen(raw), out, outsz), len;

	if (need < outsz)
		return;
	/* Cut: drop a UTF-8 sequence the end split. */
	len = strlen(out);
	for (size_t back = 0; back < 4 && len && !tf_utf8_valid(out, len); back++)
		out[--len] = '\0';
}

/* @label if admitted (or admissible within @max), else "other". */
static const char *admit(struct ap_mmap *set, uint32_t max, const char *label, bool *folded)
{
	size_t n = strlen(label);

	if (mmap_find(set, label, n))
		return label;
	if (set->n < max && mmap_get(set, label, n))
		return label;
	*folded = true;
	return AP_METRICS_OTHER;
}

/* Join label values with NUL bytes into @buf; returns the key length. */
static size_t join(char *buf, size_t size, const char *const *v, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(v[i]);

		if (len + l + 1 > size)
			l = size - len - 1; /* cannot happen: labels are cut */
		memcpy(buf + len, v[i], l);
		len += l;
		if (i + 1 < n)
			buf[len++] = '\0';
	}
	return len;
}

#define KEY_MAX (5 * (AP_METRICS_LABEL_MAX + 1))
#define NDL 5 /* labels of a denial series: exe, reason, node, api, enforced */

void ap_metrics_init(struct ap_metrics *m)
{
	memset(m, 0, sizeof(*m));
	m->lim.exe = AP_METRICS_EXE_DEFAULT;
	m->lim.node = AP_METRICS_NODE_DEFAULT;
	m->lim.series = AP_METRICS_SERIES_DEFAULT;
}

void ap_metrics_free(struct ap_metrics *m)
{
	mmap_free(&m->denials);
	mmap_free(&m->changes);
	mmap_free(&m->policy);
	mmap_free(&m->exe);
	mmap_free(&m->reason);
	mmap_free(&m->node);
}

size_t ap_metrics_labels(const struct ap_mrow *r, const char **out, size_t max)
{
	size_t n = 0;

	for (const char *p = r->key; n < max; p += strlen(p) + 1) {
		out[n++] = p;
		if (p + strlen(p) >= r->key + r->klen)
			break;
	}
	return n;
}

/* The api and enforced label values of a class ("" : no enforced label). */
static void class_labels(enum ap_api_class c, const char **api, const char **enforced)
{
	*api = ap_api_name(c);
	*enforced = c == AP_API_EC_ENFORCED ? "true" : c == AP_API_EC_OBSERVED ? "false" : "";
}

/* @v: exe, reason, node, api, enforced. The fold keeps api and enforced. */
static int count_denial(struct ap_metrics *m, const char *const v[NDL], uint64_t hits,
			bool restore)
{
	const char *other[NDL] = { AP_METRICS_OTHER, AP_METRICS_OTHER, AP_METRICS_OTHER,
				   v[3], v[4] };
	char key[KEY_MAX];
	size_t klen = join(key, sizeof(key), v, NDL);
	struct ap_mrow *r = mmap_find(&m->denials, key, klen);

	if (!r && !restore && m->denials.n >= m->lim.series) {
		m->folded += hits;
		klen = join(key, sizeof(key), other, NDL);
		r = mmap_find(&m->denials, key, klen);
	}
	if (!r)
		r = mmap_get(&m->denials, key, klen);
	if (!r) {
		m->folded += restore ? 0 : hits;
		return -1;
	}
	r->count += hits;
	return 0;
}

int ap_metrics_denial(struct ap_metrics *m, const char *exe, const char *reason,
		      const char *node, enum ap_api_class api)
{
	char e[AP_METRICS_LABEL_MAX], rs[AP_METRICS_LABEL_MAX], nd[AP_METRICS_LABEL_MAX];
	const char *v[NDL];
	bool folded = false;

	ap_metrics_label(exe, e, sizeof(e));
	ap_metrics_label(reason, rs, sizeof(rs));
	ap_metrics_label(node, nd, sizeof(nd));
	v[0] = admit(&m->exe, m->lim.exe, e, &folded);
	v[1] = admit(&m->reason, AP_METRICS_REASONS, rs, &folded);
	v[2] = admit(&m->node, m->lim.node, nd, &folded);
	class_labels(api, &v[3], &v[4]);
	if (folded)
		m->folded++;
	return count_denial(m, v, 1, false);
}

/* A saved label value is what ap_metrics_label() makes: short, UTF-8, no control. */
static bool label_ok(const char *s)
{
	size_t n = strlen(s);

	if (n >= AP_METRICS_LABEL_MAX || !tf_utf8_valid(s, n))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

int ap_metrics_restore_denial(struct ap_metrics *m, const char *exe, const char *reason,
			      const char *node, const char *api, const char *enforced,
			      uint64_t count)
{
	const char *v[NDL] = { exe, reason, node, api ? api : "trusted_for",
			       enforced ? enforced : "" };
	bool known = false;

	if (!label_ok(exe) || !label_ok(reason) || !label_ok(node)) {
		errno = EINVAL;
		return -1;
	}
	/* api and enforced: the values class_labels() makes, nothing else */
	for (int c = 0; c < AP_API_CLASSES; c++) {
		const char *a, *e;

		class_labels(c, &a, &e);
		known |= !strcmp(v[3], a) && !strcmp(v[4], e);
	}
	if (!known) {
		errno = EINVAL;
		return -1;
	}
	/* Admit the saved labels again ("other" is not a label of its own). */
	for (int i = 0; i < 3; i++) {
		struct ap_mmap *set = i == 0 ? &m->exe : i == 1 ? &m->reason : &m->node;

		if (strcmp(v[i], AP_METRICS_OTHER) && !mmap_get(set, v[i], strlen(v[i])))
			return -1;
	}
	return count_denial(m, v, count, true);
}

static struct ap_mrow *change_row(struct ap_metrics *m, const char *node, const char *result)
{
	const char *v[2] = { node, result };
	char key[KEY_MAX];

	return mmap_get(&m->changes, key, join(key, sizeof(key), v, 2));
}

int ap_metrics_change(struct ap_metrics *m, const char *node, int res, int new_policy,
		      int64_t ms)
{
	char nd[AP_METRICS_LABEL_MAX];
	const char *label;
	bool folded = false;
	struct ap_mrow *r;

	ap_metrics_label(node, nd, sizeof(nd));
	label = admit(&m->node, m->lim.node, nd, &folded);
	r = change_row(m, label, res ? "applied" : "refused");
	if (!r)
		return -1;
	r->count++;
	/* The current value is known for a node of its own only, not for "other". */
	if (!res || folded)
		return 0;
	r = mmap_get(&m->policy, label, strlen(label));
	if (!r)
		return -1;
	r->count++;
	if (ms >= r->ms || r->count == 1) {
		r->ms = ms;
		r->value = new_policy;
	}
	return 0;
}

int ap_metrics_restore_change(struct ap_metrics *m, const char *node, const char *result,
			      uint64_t count)
{
	struct ap_mrow *r;

	if (!label_ok(node) || (strcmp(result, "applied") && strcmp(result, "refused"))) {
		errno = EINVAL;
		return -1;
	}
	if (strcmp(node, AP_METRICS_OTHER) && !mmap_get(&m->node, node, strlen(node)))
		return -1;
	r = change_row(m, node, result);
	if (!r)
		return -1;
	r->count += count;
	return 0;
}

int ap_metrics_restore_policy(struct ap_metrics *m, const char *node, int value, int64_t ms)
{
	struct ap_mrow *r;

	if (!label_ok(node)) {
		errno = EINVAL;
		return -1;
	}
	if (!mmap_get(&m->node, node, strlen(node)))
		return -1;
	r = mmap_get(&m->policy, node, strlen(node));
	if (!r)
		return -1;
	r->count = 1;
	r->value = value;
	r->ms = ms;
	return 0;
}

/* ---- exposition ---- */

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
	static const char *const dl[] = { "exe", "reason", "node", "api", "enforced" };
	static const char *const cl[] = { "node", "result" };
	static const char *const nl[] = { "node" };
	static const char *const tl[] = { "table" };
	const struct ap_metrics *m = &a->metrics;
	const struct ap_mrow **v;
	const char *lv[NDL];

	head(f, "trustfor_denials_total", "counter",
	     "Refusals logged as audit records type 1350, by interpreter executable, reason, node and api (trusted_for, or execve_check with enforced=true|false: the caller had SECBIT_EXEC_RESTRICT_FILE set or not).");
	if (!(v = sorted(&m->denials)))
		return -1;
	for (uint32_t i = 0; i < m->denials.n; i++) {
		if (ap_metrics_labels(v[i], lv, NDL) != NDL)
			continue;
		/* trusted_for series have no enforced label */
		series(f, "trustfor_denials_total", dl, lv, lv[4][0] ? NDL : NDL - 1);
		fprintf(f, " %llu\n", (unsigned long long)v[i]->count);
	}
	free(v);

	head(f, "trustfor_policy_changes_total", "counter",
	     "Writes to fs.trust_policy (CONFIG_CHANGE op=trust_policy) by node and result.");
	if (!(v = sorted(&m->changes)))
		return -1;
	for (uint32_t i = 0; i < m->changes.n; i++) {
		if (ap_metrics_labels(v[i], lv, 2) != 2)
			continue;
		series(f, "trustfor_policy_changes_total", cl, lv, 2);
		fprintf(f, " %llu\n", (unsigned long long)v[i]->count);
	}
	free(v);

	if (!(v = sorted(&m->policy)))
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
	     "Type 1350 and op=trust_policy records processed (counted, not a denial, or malformed).");
	u64_line(f, "trustfor_records_total",
		 a->denials + a->not_denial + a->malformed + a->nchanges + a->changes_dropped);
	head(f, "trustfor_malformed_records_total", "counter",
	     "Type 1350 and op=trust_policy records skipped for missing fields.");
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
	     "Denials not stored in a report table (out of memory) plus policy changes dropped from the kept timeline.");
	{
		uint64_t lost = a->changes_dropped;

		for (int c = 0; c < AP_API_CLASSES; c++)
			lost += ap_agg_ctable(a, c, AP_DIM_INTERP)->unstored;
		u64_line(f, "trustfor_lost_total", lost);
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
