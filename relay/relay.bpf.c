// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trustfor-relay BPF side: one ring-buffer event per execveat(AT_EXECVE_CHECK)
 * refusal on a mainline kernel (6.14 and later), with what the kernel's own
 * record (type 1350 on the trustfor kernel) would say where BPF can see it.
 *
 * The call is decoded at the syscall's exit by the part trusttop uses too
 * (lib/bpf/execve_check.bpf.h); an allowed check returns right after that:
 * it costs what trusttop's mainline program costs before counting.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "trustedfor_abi.h"
#include "bpf/execve_check.bpf.h"
#include "bpf/path.bpf.h"
#include "relay.h"

char LICENSE[] SEC("license") = "GPL";

#define AT_FDCWD -100

/* Read by user space through the skeleton's bss. */
__u64 seen;	/* refusals the program saw */
__u64 lost;	/* of those, not handed over: the ring buffer was full */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 * 1024 * 1024); /* user space may resize */
} events SEC(".maps");

/*
 * Each CPU's event under construction: the ring buffer then gets only the
 * bytes used (a path is a few dozen bytes of its 2 KiB), so that a burst
 * of refusals fits several times more events before any is lost.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rl_event);
} scratch SEC(".maps");

/*
 * A walk from a dentry up to the root, crossing mounts (lib/bpf/path.bpf.h),
 * writing the names innermost first into buf: one bpf_loop() step per
 * dentry, so that the verifier checks one step, not RL_DEPTH of them.
 */
struct rl_walk {
	struct tf_path_pos p;
	char *buf;
	__u32 off;	/* bytes written */
	bool end;	/* the root was reached */
	bool pseudo;	/* a dentry of no tree: buf holds its own name */
};

/* One dentry; 1 ends the loop.  @room: a power of two (buf has RL_COMP_MAX more). */
static __always_inline long walk_step(struct rl_walk *w, __u32 room)
{
	/* A local: inside BPF_CORE_READ() a field of *w would be relocated too. */
	struct tf_path_pos p = w->p;
	struct dentry *d;
	__u32 off = w->off;
	int n;

	if (tf_path_cross(&p)) {
		w->end = true;
		return 1;
	}
	d = p.d;
	if (!tf_path_up(&p)) {
		/* a root that is no mount's: a detached tree, or a pseudo file */
		w->end = true;
		if (off == 0) {
			/* a pipe, socket, memfd...: its own name ("" for some) */
			n = bpf_probe_read_kernel_str(w->buf, RL_COMP_MAX,
						      BPF_CORE_READ(d, d_name.name));
			w->off = n > 0 ? n : 0;
			w->pseudo = true;
		}
		return 1;
	}
	if (off >= room)
		return 1;
	n = bpf_probe_read_kernel_str(&w->buf[off & (room - 1)], RL_COMP_MAX,
				      BPF_CORE_READ(d, d_name.name));
	if (n <= 0)
		return 1;
	w->off = off + n;
	w->p = p;
	return 0;
}

static long walk_path_step(__u32 i, void *ctx)
{
	return walk_step(ctx, RL_PATH_ROOM);
}

static long walk_exe_step(__u32 i, void *ctx)
{
	return walk_step(ctx, RL_EXE_ROOM);
}

/* Walk @d in @vmnt into @buf; returns the bytes used, sets @cut in *@flags
 * when components were left out, @pseudo_ when the file is in no tree
 * (buf then holds its dentry's own name).
 */
#define WALK(d_, vmnt_, buf_, step, flags, cut, pseudo_)                            \
	({                                                                          \
		struct rl_walk __w = { .buf = (buf_) };                             \
		tf_path_start(&__w.p, (d_), (vmnt_));                               \
		bpf_loop(RL_DEPTH, step, &__w, 0);                                  \
		if (!__w.end)                                                       \
			*(flags) |= (cut);                                          \
		if (__w.pseudo)                                                     \
			*(flags) |= (pseudo_);                                      \
		(__u16)__w.off;                                                     \
	})

static __always_inline void fill_task(struct rl_event *e, struct task_struct *task)
{
	const struct cred *cred = task->cred;
	struct mm_struct *mm = task->mm;
	struct file *exe = mm ? mm->exe_file : NULL;

	e->pid = task->tgid;
	e->ppid = task->real_parent->tgid;
	e->uid = cred->uid.val;
	e->gid = cred->gid.val;
	e->euid = cred->euid.val;
	e->suid = cred->suid.val;
	e->fsuid = cred->fsuid.val;
	e->egid = cred->egid.val;
	e->sgid = cred->sgid.val;
	e->fsgid = cred->fsgid.val;
	e->secbits = cred->securebits;
	if (bpf_core_field_exists(task->loginuid)) {
		e->auid = BPF_CORE_READ(task, loginuid.val);
		e->ses = BPF_CORE_READ(task, sessionid);
		e->flags |= RL_EV_AUDIT;
	}
	__builtin_memcpy(e->comm, task->comm, sizeof(e->comm));
	if (exe)
		e->exe_len = WALK(BPF_CORE_READ(exe, f_path.dentry),
				  BPF_CORE_READ(exe, f_path.mnt), e->exe,
				  walk_exe_step, &e->flags, RL_EV_EXE_CUT, 0);
}

static __always_inline void fill_file(struct rl_event *e, struct file *f)
{
	struct inode *inode = BPF_CORE_READ(f, f_inode);

	e->flags |= RL_EV_FD;
	e->dev = BPF_CORE_READ(inode, i_sb, s_dev);
	e->ino = BPF_CORE_READ(inode, i_ino);
	e->mode = BPF_CORE_READ(inode, i_mode);
	e->ouid = BPF_CORE_READ(inode, i_uid.val);
	e->ogid = BPF_CORE_READ(inode, i_gid.val);
	e->path_len = WALK(BPF_CORE_READ(f, f_path.dentry),
			   BPF_CORE_READ(f, f_path.mnt), e->path,
			   walk_path_step, &e->flags, RL_EV_PATH_CUT, RL_EV_PSEUDO);
}

/* A check by name: the name as given, and the directory it is relative to. */
static __always_inline void fill_name(struct rl_event *e, struct task_struct *task,
				      const struct tf_ec_call *c)
{
	struct dentry *d = NULL;
	struct vfsmount *m = NULL;
	char more = 0;
	long n;

	if (!c->name)
		return;
	n = bpf_probe_read_user_str(e->name, RL_NAME_LEN, c->name);
	if (n <= 1)
		return;
	/* A full buffer: cut unless the name ended exactly there (its NUL). */
	if (n == RL_NAME_LEN) {
		bpf_probe_read_user(&more, 1, c->name + RL_NAME_LEN - 1);
		if (more)
			e->flags |= RL_EV_NAME_CUT;
	}
	if (e->name[0] == '/')
		return;
	if (c->dfd == AT_FDCWD) {
		d = BPF_CORE_READ(task, fs, pwd.dentry);
		m = BPF_CORE_READ(task, fs, pwd.mnt);
	} else {
		struct file *dir = tf_fd_file(task, c->dfd);

		if (!dir)
			return;
		d = BPF_CORE_READ(dir, f_path.dentry);
		m = BPF_CORE_READ(dir, f_path.mnt);
	}
	e->flags |= RL_EV_DIR;
	e->path_len = WALK(d, m, e->path, walk_path_step, &e->flags, RL_EV_PATH_CUT, 0);
}

SEC("tracepoint/syscalls/sys_exit_execveat")
int relay_exit(struct trace_event_raw_sys_exit *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct tf_ec_call call;
	struct rl_event *e;
	struct file *f;
	__u32 zero = 0;
	__u64 size;

	if (!tf_ec_decode(ctx, task, &call) || !tf_ec_refused(call.ret))
		return 0;
	__sync_fetch_and_add(&seen, 1);
	e = bpf_map_lookup_elem(&scratch, &zero);
	if (!e)
		return 0;
	/* Only the fixed part is cleared: the buffers carry lengths. */
	__builtin_memset(e, 0, __builtin_offsetof(struct rl_event, exe));
	e->name[0] = 0;
	e->ret = call.ret;
	f = tf_ec_fd_checked(task, &call);
	e->reason = tf_ec_reason(call.ret, f);
	fill_task(e, task);
	if (f) {
		fill_file(e, f);
		if (call.dfd == 0)
			e->flags |= RL_EV_STDIN;
	} else {
		fill_name(e, task, &call);
	}
	/*
	 * The bound checked must be the register used: opaque to clang on
	 * both sides of the test, or it compares one copy and adds another.
	 */
	size = e->path_len;
	asm volatile("" : "+r"(size));
	if (size > sizeof(e->path))
		size = sizeof(e->path);
	asm volatile("" : "+r"(size));
	size += RL_EVENT_MIN;
	if (bpf_ringbuf_output(&events, e, size, 0))
		__sync_fetch_and_add(&lost, 1);
	return 0;
}
