// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel-exact trusted_for(2) evaluator; see eval.h. */
#include "eval.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "trustedfor.h"

/* in_group_p(): the fsgid or one of the supplementary groups */
static bool in_group(const struct pc_subject *s, gid_t gid)
{
	if (s->gid != (gid_t)-1 && s->gid == gid)
		return true;
	for (size_t i = 0; i < s->ngroups; i++)
		if (s->groups[i] == gid)
			return true;
	return false;
}

/* fs/posix_acl.c posix_acl_permission() */
static int acl_permission(const struct pc_inode *ino,
			  const struct pc_subject *s, unsigned int want)
{
	const struct pc_acl_entry *pa, *pe = ino->acl + ino->acl_count;
	bool found = false;

	want &= PC_MAY_READ | PC_MAY_WRITE | PC_MAY_EXEC;
	for (pa = ino->acl; pa < pe; pa++) {
		switch (pa->tag) {
		case PC_ACL_USER_OBJ:
			if (ino->uid == s->uid)
				goto check_perm;
			break;
		case PC_ACL_USER:
			if (pa->id == s->uid)
				goto mask;
			break;
		case PC_ACL_GROUP_OBJ:
		case PC_ACL_GROUP:
			/* the owning group, or a named one */
			if (in_group(s, pa->tag == PC_ACL_GROUP_OBJ ? ino->gid :
								      pa->id)) {
				found = true;
				if ((pa->perm & want) == want)
					goto mask;
			}
			break;
		case PC_ACL_MASK:
			break;
		case PC_ACL_OTHER:
			if (found)
				return -EACCES;
			goto check_perm;
		default:
			return -EIO;
		}
	}
	return -EIO;
mask:
	for (const struct pc_acl_entry *m = pa + 1; m < pe; m++) {
		if (m->tag == PC_ACL_MASK)
			return (pa->perm & m->perm & want) == want ? 0 : -EACCES;
	}
check_perm:
	return (pa->perm & want) == want ? 0 : -EACCES;
}

/* fs/namei.c acl_permission_check() */
static int acl_permission_check(const struct pc_inode *ino,
				const struct pc_subject *s, unsigned int mask)
{
	unsigned int mode = ino->mode;

	/* the owner: ACLs do not matter */
	if (ino->uid == s->uid) {
		mask &= 7;
		mode >>= 6;
		return (mask & ~mode) ? -EACCES : 0;
	}
	/*
	 * ACLs are only looked at when the group class (the mask when there
	 * is an ACL) has a bit set: with mask::--- a named user falls back to
	 * the group/other bits below, as in the kernel.
	 */
	if (ino->acl && (mode & S_IRWXG)) {
		int err = acl_permission(ino, s, mask);

		if (err != -EAGAIN)
			return err;
	}
	mask &= 7;
	/* group membership only matters when group and other bits differ */
	if (mask & (mode ^ (mode >> 3))) {
		if (in_group(s, ino->gid))
			mode >>= 3;
	}
	return (mask & ~mode) ? -EACCES : 0;
}

/* fs/namei.c generic_permission() */
int pc_inode_permission(const struct pc_inode *ino,
			const struct pc_subject *s, unsigned int want)
{
	int ret = acl_permission_check(ino, s, want);

	if (ret != -EACCES)
		return ret;
	if (S_ISDIR(ino->mode)) {
		if (!(want & PC_MAY_WRITE) && s->cap_dac_read_search)
			return 0;
		if (s->cap_dac_override)
			return 0;
		return -EACCES;
	}
	/*
	 * Read/write are always overridable; exec only when at least one exec
	 * bit is set in the mode (with an ACL, the group bits are its mask).
	 */
	if (!(want & PC_MAY_EXEC) || (ino->mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
		if (s->cap_dac_override)
			return 0;
	want &= PC_MAY_READ | PC_MAY_WRITE | PC_MAY_EXEC;
	if (want == PC_MAY_READ && s->cap_dac_read_search)
		return 0;
	return -EACCES;
}

unsigned int pc_eval(int policy, enum pc_model model,
		     const struct pc_fsinfo *fs, const struct pc_inode *ino,
		     const struct pc_subject *subj)
{
	unsigned int reasons = 0, want;

	if (model == PC_MODEL_EXECVE_CHECK) {
		/*
		 * fs/exec.c do_open_execat(): not a regular file or
		 * path_noexec() -> EACCES, then may_open() asks MAY_EXEC alone
		 * (no read permission needed).
		 */
		if (!S_ISREG(ino->mode))
			return TF_REASON_NOT_REGULAR;
		if (fs->noexec_mount)
			return TF_REASON_NOEXEC_MOUNT;
		if (pc_inode_permission(ino, subj, PC_MAY_EXEC))
			return TF_REASON_FILE_PERM;
		/*
		 * Only once the open succeeded: deny_write_access() -> ETXTBSY
		 * while any file description has it open for writing.
		 */
		if (ino->open_for_write)
			return TF_REASON_WRITE_BUSY;
		return 0;
	}
	/*
	 * fs/trusted_for.c trusted_for_exec(): with any bit set, the static
	 * checks first (file type, superblock, mount flags); when one fails,
	 * the permission is not asked.
	 */
	if (policy) {
		if (!S_ISREG(ino->mode))
			reasons |= TF_REASON_NOT_REGULAR;
		if (fs->pseudo_fs)
			reasons |= TF_REASON_PSEUDO_FS;
		if ((policy & TF_POLICY_EXEC_MOUNT) && fs->noexec_mount)
			reasons |= TF_REASON_NOEXEC_MOUNT;
		if (reasons)
			return reasons;
	}
	/* a read permission check, plus exec with bit 1 (MAY_READ|MAY_EXEC) */
	want = PC_MAY_READ;
	if (policy & TF_POLICY_EXEC_FILE)
		want |= PC_MAY_EXEC;
	if (pc_inode_permission(ino, subj, want))
		reasons |= TF_REASON_FILE_PERM;
	return reasons;
}

int pc_acl_parse_xattr(const void *buf, size_t len, struct pc_acl_entry *out,
		       size_t max)
{
	const unsigned char *p = buf;
	size_t n;

	/* struct posix_acl_xattr_header { __le32 a_version; } == 2 */
	if (len < 4 || (len - 4) % 8 || p[0] != 2 || p[1] || p[2] || p[3])
		goto bad;
	n = (len - 4) / 8;
	if (n > max)
		goto bad;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *e = p + 4 + i * 8;

		out[i].tag = (uint16_t)(e[0] | e[1] << 8);
		out[i].perm = (uint16_t)(e[2] | e[3] << 8);
		out[i].id = (uint32_t)e[4] | (uint32_t)e[5] << 8 |
			    (uint32_t)e[6] << 16 | (uint32_t)e[7] << 24;
		switch (out[i].tag) {
		case PC_ACL_USER_OBJ: case PC_ACL_USER: case PC_ACL_GROUP_OBJ:
		case PC_ACL_GROUP: case PC_ACL_MASK: case PC_ACL_OTHER:
			break;
		default:
			goto bad;
		}
	}
	return (int)n;
bad:
	errno = EINVAL;
	return -1;
}
