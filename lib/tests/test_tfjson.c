// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/tfjson.c: the JSON convention for hostile names (tfjson.h).
 * Expected JSON texts are written by hand from the convention.
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

#include "escape.h"
#include "tfjson.h"

#define FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

struct row {
	const char *what;
	const char *in;
	size_t len;
	const char *want; /* the object as tf_json_string() writes it */
};

#define R(what, in, want) { what, in, sizeof(in) - 1, want }

static const struct row rows[] = {
	R("plain", "/usr/bin/run.sh", "{\"path\":\"/usr/bin/run.sh\"}"),
	R("empty", "", "{\"path\":\"\"}"),
	R("backslash and quote: JSON escapes, no _hex", "a\\b\"c",
	  "{\"path\":\"a\\\\b\\\"c\"}"),
	R("visible UTF-8 stays raw", "caf\xc3\xa9 \xf0\x9f\x98\x80",
	  "{\"path\":\"caf\xc3\xa9 \xf0\x9f\x98\x80\"}"),
	R("invalid byte: U+FFFD + _hex", "bad\xff.sh",
	  "{\"path\":\"bad\xef\xbf\xbd.sh\",\"path_hex\":\"626164ff2e7368\"}"),
	R("overlong: one U+FFFD per byte", "\xc0\xaf",
	  "{\"path\":\"\xef\xbf\xbd\xef\xbf\xbd\",\"path_hex\":\"c0af\"}"),
	R("surrogate", "\xed\xa0\x80",
	  "{\"path\":\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\",\"path_hex\":\"eda080\"}"),
	R("truncated then valid", "\xe2\x80" "a",
	  "{\"path\":\"\xef\xbf\xbd\xef\xbf\xbd" "a\",\"path_hex\":\"e28061\"}"),
	R("RLO: \\u202e + _hex", "x\xe2\x80\xaey",
	  "{\"path\":\"x\\u202ey\",\"path_hex\":\"78e280ae79\"}"),
	R("LRI..PDI", "\xe2\x81\xa6" "a\xe2\x81\xa9",
	  "{\"path\":\"\\u2066a\\u2069\",\"path_hex\":\"e281a661e281a9\"}"),
	R("ZWSP, BOM", "\xe2\x80\x8b\xef\xbb\xbf",
	  "{\"path\":\"\\u200b\\ufeff\",\"path_hex\":\"e2808befbbbf\"}"),
	R("U+2028 U+2029", "\xe2\x80\xa8\xe2\x80\xa9",
	  "{\"path\":\"\\u2028\\u2029\",\"path_hex\":\"e280a8e280a9\"}"),
	R("tag A: surrogate pair", "\xf3\xa0\x81\x81",
	  "{\"path\":\"\\udb40\\udc41\",\"path_hex\":\"f3a08181\"}"),
	R("ESC and newline (json-c)", "\x1b[0m\n",
	  "{\"path\":\"\\u001b[0m\\n\",\"path_hex\":\"1b5b306d0a\"}"),
	{ "NUL inside", "a\0b", 3, "{\"path\":\"a\\u0000b\",\"path_hex\":\"610062\"}" },
	R("DEL", "\x7f", "{\"path\":\"\\u007f\",\"path_hex\":\"7f\"}"),
	R("C1 NEL", "\xc2\x85", "{\"path\":\"\\u0085\",\"path_hex\":\"c285\"}"),
	R("invalid and bidi together", "\xff\xe2\x80\xae",
	  "{\"path\":\"\xef\xbf\xbd\\u202e\",\"path_hex\":\"ffe280ae\"}"),
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < NROWS; i++) {
		const struct row *r = &rows[i];
		struct json_object *o = json_object_new_object();
		char *s;

		assert_non_null(o);
		assert_int_equal(tf_json_add_bytes(o, "path", r->in, r->len), 0);
		s = tf_json_string(o, FLAGS);
		assert_non_null(s);
		if (strcmp(s, r->want))
			fail_msg("%s: got %s, want %s", r->what, s, r->want);
		free(s);
		json_object_put(o);
	}
}

/* What a reader does: KEY_hex when present, else KEY, gives the bytes back. */
static void check_round_trip(const char *in, size_t len)
{
	struct json_object *o = json_object_new_object(), *back, *v;
	char *s, *bytes;
	size_t n;

	assert_int_equal(tf_json_add_bytes(o, "name", in, len), 0);
	s = tf_json_string(o, JSON_C_TO_STRING_PRETTY);
	assert_non_null(s);
	/* no raw control or format character anywhere in the text */
	for (size_t i = 0; s[i];) {
		uint32_t cp;
		size_t k = tf_utf8_seq(s + i, strlen(s + i), &cp);

		assert_true(k > 0);
		assert_true(cp == '\n' || !tf_cp_hidden(cp));
		i += k;
	}
	back = json_tokener_parse(s);
	assert_non_null(back);
	if (json_object_object_get_ex(back, "name_hex", &v)) {
		assert_false(tf_text_plain(in, len));
		bytes = tf_hex_decode(json_object_get_string(v),
				      (size_t)json_object_get_string_len(v), &n);
		assert_non_null(bytes);
		assert_int_equal(n, len);
		assert_memory_equal(bytes, in, len);
		free(bytes);
	} else {
		assert_true(tf_text_plain(in, len));
		assert_true(json_object_object_get_ex(back, "name", &v));
		assert_int_equal(json_object_get_string_len(v), len);
		assert_memory_equal(json_object_get_string(v), in, len);
	}
	json_object_put(back);
	free(s);
	json_object_put(o);
}

static void test_round_trip(void **state)
{
	uint32_t x = 0x9e3779b9;

	(void)state;
	for (size_t i = 0; i < NROWS; i++)
		check_round_trip(rows[i].in, rows[i].len);
	for (int round = 0; round < 2000; round++) {
		unsigned char in[20];
		size_t len = round % sizeof(in);

		for (size_t i = 0; i < len; i++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			in[i] = (unsigned char)(x & 1 ? 0x80 | (x >> 8 & 0x7f) : x >> 8);
		}
		check_round_trip((const char *)in, len);
	}
}

static void test_null_str_text(void **state)
{
	struct json_object *o = json_object_new_object(), *a, *t;
	char *s;

	(void)state;
	assert_int_equal(tf_json_add_str(o, "none", NULL), 0);
	assert_int_equal(tf_json_add_str(o, "exe", "py\xe2\x80\xae"), 0);
	a = json_object_new_array();
	t = tf_json_text("u\xff", 2);
	assert_non_null(t);
	json_object_array_add(a, t);
	json_object_object_add(o, "users", a);
	s = tf_json_string(o, FLAGS);
	assert_string_equal(s, "{\"none\":null,\"exe\":\"py\\u202e\",\"exe_hex\":\"7079e280ae\","
			       "\"users\":[\"u\xef\xbf\xbd\"]}");
	free(s);
	json_object_put(o);
}

/*
 * The own_ adders take the value in every case: added, it is the
 * container's; not added (NULL container), it is freed.  An extra
 * reference taken here tells which: json_object_put() returns 1 when its
 * put frees the object, that is when the adder dropped its own reference.
 */
static void test_own_add_push(void **state)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	struct json_object *v, *got;

	(void)state;
	v = json_object_get(json_object_new_int(7));
	assert_int_equal(tf_json_own_add(o, "n", v), 0);
	assert_true(json_object_object_get_ex(o, "n", &got));
	assert_ptr_equal(got, v);
	assert_int_equal(json_object_put(v), 0); /* still held by o */

	v = json_object_get(json_object_new_int(8));
	assert_int_equal(tf_json_own_push(a, v), 0);
	assert_int_equal(json_object_array_length(a), 1);
	assert_ptr_equal(json_object_array_get_idx(a, 0), v);
	assert_int_equal(json_object_put(v), 0); /* still held by a */

	v = json_object_get(json_object_new_string("lost"));
	assert_int_equal(tf_json_own_add(NULL, "k", v), -1);
	assert_int_equal(json_object_put(v), 1); /* the adder put its reference */

	v = json_object_get(json_object_new_string("lost"));
	assert_int_equal(tf_json_own_push(NULL, v), -1);
	assert_int_equal(json_object_put(v), 1);

	/* A NULL value is JSON null, added like any other. */
	assert_int_equal(tf_json_own_add(o, "none", NULL), 0);
	assert_true(json_object_object_get_ex(o, "none", &got));
	assert_null(got);
	json_object_put(o);
	json_object_put(a);
}

static void test_hex(void **state)
{
	size_t n = 99;
	char *h, *b;

	(void)state;
	h = tf_hex_dup("\x00\xff/", 3);
	assert_string_equal(h, "00ff2f");
	free(h);
	b = tf_hex_decode("00FF2f", 6, &n);
	assert_non_null(b);
	assert_int_equal(n, 3);
	assert_memory_equal(b, "\x00\xff/", 3);
	free(b);
	errno = 0;
	assert_null(tf_hex_decode("abc", 3, &n));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(tf_hex_decode("zz", 2, &n));
	assert_int_equal(errno, EINVAL);
}

/* Every byte, each of its digits in either case, decodes to that byte. */
static void test_hex_decode_every_byte(void **state)
{
	static const char *const digits[] = { "0123456789abcdef", "0123456789ABCDEF" };

	(void)state;
	for (unsigned int b = 0; b < 256; b++) {
		for (int c = 0; c < 4; c++) {
			char in[2] = { digits[c >> 1][b >> 4], digits[c & 1][b & 0xf] };
			size_t n = 99;
			char *out = tf_hex_decode(in, 2, &n);

			assert_non_null(out);
			assert_int_equal(n, 1);
			assert_int_equal((unsigned char)out[0], b);
			assert_int_equal(out[1], '\0');
			free(out);
		}
	}
}

/*
 * A character just outside each digit range (and a few others), at each
 * position of a pair, is refused; only the @len digits given are read.
 */
static void test_hex_decode_refused(void **state)
{
	static const char bad[] = { '/', ':', '@', 'G', '`', 'g', ' ', '"', '\0', '\xff',
				    '\xc1', 'x' };
	size_t n;
	char *out;

	(void)state;
	for (size_t i = 0; i < sizeof(bad); i++) {
		for (int at = 0; at < 4; at++) {
			char in[4] = { '4', '1', '4', '2' };

			in[at] = bad[i];
			errno = 0;
			assert_null(tf_hex_decode(in, 4, &n));
			assert_int_equal(errno, EINVAL);
		}
	}
	out = tf_hex_decode("2F7400ffZZ", 8, &n);
	assert_non_null(out);
	assert_int_equal(n, 4);
	assert_memory_equal(out, "/t\0\xff", 5);
	free(out);
}

/* A string json-c was given raw (not through tf_json_text) still prints valid. */
static void test_print_guards_invalid(void **state)
{
	struct json_object *o = json_object_new_object();
	char *got = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len);

	(void)state;
	json_object_object_add(o, "raw", json_object_new_string("a\xff\xc2\x9b"));
	assert_int_equal(tf_json_print(f, o, FLAGS), 0);
	fclose(f);
	assert_string_equal(got, "{\"raw\":\"a\\ufffd\\u009b\"}\n");
	free(got);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_null_str_text),
		cmocka_unit_test(test_own_add_push),
		cmocka_unit_test(test_hex),
	cmocka_unit_test(test_hex_decode_every_byte),
	cmocka_unit_test(test_hex_decode_refused),
		cmocka_unit_test(test_print_guards_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
