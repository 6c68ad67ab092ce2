/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gathering the evaluator's inputs for a real file. */
#ifndef PC_FACTS_H
#define PC_FACTS_H

#include <sys/stat.h>

#include "eval.h"
#include "mounts.h"

struct pc_file_facts {
	struct pc_inode ino;
	struct pc_acl_entry acl[PC_ACL_MAX_ENTRIES];
};

/*
 * Fill @f from @stx and the file's system.posix_acl_access xattr, read
 * through @fd when >= 0, else through @path (symlinks followed).
 * Returns 0, or -1 with errno when the xattr is unreadable or malformed.
 */
int pc_facts_load(struct pc_file_facts *f, const struct statx *stx, int fd,
		  const char *path);

/*
 * The mount facts for a file: from the table entry with @mnt_id; for a path
 * below /proc/PID/ (another process's root, cwd or fd), from that process's
 * mountinfo (its mount namespace may differ); or, for a kernel-internal
 * mount not in mountinfo (pipes, memfd, sockets), from statfs(2) of @path
 * (f_type and ST_NOEXEC).
 */
int pc_facts_fs(struct pc_mounts *ms, unsigned long long mnt_id,
		const char *path, struct pc_fsinfo *fs);

#endif /* PC_FACTS_H */
