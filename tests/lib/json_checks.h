/* Checks shared by the cmocka tests of the tools' JSON and text output.
 * Include after <cmocka.h>, <json-c/json.h> and "escape.h".
 */
#ifndef TF_TESTS_JSON_CHECKS_H
#define TF_TESTS_JSON_CHECKS_H

/* The string at @o[@k], or NULL when there is none. */
static inline const char *field(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
}

/* @o[@k] is the string @want (a clear failure when missing). */
static inline void want_field(json_object *o, const char *k, const char *want)
{
	const char *got = field(o, k);

	if (!got || strcmp(got, want))
		fail_msg("\"%s\": got %s%s%s, want \"%s\"", k, got ? "\"" : "",
			 got ? got : "nothing", got ? "\"" : "", want);
}

/* No raw control (but the newline) or format character anywhere in @s. */
static inline void assert_terminal_safe(const char *s)
{
	for (size_t i = 0; s[i];) {
		uint32_t cp;
		size_t n = tf_utf8_seq(s + i, strlen(s + i), &cp);

		if (!n || (cp != '\n' && tf_cp_hidden(cp)))
			fail_msg("raw hidden byte at %zu: ...%.20s", i, s + (i > 10 ? i - 10 : 0));
		i += n;
	}
}

#endif
