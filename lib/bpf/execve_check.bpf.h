/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * execve_check.bpf.h - execveat(AT_EXECVE_CHECK) as BPF sees it on a
 * mainline kernel (6.14 and later), which has no tracepoint for the check:
 * the call decoded at sys_exit_execveat, what is a refusal, the file a
 * check by descriptor was about and why it was refused.
 *
 * The one common part of the BPF programs of trusttop (counting every
 * verdict) and trustfor-relay (an audit record per refusal).  Include it
 * after vmlinux.h, bpf_helpers.h, bpf_core_read.h and trustedfor_abi.h.
 */
#ifndef TF_EXECVE_CHECK_BPF_H
#define TF_EXECVE_CHECK_BPF_H

#define TF_EACCES 13
#define TF_EPERM 1
#define TF_EBADF 9
#define TF_ETXTBSY 26
#define TF_AT_EMPTY_PATH 0x1000
#define TF_MNT_NOEXEC 0x04   /* include/linux/mount.h */
#define TF_SB_I_NOEXEC 0x02  /* include/linux/fs.h */
#define TF_S_IFMT 00170000
#define TF_S_IFREG 0100000

/* One execveat() call at its exit. */
struct tf_ec_call {
	long ret;	  /* the syscall's return value */
	int dfd;	  /* first argument: directory or file descriptor */
	__u32 flags;	  /* fifth argument: AT_* flags */
	const char *name; /* second argument, a user pointer (may be NULL) */
};

/*
 * Decode the call from the registers the task saved on entry (x86-64: di
 * fd, si path, dx argv, r10 envp, r8 flags), which nothing changes before
 * the exit but a successful exec (it clears them, and such a call had no
 * AT_EXECVE_CHECK).  Only loads: what an allowed check costs is this and
 * the test of the flag.  Returns false for anything but a check.
 */
static __always_inline bool tf_ec_decode(const struct trace_event_raw_sys_exit *ctx,
					 struct task_struct *task,
					 struct tf_ec_call *c)
{
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);

	if (!regs)
		return false;
	c->flags = (__u32)regs->r8;
	if (!(c->flags & AT_EXECVE_CHECK))
		return false;
	c->ret = ctx->ret;
	c->dfd = (int)regs->di;
	c->name = (const char *)regs->si;
	return true;
}

/*
 * A refusal of the file, as opposed to an error: AT_EXECVE_CHECK refuses
 * as execve(2) would: EACCES (mode, ACL, noexec, not a regular file),
 * EPERM (an LSM), ETXTBSY (the file is open for writing).
 */
static __always_inline bool tf_ec_refused(long ret)
{
	return ret == -TF_EACCES || ret == -TF_EPERM || ret == -TF_ETXTBSY;
}

/* The struct file behind @fd in @task, NULL when none. */
static __always_inline struct file *tf_fd_file(struct task_struct *task, long fd)
{
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	struct file **fds;
	struct file *f = NULL;

	if (!fdt || fd < 0 || fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	fds = BPF_CORE_READ(fdt, fd);
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	return f;
}

/*
 * The file a check was about when it named none: an empty path with
 * AT_EMPTY_PATH checks the descriptor itself.  NULL for a check by name
 * (the kernel's lookup is over; its file, if any, is gone).
 */
static __always_inline struct file *tf_ec_fd_checked(struct task_struct *task,
						     const struct tf_ec_call *c)
{
	char first = 0;

	if (!(c->flags & TF_AT_EMPTY_PATH))
		return NULL;
	if (c->name)
		bpf_probe_read_user(&first, 1, c->name);
	return first ? NULL : tf_fd_file(task, c->dfd);
}

/*
 * Why mainline refused @f (TF_REASON_* bits): the checks
 * do_open_execat()/may_open() make, in their order.  EACCES with none of
 * them is "file_perm": the exec permission (mode bits, ACL) or an LSM's
 * file hook.  @f NULL (a check by name): only ETXTBSY tells; 0 otherwise.
 */
static __always_inline __u32 tf_ec_reason(long ret, struct file *f)
{
	struct vfsmount *mnt;
	__u32 mode;

	if (ret == -TF_ETXTBSY)
		return TF_REASON_WRITE_BUSY;
	if (ret != -TF_EACCES || !f)
		return 0;
	mode = BPF_CORE_READ(f, f_inode, i_mode);
	mnt = BPF_CORE_READ(f, f_path.mnt);
	if ((mode & TF_S_IFMT) != TF_S_IFREG)
		return TF_REASON_NOT_REGULAR;
	if (BPF_CORE_READ(mnt, mnt_flags) & TF_MNT_NOEXEC)
		return TF_REASON_NOEXEC_MOUNT;
	if (BPF_CORE_READ(mnt, mnt_sb, s_iflags) & TF_SB_I_NOEXEC)
		return TF_REASON_PSEUDO_FS;
	return TF_REASON_FILE_PERM;
}

#endif /* TF_EXECVE_CHECK_BPF_H */
