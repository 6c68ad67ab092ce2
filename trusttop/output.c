// SPDX-License-Identifier: GPL-2.0-or-later
/* trusttop: formatting helpers, `-b` text and `--json` output. */
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <json-c/json.h>
#include "escape.h"
#include "tfjson.h"
#include "trustedfor.h"
#include "timefmt.h"
#include "app.h"

/* Kernel-internal dev_t: 12-bit major, 20-bit minor. */
#define KDEV_MAJOR(d) ((unsigned int)((d) >> 20))
#define KDEV_MINOR(d) ((unsigned int)((d) & 0xfffff))

const char *tt_reason_bits_str(unsigned int bits, bool denied, char *buf,
			       size_t len)
{
	if (!bits)
		return denied ? "other" : "-";
	return tf_reason_str(bits, buf, len);
}

static size_t comp_len(const char *c)
{
	return strnlen(c, TT_NAME_LEN);
}

char *tt_event_path(const struct tt_event *e, char *out, size_t outsz)
{
	size_t pos = 0;
	int depth = e->depth > TT_PATH_DEPTH ? TT_PATH_DEPTH : e->depth;

	if (!outsz)
		return out;
	out[0] = 0;
	if (depth == 0) {
		snprintf(out, outsz, "dev %u:%u ino %" PRIu64,
			 KDEV_MAJOR(e->dev), KDEV_MINOR(e->dev),
			 (uint64_t)e->ino);
		return out;
	}
	if (e->flags & TT_EV_NAME_ARG) {
		/* The execveat() path argument, as the caller gave it. */
		size_t l = comp_len(e->path[0]);

		if (l >= outsz)
			l = outsz - 1;
		memcpy(out, e->path[0], l);
		out[l] = 0;
		return out;
	}
	if (e->flags & TT_EV_PATH_TRUNC) {
		pos = (size_t)snprintf(out, outsz, "...");
		if (pos >= outsz)
			return out;
	}
	for (int i = depth - 1; i >= 0; i--) {
		size_t l = comp_len(e->path[i]);

		if (pos + 1 + l + 1 > outsz)
			break;
		out[pos++] = '/';
		memcpy(out + pos, e->path[i], l);
		pos += l;
		out[pos] = 0;
	}
	return out;
}

const char *tt_escape(const char *raw, char *out, size_t outsz)
{
	tf_escape_term(raw, strlen(raw), out, outsz);
	return out;
}

const char *tt_user_name(uint32_t uid)
{
	static struct {
		uint32_t uid;
		char name[32];
	} cache[64];
	static unsigned int n;
	struct passwd *pw;
	unsigned int i;

	for (i = 0; i < n && i < 64; i++)
		if (cache[i].uid == uid)
			return cache[i].name;
	i = n++ % 64;
	cache[i].uid = uid;
	pw = getpwuid(uid);
	if (pw && strlen(pw->pw_name) < sizeof(cache[i].name))
		tt_escape(pw->pw_name, cache[i].name, sizeof(cache[i].name));
	else
		snprintf(cache[i].name, sizeof(cache[i].name), "%u", uid);
	return cache[i].name;
}

const char *tt_interp_name(const struct tt_key *k, char *out, size_t outsz)
{
	char exe[4 * TT_EXE_LEN + 1], comm[4 * TT_COMM_LEN + 1];
	char e[TT_EXE_LEN + 1], c[TT_COMM_LEN + 1];

	memcpy(e, k->exe, TT_EXE_LEN);
	e[TT_EXE_LEN] = 0;
	memcpy(c, k->comm, TT_COMM_LEN);
	c[TT_COMM_LEN] = 0;
	tt_escape(e, exe, sizeof(exe));
	tt_escape(c, comm, sizeof(comm));
	if (!*exe || !strcmp(exe, comm))
		snprintf(out, outsz, "%s", comm);
	else
		snprintf(out, outsz, "%s(%s)", exe, comm);
	return out;
}

const char *tt_fmt_count(uint64_t v, int width, char *out, size_t outsz)
{
	static const char units[] = "kMGTPE";
	double d = (double)v;
	int u = -1;

	if (width < 1)
		width = 1;
	if (snprintf(out, outsz, "%" PRIu64, v) <= width)
		return out;
	while (u < 5) {
		d /= 1000;
		u++;
		if (snprintf(out, outsz, "%.1f%c", d, units[u]) <= width ||
		    snprintf(out, outsz, "%.0f%c", d, units[u]) <= width)
			return out;
	}
	return out;
}

static bool event_match(const struct tt_app *a, const struct tt_recent *r)
{
	char exe[TT_EXE_LEN + 1] = "", comm[TT_COMM_LEN + 1] = "";

	if (a->uid >= 0 && (long)r->ev.uid != a->uid)
		return false;
	if (a->api && r->ev.source != a->api)
		return false;
	if (!a->filter[0])
		return true;
	memcpy(exe, r->ev.exe, TT_EXE_LEN);
	memcpy(comm, r->ev.comm, TT_COMM_LEN);
	return strstr(exe, a->filter) || strstr(comm, a->filter) ||
	       strstr(r->path, a->filter);
}

void tt_shown_add(struct tt_app *a, const struct tt_recent *r)
{
	if (!event_match(a, r))
		return;
	a->shown_seq++;
	a->shown[(a->shown_seq - 1) % TT_RECENT] = *r;
}

void tt_shown_rebuild(struct tt_app *a)
{
	uint64_t first = a->recent_seq > TT_RECENT ? a->recent_seq - TT_RECENT + 1 : 1;

	a->shown_seq = 0;
	for (uint64_t s = first; s <= a->recent_seq; s++) {
		struct tt_recent *r = &a->recent[(s - 1) % TT_RECENT];

		if (r->seq == s)
			tt_shown_add(a, r);
	}
}

struct tt_row **tt_visible_rows(struct tt_app *a, size_t *n)
{
	struct tt_table *t = a->per_process ? &a->procs : &a->interp;
	struct tt_row **rows = calloc(t->n ? t->n : 1, sizeof(*rows));

	*n = 0;
	if (!rows)
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].cur.checks && tt_row_match(&t->rows[i], a->filter, a->uid, a->api))
			rows[(*n)++] = &t->rows[i];
	tt_rows_sort(rows, *n, a->sort, a->reverse);
	return rows;
}

static void print_reasons(FILE *f, const char *label, const __u64 *slots)
{
	fprintf(f, "%s", label);
	for (int i = 0; i < TT_NREASON; i++)
		fprintf(f, " %s=%" PRIu64, tt_reason_slot_name(i), (uint64_t)slots[i]);
	fputc('\n', f);
}

void tt_print_batch(struct tt_app *a, FILE *f)
{
	char ts[16], file[4 * TT_PATH_MAX + 1], policy[64];
	struct tt_row **rows;
	size_t n;

	tf_clock_hms((time_t)(a->now), ts, sizeof(ts));
	if (a->policy >= 0)
		snprintf(policy, sizeof(policy), "%d", a->policy);
	else
		snprintf(policy, sizeof(policy), "%s", a->policy_note ? a->policy_note : "?");
	fprintf(f, "trusttop - %s  kernel %s  backend %s  policy %s\n", ts,
		a->kernel, a->backend, policy);
	fprintf(f, "Checks: %" PRIu64 " total, %.1f/s  allowed %" PRIu64
		   "  denied %" PRIu64 " (%.1f%%)  would-deny %" PRIu64
		   "  errors %" PRIu64 "\n",
		(uint64_t)a->total.checks, tt_rate(a->total_delta.checks, a->elapsed),
		(uint64_t)a->total.allowed, (uint64_t)a->total.denied,
		tt_deny_pct(&a->total), (uint64_t)a->total.would,
		(uint64_t)a->total.errors);
	/* Following both interfaces: each one's figures. */
	for (unsigned int api = 1; a->apis == TT_APIS_BOTH && api < 3; api++) {
		const struct tt_counts *c = &a->api_total[api];

		fprintf(f, "  %-12s %" PRIu64 " checks  allowed %" PRIu64
			   "  denied %" PRIu64 "  would-deny %" PRIu64
			   "  errors %" PRIu64 "\n", tt_api_name(api),
			(uint64_t)c->checks, (uint64_t)c->allowed,
			(uint64_t)c->denied, (uint64_t)c->would,
			(uint64_t)c->errors);
	}
	print_reasons(f, "Denied:", a->total.reason);
	print_reasons(f, "Would-deny:", a->total.would_reason);
	fprintf(f, "Drops: ringbuf %" PRIu64 " map-full %" PRIu64
		   "  Overhead: cpu %.1f%% bpf %.1f%% (%.0f ns/event)\n\n",
		a->rb_drops, a->map_full + (a->per_process ? a->pmap_full : 0),
		a->self_cpu_pct, a->bpf_cpu_pct, a->bpf_ns_per_event);
	fprintf(f, "%-16s %-16s %-12s %7s %-10s %10s %10s %10s %6s %-12s %10s %s\n",
		"EXE", "COMM", "API", a->per_process ? "PID" : "UID", "USER",
		"CHECKS/s", "ALLOWED", "DENIED", "DENY%", "TOP-REASON",
		"WOULD-DENY", "LAST-DENIED-FILE");
	rows = tt_visible_rows(a, &n);
	for (size_t i = 0; rows && i < n; i++) {
		struct tt_row *r = rows[i];
		char exe[4 * TT_EXE_LEN + 1], comm[4 * TT_COMM_LEN + 1];
		char e[TT_EXE_LEN + 1] = "", c[TT_COMM_LEN + 1] = "";

		memcpy(e, r->key.exe, TT_EXE_LEN);
		memcpy(c, r->key.comm, TT_COMM_LEN);
		tt_escape(*e ? e : "-", exe, sizeof(exe));
		tt_escape(c, comm, sizeof(comm));
		tt_escape(r->last_file[0] ? r->last_file : "-", file, sizeof(file));
		fprintf(f, "%-16s %-16s %-12s %7u %-10s %10.1f %10" PRIu64
			   " %10" PRIu64 " %6.1f %-12s %10" PRIu64 " %s\n",
			exe, comm, tt_api_name(r->key.api),
			a->per_process ? r->key.tgid : r->key.uid,
			tt_user_name(r->key.uid), r->rate, (uint64_t)r->cur.allowed,
			(uint64_t)r->cur.denied, tt_deny_pct(&r->cur),
			tt_reason_slot_name(tt_top_reason(&r->cur)),
			(uint64_t)r->cur.would, file);
	}
	free(rows);
	fputc('\n', f);
	fflush(f);
}

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
		/* AT_EXECVE_CHECK: the caller's securebits, which tell
		 * whether it enforced the refusal. */
		if (r->ev.flags & TT_EV_SECBITS) {
			json_object_object_add(ev, "secbits", json_object_new_int64(r->ev.secbits));
			json_object_object_add(ev, "enforced",
					       json_object_new_boolean(r->ev.secbits & TF_SECBIT_EXEC_RESTRICT_FILE));
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
