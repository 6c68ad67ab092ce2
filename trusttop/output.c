// SPDX-License-Identifier: GPL-2.0-or-later
/* trusttop: formatting helpers, the shown events, `-b` text (JSON: json.c). */
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include "escape.h"
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
