/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path.bpf.h - walking a file's path from its dentry up to the root,
 * crossing mounts, as d_path() does: the one walk of trusttop (a name per
 * level, in an unrolled loop) and trustfor-relay (a packed buffer, one
 * bpf_loop() step per level).  Include it after vmlinux.h,
 * bpf_helpers.h and bpf_core_read.h.
 *
 * A walk: tf_path_start(), then per level tf_path_cross() (true: the root
 * of the tree is reached, the walk ends), the caller names p.d and moves to
 * its parent with tf_path_up() (false: p.d is its own parent, outside any
 * mount's tree: a pipe, a socket, a memfd, a detached tree).  Once the
 * caller stops, tf_path_at_root() says whether more levels were left.
 */
#ifndef TF_PATH_BPF_H
#define TF_PATH_BPF_H

/* Mounts stacked on a mount's root crossed in one tf_path_cross(). */
#define TF_PATH_CROSS 2

/*
 * (The helpers copy its fields to locals before BPF_CORE_READ(): inside it,
 * a field of this struct would get a CO-RE relocation of its own, against a
 * type the kernel does not have.)
 */
struct tf_path_pos {
	struct dentry *d;
	struct vfsmount *vmnt;
	struct mount *mnt; /* the struct mount holding vmnt */
};

static __always_inline void tf_path_start(struct tf_path_pos *p, struct dentry *d,
					  struct vfsmount *vmnt)
{
	p->d = d;
	p->vmnt = vmnt;
	p->mnt = (void *)vmnt - bpf_core_field_offset(struct mount, mnt);
}

/* The root of the whole tree: a mount's root, and that mount its own parent. */
static __always_inline bool tf_path_at_root(const struct tf_path_pos *p)
{
	struct vfsmount *vmnt = p->vmnt;
	struct mount *mnt = p->mnt;

	return p->d == BPF_CORE_READ(vmnt, mnt_root) && BPF_CORE_READ(mnt, mnt_parent) == mnt;
}

/*
 * At a mount's root, go to its mount point in the parent mount (up to
 * TF_PATH_CROSS times).  True when the root of the tree is reached.
 */
static __always_inline bool tf_path_cross(struct tf_path_pos *p)
{
	struct vfsmount *vmnt = p->vmnt;
	struct mount *mnt = p->mnt;
	struct dentry *d = p->d;
	bool root = false;

#pragma unroll
	for (int i = 0; i < TF_PATH_CROSS; i++) {
		struct mount *pm;

		if (d != BPF_CORE_READ(vmnt, mnt_root))
			break;
		pm = BPF_CORE_READ(mnt, mnt_parent);
		if (pm == mnt) {
			root = true;
			break;
		}
		d = BPF_CORE_READ(mnt, mnt_mountpoint);
		mnt = pm;
		vmnt = (void *)pm + bpf_core_field_offset(struct mount, mnt);
	}
	p->d = d;
	p->vmnt = vmnt;
	p->mnt = mnt;
	return root;
}

/* To p->d's parent; false (p unchanged) when p->d is its own parent. */
static __always_inline bool tf_path_up(struct tf_path_pos *p)
{
	struct dentry *d = p->d, *parent = BPF_CORE_READ(d, d_parent);

	if (!parent || parent == d)
		return false;
	p->d = parent;
	return true;
}

#endif /* TF_PATH_BPF_H */
