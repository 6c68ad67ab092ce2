// SPDX-License-Identifier: GPL-2.0-or-later
/* aureport-like text report and JSON report; see report.h. */
#include "report.h"

#include <json-c/json.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "escape.h"
#include "tfjson.h"
#include "mountinfo.h"

static const char *const titles[TF_DIM_COUNT] = {
	[TF_DIM_INTERP] = "Interpreter", [TF_DIM_FILE] = "File",
	[TF_DIM_REASON] = "Reason",	 [TF_DIM_MOUNT] = "Mount",
	[TF_DIM_USER] = "User",		 [TF_DIM_AUID] = "Login User",
	[TF_DIM_NODE] = "Host",
};

static const char *const plural[TF_DIM_COUNT] = {
	[TF_DIM_INTERP] = "interpreters", [TF_DIM_FILE] = "files",
	[TF_DIM_REASON] = "reasons",	  [TF_DIM_MOUNT] = "mounts",
	[TF_DIM_USER] = "users",	  [TF_DIM_AUID] = "login users",
	[TF_DIM_NODE] = "hosts",
};

static const char rule[] = "===============================================";

int tf_report_tables(const char *list, unsigned int *mask, const char **bad)
{
	char *copy = strdup(list), *save = NULL;

	*mask = 0;
	if (!copy)
		return -1;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int d = tf_dim_from_name(t);

		if (d >= 0) {
			*mask |= 1u << d;
		} else if (!strcmp(t, "policy")) {
			*mask |= 1u << TF_TABLE_POLICY;
		} else {
			*bad = list + (t - copy);
			free(copy);
			return -1;
		}
	}
	free(copy);
	return *mask ? 0 : -1;
}

static const char *const api_labels[API_CLASSES] = {
	[API_CLASS_TRUSTED_FOR] = "trusted_for",
	[API_CLASS_EC_ENFORCED] = "execve_check/enforced",
	[API_CLASS_EC_OBSERVED] = "execve_check/observed",
};

int tf_report_apis(const char *list, unsigned int *mask)
{
	char *copy = strdup(list), *save = NULL;

	*mask = 0;
	if (!copy)
		return -1;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "execve_check")) {
			*mask |= 1u << API_CLASS_EC_ENFORCED | 1u << API_CLASS_EC_OBSERVED;
			continue;
		}
		int c = 0;

		while (c < API_CLASSES && strcmp(t, api_labels[c]))
			c++;
		if (c == API_CLASSES) {
			free(copy);
			return -1;
		}
		*mask |= 1u << c;
	}
	free(copy);
	return *mask ? 0 : -1;
}

/* Whether the report shows class @c. */
static bool shown_api(const struct tf_report_opts *o, int c)
{
	return !o->apis || (o->apis & (1u << c));
}

/* Denials of the classes shown (exact: a table's total is). */
static uint64_t shown_denials(const struct tf_agg *a, const struct tf_report_opts *o)
{
	uint64_t n = 0;

	if (!o->apis)
		return a->denials;
	for (int c = 0; c < API_CLASSES; c++)
		if (shown_api(o, c))
			n += tf_agg_ctable(a, c, TF_DIM_INTERP)->total;
	return n;
}

/* The time range of the classes shown; false when none was denied. */
static bool shown_range(const struct tf_agg *a, const struct tf_report_opts *o, int64_t *first,
			int64_t *last)
{
	*first = INT64_MAX;
	*last = INT64_MIN;
	if (!o->apis) {
		*first = a->first;
		*last = a->last;
	} else {
		for (int c = 0; c < API_CLASSES; c++) {
			if (!shown_api(o, c) || !tf_agg_ctable(a, c, TF_DIM_INTERP)->total)
				continue;
			if (a->api_first[c] < *first)
				*first = a->api_first[c];
			if (a->api_last[c] > *last)
				*last = a->api_last[c];
		}
	}
	return shown_denials(a, o) != 0;
}

/* A row of a table merged over the classes shown. */
struct mrow {
	const struct ss_row *r;
	int c;
};

/* ss_sorted()'s order (guaranteed count desc, then key), then the class. */
static int cmp_mrow(const void *a, const void *b)
{
	const struct mrow *p = a, *q = b;
	const struct ss_row *x = p->r, *y = q->r;
	uint64_t gx = x->count - x->err, gy = y->count - y->err;
	size_t n = x->klen < y->klen ? x->klen : y->klen;
	int c;

	if (gx != gy)
		return gx > gy ? -1 : 1;
	c = memcmp(x->key, y->key, n);
	if (c)
		return c;
	if (x->klen != y->klen)
		return x->klen < y->klen ? -1 : 1;
	return p->c - q->c;
}

/* The rows of dimension @d of the classes shown, sorted; *n their number. */
static struct mrow *merged(const struct tf_agg *a, enum tf_dim d, const struct tf_report_opts *o,
			   size_t *n)
{
	size_t k = 0, total = 0;
	struct mrow *m;

	for (int c = 0; c < API_CLASSES; c++)
		if (shown_api(o, c))
			total += tf_agg_ctable(a, c, d)->n;
	m = malloc((total ? total : 1) * sizeof(*m));
	if (!m)
		return NULL;
	for (int c = 0; c < API_CLASSES; c++) {
		const struct ss_table *t = tf_agg_ctable(a, c, d);

		if (!shown_api(o, c))
			continue;
		for (uint32_t i = 0; i < t->n; i++)
			m[k++] = (struct mrow){ &t->rows[i], c };
	}
	qsort(m, k, sizeof(*m), cmp_mrow);
	*n = k;
	return m;
}

/* Distinct keys over the classes shown (a key in two classes counts once). */
static void distinct_shown(const struct tf_agg *a, enum tf_dim d, const struct tf_report_opts *o,
			   uint64_t *n, bool *capped)
{
	*n = 0;
	*capped = false;
	for (int c = 0; c < API_CLASSES; c++) {
		const struct ss_table *t = tf_agg_ctable(a, c, d);

		if (!shown_api(o, c))
			continue;
		*capped |= t->evicted || t->unstored;
		for (uint32_t i = 0; i < t->n; i++) {
			bool seen = false;

			for (int e = 0; e < c && !seen; e++)
				seen = shown_api(o, e) &&
				       ss_find(tf_agg_ctable(a, e, d), t->rows[i].key, t->rows[i].klen);
			*n += !seen;
		}
	}
}

static void fmt_time(int64_t ms, char *buf, size_t len)
{
	time_t s = (time_t)(ms / 1000);
	struct tm tm;

	if (!localtime_r(&s, &tm) || !strftime(buf, len, "%x %T", &tm))
		snprintf(buf, len, "%lld", (long long)s);
}

static void fmt_iso(int64_t ms, char *buf, size_t len)
{
	time_t s = (time_t)(ms / 1000);
	struct tm tm;

	if (!gmtime_r(&s, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm))
		buf[0] = '\0';
	else
		snprintf(buf + strlen(buf), len - strlen(buf), ".%03dZ",
			 (int)(ms % 1000));
}

/*
 * Hits per minute over the row's first..last span (at least one minute).
 * The span is computed in double: a record's time out of range is clamped
 * to INT64_MIN or INT64_MAX (record.c), and their difference overflows.
 */
static double rate(uint64_t hits, int64_t first, int64_t last)
{
	double min = ((double)last - (double)first) / 60000.0;

	return (double)hits / (min < 1.0 ? 1.0 : min);
}

/* "1000" -> "alice" with -i, ids that are unset as "unset". */
static void user_name(const char *id, bool interpret, char *buf, size_t len)
{
	char *end;
	long v = strtol(id, &end, 10);
	struct passwd *pw;

	if (*end || v < -1) {
		snprintf(buf, len, "%s", id);
		return;
	}
	if (v == -1) {
		snprintf(buf, len, "unset");
		return;
	}
	pw = interpret ? getpwuid((uid_t)v) : NULL;
	if (pw)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "%ld", v);
}

/* With -i, "00:1a" -> "00:1a (/tmp/x)" when this machine mounts that device. */
static char *mount_name(const char *dev, const struct tf_mountinfo *mi)
{
	unsigned int maj, min;
	char *out = NULL;
	size_t len = 0;
	FILE *m;
	char extra;

	if (!mi || sscanf(dev, "%x:%x%c", &maj, &min, &extra) != 2)
		return strdup(dev);
	m = open_memstream(&out, &len);
	if (!m)
		return NULL;
	fputs(dev, m);
	size_t n = 0;

	for (size_t i = 0; i < mi->count; i++) {
		if (mi->mounts[i].major != maj || mi->mounts[i].minor != min)
			continue;
		fputs(n++ ? ", " : " (here: ", m);
		fputs(mi->mounts[i].mount_point, m);
	}
	if (n)
		fputc(')', m);
	fclose(m);
	return out;
}

/* Display name of a row (raw bytes, escaped by the caller). malloc'd. */
static char *row_name(enum tf_dim d, const struct ss_row *r, bool interpret,
		      const struct tf_mountinfo *mi)
{
	char buf[256];

	switch (d) {
	case TF_DIM_USER:
	case TF_DIM_AUID:
		user_name(r->key, interpret, buf, sizeof(buf));
		return strdup(buf);
	case TF_DIM_NODE:
		return strdup(r->klen ? r->key : "(local)");
	case TF_DIM_MOUNT:
		return mount_name(r->key, interpret ? mi : NULL);
	default: {
		/* all klen bytes: a key loaded from "key_hex" may hold a NUL */
		char *k = malloc(r->klen + 1);

		if (k) {
			memcpy(k, r->key, r->klen);
			k[r->klen] = '\0';
		}
		return k;
	}
	}
}

static void print_escaped(FILE *f, const char *s, size_t len)
{
	size_t need = tf_escape_term(s, len, NULL, 0);
	char *e = malloc(need + 1);

	if (!e) {
		fputs("(out of memory)", f);
		return;
	}
	tf_escape_term(s, len, e, need + 1);
	fputs(e, f);
	free(e);
}

static void distinct(FILE *f, const struct tf_agg *a, enum tf_dim d,
		     const struct tf_report_opts *o)
{
	uint64_t n;
	bool capped;

	distinct_shown(a, d, o, &n, &capped);
	if (capped)
		fprintf(f, "more than %llu (table capped, see \"other\" rows)\n",
			(unsigned long long)n);
	else
		fprintf(f, "%llu\n", (unsigned long long)n);
}

static void text_table(FILE *f, const struct tf_agg *a, enum tf_dim d,
		       const struct tf_report_opts *o, const struct tf_mountinfo *mi)
{
	size_t n = 0;
	struct mrow *m = merged(a, d, o, &n);
	uint64_t hidden = 0;
	uint32_t shown = 0;
	bool approx = false, observed = false;

	fprintf(f, "\n%s Summary Report\n%s\ntotal  rate/min  last seen  api  %s\n%s\n",
		titles[d], rule, d == TF_DIM_INTERP ? "interpreter (comm)" : tf_dim_name(d), rule);
	if (!m) {
		fputs("(out of memory)\n", f);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ss_row *r = m[i].r;
		uint64_t g = r->count - r->err;
		char when[64], *name;

		if (o->top && shown >= o->top) {
			hidden += g;
			continue;
		}
		shown++;
		fmt_time(r->last, when, sizeof(when));
		fprintf(f, "%llu%s  %.1f  %s  %s  ", (unsigned long long)g, r->err ? "+" : "",
			rate(r->count - r->err, r->first, r->last), when, api_labels[m[i].c]);
		name = row_name(d, r, o->interpret, mi);
		if (name) {
			print_escaped(f, name, d == TF_DIM_FILE || d == TF_DIM_INTERP ?
						       r->klen : strlen(name));
			free(name);
		}
		if (r->note) {
			fputs(" (", f);
			print_escaped(f, r->note, strlen(r->note));
			fputc(')', f);
		}
		fputc('\n', f);
		approx |= r->err != 0;
		observed |= m[i].c == API_CLASS_EC_OBSERVED;
	}
	free(m);
	if (hidden)
		fprintf(f, "%llu  -  -  (%u more rows, see --top)\n",
			(unsigned long long)hidden, (unsigned int)(n - shown));
	for (int c = 0; c < API_CLASSES; c++) {
		uint64_t other = shown_api(o, c) ? ss_other(tf_agg_ctable(a, c, d)) : 0;

		if (other)
			fprintf(f, "%llu  -  -  %s  other (keys evicted from the capped table)\n",
				(unsigned long long)other, api_labels[c]);
	}
	if (approx)
		fprintf(f, "# N+ : approximate row, at least N hits (Space-Saving bound)\n");
	if (observed)
		fprintf(f, "# execve_check/observed: refused by AT_EXECVE_CHECK but not enforced (the caller had no SECBIT_EXEC_RESTRICT_FILE): would be refused if that bit were set\n");
}

static int cmp_change(const void *x, const void *y)
{
	const struct tf_change *a = x, *b = y;

	return a->c.ms < b->c.ms ? -1 : a->c.ms > b->c.ms;
}

static struct tf_change *sorted_changes(const struct tf_agg *a)
{
	struct tf_change *c = malloc((a->nchanges ? a->nchanges : 1) * sizeof(*c));

	if (c && a->nchanges) {
		memcpy(c, a->changes, a->nchanges * sizeof(*c));
		/* Arrival order breaks ties: merge order of the inputs. */
		qsort(c, a->nchanges, sizeof(*c), cmp_change);
	}
	return c;
}

/* An id as a user name (-i) or a number, "unset" for -1. */
static void id_name(long id, bool interpret, char *buf, size_t len)
{
	char num[24];

	snprintf(num, sizeof(num), "%ld", id);
	user_name(num, interpret, buf, len);
}

static void text_timeline(FILE *f, const struct tf_agg *a, const struct tf_report_opts *o)
{
	struct tf_change *c = sorted_changes(a);

	fprintf(f, "\nPolicy Change Report\n%s\n"
		   "# date time node old -> new applied auid uid pid exe (comm)\n%s\n",
		rule, rule);
	if (!c) {
		fputs("(out of memory)\n", f);
		return;
	}
	for (size_t i = 0; i < a->nchanges; i++) {
		const struct tf_policy_change *p = &c[i].c;
		const char *node = c[i].node[0] ? c[i].node : "(local)";
		char when[64], user[256];

		fmt_time(p->ms, when, sizeof(when));
		fprintf(f, "%zu. %s ", i + 1, when);
		print_escaped(f, node, strlen(node));
		if (p->new_policy < 0)
			fprintf(f, " %d -> ?", p->old_policy);
		else
			fprintf(f, " %d -> %d", p->old_policy, p->new_policy);
		id_name(p->auid, o->interpret, user, sizeof(user));
		fprintf(f, " %s %s", p->res ? "yes" : "no", user);
		if (!p->writer) { /* a record of the previous kernel: auid only */
			fputs(" ? ? ?\n", f);
			continue;
		}
		id_name(p->uid, o->interpret, user, sizeof(user));
		fprintf(f, " %s %ld ", user, p->pid);
		print_escaped(f, p->exe, strlen(p->exe));
		fputs(" (", f);
		print_escaped(f, p->comm, strlen(p->comm));
		fputs(")\n", f);
	}
	if (a->changes_dropped)
		fprintf(f, "# %llu older changes were not kept\n",
			(unsigned long long)a->changes_dropped);
	free(c);
}

static struct tf_mountinfo *load_mounts(const struct tf_report_opts *o,
					struct tf_mountinfo *mi)
{
	if (!o->interpret || !(o->tables & (1u << TF_DIM_MOUNT)))
		return NULL;
	return tf_mountinfo_load(NULL, mi, NULL) ? NULL : mi;
}

static void free_mounts(struct tf_mountinfo *mi)
{
	if (mi)
		tf_mountinfo_free(mi);
}

void tf_report_text(FILE *f, const struct tf_agg *a, const struct tf_report_opts *o)
{
	char t1[64] = "", t2[64] = "";
	struct tf_mountinfo mib, *mi = load_mounts(o, &mib);

	int64_t first, last;
	const char *sep = "";

	fprintf(f, "\nTrusted-for Denial Report\n%s\n", rule);
	if (o->source) {
		fputs("Source: ", f);
		print_escaped(f, o->source, strlen(o->source));
		fputc('\n', f);
	}
	if (shown_range(a, o, &first, &last)) {
		fmt_time(first, t1, sizeof(t1));
		fmt_time(last, t2, sizeof(t2));
		fprintf(f, "Range of time in report: %s - %s\n", t1, t2);
	} else {
		fprintf(f, "Range of time in report: (no denials)\n");
	}
	fprintf(f, "Number of denials: %llu\n", (unsigned long long)shown_denials(a, o));
	/* The split by API (issue 11), execve_check by enforcement. */
	fputs("Denials by API:", f);
	if (shown_api(o, API_CLASS_TRUSTED_FOR)) {
		fprintf(f, " trusted_for %llu", (unsigned long long)
			tf_agg_ctable(a, API_CLASS_TRUSTED_FOR, TF_DIM_INTERP)->total);
		sep = ",";
	}
	if (shown_api(o, API_CLASS_EC_ENFORCED) || shown_api(o, API_CLASS_EC_OBSERVED)) {
		uint64_t en = tf_agg_ctable(a, API_CLASS_EC_ENFORCED, TF_DIM_INTERP)->total;
		uint64_t ob = tf_agg_ctable(a, API_CLASS_EC_OBSERVED, TF_DIM_INTERP)->total;

		en = shown_api(o, API_CLASS_EC_ENFORCED) ? en : 0;
		ob = shown_api(o, API_CLASS_EC_OBSERVED) ? ob : 0;
		fprintf(f, "%s execve_check %llu (enforced %llu, observed only %llu)", sep,
			(unsigned long long)(en + ob), (unsigned long long)en,
			(unsigned long long)ob);
	}
	fputc('\n', f);
	for (int d = 0; d < TF_DIM_COUNT; d++) {
		if (d == TF_DIM_AUID)
			continue;
		fprintf(f, "Number of %s: ", plural[d]);
		distinct(f, a, d, o);
	}
	fprintf(f, "Number of policy changes: %llu\n",
		(unsigned long long)(a->nchanges + a->changes_dropped));
	fprintf(f, "Number of malformed records skipped: %llu\n",
		(unsigned long long)a->malformed);
	fprintf(f, "Number of non-audit lines skipped: %llu\n",
		(unsigned long long)a->bad_lines);
	for (int d = 0; d < TF_DIM_COUNT; d++)
		if (o->tables & (1u << d))
			text_table(f, a, d, o, mi);
	if (o->tables & (1u << TF_TABLE_POLICY))
		text_timeline(f, a, o);
	free_mounts(mi);
}

/* ---- JSON ---- */

/* A name by the JSON convention (lib/tfjson.h): "field", "field_hex". */
static int add_name(json_object *o, const char *field, const char *s, size_t len)
{
	return tf_json_add_bytes(o, field, s, len);
}

static json_object *time_obj(int64_t ms)
{
	char iso[64];

	fmt_iso(ms, iso, sizeof(iso));
	return json_object_new_string(iso);
}

static json_object *json_table(const struct tf_agg *a, enum tf_dim d,
			       const struct tf_report_opts *o, const struct tf_mountinfo *mi)
{
	json_object *tab = json_object_new_object(), *rows = json_object_new_array();
	size_t n = 0;
	struct mrow *m = merged(a, d, o, &n);
	uint64_t hidden = 0, total = 0, other = 0, nd;
	bool capped;

	if (!m) {
		json_object_put(rows);
		json_object_put(tab);
		return NULL;
	}
	for (int c = 0; c < API_CLASSES; c++) {
		if (!shown_api(o, c))
			continue;
		total += tf_agg_ctable(a, c, d)->total;
		other += ss_other(tf_agg_ctable(a, c, d));
	}
	distinct_shown(a, d, o, &nd, &capped);
	json_object_object_add(tab, "total", json_object_new_uint64(total));
	json_object_object_add(tab, "distinct", json_object_new_uint64(nd));
	json_object_object_add(tab, "capped", json_object_new_boolean(capped));
	json_object_object_add(tab, "other", json_object_new_uint64(other));
	for (size_t i = 0; i < n; i++) {
		const struct ss_row *r = m[i].r;
		json_object *row;
		char *name;

		if (o->top && i >= o->top) {
			hidden += r->count - r->err;
			continue;
		}
		row = json_object_new_object();
		name = row_name(d, r, o->interpret, mi);
		if (!row || !name ||
		    add_name(row, "name", name, d == TF_DIM_FILE || d == TF_DIM_INTERP ?
							r->klen : strlen(name)) ||
		    (d == TF_DIM_INTERP && r->note &&
		     add_name(row, "comm", r->note, strlen(r->note)))) {
			free(name);
			json_object_put(row);
			json_object_put(rows);
			json_object_put(tab);
			free(m);
			return NULL;
		}
		free(name);
		json_object_object_add(row, "api", json_object_new_string(tf_api_name(m[i].c)));
		if (m[i].c != API_CLASS_TRUSTED_FOR)
			json_object_object_add(row, "enforced",
					       json_object_new_boolean(m[i].c == API_CLASS_EC_ENFORCED));
		json_object_object_add(row, "count", json_object_new_uint64(r->count - r->err));
		json_object_object_add(row, "count_max", json_object_new_uint64(r->count));
		json_object_object_add(row, "approximate", json_object_new_boolean(r->err != 0));
		json_object_object_add(row, "first", time_obj(r->first));
		json_object_object_add(row, "last", time_obj(r->last));
		json_object_object_add(row, "rate_per_min",
				       json_object_new_double(rate(r->count - r->err, r->first, r->last)));
		json_object_array_add(rows, row);
	}
	free(m);
	json_object_object_add(tab, "hidden_by_top", json_object_new_uint64(hidden));
	json_object_object_add(tab, "rows", rows);
	return tab;
}

/*
 * "api": {"trusted_for": {"count": N}, "execve_check": {"count": N,
 * "enforced": E, "observed": O}}, the classes shown only.
 */
static json_object *json_apis(const struct tf_agg *a, const struct tf_report_opts *o)
{
	json_object *apis = json_object_new_object(), *t;
	uint64_t en, ob;

	if (shown_api(o, API_CLASS_TRUSTED_FOR)) {
		t = json_object_new_object();
		json_object_object_add(t, "count", json_object_new_uint64(
			tf_agg_ctable(a, API_CLASS_TRUSTED_FOR, TF_DIM_INTERP)->total));
		json_object_object_add(apis, "trusted_for", t);
	}
	if (shown_api(o, API_CLASS_EC_ENFORCED) || shown_api(o, API_CLASS_EC_OBSERVED)) {
		en = shown_api(o, API_CLASS_EC_ENFORCED) ?
			     tf_agg_ctable(a, API_CLASS_EC_ENFORCED, TF_DIM_INTERP)->total : 0;
		ob = shown_api(o, API_CLASS_EC_OBSERVED) ?
			     tf_agg_ctable(a, API_CLASS_EC_OBSERVED, TF_DIM_INTERP)->total : 0;
		t = json_object_new_object();
		json_object_object_add(t, "count", json_object_new_uint64(en + ob));
		json_object_object_add(t, "enforced", json_object_new_uint64(en));
		json_object_object_add(t, "observed", json_object_new_uint64(ob));
		json_object_object_add(apis, "execve_check", t);
	}
	return apis;
}

int tf_report_json(FILE *f, const struct tf_agg *a, const struct tf_report_opts *o)
{
	json_object *root = json_object_new_object(), *tabs = json_object_new_object();
	struct tf_mountinfo mib, *mi = load_mounts(o, &mib);
	struct tf_change *c;
	int rc = 0;

	int64_t first, last;

	json_object_object_add(root, "denials", json_object_new_uint64(shown_denials(a, o)));
	if (shown_range(a, o, &first, &last)) {
		json_object_object_add(root, "first", time_obj(first));
		json_object_object_add(root, "last", time_obj(last));
	}
	json_object_object_add(root, "api", json_apis(a, o));
	json_object_object_add(root, "malformed_records", json_object_new_uint64(a->malformed));
	json_object_object_add(root, "non_audit_lines", json_object_new_uint64(a->bad_lines));
	json_object_object_add(root, "non_denial_records", json_object_new_uint64(a->not_denial));
	json_object_object_add(root, "tables", tabs);
	for (int d = 0; d < TF_DIM_COUNT; d++) {
		json_object *t;

		if (!(o->tables & (1u << d)))
			continue;
		t = json_table(a, d, o, mi);
		if (!t) {
			rc = -1;
			goto out;
		}
		json_object_object_add(tabs, tf_dim_name(d), t);
	}
	if (o->tables & (1u << TF_TABLE_POLICY)) {
		json_object *arr = json_object_new_array();

		c = sorted_changes(a);
		if (!c) {
			json_object_put(arr);
			rc = -1;
			goto out;
		}
		for (size_t i = 0; i < a->nchanges; i++) {
			json_object *e = json_object_new_object();

			json_object_object_add(e, "time", time_obj(c[i].c.ms));
			if (add_name(e, "node", c[i].node, strlen(c[i].node))) {
				json_object_put(e);
				json_object_put(arr);
				free(c);
				rc = -1;
				goto out;
			}
			json_object_object_add(e, "old", json_object_new_int(c[i].c.old_policy));
			json_object_object_add(e, "new", c[i].c.new_policy < 0 ? NULL :
						 json_object_new_int(c[i].c.new_policy));
			json_object_object_add(e, "auid", json_object_new_int64(c[i].c.auid));
			json_object_object_add(e, "ses", json_object_new_int64(c[i].c.ses));
			json_object_object_add(e, "applied", json_object_new_boolean(c[i].c.res));
			json_object_array_add(arr, e);
			/* The writer; null for a record of the previous kernel. */
			json_object_object_add(e, "pid", c[i].c.writer ?
						 json_object_new_int64(c[i].c.pid) : NULL);
			json_object_object_add(e, "uid", c[i].c.writer ?
						 json_object_new_int64(c[i].c.uid) : NULL);
			if (tf_json_add_str(e, "comm", c[i].c.comm) ||
			    tf_json_add_str(e, "exe", c[i].c.exe)) {
				json_object_put(arr);
				free(c);
				rc = -1;
				goto out;
			}
		}
		free(c);
		json_object_object_add(root, "policy_changes", arr);
		json_object_object_add(root, "policy_changes_dropped",
				       json_object_new_uint64(a->changes_dropped));
	}
	rc = tf_json_print(f, root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
out:
	json_object_put(root);
	free_mounts(mi);
	return rc;
}
