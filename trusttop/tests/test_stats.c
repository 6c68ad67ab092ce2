// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: deltas and rates, sorting, filtering, hostile-name output.
 * Longer than 400 lines: one binary for trusttop's user-space model, whose
 * cases share the same tables and helpers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "app.h"
#include "backend.h"
#include "trustedfor.h"

static struct tt_key key(const char *exe, const char *comm, uint32_t uid)
{
	struct tt_key k;

	memset(&k, 0, sizeof(k));
	k.uid = uid;
	strncpy(k.exe, exe, sizeof(k.exe) - 1);
	strncpy(k.comm, comm, sizeof(k.comm) - 1);
	return k;
}

static struct tt_counts counts(uint64_t allowed, uint64_t denied)
{
	struct tt_counts c;

	memset(&c, 0, sizeof(c));
	c.allowed = allowed;
	c.denied = denied;
	c.checks = allowed + denied;
	c.reason[1] = denied;
	return c;
}

static void test_delta_and_rate(void **state)
{
	struct tt_table t;
	struct tt_key k = key("python3", "python3", 1000);
	struct tt_counts c = counts(10, 5);
	struct tt_row *r;

	(void)state;
	tt_table_init(&t);
	tt_table_begin(&t);
	assert_non_null(tt_table_set(&t, &k, &c));
	tt_table_tick(&t, 0.5);
	r = tt_table_find(&t, &k);
	assert_non_null(r);
	assert_int_equal(r->delta.checks, 15);
	assert_true(r->rate > 29.999 && r->rate < 30.001);

	c = counts(110, 25);
	tt_table_begin(&t);
	tt_table_set(&t, &k, &c);
	tt_table_tick(&t, 2.0);
	assert_int_equal(r->delta.allowed, 100);
	assert_int_equal(r->delta.denied, 20);
	assert_int_equal(r->delta.reason[1], 20);
	assert_true(r->rate > 59.999 && r->rate < 60.001);
	assert_int_equal(r->cur.checks, 135);

	/* No change: zero delta and rate, cumulative untouched. */
	tt_table_begin(&t);
	tt_table_set(&t, &k, &c);
	tt_table_tick(&t, 1.0);
	assert_int_equal(r->delta.checks, 0);
	assert_true(r->rate == 0);
	assert_int_equal(r->cur.checks, 135);
	tt_table_free(&t);
}

static void test_delta_reset(void **state)
{
	struct tt_counts a = counts(3, 1), b = counts(50, 2), d;

	(void)state;
	/* a < b: the entry was evicted and created again: count from 0. */
	tt_counts_sub(&a, &b, &d);
	assert_int_equal(d.allowed, 3);
	assert_int_equal(d.denied, 1);
	assert_int_equal(d.checks, 4);
	tt_counts_sub(&b, &a, &d);
	assert_int_equal(d.allowed, 47);
	assert_int_equal(d.denied, 1);
}

static void test_rate_edge(void **state)
{
	(void)state;
	assert_true(tt_rate(100, 0) == 0);
	assert_true(tt_rate(100, -1) == 0);
	assert_true(tt_rate(0, 1) == 0);
	assert_true(tt_rate(3, 1.5) == 2);
}

static void test_deny_pct_and_top_reason(void **state)
{
	struct tt_counts c = counts(3, 1);

	(void)state;
	assert_true(tt_deny_pct(&c) == 25.0);
	c = counts(0, 0);
	assert_true(tt_deny_pct(&c) == 0);
	assert_int_equal(tt_top_reason(&c), -1);
	c.reason[0] = 2;
	c.reason[3] = 5;
	c.reason[TT_REASON_OTHER] = 1;
	assert_int_equal(tt_top_reason(&c), 3);
	assert_string_equal(tt_reason_slot_name(3), "pseudo_fs");
	assert_string_equal(tt_reason_slot_name(TT_REASON_OTHER), "other");
	assert_string_equal(tt_reason_slot_name(4), "write_busy");
	assert_string_equal(tt_reason_slot_name(5), "lsm");
	assert_string_equal(tt_reason_slot_name(6), "check_error");
	assert_string_equal(tt_reason_slot_name(TT_NREASON), "-");
}

static void test_totals(void **state)
{
	struct tt_table t;
	struct tt_key k1 = key("a", "a", 0), k2 = key("b", "b", 0);
	struct tt_counts c1 = counts(1, 2), c2 = counts(10, 20), tot, dt;

	(void)state;
	tt_table_init(&t);
	tt_table_set(&t, &k1, &c1);
	tt_table_set(&t, &k2, &c2);
	tt_table_tick(&t, 1);
	tt_table_totals(&t, 0, &tot, &dt);
	assert_int_equal(tot.allowed, 11);
	assert_int_equal(tot.denied, 22);
	assert_int_equal(dt.checks, 33);
	tt_table_free(&t);
}

/* One interpreter through both interfaces: two rows, each interface's
 * totals its own, and the filter by interface (issue 11).
 */
static void test_api_rows(void **state)
{
	struct tt_table t;
	struct tt_key tf = key("python3", "python3", 0), ec = tf;
	struct tt_counts c1 = counts(1, 2), c2 = counts(10, 20), tot, dt;
	struct tt_row *r1, *r2;

	(void)state;
	tf.api = TT_SRC_TRUSTED_FOR;
	ec.api = TT_SRC_EXECVE_CHECK;
	tt_table_init(&t);
	tt_table_begin(&t);
	r1 = tt_table_set(&t, &tf, &c1);
	r2 = tt_table_set(&t, &ec, &c2);
	assert_non_null(r1);
	assert_non_null(r2);
	assert_int_equal(t.n, 2);
	assert_ptr_equal(tt_table_find(&t, &tf), &t.rows[0]);
	assert_ptr_equal(tt_table_find(&t, &ec), &t.rows[1]);
	tt_table_tick(&t, 1);
	tt_table_totals(&t, TT_SRC_TRUSTED_FOR, &tot, &dt);
	assert_int_equal(tot.allowed, 1);
	assert_int_equal(tot.denied, 2);
	tt_table_totals(&t, TT_SRC_EXECVE_CHECK, &tot, &dt);
	assert_int_equal(tot.allowed, 10);
	assert_int_equal(dt.checks, 30);
	tt_table_totals(&t, 0, &tot, NULL);
	assert_int_equal(tot.checks, 33);
	assert_true(tt_row_match(&t.rows[0], NULL, -1, 0));
	assert_true(tt_row_match(&t.rows[0], NULL, -1, TT_SRC_TRUSTED_FOR));
	assert_false(tt_row_match(&t.rows[0], NULL, -1, TT_SRC_EXECVE_CHECK));
	assert_true(tt_row_match(&t.rows[1], "pyth", -1, TT_SRC_EXECVE_CHECK));
	assert_true(tt_row_cmp(&t.rows[0], &t.rows[1], TT_SORT_NAME) < 0);
	assert_int_equal(tt_api_parse("trusted_for"), TT_SRC_TRUSTED_FOR);
	assert_int_equal(tt_api_parse("execve_check"), TT_SRC_EXECVE_CHECK);
	assert_int_equal(tt_api_parse("all"), 0);
	assert_int_equal(tt_api_parse("execve"), -1);
	assert_string_equal(tt_api_name(TT_SRC_EXECVE_CHECK), "execve_check");
	tt_table_free(&t);
}

static void test_sort(void **state)
{
	struct tt_table t;
	struct tt_row *rows[3];
	struct tt_key ka = key("perl", "perl", 0), kb = key("python3", "py", 1000),
		      kc = key("dash", "dash", 5);
	struct tt_counts ca = counts(5, 0), cb = counts(1, 9), cc = counts(50, 1);

	(void)state;
	tt_table_init(&t);
	tt_table_set(&t, &ka, &ca);
	tt_table_set(&t, &kb, &cb);
	tt_table_set(&t, &kc, &cc);
	tt_table_tick(&t, 1);
	for (int i = 0; i < 3; i++)
		rows[i] = &t.rows[i];

	tt_rows_sort(rows, 3, TT_SORT_CHECKS, false);
	assert_string_equal(rows[0]->key.exe, "dash");
	assert_string_equal(rows[1]->key.exe, "python3");
	assert_string_equal(rows[2]->key.exe, "perl");
	tt_rows_sort(rows, 3, TT_SORT_DENIED, false);
	assert_string_equal(rows[0]->key.exe, "python3");
	assert_string_equal(rows[1]->key.exe, "dash");
	tt_rows_sort(rows, 3, TT_SORT_NAME, false);
	assert_string_equal(rows[0]->key.exe, "dash");
	assert_string_equal(rows[2]->key.exe, "python3");
	tt_rows_sort(rows, 3, TT_SORT_NAME, true);
	assert_string_equal(rows[0]->key.exe, "python3");
	tt_rows_sort(rows, 3, TT_SORT_UID, false);
	assert_int_equal(rows[0]->key.uid, 0);
	assert_int_equal(rows[2]->key.uid, 1000);
	tt_rows_sort(rows, 3, TT_SORT_DENYPCT, false);
	assert_string_equal(rows[0]->key.exe, "python3");
	assert_string_equal(rows[2]->key.exe, "perl");
	/* Rate ties (all equal here? no: rate = delta checks) */
	tt_rows_sort(rows, 3, TT_SORT_RATE, false);
	assert_string_equal(rows[0]->key.exe, "dash");
	assert_string_equal(rows[2]->key.exe, "perl");
	/* Equal keys fall back to the identity: a total order. */
	assert_true(tt_row_cmp(rows[0], rows[1], TT_SORT_WOULD) != 0);
	assert_int_equal(tt_sort_parse("deny%"), TT_SORT_DENYPCT);
	assert_int_equal(tt_sort_parse("bogus"), -1);
	assert_string_equal(tt_sort_name(TT_SORT_NAME), "name");
	tt_table_free(&t);
}

static void test_filter(void **state)
{
	struct tt_row r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.key = key("python3", "worker", 1000);
	strcpy(r.last_file, "/srv/app/run.py");
	assert_true(tt_row_match(&r, NULL, -1, 0));
	assert_true(tt_row_match(&r, "", -1, 0));
	assert_true(tt_row_match(&r, "pyth", -1, 0));
	assert_true(tt_row_match(&r, "work", -1, 0));
	assert_true(tt_row_match(&r, "run.py", 1000, 0));
	assert_false(tt_row_match(&r, "perl", -1, 0));
	assert_false(tt_row_match(&r, NULL, 0, 0));
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
			return true;
	return false;
}

static void test_hostile_path(void **state)
{
	struct tt_event e;
	char raw[TT_PATH_MAX], esc[4 * TT_PATH_MAX + 1];

	(void)state;
	memset(&e, 0, sizeof(e));
	strcpy(e.path[0], "x\033]0;pwned\007\n.py");
	strcpy(e.path[1], "d\r\tir");
	strcpy(e.path[2], "tmp");
	e.depth = 3;
	tt_event_path(&e, raw, sizeof(raw));
	assert_string_equal(raw, "/tmp/d\r\tir/x\033]0;pwned\007\n.py");
	tt_escape(raw, esc, sizeof(esc));
	assert_false(has_control(esc));
	assert_string_equal(esc, "/tmp/d\\r\\tir/x\\x1b]0;pwned\\x07\\n.py");

	/* Truncated walk and component without NUL inside its slot. */
	memset(&e, 0, sizeof(e));
	memset(e.path[0], 'a', TT_NAME_LEN);
	e.depth = 1;
	e.flags = TT_EV_PATH_TRUNC;
	tt_event_path(&e, raw, sizeof(raw));
	assert_int_equal(strlen(raw), 3 + 1 + TT_NAME_LEN);
	assert_memory_equal(raw, ".../aaa", 7);

	/* No name: dev/ino. Depth beyond the array is clamped. */
	memset(&e, 0, sizeof(e));
	e.dev = (8u << 20) | 1;
	e.ino = 42;
	tt_event_path(&e, raw, sizeof(raw));
	assert_string_equal(raw, "dev 8:1 ino 42");
	e.depth = 200;
	tt_event_path(&e, raw, sizeof(raw));
	assert_int_equal(strlen(raw), TT_PATH_DEPTH); /* six "/" + empty names */

	/* Small output buffer: truncated, still terminated. */
	memset(&e, 0, sizeof(e));
	strcpy(e.path[0], "abcdef");
	e.depth = 1;
	tt_event_path(&e, raw, 5);
	assert_true(strlen(raw) < 5);
}

static void test_interp_name(void **state)
{
	struct tt_key k = key("python3", "python3", 0);
	char out[160];

	(void)state;
	assert_string_equal(tt_interp_name(&k, out, sizeof(out)), "python3");
	k = key("python3", "gunicorn", 0);
	assert_string_equal(tt_interp_name(&k, out, sizeof(out)), "python3(gunicorn)");
	k = key("", "kthread", 0);
	assert_string_equal(tt_interp_name(&k, out, sizeof(out)), "kthread");
	k = key("sh\033[2J", "a\nb", 0);
	tt_interp_name(&k, out, sizeof(out));
	assert_false(has_control(out));
	assert_string_equal(out, "sh\\x1b[2J(a\\nb)");
}

static void test_fmt_count(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(tt_fmt_count(1234, 8, b, sizeof(b)), "1234");
	assert_string_equal(tt_fmt_count(12345678, 8, b, sizeof(b)), "12345678");
	assert_string_equal(tt_fmt_count(123456789, 8, b, sizeof(b)), "123457k");
	assert_string_equal(tt_fmt_count(123456789, 6, b, sizeof(b)), "123.5M");
	assert_string_equal(tt_fmt_count(1234567, 5, b, sizeof(b)), "1235k");
	assert_string_equal(tt_fmt_count(1234567, 4, b, sizeof(b)), "1.2M");
	assert_string_equal(tt_fmt_count(123456, 4, b, sizeof(b)), "123k");
}

static void push(struct tt_app *a, const char *comm, uint32_t uid, const char *path)
{
	struct tt_recent *r;

	a->recent_seq++;
	r = &a->recent[(a->recent_seq - 1) % TT_RECENT];
	memset(r, 0, sizeof(*r));
	r->seq = a->recent_seq;
	strncpy(r->ev.comm, comm, TT_COMM_LEN - 1);
	r->ev.uid = uid;
	snprintf(r->path, sizeof(r->path), "%s", path);
	tt_shown_add(a, r);
}

static void test_shown_ring(void **state)
{
	static struct tt_app a;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.uid = -1;
	snprintf(a.filter, sizeof(a.filter), "mine");
	push(&a, "mine", 0, "/a");
	/* A flood of other events does not push ours out of the pane. */
	for (int i = 0; i < 3 * TT_RECENT; i++)
		push(&a, "other", 0, "/b");
	assert_int_equal(a.shown_seq, 1);
	assert_string_equal(a.shown[0].ev.comm, "mine");
	push(&a, "x", 0, "/srv/mine.py"); /* matches on the file */
	assert_int_equal(a.shown_seq, 2);
	/* Filter change: rebuilt from the global ring (the newest TT_RECENT). */
	a.filter[0] = 0;
	a.uid = 7;
	push(&a, "u7", 7, "/c");
	tt_shown_rebuild(&a);
	assert_int_equal(a.shown_seq, 1);
	assert_string_equal(a.shown[0].ev.comm, "u7");
	a.uid = -1;
	tt_shown_rebuild(&a);
	assert_int_equal(a.shown_seq, TT_RECENT);
}


/*
 * --json names follow lib/tfjson.h: KEY the text (U+FFFD for invalid
 * bytes), KEY_hex the exact bytes when not plain; hidden code points as
 * \uXXXX; a full-length path is not cut. Expected values written by hand.
 */
static const char *jfield(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
}

static void test_hostile_json(void **state)
{
	static struct tt_app a;
	struct tt_key k = key("py\xe2\x80\xaeth", "ev\xffil", 0);
	struct tt_counts c = counts(1, 1);
	struct tt_row *r;
	struct tt_recent *ev;
	char *text = NULL, longhex[2 * (TT_PATH_MAX - 1) + 1];
	size_t len = 0;
	json_object *root, *arr, *o;
	FILE *f;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.uid = -1;
	a.backend = "execve_check";
	a.policy = -1;
	snprintf(a.kernel, sizeof(a.kernel), "6.1-\xe2\x81\xa6x");
	tt_table_init(&a.interp);
	tt_table_begin(&a.interp);
	r = tt_table_set(&a.interp, &k, &c);
	assert_non_null(r);
	tt_table_tick(&a.interp, 1.0);
	snprintf(r->last_file, sizeof(r->last_file), "/srv/in\xe2\x81\xa6voice\xff.sh");
	/* one denial whose path fills the whole buffer: 511 bytes 0xff */
	push(&a, "ok", 0, "");
	ev = &a.recent[0];
	memset(ev->path, 0xff, TT_PATH_MAX - 1);
	ev->path[TT_PATH_MAX - 1] = 0;
	memcpy(ev->ev.exe, "sh\x1b", 3);
	ev->ev.flags = TT_EV_DENIED;

	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(tt_print_json(&a, f), 0);
	fclose(f);
	assert_true(len > 0 && text[len - 1] == '\n');
	text[len - 1] = 0;
	assert_false(has_control(text));
	assert_null(strstr(text, "\xe2\x80\xae"));	/* no raw RLO */
	assert_null(strstr(text, "\xe2\x81\xa6"));	/* no raw LRI */
	assert_non_null(strstr(text, "\"exe\":\"py\\u202eth\""));
	root = json_tokener_parse(text);
	assert_non_null(root);

	assert_string_equal(jfield(root, "kernel"), "6.1-\xe2\x81\xa6x");
	assert_string_equal(jfield(root, "kernel_hex"), "362e312de281a678");
	assert_true(json_object_object_get_ex(root, "interpreters", &arr));
	assert_int_equal(json_object_array_length(arr), 1);
	o = json_object_array_get_idx(arr, 0);
	assert_string_equal(jfield(o, "exe"), "py\xe2\x80\xaeth");
	assert_string_equal(jfield(o, "exe_hex"), "7079e280ae7468");
	assert_string_equal(jfield(o, "comm"), "ev\xef\xbf\xbdil");
	assert_string_equal(jfield(o, "comm_hex"), "6576ff696c");
	assert_string_equal(jfield(o, "user"), "root");
	assert_null(jfield(o, "user_hex"));
	assert_string_equal(jfield(o, "last_denied_file"),
			    "/srv/in\xe2\x81\xa6voice\xef\xbf\xbd.sh");
	assert_string_equal(jfield(o, "last_denied_file_hex"),
			    "2f7372762f696ee281a6766f696365ff2e7368");

	assert_true(json_object_object_get_ex(root, "denials", &arr));
	assert_int_equal(json_object_array_length(arr), 1);
	o = json_object_array_get_idx(arr, 0);
	assert_string_equal(jfield(o, "exe"), "sh\x1b");
	assert_string_equal(jfield(o, "exe_hex"), "73681b");
	assert_string_equal(jfield(o, "comm"), "ok");
	assert_null(jfield(o, "comm_hex"));
	for (size_t i = 0; i < 2 * (TT_PATH_MAX - 1); i++)
		longhex[i] = "ff"[i % 2];
	longhex[2 * (TT_PATH_MAX - 1)] = 0;
	assert_string_equal(jfield(o, "file_hex"), longhex);
	/* the text: one U+FFFD (3 bytes) per invalid byte, none cut */
	assert_int_equal(strlen(jfield(o, "file")), 3 * (TT_PATH_MAX - 1));

	json_object_put(root);
	free(text);
	tt_table_free(&a.interp);
}

/*
 * check_error, the kernel's reason for a check that failed with an error
 * (EIO, ESTALE...): its own slot before "other", in the batch view, in
 * --json's reason counts (deny_reasons has "other", would_deny_reasons
 * not) and in a denial's reason. Expected values written by hand.
 */
static void test_check_error_reason(void **state)
{
	static struct tt_app a;
	struct tt_key k = key("fuse-py", "python3", 0);
	struct tt_counts c = counts(1, 3);
	json_object *root, *o, *reasons, *arr, *v;
	struct tt_recent *ev;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.uid = -1;
	a.backend = "trusted_for";
	a.policy = 3;
	snprintf(a.kernel, sizeof(a.kernel), "6.1");
	c.reason[1] = 0;
	c.reason[6] = 2;
	c.reason[TT_REASON_OTHER] = 1;
	c.would_reason[1] = 4;
	tt_table_init(&a.interp);
	tt_table_begin(&a.interp);
	assert_non_null(tt_table_set(&a.interp, &k, &c));
	tt_table_tick(&a.interp, 1.0);
	a.total = c;
	push(&a, "python3", 0, "/mnt/fuse/a.py");
	ev = &a.recent[0];
	ev->ev.flags = TT_EV_DENIED;
	ev->ev.ret = -EIO;
	ev->ev.reason = TF_REASON_CHECK_ERROR;
	ev->ev.source = TT_SRC_TRUSTED_FOR;

	f = open_memstream(&text, &len);
	assert_non_null(f);
	tt_print_batch(&a, f);
	fclose(f);
	assert_non_null(strstr(text, "\nDenied: noexec_mount=0 file_perm=0 not_regular=0 "
				     "pseudo_fs=0 write_busy=0 lsm=0 check_error=2 other=1\n"));
	assert_non_null(strstr(text, "\nWould-deny: noexec_mount=0 file_perm=4 "
				     "not_regular=0 pseudo_fs=0 write_busy=0 lsm=0 "
				     "check_error=0 other=0\n"));
	free(text);

	text = NULL;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(tt_print_json(&a, f), 0);
	fclose(f);
	root = json_tokener_parse(text);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "totals", &o));
	assert_true(json_object_object_get_ex(o, "deny_reasons", &reasons));
	assert_int_equal(json_object_object_length(reasons), TT_NREASON);
	assert_string_equal(jfield(reasons, "check_error"), "2");
	assert_string_equal(jfield(reasons, "other"), "1");
	assert_true(json_object_object_get_ex(o, "would_deny_reasons", &reasons));
	assert_int_equal(json_object_object_length(reasons), TT_NREASON - 1);
	assert_string_equal(jfield(reasons, "check_error"), "0");
	assert_false(json_object_object_get_ex(reasons, "other", &v));
	assert_true(json_object_object_get_ex(root, "interpreters", &arr));
	assert_int_equal(json_object_array_length(arr), 1);
	o = json_object_array_get_idx(arr, 0);
	assert_string_equal(jfield(o, "top_reason"), "check_error");
	assert_true(json_object_object_get_ex(root, "denials", &arr));
	assert_int_equal(json_object_array_length(arr), 1);
	o = json_object_array_get_idx(arr, 0);
	assert_string_equal(jfield(o, "reason"), "check_error");
	assert_string_equal(jfield(o, "would_deny"), "-");
	assert_string_equal(jfield(o, "ret"), "-5");
	json_object_put(root);
	free(text);
	tt_table_free(&a.interp);
}

/* Map entries of one row (one name, several executables: struct tt_bkey)
 * add up within a read; the next read starts again from them.
 */
static void test_add_entries(void **state)
{
	struct tt_table t;
	struct tt_key k = key("python3", "python3", 1000);
	struct tt_counts a = counts(10, 1), b = counts(5, 2);
	struct tt_row *r;

	(void)state;
	tt_table_init(&t);
	tt_table_begin(&t);
	assert_non_null(tt_table_add(&t, &k, &a));
	r = tt_table_add(&t, &k, &b);
	assert_non_null(r);
	tt_table_tick(&t, 1);
	assert_int_equal(t.n, 1);
	assert_int_equal(r->cur.checks, 18);
	assert_int_equal(r->cur.denied, 3);
	assert_int_equal(r->delta.allowed, 15);
	a = counts(20, 1);
	tt_table_begin(&t);
	tt_table_add(&t, &k, &a);
	tt_table_add(&t, &k, &b);
	tt_table_tick(&t, 1);
	assert_int_equal(r->cur.allowed, 25);
	assert_int_equal(r->delta.allowed, 10);
	assert_int_equal(r->delta.denied, 0);
	tt_table_free(&t);
}

/* Executables' names: found by their whole identity, NUL-terminated. */
static void test_exe_names(void **state)
{
	struct tt_names ns;
	struct tt_exe_id a = { .ino = 42, .dev = 8, .name_hash = 7 }, b = a;
	char long_name[TT_EXE_LEN], perl[TT_EXE_LEN] = "perl5.36.0";

	(void)state;
	tt_names_init(&ns);
	assert_null(tt_names_find(&ns, &a));
	memset(long_name, 'p', sizeof(long_name));
	assert_int_equal(tt_names_add(&ns, &a, long_name), 0);
	b.name_hash = 8; /* a hard link of the same inode: another name */
	assert_null(tt_names_find(&ns, &b));
	assert_int_equal(tt_names_add(&ns, &b, perl), 0);
	assert_string_equal(tt_names_find(&ns, &a), "ppppppppppppppp");
	assert_string_equal(tt_names_find(&ns, &b), "perl5.36.0");
	for (uint32_t i = 0; i < 1000; i++) {
		struct tt_exe_id c = { .ino = i, .dev = 9 };
		char n[TT_EXE_LEN] = "x";

		assert_int_equal(tt_names_add(&ns, &c, n), 0);
	}
	assert_string_equal(tt_names_find(&ns, &b), "perl5.36.0");
	tt_names_free(&ns);
}

/*
 * One read of a full map (16384 distinct keys, the BPF maps' size) costs
 * O(n) operations: the rows and hash slots examined by the lookups are
 * counted (not timed), at most 4 per lookup on average, for the read that
 * creates the rows and for the next one that finds them. A linear scan per
 * entry examines n^2/2 rows (134 million here) and fails.
 * Keys differ in one field at a time (names sharing long prefixes, tgids,
 * uids), and each is found again with its counts.
 */
#define MANY 16384
static void test_many_rows_linear(void **state)
{
	struct tt_table t;
	struct tt_key *keys = calloc(MANY, sizeof(*keys));
	struct tt_counts c;

	(void)state;
	assert_non_null(keys);
	for (size_t i = 0; i < MANY; i++) {
		memset(&keys[i], 0, sizeof(keys[i]));
		snprintf(keys[i].exe, TT_EXE_LEN, "py3.%u", (unsigned int)(i % 61));
		snprintf(keys[i].comm, TT_COMM_LEN, "w-%u", (unsigned int)(i % 127));
		keys[i].uid = (uint32_t)(i % 3);
		keys[i].tgid = (uint32_t)(i / 3) + 1;
	}
	tt_table_init(&t);
	for (int round = 1; round <= 2; round++) {
		uint64_t l0 = t.lookups, s0 = t.lookup_steps;

		tt_table_begin(&t);
		for (size_t i = 0; i < MANY; i++) {
			c = counts(i * round, round);
			assert_non_null(tt_table_set(&t, &keys[i], &c));
		}
		tt_table_tick(&t, 1.0);
		assert_int_equal(t.n, MANY);
		assert_int_equal(t.lookups - l0, MANY);
		print_message("read %d of %d keys: %llu rows/slots examined\n",
			      round, MANY,
			      (unsigned long long)(t.lookup_steps - s0));
		assert_true(t.lookup_steps - s0 <= 4 * (uint64_t)MANY);
	}
	for (size_t i = 0; i < MANY; i++) {
		struct tt_row *r = tt_table_find(&t, &keys[i]);

		assert_non_null(r);
		assert_memory_equal(&r->key, &keys[i], sizeof(keys[i]));
		assert_int_equal(r->cur.allowed, 2 * i);
		assert_int_equal(r->delta.allowed, i);
		assert_int_equal(r->delta.denied, 1);
	}
	/* Equal keys are one row, whatever follows the names' NUL. */
	{
		struct tt_key k = keys[7];

		memset(k.exe + strlen(k.exe) + 1, 'x',
		       TT_EXE_LEN - strlen(k.exe) - 1);
		assert_ptr_equal(tt_table_get(&t, &k), tt_table_find(&t, &keys[7]));
		assert_int_equal(t.n, MANY);
	}
	tt_table_free(&t);
	free(keys);
}

/* backend.c: one table of --backend choices and of program sets. */
static void test_backend_table(void **state)
{
	static const char *const names[] = {
		"auto", "trusted_for", "trusted_for-btf", "trusted_for-tp",
		"execve_check", "execve_check-tp",
	};
	struct tt_plan p = { .tracefs = false, .has_ec = true };
	char buf[512];

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_non_null(tt_backend_find(names[i]));
		assert_string_equal(tt_backend_name_at(i), names[i]);
	}
	assert_null(tt_backend_name_at(6));
	assert_null(tt_backend_find("ebpf"));
	assert_string_equal(tt_backend_list(", ", " or ", buf, sizeof(buf)),
			    "auto, trusted_for, trusted_for-btf, trusted_for-tp, execve_check or execve_check-tp");
	assert_int_equal(tt_backend_find("auto")->allow, (1u << TT_NPROGS) - 1);
	assert_int_equal(tt_backend_find("trusted_for")->allow, TT_P_TF_BTF | TT_P_TF_TP);
	assert_int_equal(tt_backend_find("execve_check-tp")->allow, TT_P_EC_TP);
	assert_string_equal(tt_flavour_of(TT_P_TF_BTF | TT_P_EC_BTF)->label,
			    "trusted_for+execve_check (tp_btf)");
	assert_string_equal(tt_flavour_of(TT_P_TF_BTF | TT_P_EC_BTF)->label_ui,
			    "tf+check (tp_btf)");
	assert_null(tt_flavour_of(TT_P_TF_TP)->label_ui);
	assert_string_equal(tt_flavour_of(TT_P_EC_EXIT)->label, "execve_check");
	/* Without tracefs, the line ends with the command that mounts it. */
	tt_plan_why(tt_backend_find("auto"), &p, "K", buf, sizeof(buf));
	assert_string_equal(buf, "no backend on kernel K: no tracefs to find the trusted_for_verdict tracepoint in (needs the trustfor-patched kernel and CONFIG_TRACING), and AT_EXECVE_CHECK but no syscall tracepoints (sys_exit_execveat: needs CONFIG_FTRACE_SYSCALLS and tracefs); tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
	p.tracefs = true;
	p.has_ec = false;
	tt_plan_why(tt_backend_find("trusted_for"), &p, "K", buf, sizeof(buf));
	assert_string_equal(buf, "backend trusted_for unavailable on kernel K: no trusted_for_verdict tracepoint (needs the trustfor-patched kernel)");
	tt_plan_why(tt_backend_find("execve_check"), &p, "K", buf, sizeof(buf));
	assert_string_equal(buf, "backend execve_check unavailable on kernel K: no execveat(AT_EXECVE_CHECK) (needs Linux >= 6.14)");
	/* tp_btf needs no tracefs: no mount advice. */
	p.tracefs = false;
	tt_plan_why(tt_backend_find("trusted_for-btf"), &p, "K", buf, sizeof(buf));
	assert_string_equal(buf, "backend trusted_for-btf unavailable on kernel K: no trusted_for_verdict tracepoint in the kernel's BTF (needs the trustfor-patched kernel with CONFIG_DEBUG_INFO_BTF)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_and_rate),
		cmocka_unit_test(test_delta_reset),
		cmocka_unit_test(test_rate_edge),
		cmocka_unit_test(test_deny_pct_and_top_reason),
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_api_rows),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_hostile_path),
		cmocka_unit_test(test_interp_name),
		cmocka_unit_test(test_fmt_count),
		cmocka_unit_test(test_shown_ring),
		cmocka_unit_test(test_hostile_json),
		cmocka_unit_test(test_check_error_reason),
		cmocka_unit_test(test_many_rows_linear),
		cmocka_unit_test(test_add_entries),
		cmocka_unit_test(test_exe_names),
		cmocka_unit_test(test_backend_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
