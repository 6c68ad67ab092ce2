/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hostile names in JSON, one convention for every tool (json-c objects).
 *
 * A name (path, mount point, fstype, exe, comm, user, node...) is a byte
 * string chosen by a user or the kernel. Under KEY an object holds it as
 * JSON text, valid UTF-8:
 *  - KEY: the name as text; each byte that does not belong to a valid UTF-8
 *    sequence is replaced by U+FFFD. Controls and format characters stay
 *    (JSON escapes them; tf_json_print() writes them as \uXXXX).
 *  - KEY_hex: present only when the name is not valid UTF-8 or contains a
 *    control or format character (tf_text_plain() is false): the exact
 *    bytes, two lower-case hex digits each. Absent for plain names.
 * A reader wanting the exact bytes takes KEY_hex when present, else KEY.
 *
 * tf_json_print() / tf_json_string() serialize with json-c and then write
 * every DEL, C1 control, format character (bidi controls...) and U+2028/9
 * inside strings as a \uXXXX escape (surrogate pairs above U+FFFF), so the
 * JSON shown on a terminal cannot be reordered or hidden either. json-c
 * already escapes C0 controls.
 */
#ifndef TF_JSON_H
#define TF_JSON_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Add the @len bytes of @s under @key (and "@key_hex" when needed) in @obj.
 * @s NULL adds @key as JSON null. Returns 0, or -1 when out of memory (or
 * @key is too long) with @obj unchanged.
 */
int tf_json_add_bytes(struct json_object *obj, const char *key, const char *s,
		      size_t len);

/* tf_json_add_bytes() of the NUL-terminated @s (NULL: null). */
int tf_json_add_str(struct json_object *obj, const char *key, const char *s);

/*
 * Add @v under @key in @obj (tf_json_own_add) or at the end of @arr
 * (tf_json_own_push), taking @v in every case: json-c leaves a value it
 * could not add with the caller, so these free it, as they do when the
 * container is NULL (its own allocation failed).  0 when added, else -1.
 * A chain of them builds a document without a leak on out of memory.
 */
int tf_json_own_add(struct json_object *obj, const char *key,
		    struct json_object *v);
int tf_json_own_push(struct json_object *arr, struct json_object *v);

/*
 * A JSON string holding the text of @len bytes of @s (invalid bytes as
 * U+FFFD), for arrays where no KEY_hex can sit; NULL when out of memory
 * or @len is beyond json-c's int lengths.
 */
struct json_object *tf_json_text(const char *s, size_t len);

/*
 * "2f74" for "/t": 2 * @len hex digits, malloc'd; NULL when out of memory.
 * The "_hex" twin of tf_json_add_bytes(), tf_hex_decode()'s inverse.
 */
char *tf_hex_dup(const char *s, size_t len);

/*
 * Decode @len hex digits of @hex into a malloc'd buffer (NUL-terminated
 * for convenience), its length in *@outlen. NULL with errno EINVAL when
 * @len is odd or a digit is not hex, ENOMEM when out of memory.
 */
char *tf_hex_decode(const char *hex, size_t len, size_t *outlen);

/*
 * Serialize @obj (json_object_to_json_string_ext() @flags) with the hidden
 * code points escaped as above. malloc'd; NULL when out of memory.
 */
char *tf_json_string(struct json_object *obj, int flags);

/* tf_json_string() written to @f with a newline; 0, or -1. */
int tf_json_print(FILE *f, struct json_object *obj, int flags);

#ifdef __cplusplus
}
#endif

#endif /* TF_JSON_H */
