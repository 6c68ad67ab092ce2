/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hex.h - bytes as lowercase hexadecimal text. */
#ifndef TF_HEX_H
#define TF_HEX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The @n bytes at @buf as 2 * @n lowercase hex digits ("\x01\xab" gives
 * "01ab"), NUL-terminated, in @out.  Returns @out; NULL with errno ERANGE
 * when @outsz < 2 * @n + 1 (then @out holds "" if @outsz > 0).
 */
char *tf_hex(const void *buf, size_t n, char *out, size_t outsz);

#ifdef __cplusplus
}
#endif

#endif /* TF_HEX_H */
