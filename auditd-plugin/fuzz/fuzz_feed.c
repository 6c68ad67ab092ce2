// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: arbitrary bytes through the line splitter, libauparse's
 * feed, the record decoder and the bounded aggregator (small capacity so that
 * eviction is exercised), then both report renderers. The invariants of the
 * aggregator are checked after every input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "feed.h"
#include "report.h"

static FILE *devnull;

static void check(const struct tf_agg *a)
{
	for (int d = 0; d < TF_DIM_COUNT; d++) {
		const struct ss_table *t = &a->dim[d];
		uint64_t sum = t->unstored, lower = 0;

		for (uint32_t i = 0; i < t->n; i++) {
			if (t->rows[i].err > t->rows[i].count)
				abort();
			sum += t->rows[i].count;
			lower += t->rows[i].count - t->rows[i].err;
		}
		if (sum != t->total || t->total != a->denials || t->n > t->cap ||
		    lower + ss_other(t) != t->total)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tf_report_opts o = { .tables = ~0u, .top = 3 };
	struct tf_agg a;
	struct tf_feed f;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (tf_agg_init(&a, 4))
		return 0;
	if (tf_feed_init(&f, &a, NULL, 0)) {
		tf_agg_free(&a);
		return 0;
	}
	/* Two chunks: lines split across reads must not matter. */
	tf_feed_bytes(&f, (const char *)data, size / 2);
	tf_feed_bytes(&f, (const char *)data + size / 2, size - size / 2);
	tf_feed_flush(&f);
	tf_feed_free(&f);
	check(&a);
	tf_report_text(devnull, &a, &o);
	tf_report_json(devnull, &a, &o);
	tf_agg_free(&a);
	return 0;
}
