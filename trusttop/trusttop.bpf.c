// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trusttop BPF side: count trusted_for / AT_EXECVE_CHECK verdicts per
 * interpreter in the kernel, and send denials through a ring buffer.
 *
 * Three attach flavours, exactly one is loaded (user space turns autoload
 * off for the others after probing the running kernel):
 *  - tp_btf/trusted_for_verdict: patched kernel with BTF (preferred);
 *  - tracepoint/trusted_for/trusted_for_verdict: same event, classic ABI;
 *  - tracepoint/syscalls/sys_exit_execveat: mainline >= 6.14, filtered on
 *    AT_EXECVE_CHECK, verdict from the return value, the arguments from the
 *    registers the syscall saved (no sys_enter program: see execveat_exit).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "trusttop.h"

char LICENSE[] SEC("license") = "GPL";

#define EACCES 13
#define EPERM 1
#define EBADF 9
#define AT_EMPTY_PATH 0x1000
#define AT_EXECVE_CHECK 0x10000
#define MNT_NOEXEC 0x04	 /* include/linux/mount.h */
#define SB_I_NOEXEC 0x02 /* include/linux/fs.h */
#define S_IFMT 00170000
#define S_IFREG 0100000

#define TF_REASON_NOEXEC_MOUNT 0x1u
#define TF_REASON_FILE_PERM 0x2u
#define TF_REASON_NOT_REGULAR 0x4u
#define TF_REASON_PSEUDO_FS 0x8u

/* Set by user space before load. */
const volatile bool per_process = true;	 /* fill the per-process map */
const volatile __u32 wakeup_every = 16;	 /* ring wake-up sampling */
const volatile __u32 self_tgid = 0;	 /* ignore trusttop itself */

/* Read by user space through the skeleton's bss. */
__u64 rb_drops;	      /* events lost: ring buffer full */
__u64 map_full;	      /* verdicts not counted: stats map full */
__u64 pmap_full;      /* same, per-process map (LRU: rarely) */

/* Per-interpreter rows: the key's slot in counts (a slot is given once,
 * entries are never deleted, so a key keeps its slot). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TT_ROWS);
	__type(key, struct tt_bkey);
	__type(value, __u32);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TT_SLOTS);
	__type(key, __u32);
	__type(value, struct tt_counts);
} counts SEC(".maps");

__u32 next_slot;      /* slots given out (user space reads no further) */

/*
 * The last key counted on this CPU and its slot: consecutive checks nearly
 * always come from the same interpreter, and comparing five words costs a
 * fraction of the hash map's look-up (jhash and memcmp of the 40-byte key,
 * issue 12).  Only for the trusted_for programs, which tracepoints run with
 * preemption disabled and the kernel never nests (prog->active,
 * bpf_prog_active): nothing else can touch this CPU's entry in between.
 */
struct tt_last {
	struct tt_bkey key;
	__u32 slot1;	/* slot + 1; 0: empty */
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tt_last);
} last SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, TT_ROWS);
	__type(key, struct tt_bkey);
	__type(value, struct tt_counts);
} pstats SEC(".maps");

/* The name of each executable of a counting key, written once when an
 * entry is created (user space reads it then). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct tt_exe_id);
	__type(value, struct tt_exe_name);
} names SEC(".maps");

__u64 names_full;     /* executables whose name could not be recorded */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

/* Wake-up sampling counter, per CPU so no atomics are needed. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} wake_cnt SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tt_prof);
} prof SEC(".maps");

/* Start of a program run: a timestamp when this run is sampled, else 0. */
static __always_inline __u64 prof_begin(void)
{
	__u32 zero = 0;
	struct tt_prof *p = bpf_map_lookup_elem(&prof, &zero);

	if (!p)
		return 0;
	p->runs++;
	return p->runs % TT_PROF_EVERY ? 0 : bpf_ktime_get_ns();
}

static __always_inline void prof_end(__u64 t0)
{
	__u32 zero = 0;
	struct tt_prof *p;

	if (!t0)
		return;
	p = bpf_map_lookup_elem(&prof, &zero);
	if (p) {
		p->ns += bpf_ktime_get_ns() - t0;
		p->sampled++;
	}
}

static const struct tt_counts zero_counts;

/* Classic tracepoint record, relocated against the patched kernel's BTF. */
struct trace_event_raw_trusted_for_verdict___x {
	struct trace_entry ent;
	dev_t dev;
	unsigned long ino;
	umode_t mode;
	int usage;
	int policy;
	int ret;
	unsigned int reason;
	unsigned int would_deny;
} __attribute__((preserve_access_index));

/* Read an integer field whatever its size in the running kernel. */
#define READ_INT_FIELD(s, field)                                              \
	({                                                                     \
		unsigned long long __v = 0;                                    \
		__u32 __sz = bpf_core_field_size(s->field);                   \
		if (__sz > sizeof(__v))                                        \
			__sz = sizeof(__v);                                    \
		bpf_probe_read_kernel(&__v, __sz & 0xf,                        \
				      (const void *)s +                        \
					      bpf_core_field_offset(s->field)); \
		__v;                                                           \
	})

static __always_inline int reason_slot_add(struct tt_counts *c, __u32 bits,
					   bool would)
{
	__u64 *slots = would ? c->would_reason : c->reason;

	if (bits & TF_REASON_NOEXEC_MOUNT)
		__sync_fetch_and_add(&slots[0], 1);
	if (bits & TF_REASON_FILE_PERM)
		__sync_fetch_and_add(&slots[1], 1);
	if (bits & TF_REASON_NOT_REGULAR)
		__sync_fetch_and_add(&slots[2], 1);
	if (bits & TF_REASON_PSEUDO_FS)
		__sync_fetch_and_add(&slots[3], 1);
	if (!would && !(bits & 0xf))
		__sync_fetch_and_add(&slots[TT_REASON_OTHER], 1);
	return 0;
}

/* The exe's basename, as the rows show it (a helper call: only when an
 * entry is created, and for events). */
static __always_inline void exe_name(char *out, struct task_struct *task)
{
	struct mm_struct *mm = task->mm;
	struct file *exe = mm ? mm->exe_file : NULL;

	if (exe)
		bpf_probe_read_kernel_str(out, TT_EXE_LEN,
					  exe->f_path.dentry->d_name.name);
}

/* A key's first count: its name first, so that user space never meets an
 * entry it cannot name. */
static __always_inline void name_exe(struct tt_bkey *key, struct task_struct *task)
{
	struct tt_exe_name n = {};

	if (!bpf_map_lookup_elem(&names, &key->exe)) {
		exe_name(n.name, task);
		if (bpf_map_update_elem(&names, &key->exe, &n, BPF_NOEXIST) &&
		    !bpf_map_lookup_elem(&names, &key->exe))
			__sync_fetch_and_add(&names_full, 1);
	}
}

static __always_inline void add(struct tt_counts *c, int verdict, __u32 reason,
				__u32 would)
{
	/* checks = allowed + denied: user space adds them up (one atomic
	 * less per check, and the three always agree). */
	if (verdict == 0)
		__sync_fetch_and_add(&c->allowed, 1);
	else if (verdict > 0)
		__sync_fetch_and_add(&c->denied, 1);
	else
		__sync_fetch_and_add(&c->errors, 1);
	if (verdict > 0)
		reason_slot_add(c, reason, false);
	if (would) {
		__sync_fetch_and_add(&c->would, 1);
		reason_slot_add(c, would, true);
	}
}

/* Per-process rows (LRU): the counts are the map's values. */
static __always_inline void count(void *map, struct tt_bkey *key,
				  struct task_struct *task, int verdict,
				  __u32 reason, __u32 would, __u64 *full)
{
	struct tt_counts *c = bpf_map_lookup_elem(map, key);

	if (!c) {
		name_exe(key, task);
		/* Another CPU may create it first: EEXIST is fine. */
		bpf_map_update_elem(map, key, &zero_counts, BPF_NOEXIST);
		c = bpf_map_lookup_elem(map, key);
		if (!c) {
			__sync_fetch_and_add(full, 1);
			return;
		}
	}
	add(c, verdict, reason, would);
}

static __always_inline bool same_key(const struct tt_bkey *a,
				     const struct tt_bkey *b)
{
	const __u64 *x = (const __u64 *)a, *y = (const __u64 *)b;

	_Static_assert(sizeof(*a) == 5 * sizeof(__u64), "tt_bkey: 5 words");
	return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3] &&
	       x[4] == y[4];
}

/* The slot of @key in counts, created on its first count; -1: no room. */
static __always_inline int stats_slot(struct tt_bkey *key,
				      struct task_struct *task, bool cached)
{
	struct tt_last *l = NULL;
	__u32 zero = 0, *sp, slot;

	if (cached) {
		l = bpf_map_lookup_elem(&last, &zero);
		if (l && l->slot1 && same_key(&l->key, key))
			return l->slot1 - 1;
	}
	sp = bpf_map_lookup_elem(&stats, key);
	if (!sp) {
		name_exe(key, task);
		slot = __sync_fetch_and_add(&next_slot, 1);
		if (slot >= TT_SLOTS)
			return -1;
		/* Another CPU may create it first: then its slot is the key's
		 * (this one stays unused, and zero). */
		bpf_map_update_elem(&stats, key, &slot, BPF_NOEXIST);
		sp = bpf_map_lookup_elem(&stats, key);
		if (!sp)
			return -1;
	}
	slot = *sp;
	if (l) {
		l->key = *key;
		l->slot1 = slot + 1;
	}
	return slot;
}

static __always_inline void fill_path(struct tt_event *e, struct file *file)
{
	struct vfsmount *vmnt = BPF_CORE_READ(file, f_path.mnt);
	struct dentry *d = BPF_CORE_READ(file, f_path.dentry);
	struct mount *mnt = (void *)vmnt - bpf_core_field_offset(struct mount, mnt);
	int i;

#pragma unroll
	for (i = 0; i < TT_PATH_DEPTH; i++) {
		struct dentry *parent;

		if (d == BPF_CORE_READ(vmnt, mnt_root)) {
			struct mount *pm = BPF_CORE_READ(mnt, mnt_parent);

			if (pm == mnt)
				return; /* reached the root */
			/* Cross to the mount point in the parent mount. */
			d = BPF_CORE_READ(mnt, mnt_mountpoint);
			mnt = pm;
			vmnt = (void *)pm + bpf_core_field_offset(struct mount, mnt);
			if (d == BPF_CORE_READ(vmnt, mnt_root)) {
				pm = BPF_CORE_READ(mnt, mnt_parent);
				if (pm == mnt)
					return;
				d = BPF_CORE_READ(mnt, mnt_mountpoint);
				mnt = pm;
				vmnt = (void *)pm +
				       bpf_core_field_offset(struct mount, mnt);
			}
		}
		parent = BPF_CORE_READ(d, d_parent);
		if (!parent || parent == d)
			return;
		bpf_probe_read_kernel_str(e->path[i], TT_NAME_LEN,
					  BPF_CORE_READ(d, d_name.name));
		e->depth = i + 1;
		d = parent;
	}
	/* Depth exhausted: is there more above? */
	if (d != BPF_CORE_READ(vmnt, mnt_root) ||
	    BPF_CORE_READ(mnt, mnt_parent) != mnt)
		e->flags |= TT_EV_PATH_TRUNC;
}

static __always_inline void fill_key(struct tt_bkey *key, struct task_struct *task)
{
	/* task is a trusted BTF pointer: plain loads (CO-RE relocated, faults
	 * handled by the JIT) instead of one probe-read helper call per hop,
	 * and no string: the exe's name cost a fifth of the program's run
	 * time (bpf_probe_read_kernel_str, issue 12). */
	struct mm_struct *mm = task->mm;
	struct file *exe = mm ? mm->exe_file : NULL;

	/* The uid bpf_get_current_uid_gid() returns (current_cred()), by
	 * loads instead of a helper call. */
	key->uid = task->cred->uid.val;
	/* comm as two loads, not a helper call: the kernel keeps it
	 * NUL-padded (__set_task_comm() uses strscpy_pad()), so these are
	 * the bytes bpf_get_current_comm() would copy. */
	__builtin_memcpy(key->comm, task->comm, sizeof(key->comm));
	if (exe) {
		struct dentry *d = exe->f_path.dentry;
		struct inode *inode = exe->f_inode;

		key->exe.ino = inode->i_ino;
		key->exe.dev = inode->i_sb->s_dev;
		key->exe.name_hash = d->d_name.hash;
	}
}

static __always_inline void file_ids(struct file *file, __u32 *dev,
				     __u64 *ino, __u32 *mode)
{
	struct inode *inode = BPF_CORE_READ(file, f_inode);

	*dev = BPF_CORE_READ(inode, i_sb, s_dev);
	*ino = BPF_CORE_READ(inode, i_ino);
	*mode = BPF_CORE_READ(inode, i_mode);
}

static __always_inline void emit(struct tt_bkey *key, struct file *file,
				 struct trace_event_raw_trusted_for_verdict___x *tp,
				 int ret, int policy, __u32 reason, __u32 would,
				 __u8 source, __u16 flags, const char *name)
{
	__u32 dev = 0, mode = 0;
	__u64 ino = 0;
	struct tt_event *e;
	__u32 zero = 0;
	__u64 *n, wflag = BPF_RB_NO_WAKEUP;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&rb_drops, 1);
		return;
	}
	__builtin_memset(e, 0, sizeof(*e));
	/* Only events need the file's identity: read it here, not per check. */
	if (file) {
		file_ids(file, &dev, &ino, &mode);
	} else if (tp) {
		dev = READ_INT_FIELD(tp, dev);
		ino = READ_INT_FIELD(tp, ino);
		mode = READ_INT_FIELD(tp, mode);
	}
	e->ts_ns = bpf_ktime_get_ns();
	e->pid = (__u32)bpf_get_current_pid_tgid();
	e->tgid = bpf_get_current_pid_tgid() >> 32;
	e->uid = key->uid;
	__builtin_memcpy(e->comm, key->comm, sizeof(e->comm));
	exe_name(e->exe, bpf_get_current_task_btf());
	e->dev = dev;
	e->ino = ino;
	e->mode = mode;
	e->ret = ret;
	e->policy = policy;
	e->reason = reason;
	e->would_deny = would;
	e->source = source;
	e->flags = flags;
	if (file) {
		fill_path(e, file);
	} else if (name) {
		if (bpf_probe_read_user_str(e->path[0], TT_NAME_LEN, name) > 0)
			e->depth = 1;
		e->flags |= TT_EV_NAME_ARG;
	}
	/* Sampled wake-up: every wakeup_every-th event on this CPU, or when
	 * the ring is getting full; user space also drains it every tick. */
	n = bpf_map_lookup_elem(&wake_cnt, &zero);
	if (n) {
		*n += 1;
		if (wakeup_every <= 1 || *n % wakeup_every == 0)
			wflag = BPF_RB_FORCE_WAKEUP;
	}
	if (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) > 128 * 1024)
		wflag = BPF_RB_FORCE_WAKEUP;
	bpf_ringbuf_submit(e, wflag);
}

/* One verdict: count it, and report it when denied or would be. */
static __always_inline void verdict(struct file *file,
				    struct trace_event_raw_trusted_for_verdict___x *tp,
				    int ret, int policy, __u32 reason, __u32 would,
				    __u8 source, __u16 flags, const char *name)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct tt_bkey key = {};
	struct tt_counts *c;
	__u32 tgid = task->tgid;
	int v, slot;

	if (self_tgid && tgid == self_tgid)
		return;
	fill_key(&key, task);
	v = ret == 0 ? 0 : (ret == -EACCES || ret == -EPERM) ? 1 : -1;
	slot = stats_slot(&key, task, source == TT_SRC_TRUSTED_FOR);
	c = slot >= 0 ? bpf_map_lookup_elem(&counts, &slot) : NULL;
	if (c)
		add(c, v, reason, would);
	else
		__sync_fetch_and_add(&map_full, 1);
	if (per_process) {
		key.tgid = tgid;
		count(&pstats, &key, task, v, reason, would, &pmap_full);
		key.tgid = 0;
	}
	if (v > 0)
		flags |= TT_EV_DENIED;
	if (would)
		flags |= TT_EV_WOULD;
	if (v > 0 || would)
		emit(&key, file, tp, ret, policy, reason, would, source, flags,
		     name);
}

SEC("tp_btf/trusted_for_verdict")
int BPF_PROG(tf_verdict_btf, struct file *file, int usage, int policy,
	     int ret, unsigned int reason, unsigned int would_deny)
{
	__u64 t0 = prof_begin();

	verdict(file, NULL, ret, policy, reason, would_deny, TT_SRC_TRUSTED_FOR,
		0, NULL);
	prof_end(t0);
	return 0;
}

SEC("tracepoint/trusted_for/trusted_for_verdict")
int tf_verdict_tp(struct trace_event_raw_trusted_for_verdict___x *ctx)
{
	__u64 t0 = prof_begin();

	verdict(NULL, ctx, (int)READ_INT_FIELD(ctx, ret),
		(int)READ_INT_FIELD(ctx, policy), READ_INT_FIELD(ctx, reason),
		READ_INT_FIELD(ctx, would_deny), TT_SRC_TRUSTED_FOR,
		TT_EV_NO_FILE, NULL);
	prof_end(t0);
	return 0;
}

/* The struct file behind @fd in the current task, NULL when none. */
static __always_inline struct file *fd_file(struct task_struct *task, __s64 fd)
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
 * Why mainline refused: the checks do_open_execat()/may_open() make, in
 * their order. EACCES with none of them is reported as "file_perm": the
 * exec permission check (mode bits, ACL) or an LSM refused.
 */
static __always_inline __u32 execve_check_reason(struct file *f, __u32 mode)
{
	struct vfsmount *mnt = BPF_CORE_READ(f, f_path.mnt);

	if ((mode & S_IFMT) != S_IFREG)
		return TF_REASON_NOT_REGULAR;
	if (BPF_CORE_READ(mnt, mnt_flags) & MNT_NOEXEC)
		return TF_REASON_NOEXEC_MOUNT;
	if (BPF_CORE_READ(mnt, mnt_sb, s_iflags) & SB_I_NOEXEC)
		return TF_REASON_PSEUDO_FS;
	return TF_REASON_FILE_PERM;
}

/*
 * One program at the syscall's exit, which has its arguments too: the
 * registers the task saved on entry (x86-64: di fd, si path, dx argv,
 * r10 envp, r8 flags), which nothing changes before the exit but a
 * successful exec (it clears them, and such a call had no AT_EXECVE_CHECK).
 * What the sys_enter_execveat program and a task-storage entry between the
 * two used to carry: that pair cost more than the counting (issue 12:
 * enabling sys_enter also sends every syscall of every task through the
 * tracepoint's perf hook, and each check paid a second program run and two
 * task-storage look-ups).
 */
SEC("tracepoint/syscalls/sys_exit_execveat")
int execveat_exit(struct trace_event_raw_sys_exit *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);
	struct file *f = NULL;
	__u32 mode = 0, reason = 0, atflags;
	__u16 flags = 0;
	int ret = ctx->ret;
	const char *name = NULL, *arg;
	char c = 0;
	__u64 t0;

	if (!regs)
		return 0;
	atflags = (__u32)regs->r8;
	if (!(atflags & AT_EXECVE_CHECK))
		return 0;
	t0 = prof_begin();
	if (ret == -EBADF) {
		prof_end(t0);
		return 0; /* no file, no verdict (feature probes use fd -1) */
	}
	/* The file is only looked at for denials (the fast path stays short).
	 * Only an empty path names the fd itself (AT_EMPTY_PATH). */
	if (ret != 0) {
		arg = (const char *)regs->si;
		if (arg)
			bpf_probe_read_user(&c, 1, arg);
		if (c == 0 && (atflags & AT_EMPTY_PATH))
			f = fd_file(task, (__s64)(int)regs->di);
		else
			name = arg;
		if (f)
			mode = BPF_CORE_READ(f, f_inode, i_mode);
		else
			flags |= TT_EV_NO_FILE;
		if (ret == -EACCES)
			reason = f ? execve_check_reason(f, mode) : 0;
	}
	/* Mainline always enforces everything: would-deny = denied. */
	verdict(f, NULL, ret, -1, reason, reason, TT_SRC_EXECVE_CHECK, flags,
		name);
	prof_end(t0);
	return 0;
}
