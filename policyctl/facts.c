// SPDX-License-Identifier: GPL-2.0-or-later
/* Evaluator inputs from the file system; see facts.h. */
#include "facts.h"

#include <errno.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>

#define ACL_XATTR "system.posix_acl_access"
#ifndef MQUEUE_MAGIC
#define MQUEUE_MAGIC 0x19800202
#endif

int pc_facts_load(struct pc_file_facts *f, const struct statx *stx, int fd,
		  const char *path)
{
	unsigned char buf[4 + 8 * PC_ACL_MAX_ENTRIES];
	ssize_t n;
	int count;

	memset(&f->ino, 0, sizeof(f->ino));
	f->ino.mode = stx->stx_mode;
	f->ino.uid = stx->stx_uid;
	f->ino.gid = stx->stx_gid;
	n = fd >= 0 ? fgetxattr(fd, ACL_XATTR, buf, sizeof(buf))
		    : getxattr(path, ACL_XATTR, buf, sizeof(buf));
	if (n < 0) {
		if (errno == ENODATA || errno == EOPNOTSUPP)
			return 0; /* no ACL: mode bits only */
		return -1;
	}
	count = pc_acl_parse_xattr(buf, (size_t)n, f->acl, PC_ACL_MAX_ENTRIES);
	if (count < 0)
		return -1;
	f->ino.acl = f->acl;
	f->ino.acl_count = (size_t)count;
	return 0;
}

/*
 * A path below /proc/PID/ (root/..., cwd/..., fd/N) may lead into that
 * process's mount namespace: its mounts are in /proc/PID/mountinfo, not in
 * ours. Returns true and fills @fs when @mnt_id is found there.
 */
static bool other_ns_fs(const char *path, unsigned long long mnt_id,
			struct pc_fsinfo *fs)
{
	char file[64], err[256];
	struct pc_mounts other;
	struct pc_mount *pm;
	size_t n;

	if (strncmp(path, "/proc/", 6) != 0)
		return false;
	path += 6;
	n = strspn(path, "0123456789");
	if (!n || n > 10 || path[n] != '/')
		return false;
	snprintf(file, sizeof(file), "/proc/%.*s/mountinfo", (int)n, path);
	if (pc_mounts_load(&other, file, err, sizeof(err)) < 0)
		return false; /* the process is gone: statfs() below */
	pm = pc_mounts_find(&other, mnt_id);
	if (pm)
		*fs = pm->fs;
	pc_mounts_free(&other);
	return pm != NULL;
}

int pc_facts_fs(struct pc_mounts *ms, unsigned long long mnt_id,
		const char *path, struct pc_fsinfo *fs)
{
	struct pc_mount *pm = pc_mounts_find(ms, mnt_id);
	struct statfs sfs;

	if (pm) {
		*fs = pm->fs;
		return 0;
	}
	if (other_ns_fs(path, mnt_id, fs))
		return 0;
	if (statfs(path, &sfs) < 0)
		return -1;
	/*
	 * Not in this namespace's mount table: a kernel-internal mount
	 * (kern_mount(): SB_KERNMOUNT) holding pipes, sockets, memfds or
	 * anonymous inodes, which trusted_for treats as a pseudo fs.
	 */
	fs->pseudo_fs = true;
	fs->noexec_mount = sfs.f_flags & ST_NOEXEC;
	switch (sfs.f_type) {
	case PROC_SUPER_MAGIC: case SYSFS_MAGIC: case CGROUP_SUPER_MAGIC:
	case CGROUP2_SUPER_MAGIC: case MQUEUE_MAGIC:
		fs->noexec_mount = true; /* SB_I_NOEXEC */
		break;
	}
	return 0;
}
