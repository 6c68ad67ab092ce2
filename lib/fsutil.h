/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fsutil.h - small file system helpers shared by the tools. */
#ifndef TF_FSUTIL_H
#define TF_FSUTIL_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Make the directory that holds @path ("/var/lib/x" for "/var/lib/x/state"),
 * with @mode, before a file is written there.  One level only: its own
 * parent must exist (a mistyped path does not grow a tree).
 * Already there (EEXIST), "/" and a @path without a slash (the current
 * directory) are success; no check that what exists is a directory (the
 * file's open(2) says ENOTDIR).  Returns 0, or -1 with mkdir(2)'s errno
 * (ENOENT: its parent is missing; EACCES...) or ENOMEM.
 */
int tf_mkdir_parent(const char *path, mode_t mode);

#ifdef __cplusplus
}
#endif

#endif /* TF_FSUTIL_H */
