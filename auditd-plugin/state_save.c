// SPDX-License-Identifier: GPL-2.0-or-later
/* Writing the state file (json-c, atomically); see state.h. */
#include "state.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "escape.h"
#include "tfjson.h"

/* The keys of the classes under "classes" (version 3). */
const char *const ap_state_class_keys[AP_API_CLASSES] = {
	[AP_API_TRUSTED_FOR] = "trusted_for",
	[AP_API_EC_ENFORCED] = "execve_check_enforced",
	[AP_API_EC_OBSERVED] = "execve_check_observed",
};

/*
 * A row key (or a change's node) under "key", by the JSON convention of
 * lib/tfjson.h: "key" is the text, "key_hex" the exact bytes when the key
 * is not plain UTF-8 text. The loader reads "key_hex" first.
 */
static json_object *key_obj(json_object *o, const char *k, size_t n)
{
	return tf_json_add_bytes(o, "key", k, n) ? NULL : o;
}

static json_object *table_json(const struct ap_ss_table *t)
{
	json_object *o = json_object_new_object(), *rows = json_object_new_array();
	int err = 0;

	if (!o || !rows)
		goto fail;
	err |= tf_json_own_add(o, "total", json_object_new_uint64(t->total));
	err |= tf_json_own_add(o, "evicted", json_object_new_uint64(t->evicted));
	err |= tf_json_own_add(o, "unstored", json_object_new_uint64(t->unstored));
	for (uint32_t i = 0; i < t->n; i++) {
		const struct ap_ss_row *r = &t->rows[i];
		json_object *row = json_object_new_object();

		if (!row || !key_obj(row, r->key, r->klen) ||
		    (r->note && tf_json_add_str(row, "note", r->note))) {
			json_object_put(row);
			goto fail;
		}
		err |= tf_json_own_add(row, "count", json_object_new_uint64(r->count));
		err |= tf_json_own_add(row, "err", json_object_new_uint64(r->err));
		err |= tf_json_own_add(row, "first", json_object_new_int64(r->first));
		err |= tf_json_own_add(row, "last", json_object_new_int64(r->last));
		if (tf_json_own_push(rows, row))
			goto fail;
	}
	if (tf_json_own_add(o, "rows", rows) || err) {
		json_object_put(o);
		return NULL;
	}
	return o;
fail:
	json_object_put(rows);
	json_object_put(o);
	return NULL;
}

/*
 * The metrics' counters (metrics.h), so that they stay monotonic across
 * restarts: "metrics": {"folded": N, "denials": [{"exe", "reason", "node",
 * "source", "api", "enforced", "count"}], "changes": [{"node", "result",
 * "count"}], "policy": [{"node", "value", "time"}]}. Label values are
 * already escaped text (plain UTF-8).
 */
static int metrics_json(json_object *root, const struct ap_metrics *m)
{
	static const char *const dn[AP_METRICS_NDL] = { "exe", "reason", "node", "source", "api",
							 "enforced" };
	json_object *o = json_object_new_object(), *d = json_object_new_array(),
		    *c = json_object_new_array(), *p = json_object_new_array();
	const char *lv[AP_METRICS_NDL];
	int err;

	if (!o || !d || !c || !p) {
		json_object_put(o);
		json_object_put(d);
		json_object_put(c);
		json_object_put(p);
		return -1;
	}
	/* o holds d, c and p, root holds o: root's put frees them all */
	err = tf_json_own_add(o, "folded", json_object_new_uint64(m->folded));
	if (tf_json_own_add(o, "denials", d)) {
		json_object_put(c);
		json_object_put(p);
		json_object_put(o);
		return -1;
	}
	if (tf_json_own_add(o, "changes", c)) {
		json_object_put(p);
		json_object_put(o);
		return -1;
	}
	if (tf_json_own_add(o, "policy", p)) {
		json_object_put(o);
		return -1;
	}
	if (tf_json_own_add(root, "metrics", o) || err)
		return -1;
	for (uint32_t i = 0; i < m->denials.n; i++) {
		json_object *r = json_object_new_object();

		if (tf_json_own_push(d, r) ||
		    ap_metrics_labels(&m->denials.rows[i], lv, AP_METRICS_NDL) != AP_METRICS_NDL)
			return -1;
		for (int k = 0; k < AP_METRICS_NDL; k++)
			err |= tf_json_own_add(r, dn[k], json_object_new_string(lv[k]));
		err |= tf_json_own_add(r, "count", json_object_new_uint64(m->denials.rows[i].count));
	}
	for (uint32_t i = 0; i < m->changes.n; i++) {
		json_object *r = json_object_new_object();

		if (tf_json_own_push(c, r))
			return -1;
		ap_metrics_labels(&m->changes.rows[i], lv, 2);
		err |= tf_json_own_add(r, "node", json_object_new_string(lv[0]));
		err |= tf_json_own_add(r, "result", json_object_new_string(lv[1]));
		err |= tf_json_own_add(r, "count", json_object_new_uint64(m->changes.rows[i].count));
	}
	for (uint32_t i = 0; i < m->policy.n; i++) {
		json_object *r = json_object_new_object();

		if (tf_json_own_push(p, r))
			return -1;
		err |= tf_json_own_add(r, "node", json_object_new_string(m->policy.rows[i].key));
		err |= tf_json_own_add(r, "value", json_object_new_int(m->policy.rows[i].value));
		err |= tf_json_own_add(r, "time", json_object_new_int64(m->policy.rows[i].ms));
	}
	return err ? -1 : 0;
}

int ap_state_save(const struct ap_agg *a, const char *path)
{
	json_object *root = json_object_new_object(), *dims, *ch, *cls;
	char *text;
	int rc, err = 0;

	if (!root)
		return -1;
	err |= tf_json_own_add(root, "version", json_object_new_int(AP_STATE_VERSION));
	err |= tf_json_own_add(root, "denials", json_object_new_uint64(a->denials));
	err |= tf_json_own_add(root, "first", json_object_new_int64(a->first));
	err |= tf_json_own_add(root, "last", json_object_new_int64(a->last));
	err |= tf_json_own_add(root, "bad_lines", json_object_new_uint64(a->bad_lines));
	err |= tf_json_own_add(root, "malformed", json_object_new_uint64(a->malformed));
	err |= tf_json_own_add(root, "not_denial", json_object_new_uint64(a->not_denial));
	err |= tf_json_own_add(root, "changes_dropped", json_object_new_uint64(a->changes_dropped));
	err |= tf_json_own_add(root, "relay_lost", json_object_new_uint64(a->relay_lost));
	err |= tf_json_own_add(root, "relay_lost_records",
			       json_object_new_uint64(a->relay_lost_records));
	/* "dims": the trusted_for tables (as in versions 1 and 2); "classes": each
	 * class's time range, and the execve_check classes' tables.
	 */
	cls = json_object_new_object();
	if (tf_json_own_add(root, "classes", cls))
		goto oom;
	for (int c = 0; c < AP_API_CLASSES; c++) {
		json_object *co = json_object_new_object();

		if (tf_json_own_add(cls, ap_state_class_keys[c], co))
			goto oom;
		err |= tf_json_own_add(co, "first", json_object_new_int64(a->api_first[c]));
		err |= tf_json_own_add(co, "last", json_object_new_int64(a->api_last[c]));
		err |= tf_json_own_add(co, "relay", json_object_new_uint64(a->relay[c]));
		dims = json_object_new_object();
		if (tf_json_own_add(c == AP_API_TRUSTED_FOR ? root : co, "dims", dims))
			goto oom;
		for (int d = 0; d < AP_DIM_COUNT; d++) {
			json_object *t = table_json(ap_agg_ctable(a, c, d));

			if (!t || tf_json_own_add(dims, ap_dim_name(d), t))
				goto oom;
		}
	}
	ch = json_object_new_array();
	if (tf_json_own_add(root, "policy_changes", ch))
		goto oom;
	for (size_t i = 0; i < a->nchanges; i++) {
		const struct ap_policy_change *c = &a->changes[i].c;
		json_object *o = json_object_new_object();

		if (!o || tf_json_own_add(o, "time", json_object_new_int64(c->ms)) ||
		    !key_obj(o, c->node, strlen(c->node))) {
			json_object_put(o);
			goto oom;
		}
		err |= tf_json_own_add(o, "old", json_object_new_int(c->old_policy));
		err |= tf_json_own_add(o, "new", json_object_new_int(c->new_policy));
		err |= tf_json_own_add(o, "auid", json_object_new_int64(c->auid));
		err |= tf_json_own_add(o, "ses", json_object_new_int64(c->ses));
		err |= tf_json_own_add(o, "res", json_object_new_int(c->res));
		/* The writer, when the record named it (absent: not logged). */
		if (c->writer) {
			err |= tf_json_own_add(o, "pid", json_object_new_int64(c->pid));
			err |= tf_json_own_add(o, "uid", json_object_new_int64(c->uid));
			if (tf_json_add_str(o, "comm", c->comm) ||
			    tf_json_add_str(o, "exe", c->exe)) {
				json_object_put(o);
				goto oom;
			}
		}
		if (tf_json_own_push(ch, o))
			goto oom;
	}
	if (err || metrics_json(root, &a->metrics))
		goto oom;
	text = tf_json_string(root, JSON_C_TO_STRING_PLAIN);
	json_object_put(root);
	if (!text) {
		errno = ENOMEM;
		return -1;
	}
	rc = tf_atomic_write(path, text, strlen(text), 0600);
	free(text);
	return rc;
oom:
	json_object_put(root);
	errno = ENOMEM;
	return -1;
}
