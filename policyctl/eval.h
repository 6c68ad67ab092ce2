/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evaluator: what fs.trust_policy = N makes trusted_for(2) answer for one
 * file and one subject, following the kernel's own code paths
 * (kernel/patches/, fs/namei.c acl_permission_check() + generic_permission(),
 * fs/posix_acl.c posix_acl_permission(), fs/exec.c path_noexec()).
 */
#ifndef PC_EVAL_H
#define PC_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* fs/namei.c MAY_* bits */
#define PC_MAY_EXEC 1u
#define PC_MAY_WRITE 2u
#define PC_MAY_READ 4u

/* POSIX ACL entry tags (include/uapi/linux/posix_acl.h) */
#define PC_ACL_USER_OBJ 0x01
#define PC_ACL_USER 0x02
#define PC_ACL_GROUP_OBJ 0x04
#define PC_ACL_GROUP 0x08
#define PC_ACL_MASK 0x10
#define PC_ACL_OTHER 0x20
#define PC_ACL_MAX_ENTRIES 64

struct pc_acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id; /* uid or gid for ACL_USER / ACL_GROUP */
};

/* What the evaluator needs to know about an inode. */
struct pc_inode {
	mode_t mode;
	uid_t uid;
	gid_t gid;
	/* the system.posix_acl_access entries in kernel order; NULL: none */
	const struct pc_acl_entry *acl;
	size_t acl_count;
	/*
	 * Some open file description has it open for writing (the inode's
	 * i_writecount > 0): fs/exec.c do_open_execat()'s
	 * deny_write_access() fails with ETXTBSY (reason write_busy).
	 * Only PC_MODEL_EXECVE_CHECK looks at it.
	 */
	bool open_for_write;
};

/* Where it lives. */
struct pc_fsinfo {
	/*
	 * path_noexec(): MNT_NOEXEC ("noexec" in the mount's options) or an
	 * SB_I_NOEXEC superblock (proc, sysfs, cgroup...); reason
	 * noexec_mount when policy bit 0 is set.
	 */
	bool noexec_mount;
	/*
	 * SB_NOUSER | SB_KERNMOUNT | SB_NOEXEC superblock (procfs, nsfs,
	 * mqueue, kernel-internal mounts: pipes, sockets, memfd); reason
	 * pseudo_fs under any non-zero policy.
	 */
	bool pseudo_fs;
};

/* Who asks: the credentials of the process calling trusted_for(2). */
struct pc_subject {
	uid_t uid; /* fsuid */
	gid_t gid; /* fsgid; (gid_t)-1 when unknown */
	const gid_t *groups; /* supplementary groups */
	size_t ngroups;
	bool cap_dac_override;
	bool cap_dac_read_search;
};

/* Which kernel interface the prediction is for. */
enum pc_model {
	/* trusted_for(2) of kernel/patches/ (needs a readable fd) */
	PC_MODEL_TRUSTED_FOR,
	/*
	 * mainline execveat(fd, "", AT_EMPTY_PATH | AT_EXECVE_CHECK): always
	 * policy 3 semantics, no read permission needed (MAY_EXEC only).
	 */
	PC_MODEL_EXECVE_CHECK,
};

/*
 * inode_permission(): 0 when @subj may access @ino with @want (PC_MAY_*),
 * -EACCES otherwise, -EIO for a malformed ACL.
 */
int pc_inode_permission(const struct pc_inode *ino,
			const struct pc_subject *subj, unsigned int want);

/*
 * The TF_REASON_* bits trusted_for(2) would deny with under @policy
 * (0 = allowed), in the kernel's order: under a non-zero policy the static
 * reasons (not_regular, pseudo_fs, noexec_mount with bit 0) and, only when
 * none applies, the permission check: MAY_READ, plus MAY_EXEC with bit 1.
 * Under policy 0 a file the subject cannot read is still refused
 * (file_perm). @policy is ignored for PC_MODEL_EXECVE_CHECK, which gives
 * one reason, in fs/exec.c's order: not_regular, noexec_mount, file_perm
 * (MAY_EXEC alone), then write_busy for a file open for writing.
 */
unsigned int pc_eval(int policy, enum pc_model model,
		     const struct pc_fsinfo *fs, const struct pc_inode *ino,
		     const struct pc_subject *subj);

/*
 * Parse the raw system.posix_acl_access xattr value (version 2 header +
 * 8-byte little-endian entries) into @out (room for @max). Returns the
 * number of entries, or -1 (errno EINVAL) when malformed.
 */
int pc_acl_parse_xattr(const void *buf, size_t len, struct pc_acl_entry *out,
		       size_t max);

#endif /* PC_EVAL_H */
