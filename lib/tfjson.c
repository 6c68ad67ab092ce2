// SPDX-License-Identifier: LGPL-2.1-or-later
/* Hostile names in JSON; see tfjson.h. */
#include "tfjson.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "hex.h"

static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */

struct json_object *tf_json_text(const char *s, size_t len)
{
	struct json_object *o;
	size_t w = 0;
	uint32_t cp;
	char *text;

	if (len > INT_MAX / 3) /* json-c takes an int length */
		return NULL;
	if (tf_utf8_valid(s, len))
		return json_object_new_string_len(s, (int)len);
	/* At most 3 bytes (U+FFFD) for each input byte. */
	text = malloc(3 * len + 1);
	if (!text)
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t n = tf_utf8_seq(s + i, len - i, &cp);

		if (n) {
			memcpy(text + w, s + i, n);
			w += n;
			i += n;
		} else {
			memcpy(text + w, replacement, 3);
			w += 3;
			i++;
		}
	}
	o = json_object_new_string_len(text, (int)w);
	free(text);
	return o;
}

char *tf_hex_dup(const char *s, size_t len)
{
	char *h = malloc(2 * len + 1);

	if (!h)
		return NULL;
	return tf_hex(s, len, h, 2 * len + 1);
}

static int unhex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *tf_hex_decode(const char *hex, size_t len, size_t *outlen)
{
	char *out;

	if (len % 2) {
		errno = EINVAL;
		return NULL;
	}
	out = malloc(len / 2 + 1);
	if (!out) {
		errno = ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < len / 2; i++) {
		int hi = unhex(hex[2 * i]), lo = unhex(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(out);
			errno = EINVAL;
			return NULL;
		}
		out[i] = (char)(hi << 4 | lo);
	}
	out[len / 2] = '\0';
	*outlen = len / 2;
	return out;
}

int tf_json_own_add(struct json_object *obj, const char *key,
		    struct json_object *v)
{
	if (!obj || json_object_object_add(obj, key, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

int tf_json_own_push(struct json_object *arr, struct json_object *v)
{
	if (!arr || json_object_array_add(arr, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

int tf_json_add_bytes(struct json_object *obj, const char *key, const char *s,
		      size_t len)
{
	struct json_object *text, *hex = NULL;
	char hexkey[128];

	if (!s)
		return json_object_object_add(obj, key, NULL) ? -1 : 0;
	if ((size_t)snprintf(hexkey, sizeof(hexkey), "%s_hex", key) >= sizeof(hexkey))
		return -1;
	text = tf_json_text(s, len);
	if (!text)
		return -1;
	if (!tf_text_plain(s, len)) {
		char *h = tf_hex_dup(s, len);

		hex = h ? json_object_new_string(h) : NULL;
		free(h);
		if (!hex) {
			json_object_put(text);
			return -1;
		}
	}
	if (json_object_object_add(obj, key, text)) {
		json_object_put(text);
		json_object_put(hex);
		return -1;
	}
	if (hex && json_object_object_add(obj, hexkey, hex)) {
		json_object_put(hex);
		json_object_object_del(obj, key);
		return -1;
	}
	return 0;
}

int tf_json_add_str(struct json_object *obj, const char *key, const char *s)
{
	return tf_json_add_bytes(obj, key, s, s ? strlen(s) : 0);
}

/* Append @n bytes to @out (when not NULL) at *@w; counts either way. */
static void emit(char *out, size_t *w, const char *s, size_t n)
{
	if (out)
		memcpy(out + *w, s, n);
	*w += n;
}

static void emit_u(char *out, size_t *w, unsigned int u)
{
	const unsigned char be[2] = { (u >> 8) & 0xff, u & 0xff };
	char e[7] = { '\\', 'u' };

	tf_hex(be, sizeof(be), e + 2, sizeof(e) - 2);
	emit(out, w, e, 6);
}

/* One pass over the serialized @s: count (out NULL) or write. */
static size_t rewrite(const char *s, size_t len, char *out)
{
	size_t w = 0;
	uint32_t cp;

	for (size_t i = 0; i < len;) {
		size_t n = 0;

		/*
		 * A run of ASCII below DEL as it is, in one copy: what the
		 * code below does with each of those bytes, but nearly all
		 * of the text is that (it was most of this function's time).
		 */
		while (i + n < len && (unsigned char)s[i + n] < 0x7f)
			n++;
		if (n) {
			emit(out, &w, s + i, n);
			i += n;
			continue;
		}
		n = tf_utf8_seq(s + i, len - i, &cp);
		if (!n) {
			/* A string not made by tf_json_text(): keep the JSON valid. */
			emit_u(out, &w, 0xfffd);
			i++;
			continue;
		}
		/* C0 outside strings is JSON white space; json-c escapes it inside. */
		if (cp >= 0x20 && tf_cp_hidden(cp)) {
			if (cp > 0xffff) {
				cp -= 0x10000;
				emit_u(out, &w, 0xd800 | (cp >> 10));
				emit_u(out, &w, 0xdc00 | (cp & 0x3ff));
			} else {
				emit_u(out, &w, cp);
			}
		} else {
			emit(out, &w, s + i, n);
		}
		i += n;
	}
	return w;
}

char *tf_json_string(struct json_object *obj, int flags)
{
	size_t slen, need;
	const char *s = json_object_to_json_string_length(obj, flags, &slen);
	char *out;

	if (!s)
		return NULL;
	need = rewrite(s, slen, NULL);
	out = malloc(need + 1);
	if (!out)
		return NULL;
	rewrite(s, slen, out);
	out[need] = '\0';
	return out;
}

int tf_json_print(FILE *f, struct json_object *obj, int flags)
{
	char *s = tf_json_string(obj, flags);
	int rc;

	if (!s)
		return -1;
	rc = fputs(s, f) < 0 || fputc('\n', f) == EOF ? -1 : 0;
	free(s);
	return rc;
}
