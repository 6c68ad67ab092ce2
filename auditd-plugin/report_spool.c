// SPDX-License-Identifier: GPL-2.0-or-later
/* A report worker's counted records, replayed by another process; see report_spool.h. */
#include "report_spool.h"

#include <errno.h>
#include <string.h>

enum { K_DENIAL = 'D', K_LOST = 'L', K_CHANGE = 'C' };
#define NO_STRING UINT32_MAX

/* ---- writing ---- */

static bool room(struct ap_spool *s, size_t n)
{
	if (s->size - s->used >= n)
		return true;
	s->head->error = ENOSPC;
	return false;
}

static void put(struct ap_spool *s, const void *p, size_t n)
{
	memcpy(s->data + s->used, p, n);
	s->used += n;
	s->unpublished += n;
}

#define PUT(s, v) put((s), &(v), sizeof(v))

/* A string: its length (NO_STRING for NULL), its bytes and a NUL. */
static void put_str(struct ap_spool *s, const char *str)
{
	uint32_t n = str ? (uint32_t)strlen(str) : NO_STRING;

	PUT(s, n);
	if (str)
		put(s, str, (size_t)n + 1);
}

static size_t str_size(const char *str)
{
	return sizeof(uint32_t) + (str ? strlen(str) + 1 : 0);
}

int ap_spool_init(struct ap_spool *s, void *mem, size_t size)
{
	if (size < sizeof(struct ap_spool_head))
		return -1;
	memset(s, 0, sizeof(*s));
	s->head = mem;
	memset(s->head, 0, sizeof(*s->head));
	s->data = (unsigned char *)mem + sizeof(struct ap_spool_head);
	s->size = size - sizeof(struct ap_spool_head);
	return 0;
}

/* The fixed part of a denial or a lost record (both are struct ap_denial). */
struct denial_fixed {
	int64_t ms, uid, auid;
	uint64_t serial, ino, secbits, lost;
	int32_t policy;
	uint8_t api, source;
};

static bool denial(struct ap_spool *s, char kind, const struct ap_denial *d)
{
	const char *dev = d->dev, *reason = d->reason;
	struct denial_fixed f = {
		.ms = d->ms, .uid = d->uid, .auid = d->auid, .serial = d->serial,
		.ino = d->ino, .secbits = d->secbits, .lost = d->lost, .policy = d->policy,
		.api = (uint8_t)d->api, .source = (uint8_t)d->source,
	};

	if (!room(s, 1 + sizeof(f) + str_size(d->node) + str_size(reason) + str_size(dev) +
			     str_size(d->path) + str_size(d->comm) + str_size(d->exe)))
		return false;
	PUT(s, kind);
	PUT(s, f);
	put_str(s, d->node);
	put_str(s, reason);
	put_str(s, dev);
	put_str(s, d->path);
	put_str(s, d->comm);
	put_str(s, d->exe);
	return true;
}

bool ap_spool_denial(struct ap_spool *s, const struct ap_denial *d)
{
	return denial(s, K_DENIAL, d);
}

bool ap_spool_lost(struct ap_spool *s, const struct ap_denial *d)
{
	return denial(s, K_LOST, d);
}

struct change_fixed {
	int64_t ms, auid, ses, pid, uid;
	int32_t old_policy, new_policy, res;
	uint8_t writer;
};

bool ap_spool_change(struct ap_spool *s, const struct ap_policy_change *p)
{
	struct change_fixed f = {
		.ms = p->ms, .auid = p->auid, .ses = p->ses, .pid = p->pid, .uid = p->uid,
		.old_policy = p->old_policy, .new_policy = p->new_policy, .res = p->res,
		.writer = p->writer,
	};
	char kind = K_CHANGE;

	if (!room(s, 1 + sizeof(f) + str_size(p->node) + str_size(p->comm) + str_size(p->exe)))
		return false;
	PUT(s, kind);
	PUT(s, f);
	put_str(s, p->node);
	put_str(s, p->comm);
	put_str(s, p->exe);
	return true;
}

void ap_spool_publish(struct ap_spool *s)
{
	__atomic_store_n(&s->head->published, (uint64_t)s->used, __ATOMIC_RELEASE);
	s->unpublished = 0;
}

void ap_spool_finish(struct ap_spool *s, const struct ap_agg *counters, int error)
{
	ap_spool_publish(s);
	s->head->bad_lines = counters->bad_lines;
	s->head->malformed = counters->malformed;
	s->head->not_denial = counters->not_denial;
	if (error && !s->head->error)
		s->head->error = error;
	__atomic_store_n(&s->head->done, 1, __ATOMIC_RELEASE);
}

/* ---- reading ---- */

struct reader {
	const unsigned char *p;
	size_t at, end;
	bool bad;
};

static void get(struct reader *r, void *out, size_t n)
{
	if (r->bad || r->end - r->at < n) {
		r->bad = true;
		memset(out, 0, n);
		return;
	}
	memcpy(out, r->p + r->at, n);
	r->at += n;
}

#define GET(r, v) get((r), &(v), sizeof(v))

/* A string in place (the area holds its NUL); NULL for NO_STRING. */
static const char *get_str(struct reader *r)
{
	const char *str;
	uint32_t n;

	GET(r, n);
	if (r->bad || n == NO_STRING)
		return NULL;
	if (r->end - r->at < (size_t)n + 1 || r->p[r->at + n] != '\0') {
		r->bad = true;
		return NULL;
	}
	str = (const char *)r->p + r->at;
	r->at += (size_t)n + 1;
	return str;
}

/* A string into a fixed array (reason, dev). */
static void get_arr(struct reader *r, char *out, size_t size)
{
	const char *str = get_str(r);
	size_t n = str ? strlen(str) : 0;

	if (n >= size) {
		r->bad = true;
		n = 0;
	}
	memcpy(out, str ? str : "", n);
	out[n] = '\0';
}

static void replay_denial(struct reader *r, char kind, struct ap_agg *agg)
{
	struct denial_fixed f;
	struct ap_denial d;

	memset(&d, 0, sizeof(d));
	GET(r, f);
	d.ms = f.ms;
	d.uid = f.uid;
	d.auid = f.auid;
	d.serial = f.serial;
	d.ino = f.ino;
	d.secbits = f.secbits;
	d.lost = f.lost;
	d.policy = f.policy;
	if (f.api >= AP_API_CLASSES || f.source >= AP_SOURCES)
		r->bad = true;
	d.api = (enum ap_api_class)f.api;
	d.source = (enum ap_source)f.source;
	d.node = get_str(r);
	get_arr(r, d.reason, sizeof(d.reason));
	get_arr(r, d.dev, sizeof(d.dev));
	/* (the aggregator copies what it keeps, and writes none of them) */
	d.path = (char *)get_str(r);
	d.comm = (char *)get_str(r);
	d.exe = (char *)get_str(r);
	if (r->bad)
		return;
	if (kind == K_DENIAL)
		ap_agg_add_denial(agg, &d);
	else
		ap_agg_add_lost(agg, &d);
}

static void replay_change(struct reader *r, struct ap_agg *agg)
{
	struct ap_policy_change p;
	struct change_fixed f;

	memset(&p, 0, sizeof(p));
	GET(r, f);
	p.ms = f.ms;
	p.auid = f.auid;
	p.ses = f.ses;
	p.pid = f.pid;
	p.uid = f.uid;
	p.old_policy = f.old_policy;
	p.new_policy = f.new_policy;
	p.res = f.res;
	p.writer = f.writer;
	p.node = get_str(r);
	p.comm = (char *)get_str(r);
	p.exe = (char *)get_str(r);
	if (!r->bad)
		ap_agg_add_change(agg, &p);
}

long ap_spool_replay(const unsigned char *data, size_t from, size_t to, struct ap_agg *agg)
{
	struct reader r = { data, from, to, false };

	while (!r.bad && r.at < r.end) {
		char kind;

		GET(&r, kind);
		switch (kind) {
		case K_DENIAL:
		case K_LOST:
			replay_denial(&r, kind, agg);
			break;
		case K_CHANGE:
			replay_change(&r, agg);
			break;
		default:
			r.bad = true;
		}
	}
	return r.bad ? -1 : (long)r.at;
}
