// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-mount table; see mounts.h. */
#include "mounts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pc_pseudo_fstypes[] = {
	"proc", "nsfs", "mqueue", "debugfs", "tracefs", "securityfs", NULL,
};

const char *const pc_sb_noexec_fstypes[] = {
	"proc", "sysfs", "cgroup", "cgroup2", "mqueue", "resctrl", NULL,
};

const char *const pc_virtual_fstypes[] = {
	"devtmpfs", "devpts", "debugfs", "tracefs", "securityfs", "bpf",
	"configfs", "fusectl", "efivarfs", "binfmt_misc", "pstore",
	"autofs", "hugetlbfs", "nsfs", "rpc_pipefs", "selinuxfs",
	"nfsd", NULL,
};

static bool in_table(const char *const *t, const char *s)
{
	for (; *t; t++)
		if (strcmp(*t, s) == 0)
			return true;
	return false;
}

bool pc_fstype_pseudo(const char *fstype)
{
	return in_table(pc_pseudo_fstypes, fstype);
}

bool pc_fstype_sb_noexec(const char *fstype)
{
	return in_table(pc_sb_noexec_fstypes, fstype);
}

bool pc_fstype_virtual(const char *fstype)
{
	return in_table(pc_virtual_fstypes, fstype);
}

int pc_mounts_load(struct pc_mounts *ms, const char *path, char *err,
		   size_t errlen)
{
	const char *file = path ? path : "/proc/self/mountinfo";
	size_t bad = 0;

	memset(ms, 0, sizeof(*ms));
	if (tf_mountinfo_load(path, &ms->info, &bad) < 0) {
		if (errno == EINVAL)
			snprintf(err, errlen,
				 "%s: malformed line %zu; is it a mountinfo file?",
				 file, bad);
		else
			snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	ms->v = calloc(ms->info.count ? ms->info.count : 1, sizeof(*ms->v));
	if (!ms->v) {
		snprintf(err, errlen, "out of memory");
		tf_mountinfo_free(&ms->info);
		return -1;
	}
	ms->n = ms->info.count;
	for (size_t i = 0; i < ms->n; i++) {
		struct pc_mount *pm = &ms->v[i];

		pm->m = &ms->info.mounts[i];
		pm->fs.noexec_mount = tf_mount_opt_has(pm->m->mnt_opts, "noexec") ||
				      pc_fstype_sb_noexec(pm->m->fstype);
		pm->fs.pseudo_fs = pc_fstype_pseudo(pm->m->fstype);
		if (pm->fs.pseudo_fs)
			pm->skip = "pseudo filesystem";
		else if (pc_fstype_sb_noexec(pm->m->fstype))
			pm->skip = "kernel filesystem (SB_I_NOEXEC)";
		else if (pc_fstype_virtual(pm->m->fstype))
			pm->skip = "virtual filesystem";
		else if (pm->m->overmounted)
			pm->skip = "overmounted";
	}
	return 0;
}

void pc_mounts_free(struct pc_mounts *ms)
{
	free(ms->v);
	tf_mountinfo_free(&ms->info);
	memset(ms, 0, sizeof(*ms));
}

struct pc_mount *pc_mounts_find(struct pc_mounts *ms,
				unsigned long long mnt_id)
{
	for (size_t i = 0; i < ms->n; i++)
		if (ms->v[i].m->mnt_id == mnt_id)
			return &ms->v[i];
	return NULL;
}

const char *pc_mount_effect(const struct pc_mount *pm, int policy)
{
	if (!policy)
		return "read permission only";
	if (pm->fs.pseudo_fs)
		return "everything denied (pseudo fs)";
	if ((policy & TF_POLICY_EXEC_MOUNT) && pm->fs.noexec_mount)
		return "everything denied (noexec)";
	if (policy & TF_POLICY_EXEC_FILE)
		return "exec+read permission checked";
	return "read permission only";
}
