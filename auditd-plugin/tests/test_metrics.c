// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The metrics of the aggregator (metrics.h): label values cut on a UTF-8
 * boundary, the caps, and the counters' round trip through the state file
 * (monotonic across restarts, the timeline's replay not counted twice).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "aggregate.h"
#include "escape.h"
#include "metrics.h"
#include "state.h"

static void denial(struct ap_agg *a, const char *exe, const char *reason, const char *node)
{
	struct ap_denial d = { .ms = 1000, .node = node, .uid = 1000, .auid = 1000 };

	snprintf(d.reason, sizeof(d.reason), "%s", reason);
	snprintf(d.dev, sizeof(d.dev), "00:1a");
	d.path = (char *)"/tmp/x.py";
	d.comm = (char *)"x";
	d.exe = (char *)exe;
	ap_agg_add_denial(a, &d);
}

/* An execve_check refusal, enforced or observed (policy=?, secbits=). */
static void ec_denial(struct ap_agg *a, const char *exe, const char *reason, bool enforced)
{
	struct ap_denial d = { .ms = 2000, .node = "", .uid = 1000, .auid = 1000, .policy = -1,
			       .api = enforced ? AP_API_EC_ENFORCED : AP_API_EC_OBSERVED,
			       .secbits = enforced ? 0x100 : 0 };

	snprintf(d.reason, sizeof(d.reason), "%s", reason);
	snprintf(d.dev, sizeof(d.dev), "00:1a");
	d.path = (char *)"/tmp/y.py";
	d.comm = (char *)"y";
	d.exe = (char *)exe;
	ap_agg_add_denial(a, &d);
}

/* An execve_check refusal logged by trustfor-relay (a type 2650 record). */
static void relay_denial(struct ap_agg *a, const char *exe, const char *reason, bool enforced)
{
	struct ap_denial d = { .ms = 3000, .node = "", .uid = 1000, .auid = 1000, .policy = -1,
			       .api = enforced ? AP_API_EC_ENFORCED : AP_API_EC_OBSERVED,
			       .source = AP_SRC_RELAY, .secbits = enforced ? 0x100 : 0 };

	snprintf(d.reason, sizeof(d.reason), "%s", reason);
	d.path = (char *)"/tmp/z.py";
	d.comm = (char *)"z";
	d.exe = (char *)exe;
	ap_agg_add_denial(a, &d);
}

/* A relay's op=lost record of @n refusals. */
static void relay_lost(struct ap_agg *a, uint64_t n)
{
	struct ap_denial d = { .ms = 3000, .node = "", .source = AP_SRC_RELAY, .lost = n };

	ap_agg_add_lost(a, &d);
}

static void change(struct ap_agg *a, const char *node, int res, int new_policy, int64_t ms)
{
	struct ap_policy_change c = { .ms = ms, .node = node, .old_policy = 0,
				      .new_policy = new_policy, .res = res, .auid = -1,
				      .ses = -1, .pid = -1, .uid = -1 };

	assert_int_equal(ap_agg_add_change(a, &c), 0);
}

static uint64_t series(const struct ap_metrics *m, const char *exe, const char *reason,
		       const char *node)
{
	for (uint32_t i = 0; i < m->denials.n; i++) {
		const char *v[3];

		assert_int_equal(ap_metrics_labels(&m->denials.rows[i], v, 3), 3);
		if (!strcmp(v[0], exe) && !strcmp(v[1], reason) && !strcmp(v[2], node))
			return m->denials.rows[i].count;
	}
	return 0;
}

static char *render(const struct ap_agg *a)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(ap_metrics_write(f, a, NULL), 0);
	fclose(f);
	return text;
}

/* A long name of 2-byte characters is cut before a split character. */
static void test_label_cut(void **s)
{
	char raw[3001], out[AP_METRICS_LABEL_MAX];

	(void)s;
	for (int i = 0; i < 3000; i += 2)
		memcpy(raw + i, "\xc3\xa9", 2);
	raw[3000] = '\0';
	ap_metrics_label(raw, out, sizeof(out));
	assert_true(strlen(out) <= AP_METRICS_LABEL_MAX - 1);
	assert_true(strlen(out) >= AP_METRICS_LABEL_MAX - 3);
	assert_true(tf_utf8_valid(out, strlen(out)));
	/* and an escape sequence never splits into invalid UTF-8 either */
	memset(raw, '\x01', 3000);
	ap_metrics_label(raw, out, sizeof(out));
	assert_true(tf_utf8_valid(out, strlen(out)));
	assert_int_equal(strspn(out, "\\x01"), strlen(out));
}

static void test_caps(void **s)
{
	struct ap_agg a;
	char *text;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	a.metrics.lim.exe = 2;
	a.metrics.lim.node = 1;
	denial(&a, "/usr/bin/a", "file_perm", "n1");
	denial(&a, "/usr/bin/b", "file_perm", "n1");
	denial(&a, "/usr/bin/c", "file_perm", "n1"); /* third exe */
	denial(&a, "/usr/bin/a", "file_perm", "n2"); /* second node */
	denial(&a, "/usr/bin/a", "file_perm", "n1");
	assert_int_equal(series(&a.metrics, "/usr/bin/a", "file_perm", "n1"), 2);
	assert_int_equal(series(&a.metrics, "/usr/bin/b", "file_perm", "n1"), 1);
	assert_int_equal(series(&a.metrics, "other", "file_perm", "n1"), 1);
	assert_int_equal(series(&a.metrics, "/usr/bin/a", "file_perm", "other"), 1);
	assert_int_equal(a.metrics.folded, 2);
	assert_int_equal(a.metrics.exe.n, 2);
	/* a policy change of a node beyond the cap: counted, no policy gauge */
	change(&a, "n9", 1, 3, 5000);
	text = render(&a);
	assert_non_null(strstr(text, "trustfor_policy_changes_total{node=\"other\",result=\"applied\"} 1\n"));
	assert_null(strstr(text, "trustfor_policy{"));
	free(text);
	ap_agg_free(&a);
}

/* Hostile bytes cannot break a line or a quoted value. */
static void test_hostile(void **s)
{
	struct ap_agg a;
	char *text;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	denial(&a, "/x\"}\n y 1\n\\\xff\xe2\x80\xae", "file_perm", "n\r\x7f");
	text = render(&a);
	assert_non_null(strstr(text,
		"trustfor_denials_total{exe=\"/x\\\"}\\\\n y 1\\\\n\\\\\\\\\\\\xff\\\\xe2\\\\x80\\\\xae\","
		"reason=\"file_perm\",node=\"n\\\\r\\\\x7f\",source=\"kernel\",api=\"trusted_for\"} 1\n"));
	for (const char *p = text; *p; p++)
		assert_true(*p == '\n' || (*p >= 0x20 && *p < 0x7f));
	free(text);
	ap_agg_free(&a);
}

/*
 * The api label on every denial series, enforced= on execve_check ones only;
 * the series cap folds exe, reason and node but keeps api and enforced.
 */
static void test_api_labels(void **s)
{
	struct ap_agg a;
	char *text;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	denial(&a, "/usr/bin/perl", "file_perm", "");
	ec_denial(&a, "/usr/bin/perl", "file_perm", true);
	ec_denial(&a, "/usr/bin/perl", "file_perm", false);
	ec_denial(&a, "/usr/bin/perl", "file_perm", false);
	text = render(&a);
	assert_non_null(strstr(text, "trustfor_denials_total{exe=\"/usr/bin/perl\",reason=\"file_perm\",node=\"\",source=\"kernel\",api=\"trusted_for\"} 1\n"));
	assert_non_null(strstr(text, "trustfor_denials_total{exe=\"/usr/bin/perl\",reason=\"file_perm\",node=\"\",source=\"kernel\",api=\"execve_check\",enforced=\"true\"} 1\n"));
	assert_non_null(strstr(text, "trustfor_denials_total{exe=\"/usr/bin/perl\",reason=\"file_perm\",node=\"\",source=\"kernel\",api=\"execve_check\",enforced=\"false\"} 2\n"));
	assert_null(strstr(text, "api=\"trusted_for\",enforced"));
	free(text);
	a.metrics.lim.series = 3;
	ec_denial(&a, "/usr/bin/dash", "lsm", false);
	denial(&a, "/usr/bin/dash", "lsm", "");
	text = render(&a);
	assert_non_null(strstr(text, "trustfor_denials_total{exe=\"other\",reason=\"other\",node=\"other\",source=\"kernel\",api=\"execve_check\",enforced=\"false\"} 1\n"));
	assert_non_null(strstr(text, "trustfor_denials_total{exe=\"other\",reason=\"other\",node=\"other\",source=\"kernel\",api=\"trusted_for\"} 1\n"));
	free(text);
	ap_agg_free(&a);
}

/*
 * The source label on every denial series (kernel: type 1350, relay: type
 * 2650), kept by the series cap's fold; trustfor_lost_total by source, both
 * series always; the relay's records in trustfor_records_total.
 */
static void test_source_labels(void **s)
{
	struct ap_agg a;
	char *text;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	text = render(&a);
	assert_non_null(strstr(text, "\ntrustfor_lost_total{source=\"plugin\"} 0\n"
				     "trustfor_lost_total{source=\"relay\"} 0\n"));
	free(text);
	ec_denial(&a, "/usr/bin/dash", "file_perm", true);
	relay_denial(&a, "/usr/bin/dash", "file_perm", true);
	relay_denial(&a, "/usr/bin/dash", "file_perm", true);
	relay_denial(&a, "/usr/bin/dash", "unknown", false);
	relay_lost(&a, 3);
	relay_lost(&a, 4);
	a.malformed = 2;
	text = render(&a);
	assert_non_null(strstr(text, "trustfor_denials_total{exe=\"/usr/bin/dash\",reason=\"file_perm\",node=\"\",source=\"kernel\",api=\"execve_check\",enforced=\"true\"} 1\n"));
	assert_non_null(strstr(text, "trustfor_denials_total{exe=\"/usr/bin/dash\",reason=\"file_perm\",node=\"\",source=\"relay\",api=\"execve_check\",enforced=\"true\"} 2\n"));
	assert_non_null(strstr(text, "trustfor_denials_total{exe=\"/usr/bin/dash\",reason=\"unknown\",node=\"\",source=\"relay\",api=\"execve_check\",enforced=\"false\"} 1\n"));
	assert_non_null(strstr(text, "\ntrustfor_lost_total{source=\"plugin\"} 0\n"
				     "trustfor_lost_total{source=\"relay\"} 7\n"));
	/* 4 denials, 2 lost records, 2 malformed */
	assert_non_null(strstr(text, "\ntrustfor_records_total 8\n"));
	free(text);
	a.metrics.lim.series = 3;
	relay_denial(&a, "/usr/bin/perl", "lsm", false);
	ec_denial(&a, "/usr/bin/perl", "lsm", false);
	text = render(&a);
	assert_non_null(strstr(text, "trustfor_denials_total{exe=\"other\",reason=\"other\",node=\"other\",source=\"relay\",api=\"execve_check\",enforced=\"false\"} 1\n"));
	assert_non_null(strstr(text, "trustfor_denials_total{exe=\"other\",reason=\"other\",node=\"other\",source=\"kernel\",api=\"execve_check\",enforced=\"false\"} 1\n"));
	free(text);
	ap_agg_free(&a);
}

/* Saved and loaded: the same counters, the timeline not counted twice. */
static void test_state_round_trip(void **s)
{
	char dir[] = "/tmp/tf-metrics-test.XXXXXX", path[128];
	struct ap_agg a, b;
	char *t1, *t2, why[256];

	(void)s;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state.json", dir);
	assert_int_equal(ap_agg_init(&a, 64), 0);
	denial(&a, "/usr/bin/python3.11", "noexec_mount", "");
	denial(&a, "/usr/bin/python3.11", "noexec_mount", "");
	denial(&a, "/usr/bin/dash", "file_perm", "web1");
	ec_denial(&a, "/usr/bin/dash", "write_busy", true);
	ec_denial(&a, "/usr/bin/dash", "write_busy", false);
	relay_denial(&a, "/usr/bin/dash", "write_busy", false);
	relay_lost(&a, 5);
	change(&a, "", 1, 3, 7000);
	change(&a, "web1", 1, 1, 8000);
	change(&a, "web1", 1, 2, 9500);
	change(&a, "web1", 0, 9, 9900);
	assert_int_equal(ap_state_save(&a, path), 0);
	assert_int_equal(ap_state_load(&b, 64, path, why, sizeof(why)), 0);
	t1 = render(&a);
	t2 = render(&b);
	assert_string_equal(t1, t2);
	assert_non_null(strstr(t2, "trustfor_policy_changes_total{node=\"web1\",result=\"applied\"} 2\n"));
	assert_non_null(strstr(t2, "trustfor_policy{node=\"web1\"} 2\n"));
	assert_non_null(strstr(t2, "trustfor_policy_last_change_timestamp_seconds{node=\"web1\"} 9.500\n"));
	/* counting goes on from the loaded values */
	denial(&b, "/usr/bin/python3.11", "noexec_mount", "");
	assert_int_equal(series(&b.metrics, "/usr/bin/python3.11", "noexec_mount", ""), 3);
	assert_non_null(strstr(t2, "trustfor_denials_total{exe=\"/usr/bin/dash\",reason=\"write_busy\",node=\"\",source=\"kernel\",api=\"execve_check\",enforced=\"false\"} 1\n"));
	assert_non_null(strstr(t2, "trustfor_denials_total{exe=\"/usr/bin/dash\",reason=\"write_busy\",node=\"\",source=\"relay\",api=\"execve_check\",enforced=\"false\"} 1\n"));
	assert_non_null(strstr(t2, "trustfor_lost_total{source=\"relay\"} 5\n"));
	free(t1);
	free(t2);
	ap_agg_free(&a);
	ap_agg_free(&b);
	unlink(path);
	rmdir(dir);
}

/* A saved label value with a control character is refused, not written out. */
static void test_state_bad_label(void **s)
{
	char dir[] = "/tmp/tf-metrics-test.XXXXXX", path[128], why[256];
	struct ap_agg a, b;
	FILE *f;
	char *text = NULL, *p;
	size_t len;

	(void)s;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state.json", dir);
	assert_int_equal(ap_agg_init(&a, 64), 0);
	denial(&a, "/usr/bin/AAAAAA", "file_perm", "");
	assert_int_equal(ap_state_save(&a, path), 0);
	ap_agg_free(&a);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_true(getdelim(&text, &len, '\0', f) > 0);
	fclose(f);
	p = strstr(text, "\"exe\":\"\\/usr\\/bin\\/AAAAAA\"");
	assert_non_null(p);
	memcpy(strstr(p, "AAAAAA"), "\\u0001", 6); /* a control byte, same length */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(text);
	assert_int_equal(ap_state_load(&b, 64, path, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "metrics: denial series 0"));
	unlink(path);
	rmdir(dir);
}

/* The atomic save into a directory, and a directory that is not there. */
static void test_save_dir(void **s)
{
	char dir[] = "/tmp/tf-metrics-test.XXXXXX", path[128];
	struct ap_agg a;
	FILE *f;
	char buf[64];

	(void)s;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(ap_agg_init(&a, 64), 0);
	denial(&a, "/usr/bin/perl", "file_perm", "");
	assert_int_equal(ap_metrics_save(dir, &a, NULL), 0);
	snprintf(path, sizeof(path), "%s/" AP_METRICS_FILE, dir);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	assert_int_equal(strncmp(buf, "# HELP trustfor_denials_total ", 30), 0);
	fclose(f);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(ap_metrics_save(path, &a, NULL), -1);
	snprintf(path, sizeof(path), "%s/" AP_METRICS_FILE, dir);
	unlink(path);
	assert_int_equal(rmdir(dir), 0); /* nothing else was left */
	ap_agg_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_cut),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_api_labels),
		cmocka_unit_test(test_source_labels),
		cmocka_unit_test(test_state_round_trip),
		cmocka_unit_test(test_state_bad_label),
		cmocka_unit_test(test_save_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
