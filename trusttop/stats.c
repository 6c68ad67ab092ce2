// SPDX-License-Identifier: GPL-2.0-or-later
/* trusttop user-space bookkeeping: see stats.h. */
#include <stdlib.h>
#include <string.h>
#include "trustedfor.h"
#include "stats.h"

/* The slots of struct tt_counts are lib's reason bits in order, then
 * "other"; the interfaces are lib's backends (their names are lib's).
 */
_Static_assert(TT_NREASON - 1 == TF_REASON_COUNT, "a slot per reason bit + other");
_Static_assert(TT_REASON_OTHER == TF_REASON_COUNT, "other after the bits");
_Static_assert(TF_REASON_ALL == (1u << TF_REASON_COUNT) - 1, "reason bits 0..6");
_Static_assert(TT_SRC_TRUSTED_FOR == (int)TF_BACKEND_TRUSTED_FOR,
	       "tt_source = tf_backend");
_Static_assert(TT_SRC_EXECVE_CHECK == (int)TF_BACKEND_EXECVE_CHECK,
	       "tt_source = tf_backend");

#define NCOUNTERS (sizeof(struct tt_counts) / sizeof(__u64))

void tt_counts_sub(const struct tt_counts *a, const struct tt_counts *b,
		   struct tt_counts *out)
{
	const __u64 *pa = (const __u64 *)a, *pb = (const __u64 *)b;
	__u64 *po = (__u64 *)out;
	bool reset = false;

	/* An entry is reset as a whole (evicted, then created again). */
	for (size_t i = 0; i < NCOUNTERS; i++)
		if (pa[i] < pb[i])
			reset = true;
	for (size_t i = 0; i < NCOUNTERS; i++)
		po[i] = reset ? pa[i] : pa[i] - pb[i];
}

void tt_counts_add(struct tt_counts *acc, const struct tt_counts *c)
{
	__u64 *pa = (__u64 *)acc;
	const __u64 *pc = (const __u64 *)c;

	for (size_t i = 0; i < NCOUNTERS; i++)
		pa[i] += pc[i];
}

double tt_rate(uint64_t delta, double seconds)
{
	if (!(seconds > 0))
		return 0;
	return (double)delta / seconds;
}

double tt_deny_pct(const struct tt_counts *c)
{
	uint64_t verdicts = c->allowed + c->denied;

	return verdicts ? 100.0 * (double)c->denied / (double)verdicts : 0;
}

int tt_top_reason(const struct tt_counts *c)
{
	int best = -1;

	for (int i = 0; i < TT_NREASON; i++)
		if (c->reason[i] && (best < 0 || c->reason[i] > c->reason[best]))
			best = i;
	return best;
}

const char *tt_reason_slot_name(int slot)
{
	if (slot == TT_REASON_OTHER)
		return "other";
	return slot >= 0 && slot < TF_REASON_COUNT ?
	       tf_reason_name(1u << slot) : "-";
}

void tt_table_init(struct tt_table *t)
{
	memset(t, 0, sizeof(*t));
}

void tt_table_free(struct tt_table *t)
{
	free(t->rows);
	tt_rowhash_free(&t->index);
	tt_table_init(t);
}

void tt_table_begin(struct tt_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		t->rows[i].seen = false;
}

static bool key_eq(const struct tt_key *a, const struct tt_key *b)
{
	return a->uid == b->uid && a->tgid == b->tgid && a->api == b->api &&
	       !strncmp(a->exe, b->exe, TT_EXE_LEN) &&
	       !strncmp(a->comm, b->comm, TT_COMM_LEN);
}

static int row_key_eq(const void *ctx, size_t row, const void *key)
{
	const struct tt_table *t = ctx;

	return key_eq(&t->rows[row].key, key);
}

/* Rows keep their names NUL-terminated whatever the kernel sent: look up
 * with the same bytes.
 */
static struct tt_key norm_key(const struct tt_key *key)
{
	struct tt_key k = *key;

	k.exe[TT_EXE_LEN - 1] = 0;
	k.comm[TT_COMM_LEN - 1] = 0;
	return k;
}

static struct tt_row *find(struct tt_table *t, const struct tt_key *k,
			   uint32_t hash)
{
	long i = tt_rowhash_find(&t->index, hash, row_key_eq, t, k,
				 &t->lookup_steps);

	t->lookups++;
	return i < 0 ? NULL : &t->rows[i];
}

struct tt_row *tt_table_find(struct tt_table *t, const struct tt_key *key)
{
	struct tt_key k = norm_key(key);

	return find(t, &k, tt_key_hash(&k));
}

struct tt_row *tt_table_get(struct tt_table *t, const struct tt_key *key)
{
	struct tt_key k = norm_key(key);
	uint32_t hash = tt_key_hash(&k);
	struct tt_row *r = find(t, &k, hash);

	if (!r) {
		if (t->n == t->cap) {
			size_t cap = t->cap ? 2 * t->cap : 64;
			struct tt_row *rows = realloc(t->rows, cap * sizeof(*rows));

			if (!rows)
				return NULL;
			t->rows = rows;
			t->cap = cap;
		}
		if (tt_rowhash_add(&t->index, t->n, hash))
			return NULL;
		r = &t->rows[t->n++];
		memset(r, 0, sizeof(*r));
		r->key = k;
	}
	return r;
}

/* The counts of @key in this read: set by the first entry, added by the
 * next ones when @add (see tt_table_add).
 */
static struct tt_row *record(struct tt_table *t, const struct tt_key *key,
			     const struct tt_counts *c, bool add)
{
	struct tt_row *r = tt_table_get(t, key);

	if (!r)
		return NULL;
	if (add && r->seen)
		tt_counts_add(&r->cur, c);
	else
		r->cur = *c;
	r->seen = true;
	return r;
}

struct tt_row *tt_table_set(struct tt_table *t, const struct tt_key *key,
			    const struct tt_counts *c)
{
	return record(t, key, c, false);
}

struct tt_row *tt_table_add(struct tt_table *t, const struct tt_key *key,
			    const struct tt_counts *c)
{
	return record(t, key, c, true);
}

void tt_names_init(struct tt_names *ns)
{
	memset(ns, 0, sizeof(*ns));
}

void tt_names_free(struct tt_names *ns)
{
	free(ns->ids);
	free(ns->names);
	tt_rowhash_free(&ns->index);
	tt_names_init(ns);
}

static int id_eq(const void *ctx, size_t i, const void *id)
{
	const struct tt_names *ns = ctx;

	return !memcmp(&ns->ids[i], id, sizeof(ns->ids[i]));
}

const char *tt_names_find(struct tt_names *ns, const struct tt_exe_id *id)
{
	uint64_t steps = 0;
	long i = tt_rowhash_find(&ns->index, tt_exe_id_hash(id), id_eq, ns, id,
				 &steps);

	return i < 0 ? NULL : ns->names[i].name;
}

int tt_names_add(struct tt_names *ns, const struct tt_exe_id *id,
		 const char *name)
{
	if (ns->n == ns->cap) {
		size_t cap = ns->cap ? 2 * ns->cap : 64;
		struct tt_exe_id *ids = realloc(ns->ids, cap * sizeof(*ids));
		struct tt_exe_name *names;

		if (!ids)
			return -1;
		ns->ids = ids;
		names = realloc(ns->names, cap * sizeof(*names));
		if (!names)
			return -1;
		ns->names = names;
		ns->cap = cap;
	}
	if (tt_rowhash_add(&ns->index, ns->n, tt_exe_id_hash(id)))
		return -1;
	ns->ids[ns->n] = *id;
	memcpy(ns->names[ns->n].name, name, TT_EXE_LEN);
	ns->names[ns->n].name[TT_EXE_LEN - 1] = 0;
	ns->n++;
	return 0;
}

void tt_table_tick(struct tt_table *t, double seconds)
{
	for (size_t i = 0; i < t->n; i++) {
		struct tt_row *r = &t->rows[i];

		tt_counts_sub(&r->cur, &r->prev, &r->delta);
		r->rate = tt_rate(r->delta.checks, seconds);
		r->prev = r->cur;
	}
}

void tt_table_totals(const struct tt_table *t, unsigned int api,
		     struct tt_counts *cur, struct tt_counts *delta)
{
	memset(cur, 0, sizeof(*cur));
	if (delta)
		memset(delta, 0, sizeof(*delta));
	for (size_t i = 0; i < t->n; i++) {
		if (api && t->rows[i].key.api != api)
			continue;
		tt_counts_add(cur, &t->rows[i].cur);
		if (delta)
			tt_counts_add(delta, &t->rows[i].delta);
	}
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

static int cmp_dbl_desc(double a, double b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

static int cmp_ident(const struct tt_row *a, const struct tt_row *b)
{
	int c = strncmp(a->key.exe, b->key.exe, TT_EXE_LEN);

	if (!c)
		c = strncmp(a->key.comm, b->key.comm, TT_COMM_LEN);
	if (!c)
		c = a->key.uid < b->key.uid ? -1 : a->key.uid > b->key.uid;
	if (!c)
		c = a->key.tgid < b->key.tgid ? -1 : a->key.tgid > b->key.tgid;
	if (!c)
		c = a->key.api < b->key.api ? -1 : a->key.api > b->key.api;
	return c;
}

int tt_row_cmp(const struct tt_row *a, const struct tt_row *b, enum tt_sort by)
{
	int c = 0;

	switch (by) {
	case TT_SORT_RATE:
		c = cmp_dbl_desc(a->rate, b->rate);
		if (!c)
			c = cmp_u64_desc(a->cur.checks, b->cur.checks);
		break;
	case TT_SORT_CHECKS:
		c = cmp_u64_desc(a->cur.checks, b->cur.checks);
		break;
	case TT_SORT_ALLOWED:
		c = cmp_u64_desc(a->cur.allowed, b->cur.allowed);
		break;
	case TT_SORT_DENIED:
		c = cmp_u64_desc(a->cur.denied, b->cur.denied);
		break;
	case TT_SORT_DENYPCT:
		c = cmp_dbl_desc(tt_deny_pct(&a->cur), tt_deny_pct(&b->cur));
		break;
	case TT_SORT_WOULD:
		c = cmp_u64_desc(a->cur.would, b->cur.would);
		break;
	case TT_SORT_UID:
		c = a->key.uid < b->key.uid ? -1 : a->key.uid > b->key.uid;
		break;
	case TT_SORT_NAME:
	default:
		break;
	}
	return c ? c : cmp_ident(a, b);
}

static enum tt_sort sort_by;
static bool sort_reverse;

static int qsort_cmp(const void *pa, const void *pb)
{
	const struct tt_row *a = *(const struct tt_row *const *)pa;
	const struct tt_row *b = *(const struct tt_row *const *)pb;
	int c = tt_row_cmp(a, b, sort_by);

	return sort_reverse ? -c : c;
}

void tt_rows_sort(struct tt_row **rows, size_t n, enum tt_sort by, bool reverse)
{
	sort_by = by;
	sort_reverse = reverse;
	if (n > 1)
		qsort(rows, n, sizeof(*rows), qsort_cmp);
}

static const char *const sort_names[TT_SORT_COUNT] = {
	"rate", "checks", "allowed", "denied", "deny%", "would", "name", "uid",
};

const char *tt_sort_name(enum tt_sort by)
{
	return by < TT_SORT_COUNT ? sort_names[by] : "?";
}

int tt_sort_parse(const char *name)
{
	for (int i = 0; i < TT_SORT_COUNT; i++)
		if (!strcmp(name, sort_names[i]))
			return i;
	if (!strcmp(name, "denypct"))
		return TT_SORT_DENYPCT;
	return -1;
}

const char *tt_api_name(unsigned int api)
{
	return api == TT_SRC_TRUSTED_FOR || api == TT_SRC_EXECVE_CHECK ?
	       tf_backend_name((enum tf_backend)api) : "?";
}

int tt_api_parse(const char *name)
{
	if (!strcmp(name, "all"))
		return 0;
	if (!strcmp(name, "trusted_for"))
		return TT_SRC_TRUSTED_FOR;
	if (!strcmp(name, "execve_check"))
		return TT_SRC_EXECVE_CHECK;
	return -1;
}

bool tt_row_match(const struct tt_row *r, const char *filter, long uid,
		  unsigned int api)
{
	if (uid >= 0 && (long)r->key.uid != uid)
		return false;
	if (api && r->key.api != api)
		return false;
	if (!filter || !*filter)
		return true;
	return strstr(r->key.exe, filter) || strstr(r->key.comm, filter) ||
	       strstr(r->last_file, filter);
}
