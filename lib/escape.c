// SPDX-License-Identifier: LGPL-2.1-or-later
/* Terminal-safe escaping of hostile strings; see escape.h. */
#include "escape.h"
#include "hex.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Length of the valid UTF-8 sequence starting at @s (at most @len bytes), and
 * its code point in *cp; 0 when the bytes there are not valid UTF-8.
 */
static size_t utf8_seq(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t n;
	uint32_t c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	} else if ((s[0] & 0xe0) == 0xc0) {
		n = 2, c = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3, c = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4, c = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

size_t tf_utf8_seq(const char *s, size_t len, uint32_t *cp)
{
	return len ? utf8_seq((const unsigned char *)s, len, cp) : 0;
}

/*
 * Format characters (Unicode general category Cf, Unicode 15) and the line
 * and paragraph separators (Zl, Zp): invisible, and the bidi ones among them
 * (U+061C, U+200E/F, U+202A..E, U+2066..9) reorder what follows on the
 * screen. Sorted, inclusive ranges.
 */
static const struct {
	uint32_t lo, hi;
} format_ranges[] = {
	{ 0x00ad, 0x00ad },   /* soft hyphen */
	{ 0x0600, 0x0605 },   /* Arabic number signs */
	{ 0x061c, 0x061c },   /* Arabic letter mark (bidi) */
	{ 0x06dd, 0x06dd },   /* Arabic end of ayah */
	{ 0x070f, 0x070f },   /* Syriac abbreviation mark */
	{ 0x0890, 0x0891 },   /* Arabic pound / piastre mark above */
	{ 0x08e2, 0x08e2 },   /* Arabic disputed end of ayah */
	{ 0x180e, 0x180e },   /* Mongolian vowel separator */
	{ 0x200b, 0x200f },   /* zero-width space..RLM (bidi marks) */
	{ 0x2028, 0x202e },   /* line/paragraph separators, LRE..RLO (bidi) */
	{ 0x2060, 0x206f },   /* word joiner.., LRI..PDI (bidi), deprecated */
	{ 0xfeff, 0xfeff },   /* zero-width no-break space (BOM) */
	{ 0xfff9, 0xfffb },   /* interlinear annotation */
	{ 0x110bd, 0x110bd }, /* Kaithi number sign */
	{ 0x110cd, 0x110cd }, /* Kaithi number sign above */
	{ 0x13430, 0x1343f }, /* Egyptian hieroglyph format controls */
	{ 0x1bca0, 0x1bca3 }, /* shorthand format controls */
	{ 0x1d173, 0x1d17a }, /* musical symbol beam/tie/slur controls */
	{ 0xe0001, 0xe0001 }, /* language tag */
	{ 0xe0020, 0xe007f }, /* tag characters (invisible ASCII copies) */
};

bool tf_cp_hidden(uint32_t cp)
{
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
		return true;
	if (cp < 0xad)
		return false;
	for (size_t i = 0; i < sizeof(format_ranges) / sizeof(format_ranges[0]); i++) {
		if (cp < format_ranges[i].lo)
			return false;
		if (cp <= format_ranges[i].hi)
			return true;
	}
	return false;
}

/* Whether @s is valid UTF-8 throughout, and (@plain) shows no hidden code point. */
static bool utf8_scan(const char *s, size_t len, bool plain)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq(p + i, len - i, &cp);

		if (!n || (plain && tf_cp_hidden(cp)))
			return false;
		i += n;
	}
	return true;
}

bool tf_text_plain(const char *s, size_t len)
{
	return utf8_scan(s, len, true);
}

bool tf_utf8_valid(const char *s, size_t len)
{
	return utf8_scan(s, len, false);
}

struct sink {
	char *out;
	size_t size, used;
};

static void put(struct sink *k, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, k->used++)
		if (k->used + 1 < k->size)
			k->out[k->used] = s[i];
}

static void put_hex(struct sink *k, unsigned char b)
{
	char e[5] = { '\\', 'x' };

	tf_hex(&b, 1, e + 2, sizeof(e) - 2);
	put(k, e, 4);
}

size_t tf_escape_term(const char *in, size_t len, char *out, size_t outsz)
{
	const unsigned char *p = (const unsigned char *)in;
	struct sink k = { out, outsz, 0 };
	uint32_t cp;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq(p + i, len - i, &cp);

		if (n == 1 && cp == '\\') {
			put(&k, "\\\\", 2);
		} else if (n == 1 && cp == '\n') {
			put(&k, "\\n", 2);
		} else if (n == 1 && cp == '\t') {
			put(&k, "\\t", 2);
		} else if (n == 1 && cp == '\r') {
			put(&k, "\\r", 2);
		} else if (n == 0 || tf_cp_hidden(cp)) {
			/*
			 * Invalid byte (one at a time: a truncated or overlong
			 * sequence shows every byte), or a control or format
			 * character: every byte of it as \xHH.
			 */
			size_t m = n ? n : 1;

			for (size_t j = 0; j < m; j++)
				put_hex(&k, p[i + j]);
			n = m;
		} else {
			put(&k, in + i, n);
		}
		i += n;
	}
	if (outsz)
		out[k.used < outsz ? k.used : outsz - 1] = '\0';
	return k.used;
}

char *tf_escape_dup(const char *s)
{
	size_t len = strlen(s);
	size_t need = tf_escape_term(s, len, NULL, 0);
	char *out = malloc(need + 1);

	if (out)
		tf_escape_term(s, len, out, need + 1);
	return out;
}

int tf_fwrite_escaped(const char *s, size_t len, FILE *f)
{
	char buf[1024];
	size_t need = tf_escape_term(s, len, buf, sizeof(buf));
	char *big;
	int rc;

	if (need < sizeof(buf))
		return fputs(buf, f);
	big = malloc(need + 1);
	if (!big) {
		errno = ENOMEM;
		return EOF;
	}
	tf_escape_term(s, len, big, need + 1);
	rc = fputs(big, f);
	free(big);
	return rc;
}

int tf_fputs_escaped(const char *s, FILE *f)
{
	return tf_fwrite_escaped(s, strlen(s), f);
}
