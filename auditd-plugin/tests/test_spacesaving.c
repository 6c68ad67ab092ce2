// SPDX-License-Identifier: GPL-2.0-or-later
/* The bounded aggregator: exact totals and bounded rows under 1M distinct keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aggregate.h"
#include "spacesaving.h"

static uint64_t sum_guaranteed(const struct ap_ss_table *t)
{
	uint64_t s = 0;

	for (uint32_t i = 0; i < t->n; i++)
		s += t->rows[i].count - t->rows[i].err;
	return s;
}

static void check_invariants(const struct ap_ss_table *t)
{
	uint64_t sum = 0;

	assert_true(t->n <= t->cap);
	for (uint32_t i = 0; i < t->n; i++) {
		assert_true(t->rows[i].err <= t->rows[i].count);
		assert_true(t->rows[i].klen <= t->key_max);
		sum += t->rows[i].count;
		/* heap order */
		if (t->rows[i].heap > 0) {
			uint32_t parent = t->heap[(t->rows[i].heap - 1) / 2];

			assert_true(t->rows[parent].count <= t->rows[i].count);
		}
		assert_int_equal(t->heap[t->rows[i].heap], i);
		assert_ptr_equal(ap_ss_find(t, t->rows[i].key, t->rows[i].klen), &t->rows[i]);
	}
	assert_int_equal(sum + t->unstored, t->total);
	/* rows (lower bounds) + other == total, exactly */
	assert_int_equal(sum_guaranteed(t) + ap_ss_other(t), t->total);
}

static void test_exact_below_capacity(void **s)
{
	struct ap_ss_table t;
	char k[32];

	(void)s;
	assert_int_equal(ap_ss_init(&t, 100, 64), 0);
	for (int i = 0; i < 100; i++)
		for (int j = 0; j <= i; j++) {
			snprintf(k, sizeof(k), "key%d", i);
			ap_ss_add(&t, k, strlen(k), NULL, 1, i * 1000 + j);
		}
	check_invariants(&t);
	assert_int_equal(t.evicted, 0);
	assert_int_equal(ap_ss_other(&t), 0);
	for (int i = 0; i < 100; i++) {
		const struct ap_ss_row *r;

		snprintf(k, sizeof(k), "key%d", i);
		r = ap_ss_find(&t, k, strlen(k));
		assert_non_null(r);
		assert_int_equal(r->count, i + 1);
		assert_int_equal(r->err, 0);
		assert_int_equal(r->first, i * 1000);
		assert_int_equal(r->last, i * 1000 + i);
	}
	ap_ss_free(&t);
}

/*
 * 1M distinct file names (an attacker's flood) interleaved with three real
 * heavy hitters: the table stays at its cap, the total stays exact, and the
 * heavy hitters are found with a guaranteed count that is never more than
 * the truth (Space-Saving: count - err <= true <= count).
 */
static void test_million_distinct_keys(void **s)
{
	enum { CAP = 1024, FLOOD = 1000000 };
	struct ap_agg a;
	struct ap_denial d = { .reason = "noexec_mount", .dev = "00:1a", .node = "" };
	uint64_t heavy[3] = { 0 };
	static const char *const hh[3] = { "/srv/app/run.py", "/srv/app/job.sh", "/home/x/a.pl" };
	char path[64];
	size_t key_bytes = 0;

	(void)s;
	assert_int_equal(ap_agg_init(&a, CAP), 0);
	d.comm = "python3";
	d.exe = "/usr/bin/python3";
	for (uint32_t i = 0; i < FLOOD; i++) {
		d.ms = 1000 + i;
		d.uid = i % 7;
		snprintf(path, sizeof(path), "/tmp/flood/%08x", i * 2654435761u);
		d.path = path;
		ap_agg_add_denial(&a, &d);
		if (i % 10 == 0) {
			int h = (i / 10) % 3;

			d.path = (char *)hh[h];
			ap_agg_add_denial(&a, &d);
			heavy[h]++;
		}
	}
	const uint64_t total = FLOOD + heavy[0] + heavy[1] + heavy[2];

	assert_int_equal(a.denials, total);
	for (int dim = 0; dim < AP_DIM_COUNT; dim++) {
		assert_int_equal(a.dim[dim].total, total);
		check_invariants(&a.dim[dim]);
	}
	/* Bounded: at most CAP rows, so at most CAP keys of key_max bytes. */
	assert_int_equal(a.dim[AP_DIM_FILE].n, CAP);
	for (uint32_t i = 0; i < a.dim[AP_DIM_FILE].n; i++)
		key_bytes += a.dim[AP_DIM_FILE].rows[i].klen + 1;
	assert_true(key_bytes <= (size_t)CAP * 64);
	assert_true(a.dim[AP_DIM_FILE].evicted >= FLOOD - CAP);
	for (int h = 0; h < 3; h++) {
		const struct ap_ss_row *r = ap_ss_find(&a.dim[AP_DIM_FILE], hh[h], strlen(hh[h]));

		assert_non_null(r);
		assert_true(r->count - r->err <= heavy[h]);
		assert_true(r->count >= heavy[h]);
	}
	/* Small dimensions stay exact. */
	assert_int_equal(a.dim[AP_DIM_USER].n, 7);
	assert_int_equal(ap_ss_other(&a.dim[AP_DIM_USER]), 0);
	assert_int_equal(ap_ss_find(&a.dim[AP_DIM_INTERP], "/usr/bin/python3", 16)->count, total);
	ap_agg_free(&a);
}

static void test_eviction_and_other(void **s)
{
	struct ap_ss_table t;

	(void)s;
	assert_int_equal(ap_ss_init(&t, 2, 16), 0);
	ap_ss_add(&t, "a", 1, NULL, 5, 1);
	ap_ss_add(&t, "b", 1, NULL, 2, 2);
	ap_ss_add(&t, "c", 1, NULL, 1, 3); /* evicts b (2): c = 3, err 2 */
	check_invariants(&t);
	assert_null(ap_ss_find(&t, "b", 1));
	assert_int_equal(ap_ss_find(&t, "c", 1)->count, 3);
	assert_int_equal(ap_ss_find(&t, "c", 1)->err, 2);
	assert_int_equal(ap_ss_other(&t), 2);
	assert_int_equal(t.total, 8);
	ap_ss_add(&t, "b", 1, NULL, 1, 4); /* evicts c (3): b = 4, err 3 */
	check_invariants(&t);
	assert_int_equal(ap_ss_find(&t, "b", 1)->err, 3);
	assert_int_equal(ap_ss_other(&t), 3);
	assert_int_equal(ap_ss_find(&t, "a", 1)->count, 5);
	ap_ss_free(&t);
}

static void test_long_and_binary_keys(void **s)
{
	struct ap_ss_table t;
	char big[100];
	static const char bin[] = { 'a', '\0', 'b' };

	(void)s;
	memset(big, 'x', sizeof(big));
	assert_int_equal(ap_ss_init(&t, 4, 32), 0);
	ap_ss_add(&t, big, sizeof(big), NULL, 1, 0);
	ap_ss_add(&t, big, 40, NULL, 1, 0); /* same first 32 bytes: same row */
	assert_int_equal(t.n, 1);
	assert_int_equal(t.rows[0].klen, 32);
	assert_int_equal(t.rows[0].count, 2);
	ap_ss_add(&t, bin, 3, NULL, 1, 0);
	ap_ss_add(&t, "a", 1, NULL, 1, 0);
	assert_int_equal(t.n, 3);
	assert_int_equal(ap_ss_find(&t, bin, 3)->count, 1);
	check_invariants(&t);
	ap_ss_free(&t);
}

static void test_sorted(void **s)
{
	struct ap_ss_table t;
	uint32_t *idx;

	(void)s;
	assert_int_equal(ap_ss_init(&t, 8, 16), 0);
	ap_ss_add(&t, "low", 3, NULL, 1, 0);
	ap_ss_add(&t, "high", 4, NULL, 9, 0);
	ap_ss_add(&t, "mid", 3, NULL, 4, 0);
	idx = ap_ss_sorted(&t);
	assert_non_null(idx);
	assert_string_equal(t.rows[idx[0]].key, "high");
	assert_string_equal(t.rows[idx[1]].key, "mid");
	assert_string_equal(t.rows[idx[2]].key, "low");
	free(idx);
	ap_ss_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_below_capacity),
		cmocka_unit_test(test_eviction_and_other),
		cmocka_unit_test(test_long_and_binary_keys),
		cmocka_unit_test(test_sorted),
		cmocka_unit_test(test_million_distinct_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
