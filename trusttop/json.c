// SPDX-License-Identifier: GPL-2.0-or-later
/* trusttop: `--json` output, one object per update (names: lib/tfjson.h). */
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "tfjson.h"
#include "trustedfor.h"
#include "app.h"

static json_object *json_reasons(const __u64 *slots, bool with_other)
{
	json_object *o = json_object_new_object();

	for (int i = 0; o && i < TT_NREASON; i++)
		if (i != TT_REASON_OTHER || with_other)
			json_object_object_add(o, tt_reason_slot_name(i),
					       json_object_new_int64((int64_t)slots[i]));
	return o;
}

static json_object *json_counts(const struct tt_counts *c)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "checks", json_object_new_int64((int64_t)c->checks));
	json_object_object_add(o, "allowed", json_object_new_int64((int64_t)c->allowed));
	json_object_object_add(o, "denied", json_object_new_int64((int64_t)c->denied));
	json_object_object_add(o, "errors", json_object_new_int64((int64_t)c->errors));
	json_object_object_add(o, "would_deny", json_object_new_int64((int64_t)c->would));
	json_object_object_add(o, "deny_reasons", json_reasons(c->reason, true));
	json_object_object_add(o, "would_deny_reasons",
			       json_reasons(c->would_reason, false));
	return o;
}

/* The user name of @uid as raw bytes (the number when unknown), for JSON. */
static int json_user(json_object *o, uint32_t uid)
{
	struct passwd *pw = getpwuid(uid);
	char num[16];

	if (pw && pw->pw_name)
		return tf_json_add_str(o, "user", pw->pw_name);
	snprintf(num, sizeof(num), "%u", uid);
	return tf_json_add_str(o, "user", num);
}

/* A fixed-size, maybe unterminated name field, by the convention (NULL: null). */
static int json_field(json_object *o, const char *key, const char *raw, size_t max)
{
	return tf_json_add_bytes(o, key, raw, raw ? strnlen(raw, max) : 0);
}

int tt_print_json(struct tt_app *a, FILE *f)
{
	json_object *o = json_object_new_object(), *arr, *ev;
	struct tt_row **rows;
	size_t n;
	char buf[128], reasons[128];
	int bad = 0, rc;

	if (!o)
		return -1;
	json_object_object_add(o, "time", json_object_new_double(a->now));
	json_object_object_add(o, "interval", json_object_new_double(a->elapsed));
	bad |= tf_json_add_str(o, "kernel", a->kernel);
	json_object_object_add(o, "backend", json_object_new_string(a->backend));
	json_object_object_add(o, "policy",
			       a->policy >= 0 ? json_object_new_int(a->policy) : NULL);
	arr = json_object_new_array();
	for (unsigned int api = 1; arr && api < 3; api++)
		if (a->apis & (1u << api))
			json_object_array_add(arr, json_object_new_string(tt_api_name(api)));
	json_object_object_add(o, "apis", arr);
	json_object_object_add(o, "totals", json_counts(&a->total));
	json_object_object_add(o, "interval_counts", json_counts(&a->total_delta));
	ev = json_object_new_object();
	for (unsigned int api = 1; ev && api < 3; api++)
		if (a->apis & (1u << api))
			json_object_object_add(ev, tt_api_name(api),
					       json_counts(&a->api_total[api]));
	json_object_object_add(o, "totals_by_api", ev);
	json_object_object_add(o, "checks_per_s",
			       json_object_new_double(tt_rate(a->total_delta.checks, a->elapsed)));
	json_object_object_add(o, "ringbuf_drops", json_object_new_int64((int64_t)a->rb_drops));
	json_object_object_add(o, "map_full", json_object_new_int64((int64_t)a->map_full));
	json_object_object_add(o, "self_cpu_pct", json_object_new_double(a->self_cpu_pct));
	json_object_object_add(o, "bpf_cpu_pct", json_object_new_double(a->bpf_cpu_pct));
	json_object_object_add(o, "bpf_runs", json_object_new_int64((int64_t)a->bpf_runs));

	arr = json_object_new_array();
	rows = tt_visible_rows(a, &n);
	for (size_t i = 0; arr && rows && i < n; i++) {
		struct tt_row *r = rows[i];
		json_object *row = json_counts(&r->cur);

		if (!row) {
			bad = -1;
			break;
		}
		bad |= json_field(row, "exe", r->key.exe, TT_EXE_LEN);
		bad |= json_field(row, "comm", r->key.comm, TT_COMM_LEN);
		json_object_object_add(row, "api", json_object_new_string(tt_api_name(r->key.api)));
		json_object_object_add(row, "uid", json_object_new_int64(r->key.uid));
		bad |= json_user(row, r->key.uid);
		if (a->per_process)
			json_object_object_add(row, "pid", json_object_new_int64(r->key.tgid));
		json_object_object_add(row, "checks_per_s", json_object_new_double(r->rate));
		json_object_object_add(row, "deny_pct", json_object_new_double(tt_deny_pct(&r->cur)));
		json_object_object_add(row, "top_reason",
				       tt_top_reason(&r->cur) >= 0 ?
					       json_object_new_string(tt_reason_slot_name(tt_top_reason(&r->cur))) :
					       NULL);
		bad |= json_field(row, "last_denied_file", r->last_file[0] ? r->last_file : NULL,
				  sizeof(r->last_file));
		json_object_array_add(arr, row);
	}
	free(rows);
	json_object_object_add(o, "interpreters", arr);

	/* Denials received since the previous object (the newest TT_RECENT). */
	arr = json_object_new_array();
	if (a->recent_seq - a->json_seq > TT_RECENT)
		json_object_object_add(o, "denials_not_shown",
				       json_object_new_int64((int64_t)(a->recent_seq - a->json_seq - TT_RECENT)));
	for (uint64_t s = a->json_seq + 1; arr && s <= a->recent_seq; s++) {
		struct tt_recent *r = &a->recent[(s - 1) % TT_RECENT];

		if (r->seq != s)
			continue;
		ev = json_object_new_object();
		if (!ev) {
			bad = -1;
			break;
		}
		json_object_object_add(ev, "time", json_object_new_double(r->wall));
		json_object_object_add(ev, "api", json_object_new_string(tt_api_name(r->ev.source)));
		json_object_object_add(ev, "pid", json_object_new_int64(r->ev.tgid));
		json_object_object_add(ev, "tid", json_object_new_int64(r->ev.pid));
		json_object_object_add(ev, "uid", json_object_new_int64(r->ev.uid));
		bad |= json_field(ev, "exe", r->ev.exe, TT_EXE_LEN);
		bad |= json_field(ev, "comm", r->ev.comm, TT_COMM_LEN);
		bad |= json_field(ev, "file", r->path, sizeof(r->path));
		json_object_object_add(ev, "denied",
				       json_object_new_boolean(r->ev.flags & TT_EV_DENIED));
		json_object_object_add(ev, "ret", json_object_new_int(r->ev.ret));
		json_object_object_add(ev, "reason",
				       json_object_new_string(tt_reason_bits_str(r->ev.reason, r->ev.flags & TT_EV_DENIED, reasons, sizeof(reasons))));
		json_object_object_add(ev, "would_deny",
				       json_object_new_string(tt_reason_bits_str(r->ev.would_deny, false, buf, sizeof(buf))));
		/* AT_EXECVE_CHECK: the caller's securebits, and whether they
		 * made it refuse the file (tf_ec_enforced()).
		 */
		if (r->ev.flags & TT_EV_SECBITS) {
			json_object_object_add(ev, "secbits", json_object_new_int64(r->ev.secbits));
			json_object_object_add(ev, "enforced",
					       json_object_new_boolean(r->ev.flags & TT_EV_ENFORCED));
		}
		json_object_array_add(arr, ev);
	}
	a->json_seq = a->recent_seq;
	json_object_object_add(o, "denials", arr);

	/* Names by the JSON convention of lib/tfjson.h; nothing when incomplete. */
	rc = bad ? -1 : tf_json_print(f, o, JSON_C_TO_STRING_PLAIN |
						 JSON_C_TO_STRING_NOSLASHESCAPE);
	fflush(f);
	json_object_put(o);
	return rc;
}
