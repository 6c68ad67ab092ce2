// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/escape.c: what a terminal is shown of a hostile name.
 *
 * Every expected output below was written by hand from the rule in
 * escape.h (C0, DEL, C1, format characters, U+2028/9 and every byte of
 * invalid UTF-8 become \xHH; \ \n \t \r become \\ \n \t \r; the rest stays),
 * looking the code points up in the Unicode charts, not by running the code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "escape.h"

struct row {
	const char *what;
	const char *in;
	size_t len; /* 0: strlen(in) */
	const char *want;
};

#define R(what, in, want) { what, in, sizeof(in) - 1, want }

static const struct row rows[] = {
	/* shown as they are */
	R("plain path", "/usr/bin/run.sh", "/usr/bin/run.sh"),
	R("empty", "", ""),
	R("space", "with space", "with space"),
	R("U+00E9 e acute", "caf\xc3\xa9", "caf\xc3\xa9"),
	R("U+00A0 no-break space (Zs, first after C1)", "a\xc2\xa0" "b", "a\xc2\xa0" "b"),
	R("U+2713 check mark", "\xe2\x9c\x93 ok", "\xe2\x9c\x93 ok"),
	R("U+1F600 emoji", "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"),
	R("U+200A hair space (before U+200B)", "\xe2\x80\x8a", "\xe2\x80\x8a"),
	R("U+2010 hyphen (after U+200F)", "\xe2\x80\x90", "\xe2\x80\x90"),
	R("U+2027 hyphenation point (before U+2028)", "\xe2\x80\xa7", "\xe2\x80\xa7"),
	R("U+202F narrow nbsp (after U+202E)", "\xe2\x80\xaf", "\xe2\x80\xaf"),
	R("U+205F math space (before U+2060)", "\xe2\x81\x9f", "\xe2\x81\x9f"),
	R("U+2070 superscript 0 (after U+206F)", "\xe2\x81\xb0", "\xe2\x81\xb0"),
	R("U+FFFD replacement char", "\xef\xbf\xbd", "\xef\xbf\xbd"),
	R("U+E0080 (after the tags)", "\xf3\xa0\x82\x80", "\xf3\xa0\x82\x80"),
	R("U+10FFFF (last code point)", "\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"),
	/* backslash and the named C0 escapes */
	R("backslash", "back\\slash", "back\\\\slash"),
	R("literal \\x1b text", "\\x1b", "\\\\x1b"),
	R("newline tab cr", "a\nb\tc\rd", "a\\nb\\tc\\rd"),
	/* C0 and DEL */
	{ "NUL inside", "a\0b", 3, "a\\x00b" },
	R("U+0001", "\x01", "\\x01"),
	R("ESC CSI", "\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"),
	R("BEL", "bell\a", "bell\\x07"),
	R("U+001F", "\x1f", "\\x1f"),
	R("DEL", "del\x7f", "del\\x7f"),
	/* C1, as its UTF-8 bytes */
	R("U+0080", "\xc2\x80", "\\xc2\\x80"),
	R("U+0085 NEL", "\xc2\x85", "\\xc2\\x85"),
	R("U+009B CSI then 2J", "\xc2\x9b" "2J", "\\xc2\\x9b2J"),
	R("U+009F", "\xc2\x9f", "\\xc2\\x9f"),
	/* bidi controls */
	R("U+202A LRE", "\xe2\x80\xaa", "\\xe2\\x80\\xaa"),
	R("U+202B RLE", "\xe2\x80\xab", "\\xe2\\x80\\xab"),
	R("U+202C PDF", "\xe2\x80\xac", "\\xe2\\x80\\xac"),
	R("U+202D LRO", "\xe2\x80\xad", "\\xe2\\x80\\xad"),
	R("U+202E RLO in a name", "invoice\xe2\x80\xaegpj.sh",
	  "invoice\\xe2\\x80\\xaegpj.sh"),
	R("U+2066 LRI", "\xe2\x81\xa6", "\\xe2\\x81\\xa6"),
	R("U+2067 RLI", "\xe2\x81\xa7", "\\xe2\\x81\\xa7"),
	R("U+2068 FSI", "\xe2\x81\xa8", "\\xe2\\x81\\xa8"),
	R("U+2069 PDI", "\xe2\x81\xa9", "\\xe2\\x81\\xa9"),
	R("U+200E LRM", "\xe2\x80\x8e", "\\xe2\\x80\\x8e"),
	R("U+200F RLM", "\xe2\x80\x8f", "\\xe2\\x80\\x8f"),
	R("U+061C ALM", "\xd8\x9c", "\\xd8\\x9c"),
	/* other format characters (Cf) and the separators */
	R("U+00AD soft hyphen", "\xc2\xad", "\\xc2\\xad"),
	R("U+0600 Arabic number sign", "\xd8\x80", "\\xd8\\x80"),
	R("U+180E Mongolian vowel sep", "\xe1\xa0\x8e", "\\xe1\\xa0\\x8e"),
	R("U+200B zero width space", "a\xe2\x80\x8b" "b", "a\\xe2\\x80\\x8bb"),
	R("U+200D zero width joiner", "\xe2\x80\x8d", "\\xe2\\x80\\x8d"),
	R("U+2028 line separator", "\xe2\x80\xa8", "\\xe2\\x80\\xa8"),
	R("U+2029 paragraph separator", "\xe2\x80\xa9", "\\xe2\\x80\\xa9"),
	R("U+2060 word joiner", "\xe2\x81\xa0", "\\xe2\\x81\\xa0"),
	R("U+206F nominal digit shapes", "\xe2\x81\xaf", "\\xe2\\x81\\xaf"),
	R("U+FEFF BOM", "\xef\xbb\xbf", "\\xef\\xbb\\xbf"),
	R("U+FFF9 annotation anchor", "\xef\xbf\xb9", "\\xef\\xbf\\xb9"),
	R("U+110BD Kaithi number sign", "\xf0\x91\x82\xbd", "\\xf0\\x91\\x82\\xbd"),
	R("U+1D173 music begin beam", "\xf0\x9d\x85\xb3", "\\xf0\\x9d\\x85\\xb3"),
	R("U+E0001 language tag", "\xf3\xa0\x80\x81", "\\xf3\\xa0\\x80\\x81"),
	R("U+E0041 tag A", "\xf3\xa0\x81\x81", "\\xf3\\xa0\\x81\\x81"),
	R("U+E007F cancel tag", "\xf3\xa0\x81\xbf", "\\xf3\\xa0\\x81\\xbf"),
	/* invalid UTF-8, one byte at a time */
	R("lone continuation", "a\x80" "b", "a\\x80b"),
	R("0xff 0xfe", "bad\xff\xfe", "bad\\xff\\xfe"),
	R("0xf8 5-byte lead", "\xf8\x88\x80\x80\x80", "\\xf8\\x88\\x80\\x80\\x80"),
	R("overlong '/' (2 bytes)", "\xc0\xaf", "\\xc0\\xaf"),
	R("overlong NUL", "\xc0\x80", "\\xc0\\x80"),
	R("overlong '/' (3 bytes)", "\xe0\x80\xaf", "\\xe0\\x80\\xaf"),
	R("overlong '/' (4 bytes)", "\xf0\x80\x80\xaf", "\\xf0\\x80\\x80\\xaf"),
	R("overlong U+009B (3 bytes)", "\xe0\x82\x9b", "\\xe0\\x82\\x9b"),
	R("overlong U+202E (4 bytes)", "\xf0\x82\x80\xae", "\\xf0\\x82\\x80\\xae"),
	R("surrogate U+D800", "\xed\xa0\x80", "\\xed\\xa0\\x80"),
	R("surrogate U+DFFF", "\xed\xbf\xbf", "\\xed\\xbf\\xbf"),
	R("U+110000", "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"),
	R("0xf5 lead", "\xf5\x80\x80\x80", "\\xf5\\x80\\x80\\x80"),
	R("truncated at the end", "cut\xe2\x9c", "cut\\xe2\\x9c"),
	R("truncated, then ASCII", "\xe2\x80" "a", "\\xe2\\x80a"),
	R("truncated, then e acute", "\xf0\x9f\xc3\xa9", "\\xf0\\x9f\xc3\xa9"),
	R("truncated, then RLO", "\xe2\xe2\x80\xae", "\\xe2\\xe2\\x80\\xae"),
	R("all at once", "\x1b\xc2\x9b\xe2\x80\xae\xff/ok\xe2\x81\xa9",
	  "\\x1b\\xc2\\x9b\\xe2\\x80\\xae\\xff/ok\\xe2\\x81\\xa9"),
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* Reverse the escaping (\\ \n \t \r \xHH), an independent decoder. */
static char *unescape(const char *s, size_t *outlen)
{
	char *out = malloc(strlen(s) + 1);
	size_t w = 0;

	assert_non_null(out);
	for (size_t i = 0; s[i];) {
		if (s[i] != '\\') {
			out[w++] = s[i++];
			continue;
		}
		switch (s[i + 1]) {
		case '\\':
			out[w++] = '\\';
			i += 2;
			break;
		case 'n':
			out[w++] = '\n';
			i += 2;
			break;
		case 't':
			out[w++] = '\t';
			i += 2;
			break;
		case 'r':
			out[w++] = '\r';
			i += 2;
			break;
		case 'x': {
			unsigned int b;
			int got = sscanf(s + i + 2, "%2x", &b);

			assert_int_equal(got, 1);
			out[w++] = (char)b;
			i += 4;
			break;
		}
		default:
			fail_msg("bad escape at %zu in \"%s\"", i, s);
		}
	}
	*outlen = w;
	return out;
}

/* tf_fwrite_escaped() writes the row's bytes, NULs included, as the table says. */
static void written(const struct row *r)
{
	char *got = NULL;
	size_t gotlen = 0;
	FILE *f = open_memstream(&got, &gotlen);

	assert_non_null(f);
	assert_true(tf_fwrite_escaped(r->in, r->len, f) >= 0);
	assert_int_equal(fclose(f), 0);
	if (strcmp(got, r->want))
		fail_msg("%s: tf_fwrite_escaped() wrote \"%s\"", r->what, got);
	free(got);
}

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < NROWS; i++) {
		const struct row *r = &rows[i];
		size_t need = tf_escape_term(r->in, r->len, NULL, 0);
		char *out = malloc(need + 1);

		assert_non_null(out);
		assert_int_equal(tf_escape_term(r->in, r->len, out, need + 1), need);
		if (strcmp(out, r->want))
			fail_msg("%s: got \"%s\", want \"%s\"", r->what, out, r->want);
		free(out);
		written(r);
		if (strlen(r->in) != r->len)
			continue; /* a NUL inside: not a C string */
		out = tf_escape_dup(r->in);
		assert_non_null(out);
		if (strcmp(out, r->want))
			fail_msg("%s: tf_escape_dup() gave \"%s\"", r->what, out);
		free(out);
	}
}

/* The output is plain text (no control or format character) and decodes back. */
static void test_output_plain_and_reversible(void **state)
{
	(void)state;
	for (size_t i = 0; i < NROWS; i++) {
		const struct row *r = &rows[i];
		size_t need = tf_escape_term(r->in, r->len, NULL, 0), back;
		char *out = malloc(need + 1), *dec;

		assert_non_null(out);
		tf_escape_term(r->in, r->len, out, need + 1);
		if (!tf_text_plain(out, need))
			fail_msg("%s: output not plain text", r->what);
		dec = unescape(out, &back);
		if (back != r->len || memcmp(dec, r->in, back))
			fail_msg("%s: escaping is not reversible", r->what);
		free(dec);
		free(out);
	}
}

/* Random bytes (fixed seed): never a control byte out, always reversible. */
static void test_random_bytes(void **state)
{
	uint32_t x = 0x2545f491;

	(void)state;
	for (int round = 0; round < 2000; round++) {
		unsigned char in[24];
		size_t len = round % sizeof(in), back;
		char *out, *dec;
		size_t need;

		for (size_t i = 0; i < len; i++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			/* bias towards UTF-8 lead and continuation bytes */
			in[i] = (unsigned char)(x & 1 ? 0x80 | (x >> 8 & 0x7f) : x >> 8);
		}
		need = tf_escape_term((const char *)in, len, NULL, 0);
		out = malloc(need + 1);
		assert_non_null(out);
		tf_escape_term((const char *)in, len, out, need + 1);
		assert_true(tf_text_plain(out, need));
		dec = unescape(out, &back);
		assert_int_equal(back, len);
		assert_memory_equal(dec, in, len);
		free(dec);
		free(out);
	}
}

static void test_classifiers(void **state)
{
	(void)state;
	/* the boundaries of each hidden range, by hand */
	static const uint32_t hidden[] = {
		0x00, 0x1f, 0x7f, 0x80, 0x9f, 0xad, 0x600, 0x605, 0x61c, 0x6dd,
		0x70f, 0x890, 0x891, 0x8e2, 0x180e, 0x200b, 0x200f, 0x2028,
		0x202e, 0x2060, 0x2064, 0x2066, 0x2069, 0x206f, 0xfeff, 0xfff9,
		0xfffb, 0x110bd, 0x110cd, 0x13430, 0x1343f, 0x1bca0, 0x1bca3,
		0x1d173, 0x1d17a, 0xe0001, 0xe0020, 0xe007f,
	};
	static const uint32_t shown[] = {
		0x20, 0x7e, 0xa0, 0xac, 0xae, 0x5ff, 0x606, 0x61b, 0x61d, 0x6dc,
		0x6de, 0x892, 0x180d, 0x180f, 0x200a, 0x2010, 0x2027, 0x202f,
		0x205f, 0x2070, 0xfefe, 0xfff8, 0xfffc, 0xfffd, 0x110be,
		0x13440, 0x1bc9f, 0x1bca4, 0x1d172, 0x1d17b, 0xe0000, 0xe0002,
		0xe001f, 0xe0080, 0x10ffff,
	};

	for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++)
		if (!tf_cp_hidden(hidden[i]))
			fail_msg("U+%04X should be hidden", (unsigned int)hidden[i]);
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		if (tf_cp_hidden(shown[i]))
			fail_msg("U+%04X should be shown", (unsigned int)shown[i]);

	assert_true(tf_utf8_valid("caf\xc3\xa9", 5));
	assert_true(tf_utf8_valid("\xe2\x80\xae", 3)); /* valid, though hidden */
	assert_false(tf_utf8_valid("\xff", 1));
	assert_false(tf_utf8_valid("\xc0\xaf", 2));
	assert_false(tf_utf8_valid("\xed\xa0\x80", 3));
	assert_false(tf_utf8_valid("\xf4\x90\x80\x80", 4));
	assert_false(tf_utf8_valid("\xe2\x80", 2));

	assert_true(tf_text_plain("/usr/bin/x y\\z", 14));
	assert_true(tf_text_plain("caf\xc3\xa9", 5));
	assert_false(tf_text_plain("a\nb", 3));
	assert_false(tf_text_plain("a\0b", 3));
	assert_false(tf_text_plain("\xe2\x80\xae", 3));
	assert_false(tf_text_plain("\xc2\x85", 2));
	assert_false(tf_text_plain("\xff", 1));

	uint32_t cp = 0;

	assert_int_equal(tf_utf8_seq("\xf0\x9f\x98\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x1f600);
	assert_int_equal(tf_utf8_seq("\xf0\x9f\x98\x80", 3, &cp), 0);
	assert_int_equal(tf_utf8_seq("", 0, &cp), 0);
}

static void test_truncation(void **state)
{
	char buf[6];

	(void)state;
	assert_int_equal(tf_escape_term("ab\ncd", 5, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "ab\\nc");
	assert_int_equal(tf_escape_term("abc", 3, NULL, 0), 3);
	/* an escape cut in the middle: truncated like snprintf, terminated */
	assert_int_equal(tf_escape_term("a\xe2\x80\xae", 4, buf, sizeof(buf)), 13);
	assert_string_equal(buf, "a\\xe2");
}

static void test_dup_and_fputs(void **state)
{
	char *d, big[3000], *got = NULL;
	size_t gotlen = 0;
	FILE *f;

	(void)state;
	d = tf_escape_dup("x\xe2\x81\xa6y");
	assert_non_null(d);
	assert_string_equal(d, "x\\xe2\\x81\\xa6y");
	free(d);

	/* longer than tf_fputs_escaped()'s stack buffer */
	for (size_t i = 0; i < 1000; i++)
		memcpy(big + 3 * i, "\xe2\x80\xae", 3);
	big[2999] = '\0'; /* the last RLO is cut: e2 80 then the end */
	f = open_memstream(&got, &gotlen);
	assert_non_null(f);
	assert_true(tf_fputs_escaped(big, f) >= 0);
	fclose(f);
	assert_int_equal(gotlen, 999 * 12 + 8);
	assert_memory_equal(got, "\\xe2\\x80\\xae", 12);
	assert_string_equal(got + 999 * 12, "\\xe2\\x80");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_output_plain_and_reversible),
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_classifiers),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_dup_and_fputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
