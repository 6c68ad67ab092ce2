// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON report (ap_report_json(), report.h): the same content as the
 * text report, names by the JSON convention of lib/tfjson.h, times in ISO
 * 8601 UTC with milliseconds.
 */
#include "report.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_names.h"
#include "report_view.h"
#include "timefmt.h"
#include "tfjson.h"

static json_object *time_obj(int64_t ms)
{
	char iso[64];

	return json_object_new_string(tf_time_iso_utc_ms(ms, iso, sizeof(iso)));
}

/* One row of a table; NULL when out of memory. */
static json_object *json_row(const struct ap_view_row *m, enum ap_dim d,
			     const struct ap_report_opts *o, const struct tf_mountinfo *mi)
{
	const struct ap_ss_row *r = m->r;
	json_object *row = json_object_new_object();
	char *name = ap_row_name(d, r, o->interpret, mi);
	int err = 0;

	if (!row || !name ||
	    tf_json_add_bytes(row, "name", name, ap_row_name_len(d, r, name)) ||
	    (d == AP_DIM_INTERP && r->note && tf_json_add_str(row, "comm", r->note))) {
		free(name);
		json_object_put(row);
		return NULL;
	}
	free(name);
	err |= tf_json_own_add(row, "api", json_object_new_string(ap_api_name(m->c)));
	if (m->c != AP_API_TRUSTED_FOR)
		err |= tf_json_own_add(row, "enforced",
				   json_object_new_boolean(m->c == AP_API_EC_ENFORCED));
	err |= tf_json_own_add(row, "count", json_object_new_uint64(r->count - r->err));
	err |= tf_json_own_add(row, "count_max", json_object_new_uint64(r->count));
	err |= tf_json_own_add(row, "approximate", json_object_new_boolean(r->err != 0));
	err |= tf_json_own_add(row, "first", time_obj(r->first));
	err |= tf_json_own_add(row, "last", time_obj(r->last));
	err |= tf_json_own_add(row, "rate_per_min",
			   json_object_new_double(ap_view_rate(r->count - r->err, r->first,
							       r->last)));
	if (err) {
		json_object_put(row);
		return NULL;
	}
	return row;
}

static json_object *json_table(const struct ap_agg *a, enum ap_dim d,
			       const struct ap_report_opts *o, const struct tf_mountinfo *mi)
{
	json_object *tab = json_object_new_object(), *rows = json_object_new_array();
	size_t n = 0;
	struct ap_view_row *m = ap_view_rows(a, d, o, &n);
	uint64_t hidden = 0, total = 0, other = 0, nd;
	bool capped;
	int err = 0;

	if (!tab || !rows || !m)
		goto fail;
	for (int c = 0; c < AP_API_CLASSES; c++) {
		if (!ap_view_shows(o, c))
			continue;
		total += ap_agg_ctable(a, c, d)->total;
		other += ap_ss_other(ap_agg_ctable(a, c, d));
	}
	ap_view_distinct(a, d, o, &nd, &capped);
	err |= tf_json_own_add(tab, "total", json_object_new_uint64(total));
	err |= tf_json_own_add(tab, "distinct", json_object_new_uint64(nd));
	err |= tf_json_own_add(tab, "capped", json_object_new_boolean(capped));
	err |= tf_json_own_add(tab, "other", json_object_new_uint64(other));
	for (size_t i = 0; i < n; i++) {
		json_object *row;

		if (o->top && i >= o->top) {
			hidden += m[i].r->count - m[i].r->err;
			continue;
		}
		row = json_row(&m[i], d, o, mi);
		if (!row || tf_json_own_push(rows, row))
			goto fail;
	}
	free(m);
	err |= tf_json_own_add(tab, "hidden_by_top", json_object_new_uint64(hidden));
	if (tf_json_own_add(tab, "rows", rows) || err) {
		json_object_put(tab);
		return NULL;
	}
	return tab;
fail:
	free(m);
	json_object_put(rows);
	json_object_put(tab);
	return NULL;
}

/*
 * "api": {"trusted_for": {"count": N}, "execve_check": {"count": N,
 * "enforced": E, "observed": O}}, the classes shown only.
 */
static json_object *json_apis(const struct ap_agg *a, const struct ap_report_opts *o)
{
	json_object *apis = json_object_new_object(), *t;
	uint64_t en, ob;
	int err = 0;

	if (!apis)
		return NULL;
	if (ap_view_shows(o, AP_API_TRUSTED_FOR)) {
		t = json_object_new_object();
		err |= tf_json_own_add(t, "count", json_object_new_uint64(
			ap_agg_ctable(a, AP_API_TRUSTED_FOR, AP_DIM_INTERP)->total));
		err |= tf_json_own_add(apis, "trusted_for", t);
	}
	if (ap_view_shows(o, AP_API_EC_ENFORCED) || ap_view_shows(o, AP_API_EC_OBSERVED)) {
		en = ap_view_shows(o, AP_API_EC_ENFORCED) ?
			     ap_agg_ctable(a, AP_API_EC_ENFORCED, AP_DIM_INTERP)->total : 0;
		ob = ap_view_shows(o, AP_API_EC_OBSERVED) ?
			     ap_agg_ctable(a, AP_API_EC_OBSERVED, AP_DIM_INTERP)->total : 0;
		t = json_object_new_object();
		err |= tf_json_own_add(t, "count", json_object_new_uint64(en + ob));
		err |= tf_json_own_add(t, "enforced", json_object_new_uint64(en));
		err |= tf_json_own_add(t, "observed", json_object_new_uint64(ob));
		err |= tf_json_own_add(apis, "execve_check", t);
	}
	if (err) {
		json_object_put(apis);
		return NULL;
	}
	return apis;
}

/*
 * "source": {"kernel": {"count": N}, "relay": {"count": M, "lost": L}}: who
 * logged the denials of the classes shown, and the refusals the relay lost.
 */
static json_object *json_sources(const struct ap_agg *a, const struct ap_report_opts *o)
{
	json_object *src = json_object_new_object(), *k = json_object_new_object(),
		    *r = json_object_new_object();
	int err = 0;

	err |= tf_json_own_add(src, "kernel", k);
	err |= tf_json_own_add(src, "relay", r);
	if (err) {
		json_object_put(src);
		return NULL;
	}
	err |= tf_json_own_add(k, "count",
			       json_object_new_uint64(ap_view_source(a, o, AP_SRC_KERNEL)));
	err |= tf_json_own_add(r, "count",
			       json_object_new_uint64(ap_view_source(a, o, AP_SRC_RELAY)));
	err |= tf_json_own_add(r, "lost", json_object_new_uint64(ap_view_relay_lost(a, o)));
	if (err) {
		json_object_put(src);
		return NULL;
	}
	return src;
}

/* One policy change; NULL when out of memory. */
static json_object *json_change(const struct ap_change *c)
{
	json_object *e = json_object_new_object();
	int err = 0;

	if (!e)
		return NULL;
	err |= tf_json_own_add(e, "time", time_obj(c->c.ms));
	if (tf_json_add_str(e, "node", c->node))
		goto fail;
	err |= tf_json_own_add(e, "old", json_object_new_int(c->c.old_policy));
	err |= tf_json_own_add(e, "new", c->c.new_policy < 0 ? NULL :
			   json_object_new_int(c->c.new_policy));
	err |= tf_json_own_add(e, "auid", json_object_new_int64(c->c.auid));
	err |= tf_json_own_add(e, "ses", json_object_new_int64(c->c.ses));
	err |= tf_json_own_add(e, "applied", json_object_new_boolean(c->c.res));
	/* The writer; null for a record of the previous kernel. */
	err |= tf_json_own_add(e, "pid", c->c.writer ? json_object_new_int64(c->c.pid) : NULL);
	err |= tf_json_own_add(e, "uid", c->c.writer ? json_object_new_int64(c->c.uid) : NULL);
	if (err || tf_json_add_str(e, "comm", c->c.comm) || tf_json_add_str(e, "exe", c->c.exe))
		goto fail;
	return e;
fail:
	json_object_put(e);
	return NULL;
}

/* "policy_changes": [...], in time order; -1 when out of memory. */
static int json_timeline(json_object *root, const struct ap_agg *a)
{
	json_object *arr = json_object_new_array();
	struct ap_change *c = ap_view_changes(a);

	if (!arr || !c)
		goto fail;
	for (size_t i = 0; i < a->nchanges; i++) {
		json_object *e = json_change(&c[i]);

		if (!e || tf_json_own_push(arr, e))
			goto fail;
	}
	free(c);
	if (tf_json_own_add(root, "policy_changes", arr))
		return -1;
	return tf_json_own_add(root, "policy_changes_dropped",
			   json_object_new_uint64(a->changes_dropped));
fail:
	free(c);
	json_object_put(arr);
	return -1;
}

int ap_report_json(FILE *f, const struct ap_agg *a, const struct ap_report_opts *o)
{
	json_object *root = json_object_new_object(), *tabs = json_object_new_object(), *apis, *srcs;
	struct tf_mountinfo mib, *mi = ap_view_mounts(o, &mib);
	int64_t first, last;
	int rc = -1, err = 0;

	if (!root || !tabs) {
		json_object_put(root);
		json_object_put(tabs);
		ap_view_mounts_free(mi);
		return -1;
	}
	err |= tf_json_own_add(root, "denials", json_object_new_uint64(ap_view_denials(a, o)));
	if (ap_view_range(a, o, &first, &last)) {
		err |= tf_json_own_add(root, "first", time_obj(first));
		err |= tf_json_own_add(root, "last", time_obj(last));
	}
	apis = json_apis(a, o);
	err |= apis ? tf_json_own_add(root, "api", apis) : -1;
	srcs = json_sources(a, o);
	err |= srcs ? tf_json_own_add(root, "source", srcs) : -1;
	err |= tf_json_own_add(root, "malformed_records", json_object_new_uint64(a->malformed));
	err |= tf_json_own_add(root, "non_audit_lines", json_object_new_uint64(a->bad_lines));
	err |= tf_json_own_add(root, "non_denial_records", json_object_new_uint64(a->not_denial));
	if (tf_json_own_add(root, "tables", tabs) || err)
		goto out;
	for (int d = 0; d < AP_DIM_COUNT; d++) {
		json_object *t;

		if (!(o->tables & (1u << d)))
			continue;
		t = json_table(a, d, o, mi);
		if (!t || tf_json_own_add(tabs, ap_dim_name(d), t))
			goto out;
	}
	if ((o->tables & (1u << AP_TABLE_POLICY)) && json_timeline(root, a))
		goto out;
	rc = tf_json_print(f, root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
out:
	json_object_put(root);
	ap_view_mounts_free(mi);
	return rc;
}
