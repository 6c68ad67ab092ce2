// SPDX-License-Identifier: GPL-2.0-or-later
/* Loading the state file, every version it had; see state.h. */
#include "state.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfjson.h"

struct ctx {
	char *why;
	size_t len;
};

static bool bad(struct ctx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->why, x->len, fmt, ap);
	va_end(ap);
	return false;
}

static bool get_int(struct ctx *x, json_object *o, const char *name,
		    int64_t min, int64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, name, &v) || !json_object_is_type(v, json_type_int))
		return bad(x, "\"%s\" missing or not an integer", name);
	errno = 0;
	*out = json_object_get_int64(v);
	if (errno || *out < min)
		return bad(x, "\"%s\" out of range", name);
	return true;
}

static bool get_u64(struct ctx *x, json_object *o, const char *name, uint64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, name, &v) || !json_object_is_type(v, json_type_int))
		return bad(x, "\"%s\" missing or not an integer", name);
	errno = 0;
	*out = json_object_get_uint64(v);
	if (errno)
		return bad(x, "\"%s\" out of range", name);
	return true;
}

/* An unsigned counter that an older plugin did not write: 0 when absent. */
static bool get_u64_opt(struct ctx *x, json_object *o, const char *name, uint64_t *out)
{
	*out = 0;
	return !json_object_object_get_ex(o, name, NULL) || get_u64(x, o, name, out);
}

/*
 * The bytes under @name of @o, malloc'd (NUL-terminated), in *@out / *@len:
 * from "<name>_hex" when present (exact), else from "<name>". Returns false
 * (with the reason) on a bad value; *@out NULL when neither is there.
 */
static bool get_bytes(struct ctx *x, json_object *o, const char *name, char **out,
		      size_t *len)
{
	json_object *v;
	char hexname[32];

	*out = NULL;
	snprintf(hexname, sizeof(hexname), "%s_hex", name);
	if (json_object_object_get_ex(o, hexname, &v)) {
		if (!json_object_is_type(v, json_type_string))
			return bad(x, "\"%s\" is not a string", hexname);
		*out = tf_hex_decode(json_object_get_string(v),
				     (size_t)json_object_get_string_len(v), len);
		if (!*out)
			return bad(x, errno == ENOMEM ? "out of memory" :
				   "\"%s\" is not an even number of hex digits", hexname);
		return true;
	}
	if (json_object_object_get_ex(o, name, &v)) {
		if (!json_object_is_type(v, json_type_string))
			return bad(x, "\"%s\" is not a string", name);
		*len = (size_t)json_object_get_string_len(v);
		*out = malloc(*len + 1);
		if (!*out)
			return bad(x, "out of memory");
		memcpy(*out, json_object_get_string(v), *len);
		(*out)[*len] = '\0';
	}
	return true;
}

/* The row's key, malloc'd, in *key / *len. */
static bool get_key(struct ctx *x, json_object *o, char **key, size_t *len)
{
	if (!get_bytes(x, o, "key", key, len))
		return false;
	return *key ? true : bad(x, "row without \"key\" or \"key_hex\"");
}

static bool load_table(struct ctx *x, json_object *o, struct ap_ss_table *t,
		       const char *dim, uint32_t cap)
{
	json_object *rows;
	size_t n;
	uint64_t sum = 0;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "rows", &rows) ||
	    !json_object_is_type(rows, json_type_array))
		return bad(x, "dimension \"%s\" has no \"rows\" array", dim);
	n = json_object_array_length(rows);
	if (n > (1u << 24))
		return bad(x, "dimension \"%s\" has too many rows", dim);
	if (ap_ss_init(t, n > cap ? (uint32_t)n : cap, AP_AGG_KEY_MAX))
		return bad(x, "out of memory");
	if (!get_u64(x, o, "total", &t->total) || !get_u64(x, o, "evicted", &t->evicted) ||
	    !get_u64(x, o, "unstored", &t->unstored))
		return false;
	for (size_t i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		int64_t count, err, first, last;
		char *key, *note;
		size_t klen, nlen;
		bool ok;

		if (!json_object_is_type(r, json_type_object))
			return bad(x, "dimension \"%s\" row %zu is not an object", dim, i);
		if (!get_int(x, r, "count", 0, &count) || !get_int(x, r, "err", 0, &err) ||
		    !get_int(x, r, "first", INT64_MIN, &first) ||
		    !get_int(x, r, "last", INT64_MIN, &last) || !get_key(x, r, &key, &klen))
			return false;
		if (!get_bytes(x, r, "note", &note, &nlen)) {
			free(key);
			return false;
		}
		ok = !ap_ss_restore(t, key, klen, note, (uint64_t)count, (uint64_t)err, first,
				     last);
		free(key);
		free(note);
		if (!ok)
			return bad(x, "dimension \"%s\" row %zu: duplicate, too long or err > count",
				   dim, i);
		sum += (uint64_t)count;
	}
	if (sum + t->unstored != t->total)
		return bad(x, "dimension \"%s\": rows add up to %llu, total says %llu", dim,
			   (unsigned long long)(sum + t->unstored),
			   (unsigned long long)t->total);
	return true;
}

/* The writer of a change: "pid", "uid", "comm", "exe" all present, or none. */
static bool load_writer(struct ctx *x, json_object *o, size_t i, struct ap_policy_change *c)
{
	int64_t pid, uid;
	size_t len;

	c->pid = c->uid = -1;
	if (!json_object_object_get_ex(o, "pid", NULL))
		return true; /* not logged (previous kernel), or a state from before */
	if (!get_int(x, o, "pid", 0, &pid) || !get_int(x, o, "uid", -1, &uid) ||
	    !get_bytes(x, o, "comm", &c->comm, &len) || !get_bytes(x, o, "exe", &c->exe, &len))
		return false;
	if (!c->comm || !c->exe)
		return bad(x, "policy change %zu has a \"pid\" but no \"comm\" or \"exe\"", i);
	if (pid > INT32_MAX || uid > UINT32_MAX)
		return bad(x, "policy change %zu: \"pid\" or \"uid\" out of range", i);
	c->pid = (long)pid;
	c->uid = (long)uid;
	c->writer = true;
	return true;
}

static bool load_changes(struct ctx *x, json_object *arr, struct ap_agg *a)
{
	size_t n = json_object_array_length(arr);

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		struct ap_policy_change c = { 0 };
		int64_t ms, old, new, auid, ses, res;
		char *node;
		size_t len;
		int rc;

		if (!json_object_is_type(o, json_type_object) ||
		    !get_int(x, o, "time", INT64_MIN, &ms) || !get_int(x, o, "old", 0, &old) ||
		    !get_int(x, o, "new", -1, &new) || !get_int(x, o, "auid", -1, &auid) ||
		    !get_int(x, o, "ses", -1, &ses) || !get_int(x, o, "res", 0, &res) ||
		    !get_key(x, o, &node, &len))
			return x->why[0] ? false : bad(x, "policy change %zu is not an object", i);
		if (!load_writer(x, o, i, &c)) {
			ap_policy_change_clear(&c);
			free(node);
			return false;
		}
		c.ms = ms;
		c.old_policy = (int)old;
		c.new_policy = (int)new;
		c.auid = (long)auid;
		c.ses = (long)ses;
		c.res = (int)res;
		c.node = node;
		rc = ap_agg_add_change(a, &c);
		ap_policy_change_clear(&c);
		free(node);
		if (rc)
			return bad(x, "out of memory");
	}
	return true;
}

static bool get_str(struct ctx *x, json_object *o, const char *name, const char **out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, name, &v) || !json_object_is_type(v, json_type_string))
		return bad(x, "metrics: \"%s\" missing or not a string", name);
	*out = json_object_get_string(v);
	if (strlen(*out) != (size_t)json_object_get_string_len(v))
		return bad(x, "metrics: \"%s\" holds a NUL", name);
	return true;
}

/* The "metrics" object (absent in a state of an older plugin: counters start at 0). */
static bool load_metrics(struct ctx *x, json_object *root, struct ap_metrics *m)
{
	json_object *o, *arr;

	if (!json_object_object_get_ex(root, "metrics", &o))
		return true;
	if (!json_object_is_type(o, json_type_object) || !get_u64(x, o, "folded", &m->folded))
		return x->why[0] ? false : bad(x, "\"metrics\" is not an object");
	if (!json_object_object_get_ex(o, "denials", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return bad(x, "metrics: no \"denials\" array");
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *r = json_object_array_get_idx(arr, i);
		const char *e, *rs, *nd, *src = NULL, *api = NULL, *enf = NULL;
		uint64_t n;

		if (!get_str(x, r, "exe", &e) || !get_str(x, r, "reason", &rs) ||
		    !get_str(x, r, "node", &nd) || !get_u64(x, r, "count", &n))
			return false;
		/* absent in a state of an older plugin: kernel, trusted_for */
		if ((json_object_object_get_ex(r, "source", NULL) &&
		     !get_str(x, r, "source", &src)) ||
		    (json_object_object_get_ex(r, "api", NULL) && !get_str(x, r, "api", &api)) ||
		    (json_object_object_get_ex(r, "enforced", NULL) &&
		     !get_str(x, r, "enforced", &enf)))
			return false;
		if (ap_metrics_restore_denial(m, e, rs, nd, src, api, enf, n))
			return bad(x, "metrics: denial series %zu: %s", i, strerror(errno));
	}
	if (!json_object_object_get_ex(o, "changes", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return bad(x, "metrics: no \"changes\" array");
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *r = json_object_array_get_idx(arr, i);
		const char *nd, *res;
		uint64_t n;

		if (!get_str(x, r, "node", &nd) || !get_str(x, r, "result", &res) ||
		    !get_u64(x, r, "count", &n))
			return false;
		if (ap_metrics_restore_change(m, nd, res, n))
			return bad(x, "metrics: change series %zu: %s", i, strerror(errno));
	}
	if (!json_object_object_get_ex(o, "policy", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return bad(x, "metrics: no \"policy\" array");
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *r = json_object_array_get_idx(arr, i);
		const char *nd;
		int64_t v, ms;

		if (!get_str(x, r, "node", &nd) || !get_int(x, r, "value", -1, &v) ||
		    !get_int(x, r, "time", INT64_MIN, &ms))
			return false;
		if (v > 1000000 || ap_metrics_restore_policy(m, nd, (int)v, ms))
			return bad(x, "metrics: policy %zu: bad value", i);
	}
	return true;
}

/*
 * The tables of every class: "dims" holds trusted_for's; version 3 adds
 * "classes" with each class's time range and the execve_check tables. A
 * file of version 1 or 2 holds trusted_for denials only.
 */
static bool load_classes(struct ctx *x, json_object *root, json_object *dims,
			 int64_t version, struct ap_agg *a, uint32_t cap)
{
	json_object *cls = NULL, *v;

	if (version >= 3 && (!json_object_object_get_ex(root, "classes", &cls) ||
			     !json_object_is_type(cls, json_type_object)))
		return bad(x, "no \"classes\" object");
	for (int c = 0; c < AP_API_CLASSES; c++) {
		json_object *co = NULL, *cd = c == AP_API_TRUSTED_FOR ? dims : NULL;
		int64_t first = INT64_MAX, last = INT64_MIN;

		if (cls) {
			if (!json_object_object_get_ex(cls, ap_state_class_keys[c], &co) ||
			    !json_object_is_type(co, json_type_object))
				return bad(x, "class \"%s\" missing", ap_state_class_keys[c]);
			if (!get_int(x, co, "first", INT64_MIN, &first) ||
			    !get_int(x, co, "last", INT64_MIN, &last) ||
			    !get_u64_opt(x, co, "relay", &a->relay[c]))
				return false;
			if (c != AP_API_TRUSTED_FOR &&
			    (!json_object_object_get_ex(co, "dims", &cd) ||
			     !json_object_is_type(cd, json_type_object)))
				return bad(x, "class \"%s\" has no \"dims\" object",
					   ap_state_class_keys[c]);
		} else if (c == AP_API_TRUSTED_FOR) {
			first = a->first;
			last = a->last;
		}
		a->api_first[c] = first;
		a->api_last[c] = last;
		for (int d = 0; d < AP_DIM_COUNT; d++) {
			struct ap_ss_table *t = ap_agg_table(a, c, d);

			if (!cd) { /* no execve_check tables before version 3 */
				if (ap_ss_init(t, cap, AP_AGG_KEY_MAX))
					return bad(x, "out of memory");
				continue;
			}
			if (!json_object_object_get_ex(cd, ap_dim_name(d), &v))
				return bad(x, "dimension \"%s\" missing", ap_dim_name(d));
			if (!load_table(x, v, t, ap_dim_name(d), cap))
				return false;
		}
		if (a->relay[c] > ap_agg_ctable(a, c, AP_DIM_INTERP)->total)
			return bad(x, "class \"%s\": \"relay\" exceeds its denials",
				   ap_state_class_keys[c]);
	}
	for (int d = 0; d < AP_DIM_COUNT; d++) {
		uint64_t sum = 0;

		for (int c = 0; c < AP_API_CLASSES; c++)
			sum += ap_agg_ctable(a, c, d)->total;
		if (sum != a->denials)
			return bad(x, "dimension \"%s\" total differs from \"denials\" (all APIs)",
				   ap_dim_name(d));
	}
	return true;
}

int ap_state_load(struct ap_agg *a, uint32_t cap, const char *path,
		  char *why, size_t why_len)
{
	struct ctx x = { why, why_len };
	json_object *root, *dims, *v;
	int64_t version, first, last;
	bool ok = false;
	FILE *f;

	why[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return -1;
	fclose(f);
	root = json_object_from_file(path);
	if (!root) {
		bad(&x, "not JSON (%s)", json_util_get_last_err());
		errno = EPROTO;
		return -1;
	}
	memset(a, 0, sizeof(*a));
	a->cap = cap;
	a->changes_max = AP_AGG_CHANGES_MAX;
	ap_metrics_init(&a->metrics);
	if (!json_object_is_type(root, json_type_object) ||
	    !get_int(&x, root, "version", 0, &version))
		goto out;
	if (version < 1 || version > AP_STATE_VERSION) {
		bad(&x, "version %lld, this tool reads versions 1 to %d", (long long)version,
		    AP_STATE_VERSION);
		goto out;
	}
	if (!get_u64(&x, root, "denials", &a->denials) ||
	    !get_int(&x, root, "first", INT64_MIN, &first) ||
	    !get_int(&x, root, "last", INT64_MIN, &last) ||
	    !get_u64(&x, root, "bad_lines", &a->bad_lines) ||
	    !get_u64(&x, root, "malformed", &a->malformed) ||
	    !get_u64(&x, root, "not_denial", &a->not_denial) ||
	    !get_u64(&x, root, "changes_dropped", &a->changes_dropped) ||
	    !get_u64_opt(&x, root, "relay_lost", &a->relay_lost) ||
	    !get_u64_opt(&x, root, "relay_lost_records", &a->relay_lost_records))
		goto out;
	a->first = first;
	a->last = last;
	if (!json_object_object_get_ex(root, "dims", &dims) ||
	    !json_object_is_type(dims, json_type_object)) {
		bad(&x, "no \"dims\" object");
		goto out;
	}
	if (!load_classes(&x, root, dims, version, a, cap))
		goto out;
	if (!json_object_object_get_ex(root, "policy_changes", &v) ||
	    !json_object_is_type(v, json_type_array)) {
		bad(&x, "no \"policy_changes\" array");
		goto out;
	}
	ok = load_changes(&x, v, a);
	/* Replaying the timeline counted it in the metrics: they come from their own section. */
	ap_metrics_free(&a->metrics);
	ap_metrics_init(&a->metrics);
	if (ok)
		ok = load_metrics(&x, root, &a->metrics);
out:
	json_object_put(root);
	if (!ok) {
		/* Tables not reached yet are zeroed: init them so free works. */
		ap_agg_free(a);
		errno = errno == ENOMEM ? ENOMEM : EPROTO;
		return -1;
	}
	return 0;
}
