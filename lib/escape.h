/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Showing hostile strings (file names, mount points, comm) safely.
 *
 * tf_escape_term() makes a byte string safe for a terminal: printable ASCII
 * and valid, visible UTF-8 pass through; everything else becomes a C-like
 * escape: \\ for a backslash, \n \t \r for those, and \xHH for every byte of
 *  - any other C0 control (U+0000..U+001F) and DEL (U+007F),
 *  - a C1 control (U+0080..U+009F, the UTF-8 bytes C2 80..C2 9F),
 *  - a format character (Unicode category Cf: the bidi controls U+202A..E,
 *    U+2066..9, U+200E/F, U+061C, zero-width U+200B..D, U+2060, U+FEFF,
 *    U+00AD, tags U+E0001, U+E0020..7F, ...) or U+2028 / U+2029,
 *  - invalid UTF-8: a byte that does not start a valid sequence (stray
 *    continuation, overlong, surrogate, above U+10FFFF, truncated) is
 *    written alone, and decoding resumes at the next byte.
 * So "\xe2\x80\xae" is U+202E (RIGHT-TO-LEFT OVERRIDE): a name cannot show
 * reversed. The output never contains a control byte or an invisible format
 * character, and it is unambiguous: a literal "\x1b" in a name shows as
 * "\\x1b", and bash's printf %b of the output gives the bytes back.
 */
#ifndef TF_ESCAPE_H
#define TF_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Escape @len bytes of @in into @out (at most @outsz bytes with the NUL).
 * Returns the length the full escaped string needs (without the NUL), like
 * snprintf: the result was truncated when it is >= @outsz.
 */
size_t tf_escape_term(const char *in, size_t len, char *out, size_t outsz);

/* Escaped copy of the NUL-terminated @s, malloc'd; NULL when out of memory. */
char *tf_escape_dup(const char *s);

/*
 * Write @len bytes of @s (NULs included), escaped, to @f; returns what
 * fputs returns (EOF with errno ENOMEM when the copy cannot be made).
 */
int tf_fwrite_escaped(const char *s, size_t len, FILE *f);

/* Write the NUL-terminated @s escaped to @f; as tf_fwrite_escaped(). */
int tf_fputs_escaped(const char *s, FILE *f);

/* Whether @len bytes of @s are valid UTF-8 (no overlongs, no surrogates). */
bool tf_utf8_valid(const char *s, size_t len);

/*
 * Length of the valid UTF-8 sequence at @s (at most @len bytes), its code
 * point in *@cp; 0 when the bytes there do not start a valid sequence.
 */
size_t tf_utf8_seq(const char *s, size_t len, uint32_t *cp);

/*
 * Whether code point @cp is never shown raw: C0, DEL, C1, format (Cf),
 * U+2028, U+2029. tf_escape_term() writes these as \xHH bytes.
 */
bool tf_cp_hidden(uint32_t cp);

/*
 * Whether @len bytes of @s are shown as they are: valid UTF-8 without a
 * hidden code point (backslashes aside, tf_escape_term() changes nothing).
 */
bool tf_text_plain(const char *s, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* TF_ESCAPE_H */
