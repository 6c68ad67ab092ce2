// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ap_record_decode() against libauparse, the oracle: every path, comm and
 * exe of the fixtures, of a table of edge cases and of generated values
 * decodes byte for byte as
 * auparse_interpret_field() decodes it in raw escape mode, in each record
 * type the plugin reads.
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hex.h"
#include "record.h"

static bool encoded_name(const char *name)
{
	return !strcmp(name, "path") || !strcmp(name, "comm") || !strcmp(name, "exe");
}

/* Compare both decodings of every encoded field in @text; their number. */
static unsigned int compare_text(const char *text)
{
	auparse_state_t *au = auparse_init(AUSOURCE_BUFFER, text);
	unsigned int n = 0;

	assert_non_null(au);
	auparse_set_escape_mode(au, AUPARSE_ESC_RAW);
	while (auparse_next_event(au) > 0) {
		if (auparse_first_record(au) <= 0)
			continue;
		do {
			if (auparse_first_field(au) <= 0)
				continue;
			do {
				const char *name = auparse_get_field_name(au);
				const char *val = auparse_get_field_str(au);
				const char *want;
				char *got;

				if (!name || !val || !encoded_name(name))
					continue;
				got = ap_record_decode(au, val);
				want = auparse_interpret_field(au);
				assert_non_null(got);
				if (strcmp(got, want ? want : "?"))
					fail_msg("%s=%s: decoded to \"%s\", libauparse \"%s\"",
						 name, val, got, want ? want : "?");
				free(got);
				n++;
			} while (auparse_next_field(au) > 0);
		} while (auparse_next_record(au) > 0);
	}
	auparse_destroy(au);
	return n;
}

/* The encoded fields in each record type: a value @v in each of them. */
#define FIELDS_PER_VALUE 8

static void append_records(char **buf, size_t *len, size_t *cap, unsigned int serial,
			   const char *v)
{
	size_t need = 3 * strlen(v) * 3 + 1024;
	int w;

	if (*len + need > *cap) {
		*cap = (*len + need) * 2;
		*buf = realloc(*buf, *cap);
		assert_non_null(*buf);
	}
	w = snprintf(*buf + *len, *cap - *len,
		     "type=UNKNOWN[1350] msg=audit(1700000000.000:%u): usage=execution "
		     "policy=3 reason=file_perm dev=00:1a ino=1 mode=0100644 ouid=0 ogid=0 "
		     "path=%s ppid=1 pid=2 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 "
		     "egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm=%s exe=%s "
		     "subj=unconfined res=0\n"
		     "type=UNKNOWN[2650] msg=audit(1700000000.000:%u): pid=1 uid=0 "
		     "auid=4294967295 ses=4294967295 msg='usage=execution policy=? "
		     "reason=file_perm dev=08:01 ino=1 path=%s comm=%s exe=%s res=0 "
		     "api=execve_check secbits=0x0 src=relay file=fd'\n"
		     "type=CONFIG_CHANGE msg=audit(1700000000.000:%u): op=trust_policy "
		     "old=0 new=3 auid=0 ses=1 comm=%s exe=%s res=1\n",
		     serial * 3, v, v, v, serial * 3 + 1, v, v, v, serial * 3 + 2, v, v);
	assert_true(w > 0 && (size_t)w < *cap - *len);
	*len += (size_t)w;
}

/*
 * Values one at a time (none empty: libauparse drops an empty field), each
 * in every record type, every field compared.
 */
static void compare_values(const char *const *vals, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = 0, cap = 0;
		char *buf = NULL;

		append_records(&buf, &len, &cap, (unsigned int)i + 1, vals[i]);
		if (compare_text(buf) != FIELDS_PER_VALUE)
			fail_msg("'%s': not every field compared", vals[i]);
		free(buf);
	}
}

/* Where each decoding rule could differ: quotes, digit counts, NUL bytes. */
static void test_edge_values(void **s)
{
	static const char *const vals[] = {
		"\"/tmp/a.py\"", "\"\"", "\"a\"b\"", "\"unterminated", "\"",
		"2F746D702F612E7079", "2f746d702f612e7079", "2F746d702F612e7079",
		"2F7", "4", "41004243", "0041", "00", "0", "(null)", "?", "41zz",
		"zz41", "C3A9", "FF", "E280AE2E7079", "1B5B33316D", "2F0A2F",
		"2F746D702F6E6F657865632F6576696C0A1B5B33316D6E616D652E7079",
		"\"(null)\"", "none", "a=b", "\\x41",
	};

	(void)s;
	compare_values(vals, sizeof(vals) / sizeof(vals[0]));
}

/*
 * The one difference, on purpose (record.c): a user message may hold a GS
 * byte, after which libauparse keeps "enriched" values that its
 * interpretation prefers to the field's own; the field's own is decoded.
 */
static void test_gs_list_not_taken(void **s)
{
	static const char text[] =
		"type=UNKNOWN[2650] msg=audit(1700000000.000:1): pid=1 uid=0 "
		"auid=4294967295 ses=4294967295 msg='usage=execution policy=? "
		"reason=file_perm dev=08:01 ino=1 path=\"/tmp/a.py\" comm=2F62696E "
		"exe=\"/usr/bin/python3\" res=0 api=execve_check secbits=0x0 src=relay "
		"file=fd\x1dpath=\"/etc/shadow\" comm=\"x\" exe=\"y\"'\n";
	static const char *const want[][3] = {
		{ "path", "/tmp/a.py", "\"/etc/shadow\"" },
		{ "comm", "/bin", "\"x\"" },
		{ "exe", "/usr/bin/python3", "\"y\"'" },
	};
	auparse_state_t *au = auparse_init(AUSOURCE_BUFFER, text);
	unsigned int n = 0;

	(void)s;
	assert_non_null(au);
	auparse_set_escape_mode(au, AUPARSE_ESC_RAW);
	assert_true(auparse_next_event(au) > 0);
	assert_true(auparse_first_field(au) > 0);
	do {
		const char *name = auparse_get_field_name(au);
		const char *lib;
		char *got;

		if (!name || !encoded_name(name))
			continue;
		assert_true(n < 3);
		assert_string_equal(name, want[n][0]);
		got = ap_record_decode(au, auparse_get_field_str(au));
		assert_string_equal(got, want[n][1]);
		/* what the library would have said: the forged value */
		lib = auparse_interpret_field(au);
		assert_string_equal(lib ? lib : "?", want[n][2]);
		free(got);
		n++;
	} while (auparse_next_field(au) > 0);
	assert_int_equal(n, 3);
	auparse_destroy(au);
}

/* A small deterministic generator (xorshift32): the same values every run. */
static uint32_t next_random(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/*
 * Generated values: the hex of random bytes (NUL and controls among them)
 * in random case; quoted random text; and random tokens of the characters
 * each rule looks at.
 */
static void test_generated_values(void **s)
{
	static const char token_chars[] = "0123456789abcdefABCDEFgz\"()?\\=\xc3\xa9\xff\x80";
	enum { N = 3000, MAX = 48 };
	char **vals = calloc(N, sizeof(*vals));
	uint32_t x = 2463534242u;

	(void)s;
	assert_non_null(vals);
	for (size_t i = 0; i < N; i++) {
		unsigned int kind = next_random(&x) % 3, len = 1 + next_random(&x) % (MAX - 1);
		char *v = calloc(2 * MAX + 3, 1);
		unsigned char bytes[MAX];

		assert_non_null(v);
		if (kind == 0) {
			for (unsigned int j = 0; j < len; j++)
				bytes[j] = (unsigned char)next_random(&x);
			assert_non_null(tf_hex(bytes, len, v, 2 * MAX + 3));
			for (unsigned int j = 0; v[j]; j++)
				if (next_random(&x) & 1 && v[j] >= 'a')
					v[j] = (char)(v[j] - 'a' + 'A');
		} else if (kind == 1) {
			v[0] = '"';
			for (unsigned int j = 1; j <= len; j++)
				v[j] = (char)('!' + next_random(&x) % ('~' - '!' + 1));
			v[len + 1] = '"';
		} else {
			for (unsigned int j = 0; j < len; j++)
				v[j] = token_chars[next_random(&x) % (sizeof(token_chars) - 1)];
		}
		/* the 2650 record quotes its fields with ' */
		for (char *p = v; *p; p++)
			if (*p == '\'')
				*p = '`';
		vals[i] = v;
	}
	compare_values((const char *const *)vals, N);
	for (size_t i = 0; i < N; i++)
		free(vals[i]);
	free(vals);
}

/*
 * Every log the other tests and the fuzzer start from (not the fuzzer's
 * regressions: they hold no encoded field, and libauparse 3.0.9 leaks a
 * record's second cwd=, which one of them has).
 */
static void test_fixtures(void **s)
{
	static const char *const patterns[] = {
		TF_DATA_DIR "/audit-*.log",
		AP_DATA_DIR "/*.log",
	};
	unsigned int fields = 0, files = 0;

	(void)s;
	for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
		glob_t g;

		assert_int_equal(glob(patterns[p], 0, NULL, &g), 0);
		for (size_t i = 0; i < g.gl_pathc; i++) {
			FILE *f = fopen(g.gl_pathv[i], "rb");
			char *text = NULL;
			size_t cap = 0;
			ssize_t n;

			assert_non_null(f);
			n = getdelim(&text, &cap, '\0', f);
			assert_true(n > 0);
			fclose(f);
			n = compare_text(text);
			/* each has a refusal or a policy change: a comm and an exe */
			if (n < 2)
				fail_msg("%s: %zd encoded fields", g.gl_pathv[i], n);
			fields += (unsigned int)n;
			files++;
			free(text);
		}
		globfree(&g);
	}
	print_message("%u encoded fields in %u files\n", fields, files);
	assert_true(files >= 8);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_edge_values),
	cmocka_unit_test(test_gs_list_not_taken),
	cmocka_unit_test(test_generated_values),
	cmocka_unit_test(test_fixtures),
};

int main(void)
{
	return cmocka_run_group_tests(tests, NULL, NULL);
}
