// SPDX-License-Identifier: LGPL-2.1-or-later
/* Bytes as lowercase hexadecimal text; see hex.h. */
#include "hex.h"

#include <errno.h>

char *tf_hex(const void *buf, size_t n, char *out, size_t outsz)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = buf;

	if (outsz == 0 || n > (outsz - 1) / 2) {
		if (outsz)
			out[0] = '\0';
		errno = ERANGE;
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 0xf];
	}
	out[2 * n] = '\0';
	return out;
}
