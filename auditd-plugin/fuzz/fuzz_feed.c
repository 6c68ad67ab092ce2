// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target, differential: the same bytes are counted three times and
 * the results must agree.
 *
 *   R0  the whole input in one ap_feed_bytes() call, a small aggregator
 *       (capacity 4, so that Space-Saving eviction happens);
 *   R1  the same bytes cut at pseudo-random points (inside lines, inside
 *       records, single bytes, empty calls), capacity 4: the line splitter
 *       must make this identical to R0, row by row (keys, counts, errors,
 *       notes, first/last, the timeline in order, every counter);
 *   R2  cut at other points, with ap_feed_age() between chunks at clock
 *       values taken from the input (near the records' own seconds, 0, or
 *       the far future), and an aggregator large enough never to evict:
 *       aging changes how libauparse groups records into events and in which
 *       order it hands them back, never what is counted (counting is per
 *       record, feed.h), so R2 must have R0's totals and counters, the same
 *       timeline as a multiset, and exact counts: R0's rows equal R2's where
 *       R0 evicted nothing, and bracket them (count - err <= exact <= count,
 *       a key missing from a full R0 table at most its minimum) elsewhere.
 *
 * The cut points, the end-of-event timeout (0..3 s) and the aging clock come
 * from a generator seeded with the input's last 8 bytes, which remain part of
 * the text. libauparse ages events against time(NULL): this file defines
 * time(), which the dynamic linker binds libauparse's call to, and returns the
 * fuzzer's clock while R2 ages (the real clock otherwise); LLVMFuzzerInitialize
 * checks that the binding holds, so the aging path is known to be driven.
 * The fuzz build makes TF_LINE_MAX and TF_PENDING_MAX small (Makefile) so that
 * overlong lines and early flushes are reached with short inputs.
 *
 * Longer than 400 lines: one libFuzzer target, whose three runs and the
 * invariants they are checked against share one state.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "feed.h"
#include "report.h"

static FILE *devnull;
static int fake_clock; /* time() returns fake_now while set */
static time_t fake_now;

time_t time(time_t *t)
{
	struct timespec ts;
	time_t v;

	if (fake_clock) {
		v = fake_now;
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
		v = ts.tv_sec;
	}
	if (t)
		*t = v;
	return v;
}

static void die(const char *what)
{
	fprintf(stderr, "fuzz_feed: %s\n", what);
	abort();
}

/*
 * libauparse states are reused (linked with --wrap=auparse_init,
 * --wrap=auparse_destroy): a fresh one reads auditd.conf and costs more than
 * the rest of a run under ASan. A state goes back to the pool only empty
 * (every event handed back by ap_feed_flush); the plugin itself keeps one
 * state across such flushes (TF_PENDING_MAX).
 */
auparse_state_t *__real_auparse_init(ausource_t source, const void *b);
void __real_auparse_destroy(auparse_state_t *au);
static auparse_state_t *pool[4];
static unsigned int pooled;

auparse_state_t *__wrap_auparse_init(ausource_t source, const void *b)
{
	if (source == AUSOURCE_FEED && pooled)
		return pool[--pooled];
	return __real_auparse_init(source, b);
}

void __wrap_auparse_destroy(auparse_state_t *au)
{
	if (auparse_feed_has_data(au))
		die("libauparse still holds events after ap_feed_flush()");
	if (pooled < sizeof(pool) / sizeof(pool[0]))
		pool[pooled++] = au;
	else
		__real_auparse_destroy(au);
}

/* splitmix64 */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Each tables' invariants (spacesaving.h). */
static void check(const struct ap_agg *a)
{
	for (int d = 0; d < AP_DIM_COUNT; d++) {
		uint64_t all = 0;

		for (int c = 0; c < AP_API_CLASSES; c++) {
			const struct ap_ss_table *t = ap_agg_ctable(a, c, d);
			uint64_t sum = t->unstored, lower = 0;

			for (uint32_t i = 0; i < t->n; i++) {
				if (t->rows[i].err > t->rows[i].count)
					die("a row's error exceeds its count");
				sum += t->rows[i].count;
				lower += t->rows[i].count - t->rows[i].err;
			}
			if (sum != t->total || t->n > t->cap || lower + ap_ss_other(t) != t->total)
				die("a table's counts do not add up to its total");
			if (t->total != ap_agg_ctable(a, c, 0)->total)
				die("a class's tables have different totals");
			if (a->relay[c] > t->total)
				die("a class has more relay denials than denials");
			all += t->total;
		}
		if (all != a->denials)
			die("the classes' totals do not add up to the denials");
	}
	/* The metrics' series are exact: they add up to the denials. */
	{
		uint64_t sum = 0, ch = 0;

		for (uint32_t i = 0; i < a->metrics.denials.n; i++)
			sum += a->metrics.denials.rows[i].count;
		for (uint32_t i = 0; i < a->metrics.changes.n; i++)
			ch += a->metrics.changes.rows[i].count;
		if (sum != a->denials || a->metrics.exe.n > a->metrics.lim.exe ||
		    a->metrics.node.n > a->metrics.lim.node ||
		    a->metrics.denials.n > a->metrics.lim.series + AP_API_CLASSES * AP_SOURCES)
			die("the metrics' denial series do not add up to the denials");
		if (ch != a->nchanges + a->changes_dropped)
			die("the metrics' policy changes do not add up");
	}
}

/* Seconds of the records' stamps ("audit(S."), at most 64. */
struct stamps {
	time_t s[64];
	unsigned int n;
};

static void find_stamps(const char *p, size_t n, struct stamps *st)
{
	static const char pat[] = "audit(";
	const char *end = p + n;

	st->n = 0;
	while (st->n < 64) {
		const char *h = memmem(p, (size_t)(end - p), pat, sizeof(pat) - 1);
		time_t v = 0;

		if (!h)
			break;
		p = h + sizeof(pat) - 1;
		while (p < end && *p >= '0' && *p <= '9' && v < 100000000000LL)
			v = v * 10 + (*p++ - '0');
		st->s[st->n++] = v;
	}
}

static time_t pick_time(uint64_t *rng, const struct stamps *st)
{
	uint64_t r = next(rng);

	switch (r % 8) {
	case 0:
		return 0;
	case 1:
		return (time_t)INT64_MAX;
	default:
		if (!st->n)
			return (time_t)(r >> 8) % 4000000000LL;
		return st->s[(r >> 8) % st->n] + (time_t)((r >> 40) % 7) - 3;
	}
}

struct run {
	struct ap_agg a;
	struct ap_feed f;
};

/*
 * Feed @n bytes: whole (@rng NULL), or cut at pseudo-random points, aging
 * between chunks when @st is given.
 */
static void feed(struct run *r, uint32_t cap, unsigned int eoe, const char *p, size_t n,
		 uint64_t *rng, const struct stamps *st)
{
	if (ap_agg_init(&r->a, cap))
		die("out of memory (aggregator)");
	/* cap 4: keep 8 changes, so that the oldest are dropped; else all of them. */
	r->a.changes_max = cap == 4 ? 8 : cap;
	if (ap_feed_init(&r->f, &r->a, NULL, 0))
		die("out of memory (libauparse)");
	auparse_set_eoe_timeout((time_t)eoe); /* may be 0, unlike ap_feed_init's */
	if (!rng) {
		ap_feed_bytes(&r->f, p, n);
	} else {
		while (n) {
			uint64_t x = next(rng);
			size_t k, lim[4] = { 3, 64, 1024, n };

			k = (x & 7) == 7 ? 0 : 1 + (size_t)((x >> 8) % lim[(x >> 3) & 3]);
			if (k > n)
				k = n;
			ap_feed_bytes(&r->f, p, k);
			p += k;
			n -= k;
			if (st && (next(rng) & 3) == 0) {
				fake_now = pick_time(rng, st);
				fake_clock = 1;
				ap_feed_age(&r->f);
				fake_clock = 0;
			}
		}
	}
	ap_feed_flush(&r->f);
	check(&r->a);
}

static void done(struct run *r)
{
	ap_feed_free(&r->f);
	ap_agg_free(&r->a);
}

static int str_eq(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

static int change_eq(const struct ap_policy_change *x, const struct ap_policy_change *y)
{
	return x->ms == y->ms && str_eq(x->node, y->node) && x->old_policy == y->old_policy &&
	       x->new_policy == y->new_policy && x->auid == y->auid && x->ses == y->ses &&
	       x->res == y->res && x->writer == y->writer && x->pid == y->pid &&
	       x->uid == y->uid && str_eq(x->comm, y->comm) && str_eq(x->exe, y->exe);
}

/* strcmp() with NULL first. */
static int str_cmp(const char *x, const char *y)
{
	return !x || !y ? (x != NULL) - (y != NULL) : strcmp(x, y);
}

static int cmp_change(const void *a, const void *b)
{
	const struct ap_policy_change *x = &((const struct ap_change *)a)->c;
	const struct ap_policy_change *y = &((const struct ap_change *)b)->c;
	long long k1[9] = { x->ms, x->old_policy, x->new_policy, x->auid, x->ses, x->res,
			    x->writer, x->pid, x->uid };
	long long k2[9] = { y->ms, y->old_policy, y->new_policy, y->auid, y->ses, y->res,
			    y->writer, y->pid, y->uid };
	int r;

	for (int i = 0; i < 9; i++)
		if (k1[i] != k2[i])
			return k1[i] < k2[i] ? -1 : 1;
	r = strcmp(x->node, y->node);
	if (!r)
		r = str_cmp(x->comm, y->comm);
	if (r)
		return r;
	return str_cmp(x->exe, y->exe);
}

/* What every run must agree on, however it was fed. */
static void same_counters(const struct run *x, const struct run *y)
{
	if (x->a.denials != y->a.denials)
		die("denial totals differ");
	if (x->a.first != y->a.first || x->a.last != y->a.last)
		die("first/last denial times differ");
	for (int c = 0; c < AP_API_CLASSES; c++)
		if (x->a.api_first[c] != y->a.api_first[c] || x->a.api_last[c] != y->a.api_last[c])
			die("a class's first/last denial times differ");
	if (x->a.bad_lines != y->a.bad_lines || x->a.malformed != y->a.malformed ||
	    x->a.not_denial != y->a.not_denial)
		die("bad_lines/malformed/not_denial counters differ");
	if (x->a.relay_lost != y->a.relay_lost ||
	    x->a.relay_lost_records != y->a.relay_lost_records ||
	    memcmp(x->a.relay, y->a.relay, sizeof(x->a.relay)))
		die("the relay's counts differ");
	if (x->a.nchanges + x->a.changes_dropped != y->a.nchanges + y->a.changes_dropped)
		die("policy-change totals differ");
	if (x->f.lines != y->f.lines || x->f.fed != y->f.fed)
		die("line or record counts of the feeds differ");
	for (int c = 0; c < AP_API_CLASSES; c++)
		for (int d = 0; d < AP_DIM_COUNT; d++)
			if (ap_agg_ctable(&x->a, c, d)->total != ap_agg_ctable(&y->a, c, d)->total)
				die("a table's total differs");
}

/* R0 vs R1: identical state. */
static void identical(const struct run *x, const struct run *y)
{
	same_counters(x, y);
	if (x->f.done != y->f.done || x->a.nchanges != y->a.nchanges)
		die("chunking changed what libauparse handed back");
	for (size_t i = 0; i < x->a.nchanges; i++)
		if (!change_eq(&x->a.changes[i].c, &y->a.changes[i].c))
			die("chunking changed the policy timeline");
	for (int cd = 0; cd < AP_API_CLASSES * AP_DIM_COUNT; cd++) {
		const struct ap_ss_table *s = ap_agg_ctable(&x->a, cd / AP_DIM_COUNT,
							     cd % AP_DIM_COUNT);
		const struct ap_ss_table *t = ap_agg_ctable(&y->a, cd / AP_DIM_COUNT,
							     cd % AP_DIM_COUNT);

		if (s->n != t->n || s->evicted != t->evicted || s->unstored != t->unstored)
			die("chunking changed a table's shape");
		for (uint32_t i = 0; i < s->n; i++) {
			const struct ap_ss_row *a = &s->rows[i], *b = &t->rows[i];

			if (a->klen != b->klen || memcmp(a->key, b->key, a->klen) ||
			    !str_eq(a->note, b->note) || a->count != b->count ||
			    a->err != b->err || a->first != b->first || a->last != b->last)
				die("chunking changed a table row");
		}
	}
}

/* R0 vs the exact, aged R2 (see the top of the file). */
static void consistent(const struct run *x, const struct run *exact)
{
	same_counters(x, exact);
	if (!x->a.changes_dropped && !exact->a.changes_dropped) {
		size_t n = x->a.nchanges;
		struct ap_change *c1 = malloc((n ? n : 1) * sizeof(*c1));
		struct ap_change *c2 = malloc((n ? n : 1) * sizeof(*c2));

		if (!c1 || !c2)
			die("out of memory (timeline)");
		if (n) {
			memcpy(c1, x->a.changes, n * sizeof(*c1));
			memcpy(c2, exact->a.changes, n * sizeof(*c2));
		}
		qsort(c1, n, sizeof(*c1), cmp_change);
		qsort(c2, n, sizeof(*c2), cmp_change);
		for (size_t i = 0; i < n; i++)
			if (!change_eq(&c1[i].c, &c2[i].c))
				die("aging changed the policy changes (as a set)");
		free(c1);
		free(c2);
	}
	for (int cd = 0; cd < AP_API_CLASSES * AP_DIM_COUNT; cd++) {
		const struct ap_ss_table *s = ap_agg_ctable(&x->a, cd / AP_DIM_COUNT,
							     cd % AP_DIM_COUNT);
		const struct ap_ss_table *t = ap_agg_ctable(&exact->a, cd / AP_DIM_COUNT,
							 cd % AP_DIM_COUNT);
		uint64_t min = UINT64_MAX;

		if (t->evicted || t->unstored)
			die("the exact run evicted (its capacity is too small)");
		if (s->unstored)
			continue; /* an allocation failed in R0: only totals compare */
		if (!s->evicted && s->n != t->n)
			die("aging changed the keys of a table");
		for (uint32_t i = 0; i < s->n; i++) {
			const struct ap_ss_row *a = &s->rows[i];
			const struct ap_ss_row *b = ap_ss_find(t, a->key, a->klen);

			if (a->count < min)
				min = a->count;
			if (!b)
				die("a key counted in R0 is missing from the exact run");
			if (!s->evicted ? a->count != b->count || a->err || a->first != b->first ||
						  a->last != b->last
					: a->count - a->err > b->count || b->count > a->count)
				die("a count differs from the exact count beyond Space-Saving's bound");
		}
		if (s->evicted && s->n == s->cap)
			for (uint32_t i = 0; i < t->n; i++)
				if (!ap_ss_find(s, t->rows[i].key, t->rows[i].klen) &&
				    t->rows[i].count > min)
					die("an unmonitored key occurred more than the table's minimum");
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* time() must be the one libauparse calls: one event, aged at the clock. */
	static const char rec[] =
		"type=UNKNOWN[1350] msg=audit(1000.000:1): usage=execution policy=1 "
		"reason=noexec_mount dev=00:2b ino=5 mode=0100755 ouid=0 ogid=0 "
		"path=\"/x\" ppid=1 pid=9 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 "
		"sgid=0 fsgid=0 tty=(none) ses=1 comm=\"sh\" exe=\"/bin/dash\" res=0\n";
	struct run r;
	uint64_t early, late;

	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		die("cannot open /dev/null");
	if (ap_agg_init(&r.a, 4) || ap_feed_init(&r.f, &r.a, NULL, 5))
		die("out of memory");
	ap_feed_bytes(&r.f, rec, sizeof(rec) - 1);
	fake_clock = 1;
	fake_now = 1004;
	ap_feed_age(&r.f);
	early = r.a.denials;
	fake_now = 1005;
	ap_feed_age(&r.f);
	late = r.a.denials;
	fake_clock = 0;
	done(&r);
	if (early != 0 || late != 1)
		die("libauparse does not age events by this file's time(): the aging path would not be driven");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	struct ap_report_opts o = { .tables = ~0u, .top = 3 };
	struct run r0, r1, r2;
	struct stamps st;
	uint64_t seed = 0, rng;
	unsigned int eoe;
	size_t lines = 1;

	for (size_t i = size >= 8 ? size - 8 : 0; i < size; i++)
		seed = seed << 8 | data[i];
	rng = seed;
	eoe = (unsigned int)(next(&rng) % 4);
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';

	feed(&r0, 4, eoe, p, size, NULL, NULL);
	feed(&r1, 4, eoe, p, size, &rng, NULL);
	identical(&r0, &r1);
	done(&r1);

	find_stamps(p, size, &st);
	/*
	 * At most one denial per line, and a record line has at least 24 bytes
	 * ("type=X msg=audit(0.0:0):") and its newline or the end: this
	 * capacity never evicts.
	 */
	if (lines > size / 25 + 1)
		lines = size / 25 + 1;
	feed(&r2, (uint32_t)lines, eoe, p, size, &rng, &st);
	consistent(&r0, &r2);
	done(&r2);

	ap_report_text(devnull, &r0.a, &o);
	ap_report_json(devnull, &r0.a, &o);
	done(&r0);
	return 0;
}
