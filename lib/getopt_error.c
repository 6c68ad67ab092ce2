// SPDX-License-Identifier: LGPL-2.1-or-later
/* What was wrong with a refused option; see getopt_error.h. */
#include "getopt_error.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"

/* The long options whose name begins with the @n bytes of @name. */
static int long_matches(const struct option *lo, const char *name, size_t n,
			const struct option **first)
{
	int count = 0;

	for (; lo && lo->name; lo++) {
		if (strncmp(lo->name, name, n))
			continue;
		if (strlen(lo->name) == n) { /* exact: no abbreviation */
			*first = lo;
			return 1;
		}
		if (!count++)
			*first = lo;
	}
	return count;
}

/*
 * Whether a '?' with a non-zero optopt is about the long option in @word
 * ("--name=value" naming an option without an argument) rather than a
 * short one.  A word "--name=value" before the refused short option
 * names an option that takes a value (or getopt would have stopped
 * there), so the table tells the two apart.
 */
static bool long_took_value(const char *word, const struct option *lo)
{
	const struct option *o = NULL;
	size_t n;

	if (!word || strncmp(word, "--", 2) || !strchr(word, '='))
		return false;
	n = strcspn(word + 2, "=");
	return long_matches(lo, word + 2, n, &o) == 1 &&
	       o->has_arg == no_argument;
}

/* Append the escaped @n bytes of @s at @buf + *@w. */
static void put(char *buf, size_t size, size_t *w, const char *s, size_t n)
{
	size_t need;

	if (*w >= size)
		return;
	need = tf_escape_term(s, n, buf + *w, size - *w);
	*w = need < size - *w ? *w + need : size - 1;
}

static void lit(char *buf, size_t size, size_t *w, const char *s)
{
	size_t n = strlen(s);

	if (*w >= size)
		return;
	if (n >= size - *w)
		n = size - *w - 1;
	memcpy(buf + *w, s, n);
	*w += n;
	buf[*w] = '\0';
}

const char *tf_getopt_error(int opt, char *const argv[],
			    const struct option *longopts, char *buf,
			    size_t size)
{
	const char *word = optind > 0 ? argv[optind - 1] : NULL;
	const struct option *o = NULL;
	char shortopt[3] = { '-', (char)optopt, '\0' };
	bool is_long, took;
	size_t w = 0, n;

	if (!size)
		return buf;
	buf[0] = '\0';
	/*
	 * Long: a missing value when the last word is a long option (a
	 * missing value is always the last word's); a value given to a long
	 * option that takes none; optopt 0 (an unknown or ambiguous name).
	 */
	took = opt == '?' && long_took_value(word, longopts);
	if (opt == ':')
		is_long = word && !strncmp(word, "--", 2) && word[2];
	else
		is_long = took || !optopt;
	if (!is_long) {
		lit(buf, size, &w, opt == ':' ? "option '" : "unknown option '");
		put(buf, size, &w, shortopt, 2);
		lit(buf, size, &w, opt == ':' ? "' needs a value" : "'");
		return buf;
	}
	if (!word || strncmp(word, "--", 2)) { /* not from getopt_long */
		lit(buf, size, &w, "unknown option");
		return buf;
	}
	n = strcspn(word, "=");
	if (opt == ':' || took) {
		lit(buf, size, &w, "option '");
		put(buf, size, &w, word, n);
		lit(buf, size, &w, opt == ':' ? "' needs a value" : "' takes no value");
		return buf;
	}
	if (long_matches(longopts, word + 2, n - 2, &o) > 1) {
		const struct option *lo;
		const char *sep = " (";

		lit(buf, size, &w, "ambiguous option '");
		put(buf, size, &w, word, n);
		lit(buf, size, &w, "'");
		for (lo = longopts; lo->name; lo++) {
			if (strncmp(lo->name, word + 2, n - 2))
				continue;
			lit(buf, size, &w, sep);
			lit(buf, size, &w, "--");
			lit(buf, size, &w, lo->name);
			sep = ", ";
		}
		lit(buf, size, &w, ")");
		return buf;
	}
	lit(buf, size, &w, "unknown option '");
	put(buf, size, &w, word, n);
	lit(buf, size, &w, "'");
	return buf;
}
