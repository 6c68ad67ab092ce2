// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hostile names in the plugin's outputs: `report --json` and the state file
 * follow lib/tfjson.h's convention (KEY text + KEY_hex exact bytes), the text
 * report shows them escaped (lib/escape.h). Expected values written by hand.
 */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "aggregate.h"
#include "escape.h"
#include "report.h"
#include "state.h"
#include "../../tests/lib/json_checks.h"
#include "scratch.h"

/* U+202E in the exe, an invalid byte in comm and path, U+2066 in the path,
 * U+200B in the node, ESC in the policy change's node.
 */
#define EXE "/usr/bin/py\xe2\x80\xaeth"
#define EXE_TEXT "/usr/bin/py\xe2\x80\xaeth"
#define EXE_HEX "2f7573722f62696e2f7079e280ae7468"
#define COMM "ev\xffil"
#define COMM_TEXT "ev\xef\xbf\xbdil"
#define COMM_HEX "6576ff696c"
#define PATH "/srv/in\xe2\x81\xa6voice\xff.sh"
#define PATH_TEXT "/srv/in\xe2\x81\xa6voice\xef\xbf\xbd.sh"
#define PATH_HEX "2f7372762f696ee281a6766f696365ff2e7368"
#define NODE "host\xe2\x80\x8b"
#define NODE_HEX "686f7374e2808b"
#define CNODE "n\x1b"
#define CNODE_HEX "6e1b"
/* The policy writer: ESC and an invalid byte in comm, U+2067 in exe. */
#define WCOMM "set\x1b]0;\xfe"
#define WCOMM_TEXT "set\x1b]0;\xef\xbf\xbd"
#define WCOMM_HEX "7365741b5d303bfe"
#define WEXE "/tmp/po\xe2\x81\xa7l"
#define WEXE_HEX "2f746d702f706fe281a76c"

static void fill(struct ap_agg *a)
{
	struct ap_denial d = { .ms = 1000, .reason = "file_perm", .dev = "00:1a",
			       .uid = 0, .auid = -1, .node = NODE, .exe = EXE,
			       .comm = COMM, .path = PATH };
	struct ap_policy_change c = { .ms = 5, .old_policy = 0, .new_policy = 3,
				      .auid = 0, .ses = 1, .res = 1, .node = CNODE,
				      .writer = true, .pid = 4321, .uid = 0,
				      .comm = WCOMM, .exe = WEXE };
	struct ap_policy_change prev = { .ms = 6, .old_policy = 3, .new_policy = -1,
					 .auid = 1000, .ses = 2, .res = 0, .node = "",
					 .pid = -1, .uid = -1 };

	assert_int_equal(ap_agg_init(a, 16), 0);
	ap_agg_add_denial(a, &d);
	d.ms = 2000;
	d.node = "web1";
	d.exe = "/usr/bin/python3";
	d.comm = "python3";
	d.path = "/srv/ok.py";
	ap_agg_add_denial(a, &d);
	assert_int_equal(ap_agg_add_change(a, &c), 0);
	/* a record of the previous kernel: the writer is unknown */
	assert_int_equal(ap_agg_add_change(a, &prev), 0);
}

/*
 * json-c out of memory: json_object_object_add() and json_object_array_add()
 * interposed here fail at the fail_at-th call (0: never), as json-c does
 * when it cannot grow a table, leaving the value to the caller. Under ASan,
 * LeakSanitizer fails the test binary if an error path drops a value.
 */
static int fail_at, add_calls;

static bool add_fails(void)
{
	return fail_at && ++add_calls == fail_at;
}

int json_object_object_add(json_object *o, const char *key, json_object *v)
{
	static int (*real)(json_object *, const char *, json_object *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "json_object_object_add");
	return add_fails() ? -1 : real(o, key, v);
}

int json_object_array_add(json_object *arr, json_object *v)
{
	static int (*real)(json_object *, json_object *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "json_object_array_add");
	return add_fails() ? -1 : real(arr, v);
}

static char *capture_report(const struct ap_agg *a, bool json)
{
	struct ap_report_opts o = { .tables = (1u << (AP_TABLE_POLICY + 1)) - 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (json)
		assert_int_equal(ap_report_json(f, a, &o), 0);
	else
		ap_report_text(f, a, &o);
	fclose(f);
	return text;
}

static json_object *row_by_name(json_object *root, const char *table, const char *name)
{
	json_object *t, *rows, *v;

	assert_true(json_object_object_get_ex(root, "tables", &t));
	assert_true(json_object_object_get_ex(t, table, &t));
	assert_true(json_object_object_get_ex(t, "rows", &rows));
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);

		if (json_object_object_get_ex(r, "name", &v) &&
		    !strcmp(json_object_get_string(v), name))
			return r;
	}
	fail_msg("no row \"%s\" in table %s", name, table);
	return NULL;
}

static void test_report_json(void **state)
{
	struct ap_agg a;
	char *text;
	json_object *root, *r, *ch, *prev;

	(void)state;
	fill(&a);
	text = capture_report(&a, true);
	assert_terminal_safe(text);
	/* hidden code points written as \u escapes */
	assert_non_null(strstr(text, "\"name\":\"/usr/bin/py\\u202eth\""));
	assert_non_null(strstr(text, "\\u2066voice"));
	root = json_tokener_parse(text);
	assert_non_null(root);

	r = row_by_name(root, "interpreter", EXE_TEXT);
	want_field(r, "name_hex", EXE_HEX);
	want_field(r, "comm", COMM_TEXT);
	want_field(r, "comm_hex", COMM_HEX);
	r = row_by_name(root, "interpreter", "/usr/bin/python3");
	assert_null(field(r, "name_hex"));
	want_field(r, "comm", "python3");
	assert_null(field(r, "comm_hex"));

	r = row_by_name(root, "file", PATH_TEXT);
	want_field(r, "name_hex", PATH_HEX);
	r = row_by_name(root, "file", "/srv/ok.py");
	assert_null(field(r, "name_hex"));

	r = row_by_name(root, "node", NODE);
	want_field(r, "name_hex", NODE_HEX);
	r = row_by_name(root, "node", "web1");
	assert_null(field(r, "name_hex"));

	assert_true(json_object_object_get_ex(root, "policy_changes", &ch));
	assert_int_equal(json_object_array_length(ch), 2);
	prev = json_object_array_get_idx(ch, 1);
	ch = json_object_array_get_idx(ch, 0);
	want_field(ch, "node", CNODE);
	want_field(ch, "node_hex", CNODE_HEX);
	/* the writer, by the same convention */
	want_field(ch, "pid", "4321");
	want_field(ch, "uid", "0");
	want_field(ch, "auid", "0");
	want_field(ch, "comm", WCOMM_TEXT);
	want_field(ch, "comm_hex", WCOMM_HEX);
	want_field(ch, "exe", WEXE);
	want_field(ch, "exe_hex", WEXE_HEX);
	assert_non_null(strstr(text, "\"exe\":\"/tmp/po\\u2067l\""));
	assert_non_null(strstr(text, "\"comm\":\"set\\u001b]0;\xef\xbf\xbd\""));
	/* unknown writer: null, not a made-up value */
	want_field(prev, "auid", "1000");
	for (size_t i = 0; i < 4; i++) {
		static const char *const k[] = { "pid", "uid", "comm", "exe" };
		json_object *v;

		assert_true(json_object_object_get_ex(prev, k[i], &v));
		assert_null(v);
	}
	assert_null(field(prev, "comm_hex"));

	json_object_put(root);
	free(text);
	ap_agg_free(&a);
}

static void test_report_text(void **state)
{
	struct ap_agg a;
	char *text;

	(void)state;
	fill(&a);
	text = capture_report(&a, false);
	assert_terminal_safe(text);
	assert_non_null(strstr(text, "  /usr/bin/py\\xe2\\x80\\xaeth (ev\\xffil)\n"));
	assert_non_null(strstr(text, "  /srv/in\\xe2\\x81\\xa6voice\\xff.sh\n"));
	assert_non_null(strstr(text, "  host\\xe2\\x80\\x8b\n"));
	assert_non_null(strstr(text, " n\\x1b 0 -> 3 "));
	/* the timeline names the writer, escaped; unknown writers as "?" */
	assert_non_null(strstr(text, " n\\x1b 0 -> 3 yes 0 0 4321 /tmp/po\\xe2\\x81\\xa7l "
				     "(set\\x1b]0;\\xfe)\n"));
	assert_non_null(strstr(text, " (local) 3 -> ? no 1000 ? ? ?\n"));
	free(text);
	ap_agg_free(&a);
}

static void test_state_file(void **state)
{
	struct ap_agg a, b;
	const struct ap_ss_row *r;
	char why[256], *text;

	(void)state;
	fill(&a);
	assert_int_equal(ap_state_save(&a, path), 0);
	text = slurp(path);
	assert_terminal_safe(text);
	assert_non_null(strstr(text, "\"key\":\"\\/usr\\/bin\\/py\\u202eth\",\"key_hex\":\"" EXE_HEX
				     "\",\"note\":\"" COMM_TEXT "\",\"note_hex\":\"" COMM_HEX "\""));
	assert_non_null(strstr(text, "\"key_hex\":\"" PATH_HEX "\""));
	assert_non_null(strstr(text, "\"key\":\"host\\u200b\",\"key_hex\":\"" NODE_HEX "\""));
	assert_non_null(strstr(text, "\"key\":\"n\\u001b\",\"key_hex\":\"" CNODE_HEX "\""));
	assert_non_null(strstr(text, "\"pid\":4321,\"uid\":0,\"comm\":\"set\\u001b]0;"
				     "\xef\xbf\xbd\",\"comm_hex\":\"" WCOMM_HEX "\",\"exe\":"
				     "\"\\/tmp\\/po\\u2067l\",\"exe_hex\":\"" WEXE_HEX "\""));
	/* plain names: no _hex */
	assert_non_null(strstr(text, "\"key\":\"\\/srv\\/ok.py\",\"count\""));
	free(text);

	/* loaded back byte for byte */
	assert_int_equal(ap_state_load(&b, 16, path, why, sizeof(why)), 0);
	r = ap_ss_find(&b.dim[AP_DIM_INTERP], EXE, strlen(EXE));
	assert_non_null(r);
	assert_string_equal(r->note, COMM);
	assert_non_null(ap_ss_find(&b.dim[AP_DIM_FILE], PATH, strlen(PATH)));
	assert_non_null(ap_ss_find(&b.dim[AP_DIM_NODE], NODE, strlen(NODE)));
	assert_int_equal(b.nchanges, 2);
	assert_string_equal(b.changes[0].node, CNODE);
	assert_true(b.changes[0].c.writer);
	assert_int_equal(b.changes[0].c.pid, 4321);
	assert_int_equal(b.changes[0].c.uid, 0);
	assert_string_equal(b.changes[0].c.comm, WCOMM);
	assert_string_equal(b.changes[0].c.exe, WEXE);
	assert_false(b.changes[1].c.writer);
	assert_null(b.changes[1].c.comm);
	assert_null(b.changes[1].c.exe);
	assert_int_equal(b.changes[1].c.pid, -1);
	ap_agg_free(&b);
	ap_agg_free(&a);
}

/* A version 1 file (key_hex alone, raw note) still loads. */
static const char *v1_key(int d)
{
	return d == AP_DIM_INTERP ? "\"key_hex\":\"" EXE_HEX "\",\"note\":\"py\"" :
	       d == AP_DIM_FILE ? "\"key_hex\":\"" PATH_HEX "\"" : "\"key\":\"k\"";
}

static void test_state_v1(void **state)
{
	struct ap_agg b;
	const struct ap_ss_row *r;
	char why[256], text[4096];

	(void)state;
	write_file(old_state(text, sizeof(text), 1, 1, 5, 5, v1_key, "\"policy_changes\":[]"));
	if (ap_state_load(&b, 16, path, why, sizeof(why)))
		fail_msg("version 1 file refused: %s", why);
	r = ap_ss_find(&b.dim[AP_DIM_INTERP], EXE, strlen(EXE));
	assert_non_null(r);
	assert_string_equal(r->note, "py");
	assert_non_null(ap_ss_find(&b.dim[AP_DIM_FILE], PATH, strlen(PATH)));
	ap_agg_free(&b);
}

/*
 * Run @run once with each add failing in turn (1st, 2nd, ...) until a run
 * makes no more adds than the one that failed: that run must succeed. Each
 * other must return -1. Returns the number of adds a run makes.
 */
static int each_add_fails(const char *what, int (*run)(void *), void *arg)
{
	int n;

	for (n = 1; n < 10000; n++) {
		int rc;

		fail_at = n;
		add_calls = 0;
		rc = run(arg);
		fail_at = 0;
		if (add_calls < n) { /* no add left to fail */
			assert_int_equal(rc, 0);
			break;
		}
		if (rc != -1)
			fail_msg("add %d failed, %s returned %d", n, what, rc);
	}
	return n - 1; /* the adds a run makes */
}

static int report_run(void *arg)
{
	struct ap_report_opts o = { .tables = (1u << (AP_TABLE_POLICY + 1)) - 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	assert_non_null(f);
	rc = ap_report_json(f, arg, &o);
	fclose(f);
	free(text);
	if (rc)
		assert_int_equal(len, 0); /* nothing written */
	return rc;
}

/* Every failing add in the JSON report: -1, nothing written, nothing leaked. */
static void test_report_json_oom(void **state)
{
	struct ap_agg a;

	(void)state;
	fill(&a);
	assert_true(each_add_fails("ap_report_json()", report_run, &a) > 50);
	ap_agg_free(&a);
}

static int save_run(void *arg)
{
	int rc = ap_state_save(arg, path);

	if (rc)
		assert_int_equal(errno, ENOMEM);
	return rc;
}

/* The same for the state file: -1 with ENOMEM, nothing leaked, the file kept. */
static void test_state_save_oom(void **state)
{
	struct ap_agg a;
	char *before, *after;

	(void)state;
	fill(&a);
	assert_int_equal(ap_state_save(&a, path), 0);
	before = slurp(path);
	assert_true(each_add_fails("ap_state_save()", save_run, &a) > 50);
	after = slurp(path);
	assert_string_equal(before, after);
	free(after);
	free(before);
	ap_agg_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_json),
		cmocka_unit_test(test_report_text),
		cmocka_unit_test(test_report_json_oom),
		cmocka_unit_test(test_state_file),
		cmocka_unit_test(test_state_v1),
		cmocka_unit_test(test_state_save_oom),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
