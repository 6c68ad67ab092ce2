/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Replacing a file atomically: readers see the old content or the new one,
 * never a torn file, even across a crash.
 */
#ifndef TF_ATOMIC_FILE_H
#define TF_ATOMIC_FILE_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Write @len bytes to a temporary file next to @path (same directory, so the
 * same filesystem), fsync it, give it @mode, rename it over @path and fsync
 * the directory. Returns 0, or -1 with errno; on failure @path is untouched
 * and the temporary file is removed, except when only the last step fails:
 * the directory cannot be opened or fsync(2)ed (EACCES: no read permission
 * on it, EIO...).  Then @path already holds the new content, but a crash
 * may still bring the old one back: -1 says the write is not durable.
 */
int tf_atomic_write(const char *path, const void *data, size_t len,
		    mode_t mode);

#ifdef __cplusplus
}
#endif

#endif /* TF_ATOMIC_FILE_H */
