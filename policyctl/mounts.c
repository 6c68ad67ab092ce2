// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-mount table; see mounts.h. */
#include "mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

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

/* Filesystem type names of statfs(2) f_type values (linux/magic.h). */
static const char *fstype_of_magic(unsigned long magic)
{
	static const struct { unsigned long magic; const char *name; } t[] = {
		{ 0x9fa0, "proc" }, { 0x6e736673, "nsfs" },
		{ 0x19800202, "mqueue" }, { 0x64626720, "debugfs" },
		{ 0x74726163, "tracefs" }, { 0x73636673, "securityfs" },
		{ 0x62656572, "sysfs" }, { 0x27e0eb, "cgroup" },
		{ 0x63677270, "cgroup2" }, { 0x7655821, "resctrl" },
		{ 0x01021994, "tmpfs" }, { 0xef53, "ext4" },
		{ 0x58465342, "xfs" }, { 0x9123683e, "btrfs" },
		{ 0x794c7630, "overlay" }, { 0x01021997, "9p" },
		{ 0x6969, "nfs" }, { 0x65735546, "fuse" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].magic == magic)
			return t[i].name;
	return "unknown";
}

/*
 * In a chroot, the mount holding the root has its mount point outside the
 * root, so the live table omits it. Add an entry for it from statx(2) and
 * statfs(2) of "/", so that its files are walked and found by mount id.
 */
static int add_root_mount(struct tf_mountinfo *mi)
{
	struct tf_mount *v, *m;
	struct statfs sfs;
	struct statx stx;

	if (statx(AT_FDCWD, "/", 0, STATX_MNT_ID, &stx) < 0 ||
	    !(stx.stx_mask & STATX_MNT_ID) || statfs("/", &sfs) < 0 ||
	    tf_mountinfo_find(mi, stx.stx_mnt_id))
		return 0;
	v = realloc(mi->mounts, (mi->count + 1) * sizeof(*v));
	if (!v)
		return -1;
	mi->mounts = v;
	m = &v[mi->count++];
	memset(m, 0, sizeof(*m));
	m->mnt_id = stx.stx_mnt_id;
	m->major = stx.stx_dev_major;
	m->minor = stx.stx_dev_minor;
	m->root = (char *)"?";
	m->mount_point = (char *)"/";
	m->mnt_opts = (char *)(sfs.f_flags & ST_NOEXEC ? "noexec" : "exec");
	m->optional = (char *)"";
	m->fstype = (char *)fstype_of_magic((unsigned long)sfs.f_type);
	m->source = (char *)"(root of this chroot, not in mountinfo)";
	m->super_opts = (char *)"";
	for (size_t i = 0; i + 1 < mi->count; i++)
		if (strcmp(v[i].mount_point, "/") == 0)
			m->overmounted = true;
	return 0;
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
	if (!path && add_root_mount(&ms->info) < 0) {
		snprintf(err, errlen, "out of memory");
		tf_mountinfo_free(&ms->info);
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

const char *pc_mount_effect_execve_check(const struct pc_mount *pm)
{
	/* fs/exec.c: path_noexec() before the permission; no pseudo-fs rule */
	if (pm->fs.noexec_mount)
		return "everything refused (noexec)";
	return "exec permission checked";
}
