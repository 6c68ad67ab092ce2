/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Showing hostile strings (file names, mount points, comm) safely.
 *
 * tf_escape_term() makes a byte string safe for a terminal: printable ASCII
 * and valid, printable UTF-8 pass through; everything else becomes a C-like
 * escape: \\ for a backslash, \n \t \r for those, \xHH for any other control
 * byte (C0, DEL), C1 control (U+0080..U+009F, written as its UTF-8 bytes),
 * and every byte of an invalid or overlong UTF-8 sequence. The output never
 * contains a control byte, so it cannot move the cursor or change colours,
 * and it is unambiguous: a literal "\x1b" in a name shows as "\\x1b".
 */
#ifndef TF_ESCAPE_H
#define TF_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
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

/* Write @s escaped to @f; returns what fputs returns. */
int tf_fputs_escaped(const char *s, FILE *f);

/* Whether @len bytes of @s are valid UTF-8 (no overlongs, no surrogates). */
bool tf_utf8_valid(const char *s, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* TF_ESCAPE_H */
