// SPDX-License-Identifier: GPL-2.0-or-later
/* Evaluator inputs from the file system; see facts.h. */
#include "facts.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#define ACL_XATTR "system.posix_acl_access"
#ifndef RDTGROUP_SUPER_MAGIC
#define RDTGROUP_SUPER_MAGIC 0x7655821
#endif
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
 * What the kernel says of the superblock of a file through statfs(2):
 * f_type names the filesystem type, so the pseudo_fs and SB_I_NOEXEC tables
 * of mounts.h apply as for a mountinfo entry; ST_NOEXEC in f_flags is the
 * mount's MNT_NOEXEC (statfs reports no other superblock flag).
 */
static void statfs_fs(const struct statfs *sfs, struct pc_fsinfo *fs)
{
	fs->pseudo_fs = false;
	fs->noexec_mount = sfs->f_flags & ST_NOEXEC;
	switch (sfs->f_type) {
	case PROC_SUPER_MAGIC: case MQUEUE_MAGIC:
		fs->pseudo_fs = true;
		fs->noexec_mount = true;
		break;
	case NSFS_MAGIC: case DEBUGFS_MAGIC: case TRACEFS_MAGIC:
	case SECURITYFS_MAGIC:
	case PIPEFS_MAGIC: case SOCKFS_MAGIC: case ANON_INODE_FS_MAGIC:
		fs->pseudo_fs = true;
		break;
	case SYSFS_MAGIC: case CGROUP_SUPER_MAGIC: case CGROUP2_SUPER_MAGIC:
	case RDTGROUP_SUPER_MAGIC:
		fs->noexec_mount = true;
		break;
	}
}

/* The mount id of @dir (a root directory), 0 when unknown. */
static unsigned long long dir_mnt_id(const char *dir)
{
	struct statx stx;

	if (statx(AT_FDCWD, dir, 0, STATX_MNT_ID, &stx) < 0 ||
	    !(stx.stx_mask & STATX_MNT_ID))
		return 0;
	return stx.stx_mnt_id;
}

/*
 * A path below /proc/PID/ (root/..., cwd/..., fd/N) may lead into that
 * process's mount namespace: its mounts are in /proc/PID/mountinfo, not in
 * ours. Returns 1 and fills @fs when @mnt_id is found there, or is the mount
 * holding that process's root (then from @sfs); 0 when not; -1 when the
 * path is not below /proc/PID/ or the process is gone.
 */
static int other_ns_fs(const char *path, unsigned long long mnt_id,
		       const struct statfs *sfs, struct pc_fsinfo *fs)
{
	char file[64], err[256];
	struct pc_mounts other;
	struct pc_mount *pm;
	size_t n;

	if (strncmp(path, "/proc/", 6) != 0)
		return -1;
	path += 6;
	n = strspn(path, "0123456789");
	if (!n || n > 10 || path[n] != '/')
		return -1;
	snprintf(file, sizeof(file), "/proc/%.*s/mountinfo", (int)n, path);
	if (pc_mounts_load(&other, file, err, sizeof(err)) < 0)
		return -1; /* the process is gone */
	pm = pc_mounts_find(&other, mnt_id);
	if (pm)
		*fs = pm->fs;
	pc_mounts_free(&other);
	if (pm)
		return 1;
	snprintf(file, sizeof(file), "/proc/%.*s/root", (int)n, path);
	if (dir_mnt_id(file) == mnt_id) {
		statfs_fs(sfs, fs);
		return 1;
	}
	return 0;
}

/* Kernel-internal mounts name their files so in /proc/PID/fd/N links. */
static bool internal_link(const char *path)
{
	static const char *const prefixes[] = {
		"pipe:[", "socket:[", "anon_inode:", "/memfd:", NULL,
	};
	char target[64];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n <= 0)
		return false;
	target[n] = '\0';
	for (const char *const *p = prefixes; *p; p++)
		if (strncmp(target, *p, strlen(*p)) == 0)
			return true;
	return false;
}

/* Without STATX_MNT_ID: the mount whose mount point is the longest prefix. */
static struct pc_mount *find_by_path(struct pc_mounts *ms, const char *path)
{
	char *real = realpath(path, NULL);
	struct pc_mount *best = NULL;
	size_t best_len = 0;

	if (!real)
		return NULL;
	for (size_t i = 0; i < ms->n; i++) {
		const char *mp = ms->v[i].m->mount_point;
		size_t len = strlen(mp);

		if (ms->v[i].m->overmounted)
			continue;
		if (strcmp(mp, "/") == 0)
			len = 0;
		else if (strncmp(real, mp, len) != 0 ||
			 (real[len] != '/' && real[len] != '\0'))
			continue;
		if (!best || len >= best_len) {
			best = &ms->v[i];
			best_len = len;
		}
	}
	free(real);
	return best;
}

int pc_facts_fs(struct pc_mounts *ms, const struct statx *stx,
		const char *path, struct pc_fsinfo *fs, const char **why)
{
	unsigned long long mnt_id = stx->stx_mnt_id;
	struct pc_mount *pm;
	struct statfs sfs;
	int r;

	*why = NULL;
	if (!(stx->stx_mask & STATX_MNT_ID)) {
		/* Linux < 5.8: by path (a chroot's root may be misattributed) */
		pm = find_by_path(ms, path);
		if (!pm) {
			*why = "no mount of the table holds it (and this kernel has no STATX_MNT_ID)";
			return -1;
		}
		*fs = pm->fs;
		return 0;
	}
	pm = pc_mounts_find(ms, mnt_id);
	if (pm) {
		*fs = pm->fs;
		return 0;
	}
	if (statfs(path, &sfs) < 0)
		return -1;
	r = other_ns_fs(path, mnt_id, &sfs, fs);
	if (r > 0)
		return 0;
	/*
	 * Not in the table, but the mount holding our root: in a chroot, the
	 * root's mount point lies outside the root, so mountinfo omits it.
	 * It is a real mount; the kernel tells its type and noexec flag.
	 */
	if (mnt_id == dir_mnt_id("/")) {
		statfs_fs(&sfs, fs);
		return 0;
	}
	/*
	 * A kernel-internal mount (kern_mount(): SB_KERNMOUNT) holding pipes,
	 * sockets, memfds or anonymous inodes, reached through a /proc/PID/fd/N
	 * link: trusted_for treats it as a pseudo fs.
	 */
	if (internal_link(path)) {
		statfs_fs(&sfs, fs);
		fs->pseudo_fs = true;
		return 0;
	}
	statfs_fs(&sfs, fs);
	if (fs->pseudo_fs)
		return 0; /* its type alone decides */
	*why = "its mount is in no mount table this process can read (outside its root?): cannot tell whether it is a pseudo filesystem";
	return -1;
}

static int cmp_writer(const void *a, const void *b)
{
	const struct pc_writer *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

static unsigned long long stx_dev(const struct statx *stx)
{
	return makedev(stx->stx_dev_major, stx->stx_dev_minor);
}

/* Add the files process @pid (a directory of @proc) has open for writing. */
static int scan_pid(struct pc_writers *w, size_t *cap, int procfd,
		    const char *pid)
{
	char dir[300];
	struct dirent *e;
	DIR *d;
	int dfd;

	snprintf(dir, sizeof(dir), "%s/fd", pid);
	dfd = openat(procfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = dfd < 0 ? NULL : fdopendir(dfd);
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		if (errno != ENOENT) /* ENOENT: it exited */
			w->unseen++;
		return 0;
	}
	while ((e = readdir(d))) {
		struct stat link;
		struct statx stx;
		char target[16] = "";

		if (e->d_name[0] == '.')
			continue;
		/* the link's mode: S_IWUSR when the description has FMODE_WRITE */
		if (fstatat(dfd, e->d_name, &link, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !(link.st_mode & S_IWUSR))
			continue;
		/*
		 * memfd_create() makes its file with alloc_file_pseudo(),
		 * which sets FMODE_WRITE but takes no write access: its own
		 * descriptors do not make the memfd busy (the proof's fd:memfd
		 * case: the kernel allows it while the descriptor is O_RDWR).
		 */
		if (readlinkat(dfd, e->d_name, target, sizeof(target) - 1) > 0 &&
		    !strncmp(target, "/memfd:", 7))
			continue;
		if (statx(dfd, e->d_name, 0, STATX_TYPE | STATX_INO, &stx) < 0 ||
		    !S_ISREG(stx.stx_mode))
			continue;
		if (w->n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 64;
			struct pc_writer *v = realloc(w->v, ncap * sizeof(*v));

			if (!v) {
				closedir(d);
				return -1;
			}
			w->v = v;
			*cap = ncap;
		}
		w->v[w->n].dev = stx_dev(&stx);
		w->v[w->n].ino = stx.stx_ino;
		w->n++;
	}
	closedir(d);
	return 0;
}

int pc_writers_load(struct pc_writers *w, const char *proc)
{
	size_t cap = 0, out = 0;
	struct dirent *e;
	DIR *d;

	memset(w, 0, sizeof(*w));
	d = opendir(proc);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!e->d_name[0] || strspn(e->d_name, "0123456789") != strlen(e->d_name))
			continue;
		if (scan_pid(w, &cap, dirfd(d), e->d_name) < 0) {
			int err = errno;

			closedir(d);
			pc_writers_free(w);
			errno = err;
			return -1;
		}
	}
	closedir(d);
	if (w->n)
		qsort(w->v, w->n, sizeof(*w->v), cmp_writer);
	for (size_t i = 0; i < w->n; i++)
		if (!out || cmp_writer(&w->v[out - 1], &w->v[i]))
			w->v[out++] = w->v[i];
	w->n = out;
	return 0;
}

bool pc_writers_has(const struct pc_writers *w, const struct statx *stx)
{
	struct pc_writer key = { stx_dev(stx), stx->stx_ino };

	return w->n && bsearch(&key, w->v, w->n, sizeof(*w->v), cmp_writer);
}

void pc_writers_free(struct pc_writers *w)
{
	free(w->v);
	memset(w, 0, sizeof(*w));
}
