/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-mount table: every entry of /proc/self/mountinfo with what a
 * policy does to it, and the counters the walk fills in.
 */
#ifndef PC_MOUNTS_H
#define PC_MOUNTS_H

#include <stdbool.h>
#include <stddef.h>

#include "eval.h"
#include "mountinfo.h"
#include "trustedfor.h"

/*
 * Filesystem types whose superblock has SB_NOUSER, SB_KERNMOUNT or SB_NOEXEC
 * in s_flags on Linux 6.1: trusted_for(2) denies every file of them under
 * any non-zero policy (reason pseudo_fs). procfs sets SB_NOEXEC; nsfs and
 * mqueue share the superblock of a kern_mount(); debugfs, tracefs and
 * securityfs have a single superblock, created by simple_pin_fs()
 * (SB_KERNMOUNT) when the kernel adds its first file at boot.
 */
extern const char *const pc_pseudo_fstypes[];
/*
 * Filesystem types with SB_I_NOEXEC in s_iflags (fs/proc, fs/kernfs users,
 * ipc/mqueue): path_noexec() is true on every mount of them, as if mounted
 * noexec (reason noexec_mount under policy bit 0).
 */
extern const char *const pc_sb_noexec_fstypes[];
/* Virtual filesystems that hold no scripts and are not walked. */
extern const char *const pc_virtual_fstypes[];

bool pc_fstype_pseudo(const char *fstype);
bool pc_fstype_sb_noexec(const char *fstype);
bool pc_fstype_virtual(const char *fstype);

struct pc_mount {
	const struct tf_mount *m;
	struct pc_fsinfo fs;
	/* why the walk skips it, NULL when walked */
	const char *skip;
	bool selected; /* walked (part of the --path selection) */
	unsigned long long scripts, denied;
	unsigned long long by_reason[TF_REASON_COUNT];
	unsigned long long dirs, files, unreadable_dirs, vanished, errors;
};

struct pc_mounts {
	struct tf_mountinfo info;
	struct pc_mount *v;
	size_t n;
};

/*
 * Load @path (NULL: /proc/self/mountinfo) and classify every mount.
 * Returns 0, or -1 with a message in @err.
 */
int pc_mounts_load(struct pc_mounts *ms, const char *path, char *err,
		   size_t errlen);
void pc_mounts_free(struct pc_mounts *ms);

/* The entry for a statx mount id, NULL when not in the table. */
struct pc_mount *pc_mounts_find(struct pc_mounts *ms,
				unsigned long long mnt_id);

/* What @policy does to mount @pm, one phrase for the table. */
const char *pc_mount_effect(const struct pc_mount *pm, int policy);
/* The same for execveat(AT_EXECVE_CHECK), which has no policy. */
const char *pc_mount_effect_execve_check(const struct pc_mount *pm);

#endif /* PC_MOUNTS_H */
