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
 * The mount facts for a file from its statx @stx: from the table entry with
 * its STATX_MNT_ID (by path prefix on a kernel without STATX_MNT_ID); for a
 * path below /proc/PID/, from that process's mountinfo; for the mount
 * holding the root (a chroot's, which mountinfo omits) or a kernel-internal
 * mount reached through a /proc/PID/fd/N link (pipes, memfd, sockets; always
 * a pseudo fs), from statfs(2) of @path (f_type and ST_NOEXEC). Returns 0;
 * or -1 with errno, or with a one-line reason in *@why when the facts
 * cannot be known.
 */
int pc_facts_fs(struct pc_mounts *ms, const struct statx *stx,
		const char *path, struct pc_fsinfo *fs, const char **why);

/*
 * The regular files some process has open for writing: every
 * /proc/PID/fd/N whose link mode has the owner write bit (the kernel sets it
 * from the file description's FMODE_WRITE, which is what makes the inode's
 * i_writecount positive), identified by device and inode. Without
 * CAP_SYS_PTRACE only the caller's own processes can be seen; writable
 * shared memory mappings whose descriptor was closed are not seen. A
 * memfd's descriptors are left out: memfd_create()'s own descriptor takes
 * no write access (a writable re-open through /proc/PID/fd/N would, and
 * is missed).
 */
struct pc_writer {
	unsigned long long dev; /* makedev(stx_dev_major, stx_dev_minor) */
	unsigned long long ino;
};
struct pc_writers {
	struct pc_writer *v; /* sorted, no duplicates */
	size_t n;
	unsigned long long unseen; /* processes whose fds could not be read */
};

/*
 * Scan @proc ("/proc"; another directory of the same layout in tests) into
 * @w. Returns 0, or -1 with errno when @proc cannot be read or memory runs
 * out (@w then empty).
 */
int pc_writers_load(struct pc_writers *w, const char *proc);
/* Is the file of @stx open for writing in @w? */
bool pc_writers_has(const struct pc_writers *w, const struct statx *stx);
void pc_writers_free(struct pc_writers *w);

#endif /* PC_FACTS_H */
