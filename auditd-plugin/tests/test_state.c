// SPDX-License-Identifier: GPL-2.0-or-later
/* State file round trip (json-c, atomic write) and the plugin config file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "state.h"
#include "scratch.h"

/* Loading @path fails with EPROTO, @why_has in the reason. */
static void want_refused(const char *why_has)
{
	struct ap_agg a;
	char why[256];

	assert_int_equal(ap_state_load(&a, 64, path, why, sizeof(why)), -1);
	assert_int_equal(errno, EPROTO);
	if (!strstr(why, why_has))
		fail_msg("refused for \"%s\", want \"%s\"", why, why_has);
}

static int count_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void fill(struct ap_agg *a)
{
	struct ap_denial d = { .reason = "noexec_mount", .dev = "00:1a", .uid = 1000,
			       .auid = -1 };
	struct ap_policy_change c = { .ms = 5, .old_policy = 0, .new_policy = 3,
				      .auid = 1000, .ses = 2, .res = 1, .node = "web\x1b",
				      .writer = true, .pid = 77, .uid = -1, .comm = "sys\nctl",
				      .exe = "/sbin/\xffsysctl" };
	char name[64];

	for (int i = 0; i < 40; i++) {
		d.ms = 1000 + i;
		d.node = i % 2 ? "web1" : "";
		d.exe = "/usr/bin/python3";
		d.comm = "py\nthon";
		snprintf(name, sizeof(name), "/tmp/n\xff\x01%d", i % 20); /* not UTF-8 */
		d.path = name;
		ap_agg_add_denial(a, &d);
	}
	ap_agg_add_change(a, &c);
	c.new_policy = -1;
	c.res = 0;
	c.node = "";
	c.writer = false; /* a record of the previous kernel */
	c.pid = c.uid = -1;
	c.comm = c.exe = NULL;
	ap_agg_add_change(a, &c);
	a->bad_lines = 3;
	a->malformed = 2;
	a->not_denial = 1;
}

static void assert_same_table(const struct ap_ss_table *x, const struct ap_ss_table *y)
{
	assert_int_equal(x->n, y->n);
	assert_int_equal(x->total, y->total);
	assert_int_equal(x->evicted, y->evicted);
	assert_int_equal(x->unstored, y->unstored);
	for (uint32_t i = 0; i < x->n; i++) {
		const struct ap_ss_row *a = &x->rows[i];
		const struct ap_ss_row *b = ap_ss_find(y, a->key, a->klen);

		assert_non_null(b);
		assert_int_equal(a->count, b->count);
		assert_int_equal(a->err, b->err);
		assert_int_equal(a->first, b->first);
		assert_int_equal(a->last, b->last);
		if (a->note)
			assert_string_equal(a->note, b->note);
		else
			assert_null(b->note);
	}
}

static void test_round_trip(void **s)
{
	struct ap_agg a, b;
	char why[256];
	struct stat st;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 16), 0); /* 20 paths: evictions happen */
	fill(&a);
	assert_true(a.dim[AP_DIM_FILE].evicted > 0);
	assert_int_equal(ap_state_save(&a, path), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(count_files(), 1); /* no temporary file left */
	assert_int_equal(ap_state_load(&b, 16, path, why, sizeof(why)), 0);
	assert_int_equal(b.denials, a.denials);
	assert_int_equal(b.first, a.first);
	assert_int_equal(b.last, a.last);
	assert_int_equal(b.bad_lines, 3);
	assert_int_equal(b.malformed, 2);
	assert_int_equal(b.not_denial, 1);
	for (int d = 0; d < AP_DIM_COUNT; d++)
		assert_same_table(&a.dim[d], &b.dim[d]);
	assert_int_equal(b.nchanges, 2);
	assert_string_equal(b.changes[0].node, "web\x1b");
	assert_int_equal(b.changes[0].c.new_policy, 3);
	assert_int_equal(b.changes[1].c.new_policy, -1);
	assert_int_equal(b.changes[1].c.res, 0);
	assert_true(b.changes[0].c.writer);
	assert_int_equal(b.changes[0].c.pid, 77);
	assert_int_equal(b.changes[0].c.uid, -1);
	assert_int_equal(b.changes[0].c.auid, 1000);
	assert_string_equal(b.changes[0].c.comm, "sys\nctl");
	assert_string_equal(b.changes[0].c.exe, "/sbin/\xffsysctl");
	assert_false(b.changes[1].c.writer);
	assert_null(b.changes[1].c.comm);
	assert_null(b.changes[1].c.exe);
	/* Counting goes on from the loaded state. */
	ap_agg_free(&a);
	assert_int_equal(ap_agg_init(&a, 16), 0);
	fill(&a);
	fill(&b);
	assert_int_equal(b.denials, 2 * a.denials);
	ap_agg_free(&a);
	ap_agg_free(&b);
}

static void test_missing_and_corrupt(void **s)
{
	struct ap_agg a;
	char why[256];

	(void)s;
	unlink(path);
	assert_int_equal(ap_state_load(&a, 16, path, why, sizeof(why)), -1);
	assert_int_equal(errno, ENOENT);

	write_file("{\"version\":1,\"denials\":");
	want_refused("not JSON");

	write_file("{\"version\":7}");
	want_refused("version 7");
}

/* A state whose rows do not add up to its totals is refused, not trusted. */
static void test_inconsistent_totals(void **s)
{
	struct ap_agg a;
	char *text, *p;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	fill(&a);
	assert_int_equal(ap_state_save(&a, path), 0);
	ap_agg_free(&a);
	text = slurp(path);
	p = strstr(text, "\"denials\":40");
	assert_non_null(p);
	memcpy(p, "\"denials\":41", 12);
	write_file(text);
	free(text);
	want_refused("total differs");
}

/* A state of one policy change, @change the object's text. */
static void write_change(const char *change)
{
	char text[2048], tail[512];

	snprintf(tail, sizeof(tail), "\"policy_changes\":[%s]", change);
	write_file(old_state(text, sizeof(text), 2, 0, 0, 0, NULL, tail));
}

/* Issue 11: each class's tables and time range survive a save and a load. */
static void test_api_classes_round_trip(void **s)
{
	struct ap_agg a, b;
	char why[256];

	(void)s;
	assert_int_equal(ap_agg_init(&a, 16), 0);
	fill(&a); /* trusted_for */
	for (int i = 0; i < 7; i++) {
		struct ap_denial d = { .ms = 5000 + i, .node = "", .uid = 1, .auid = -1,
				       .policy = -1, .api = i % 3 ? AP_API_EC_OBSERVED :
								    AP_API_EC_ENFORCED };

		snprintf(d.reason, sizeof(d.reason), "%s", i % 2 ? "write_busy" : "lsm");
		snprintf(d.dev, sizeof(d.dev), "00:2%d", i);
		d.path = (char *)"/tmp/ec.py";
		d.comm = (char *)"dash";
		d.exe = (char *)"/usr/bin/dash";
		ap_agg_add_denial(&a, &d);
	}
	assert_int_equal(ap_state_save(&a, path), 0);
	assert_int_equal(ap_state_load(&b, 16, path, why, sizeof(why)), 0);
	assert_int_equal(b.denials, a.denials);
	for (int c = 0; c < AP_API_CLASSES; c++) {
		for (int d = 0; d < AP_DIM_COUNT; d++)
			assert_same_table(ap_agg_ctable(&a, c, d), ap_agg_ctable(&b, c, d));
		assert_int_equal(a.api_first[c], b.api_first[c]);
		assert_int_equal(a.api_last[c], b.api_last[c]);
	}
	/* i = 0, 3, 6 enforced; 1, 2, 4, 5 observed */
	assert_int_equal(ap_agg_ctable(&b, AP_API_EC_ENFORCED, AP_DIM_MOUNT)->total, 3);
	assert_int_equal(ap_agg_ctable(&b, AP_API_EC_OBSERVED, AP_DIM_MOUNT)->total, 4);
	assert_int_equal(b.api_first[AP_API_EC_OBSERVED], 5001);
	assert_int_equal(b.api_last[AP_API_EC_ENFORCED], 5006);
	ap_agg_free(&a);
	ap_agg_free(&b);
}

/* The count of the metrics denial series whose source label is @source, and their number. */
static uint64_t source_series(const struct ap_metrics *m, const char *source, uint32_t *n)
{
	uint64_t sum = 0;

	*n = 0;
	for (uint32_t i = 0; i < m->denials.n; i++) {
		const char *v[AP_METRICS_NDL];

		assert_int_equal(ap_metrics_labels(&m->denials.rows[i], v, AP_METRICS_NDL),
				 AP_METRICS_NDL);
		if (!strcmp(v[3], source)) {
			sum += m->denials.rows[i].count;
			++*n;
		}
	}
	return sum;
}

/* A refusal of class @c logged by @source. */
static void add_source(struct ap_agg *a, enum ap_api_class c, enum ap_source source)
{
	struct ap_denial d = { .ms = 7000, .node = "", .uid = 1000, .auid = 1000, .policy = -1,
			       .api = c, .source = source, .reason = "unknown",
			       .path = (char *)"/srv/run.py", .comm = (char *)"py",
			       .exe = (char *)"/usr/bin/python3" };

	ap_agg_add_denial(a, &d);
}

/*
 * Who logged each denial (the kernel, or trustfor-relay) and the refusals
 * the relay lost survive a save and a load, in the tables' counts and in
 * the metrics' source label, and counting goes on from them.
 */
static void test_relay_round_trip(void **s)
{
	struct ap_denial lost = { .ms = 7000, .node = "", .source = AP_SRC_RELAY, .lost = 6 };
	struct ap_agg a, b;
	char why[256];
	uint32_t n;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 16), 0);
	fill(&a); /* 40 trusted_for, the kernel's */
	add_source(&a, AP_API_EC_ENFORCED, AP_SRC_KERNEL);
	add_source(&a, AP_API_EC_ENFORCED, AP_SRC_RELAY);
	add_source(&a, AP_API_EC_OBSERVED, AP_SRC_RELAY);
	add_source(&a, AP_API_EC_OBSERVED, AP_SRC_RELAY);
	ap_agg_add_lost(&a, &lost);
	lost.lost = 1;
	ap_agg_add_lost(&a, &lost);
	assert_int_equal(ap_state_save(&a, path), 0);
	ap_agg_free(&a);
	if (ap_state_load(&b, 16, path, why, sizeof(why)))
		fail_msg("refused: %s", why);
	assert_int_equal(b.denials, 44);
	assert_int_equal(ap_agg_source(&b, AP_API_TRUSTED_FOR, AP_SRC_KERNEL), 40);
	assert_int_equal(ap_agg_source(&b, AP_API_TRUSTED_FOR, AP_SRC_RELAY), 0);
	assert_int_equal(ap_agg_source(&b, AP_API_EC_ENFORCED, AP_SRC_KERNEL), 1);
	assert_int_equal(ap_agg_source(&b, AP_API_EC_ENFORCED, AP_SRC_RELAY), 1);
	assert_int_equal(ap_agg_source(&b, AP_API_EC_OBSERVED, AP_SRC_KERNEL), 0);
	assert_int_equal(ap_agg_source(&b, AP_API_EC_OBSERVED, AP_SRC_RELAY), 2);
	assert_int_equal(b.relay_lost, 7);
	assert_int_equal(b.relay_lost_records, 2);
	assert_int_equal(source_series(&b.metrics, "relay", &n), 3);
	assert_int_equal(n, 2); /* enforced and observed */
	assert_int_equal(source_series(&b.metrics, "kernel", &n), 41);
	add_source(&b, AP_API_EC_OBSERVED, AP_SRC_RELAY);
	assert_int_equal(ap_agg_source(&b, AP_API_EC_OBSERVED, AP_SRC_RELAY), 3);
	assert_int_equal(source_series(&b.metrics, "relay", &n), 4);
	assert_int_equal(n, 2); /* the saved series goes on */
	ap_agg_free(&b);
}

/*
 * A state written before the relay (auditd-plugin/tests/data/
 * state-v3-before-relay.json: the plugin of commit cadd8d7 fed
 * tests/data/audit-execve-check.log, whose 9 refusals are 2 trusted_for, 3
 * execve_check enforced and 4 observed, and 3 malformed records) loads with
 * every denial the kernel's, nothing lost, every metrics series source
 * "kernel"; the next kernel refusal joins its series, a relay one does not.
 */
static void test_state_before_relay(void **s)
{
	static const char dash[] = "/usr/local/bin/trusted-dash";
	char file[512], why[256];
	struct ap_agg a;
	uint32_t n, before;

	(void)s;
	snprintf(file, sizeof(file), "%s/state-v3-before-relay.json", AP_DATA_DIR);
	if (ap_state_load(&a, 16, file, why, sizeof(why)))
		fail_msg("refused: %s", why);
	assert_int_equal(a.denials, 9);
	assert_int_equal(a.malformed, 3);
	assert_int_equal(ap_agg_source(&a, AP_API_TRUSTED_FOR, AP_SRC_KERNEL), 2);
	assert_int_equal(ap_agg_source(&a, AP_API_EC_ENFORCED, AP_SRC_KERNEL), 3);
	assert_int_equal(ap_agg_source(&a, AP_API_EC_OBSERVED, AP_SRC_KERNEL), 4);
	for (int c = 0; c < AP_API_CLASSES; c++)
		assert_int_equal(ap_agg_source(&a, c, AP_SRC_RELAY), 0);
	assert_int_equal(a.relay_lost, 0);
	assert_int_equal(a.relay_lost_records, 0);
	assert_int_equal(source_series(&a.metrics, "kernel", &before), 9);
	assert_int_equal(before, a.metrics.denials.n);
	/* trusted-dash's observed pseudo_fs series: the kernel's */
	assert_int_equal(ap_metrics_denial(&a.metrics, dash, "pseudo_fs", "", AP_API_EC_OBSERVED,
					   AP_SRC_KERNEL), 0);
	assert_int_equal(source_series(&a.metrics, "kernel", &n), 10);
	assert_int_equal(n, before);
	assert_int_equal(ap_metrics_denial(&a.metrics, dash, "pseudo_fs", "", AP_API_EC_OBSERVED,
					   AP_SRC_RELAY), 0);
	assert_int_equal(source_series(&a.metrics, "relay", &n), 1);
	assert_int_equal(a.metrics.denials.n, before + 1);
	ap_agg_free(&a);
}

/* A state whose relay counts cannot be true is refused. */
static void test_relay_refused(void **s)
{
	struct ap_agg a;
	char *text, *p;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 16), 0);
	add_source(&a, AP_API_EC_OBSERVED, AP_SRC_RELAY);
	assert_int_equal(ap_state_save(&a, path), 0);
	ap_agg_free(&a);
	text = slurp(path);
	p = strstr(text, "\"relay\":1");
	assert_non_null(p);
	p[8] = '2'; /* more relay denials than the class has */
	write_file(text);
	want_refused("\"relay\" exceeds its denials");
	p[8] = '1';
	p = strstr(text, "\"source\":\"relay\"");
	assert_non_null(p);
	memcpy(p + 10, "RELAY", 5);
	write_file(text);
	want_refused("metrics: denial series 0");
	free(text);
}

/* A version 2 state (before issue 11): every denial is trusted_for. */
static const char *plain_key(int d)
{
	(void)d;
	return "\"key\":\"k\"";
}

static void test_version2_is_trusted_for(void **s)
{
	char text[4096], why[256];
	struct ap_agg a;

	(void)s;
	old_state(text, sizeof(text), 2, 2, 10, 20, plain_key,
		  "\"policy_changes\":[],\"metrics\":{\"folded\":0,\"denials\":[{\"exe\":"
		  "\"/x\",\"reason\":\"file_perm\",\"node\":\"\",\"count\":2}],"
		  "\"changes\":[],\"policy\":[]}");
	write_file(text);
	assert_int_equal(ap_state_load(&a, 16, path, why, sizeof(why)), 0);
	assert_int_equal(ap_agg_ctable(&a, AP_API_TRUSTED_FOR, AP_DIM_INTERP)->total, 2);
	assert_int_equal(ap_agg_ctable(&a, AP_API_EC_ENFORCED, AP_DIM_INTERP)->total, 0);
	assert_int_equal(ap_agg_ctable(&a, AP_API_EC_OBSERVED, AP_DIM_INTERP)->total, 0);
	assert_int_equal(a.api_first[AP_API_TRUSTED_FOR], 10);
	assert_int_equal(a.api_last[AP_API_TRUSTED_FOR], 20);
	/* the saved series is trusted_for's: the next trusted_for hit joins it */
	assert_int_equal(a.metrics.denials.n, 1);
	assert_int_equal(ap_metrics_denial(&a.metrics, "/x", "file_perm", "", AP_API_TRUSTED_FOR,
					   AP_SRC_KERNEL), 0);
	assert_int_equal(a.metrics.denials.n, 1);
	assert_int_equal(a.metrics.denials.rows[0].count, 3);
	ap_agg_free(&a);
	/* a version 3 state without "classes" is refused */
	memcpy(strstr(text, "\"version\":2"), "\"version\":3", 11);
	write_file(text);
	want_refused("classes");
}

/*
 * A change saved before the writer was kept loads with the writer unknown;
 * a writer missing its comm or exe is refused.
 */
static void test_change_writer_keys(void **s)
{
	struct ap_agg a;
	char why[256];

	(void)s;
	write_change("{\"time\":5,\"key\":\"\",\"old\":0,\"new\":3,\"auid\":1000,"
		     "\"ses\":2,\"res\":1}");
	if (ap_state_load(&a, 16, path, why, sizeof(why)))
		fail_msg("change without writer refused: %s", why);
	assert_int_equal(a.nchanges, 1);
	assert_false(a.changes[0].c.writer);
	assert_int_equal(a.changes[0].c.pid, -1);
	assert_null(a.changes[0].c.exe);
	ap_agg_free(&a);

	write_change("{\"time\":5,\"key\":\"\",\"old\":0,\"new\":3,\"auid\":1000,"
		     "\"ses\":2,\"res\":1,\"pid\":9,\"uid\":0,\"exe\":\"/bin/sh\"}");
	want_refused("no \"comm\" or \"exe\"");

	write_change("{\"time\":5,\"key\":\"\",\"old\":0,\"new\":3,\"auid\":1000,"
		     "\"ses\":2,\"res\":1,\"pid\":9,\"uid\":0,\"comm\":\"sh\","
		     "\"exe_hex\":\"2f62696e2f7\"}");
	want_refused("exe_hex");
}

static void test_save_into_missing_dir(void **s)
{
	struct ap_agg a;
	char bad[300];

	(void)s;
	snprintf(bad, sizeof(bad), "%s/no/such/dir/state.json", dir);
	assert_int_equal(ap_agg_init(&a, 16), 0);
	assert_int_equal(ap_state_save(&a, bad), -1);
	assert_int_equal(errno, ENOENT);
	ap_agg_free(&a);
}

static void write_conf(const char *text)
{
	write_file(text); /* reuses path: the config test does not need a state */
}

static void test_config(void **s)
{
	struct ap_config c;
	char err[512];

	(void)s;
	ap_config_defaults(&c);
	assert_int_equal(c.save_interval, 60);
	assert_string_equal(c.state_file, AP_STATE_PATH);
	write_conf("# comment\n\nstate_file = /var/tmp/s.json\nsave_interval=5\n capacity = 128 \n");
	assert_int_equal(ap_config_load(&c, path, 1, err, sizeof(err)), 0);
	assert_string_equal(c.state_file, "/var/tmp/s.json");
	assert_int_equal(c.save_interval, 5);
	assert_int_equal(c.capacity, 128);

	/* A bad file names the line and changes nothing. */
	write_conf("save_interval = 7\nsave_interval = 0\n");
	assert_int_equal(ap_config_load(&c, path, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":2: save_interval must be"));
	assert_int_equal(c.save_interval, 5);
	write_conf("colour = blue\n");
	assert_int_equal(ap_config_load(&c, path, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown key \"colour\""));
	write_conf("state_file = relative.json\n");
	assert_int_equal(ap_config_load(&c, path, 1, err, sizeof(err)), -1);
	write_conf("capacity = 12abc\n");
	assert_int_equal(ap_config_load(&c, path, 1, err, sizeof(err)), -1);
	unlink(path);
	assert_int_equal(ap_config_load(&c, path, 0, err, sizeof(err)), 0);
	assert_int_equal(ap_config_load(&c, path, 1, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_api_classes_round_trip),
		cmocka_unit_test(test_version2_is_trusted_for),
		cmocka_unit_test(test_relay_round_trip),
		cmocka_unit_test(test_state_before_relay),
		cmocka_unit_test(test_relay_refused),
		cmocka_unit_test(test_missing_and_corrupt),
		cmocka_unit_test(test_inconsistent_totals),
		cmocka_unit_test(test_change_writer_keys),
		cmocka_unit_test(test_save_into_missing_dir),
		cmocka_unit_test(test_config),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
