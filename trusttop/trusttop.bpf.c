// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trusttop BPF side: count trusted_for / AT_EXECVE_CHECK verdicts per
 * interpreter in the kernel, and send denials through a ring buffer.
 *
 * User space loads the programs the running kernel can feed (it turns
 * autoload off for the others after probing):
 *  - the patched kernel, both interfaces at once, through its two
 *    tracepoints: tp_btf/trusted_for_verdict and tp_btf/execve_check_verdict
 *    (preferred), or the same events through the classic tracepoint ABI;
 *  - mainline >= 6.14: tracepoint/syscalls/sys_exit_execveat, filtered on
 *    AT_EXECVE_CHECK, verdict from the return value, the arguments from the
 *    registers the syscall saved (no sys_enter program: see execveat_exit).
 * Rows are counted per interface (tt_bkey.api).
 * One file over 400 lines: one BPF object, whose maps and programs share
 * static inline helpers (the libbpf-tools shape: one NAME.bpf.c).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "trusttop.h"
#include "trustedfor_abi.h" /* TF_REASON_*, AT_EXECVE_CHECK */
#include "bpf/execve_check.bpf.h" /* the mainline call, shared with trustfor-relay */
#include "bpf/path.bpf.h" /* the walk up to the root, likewise */

char LICENSE[] SEC("license") = "GPL";

#define EACCES TF_EACCES
#define EPERM TF_EPERM
#define EBADF TF_EBADF
#define ETXTBSY TF_ETXTBSY

/* Set by user space before load (sampling.c). */
const volatile bool per_process = true;	 /* fill the per-process map */
const volatile __u32 self_tgid = 0;	 /* ignore trusttop itself */
/* Ring wake-up sampling: user space leaves the default (a constant it
 * could set before load, as the two above).
 */
const volatile __u32 wakeup_every = 16;

/* Read by user space through the skeleton's bss. */
__u64 rb_drops;	      /* events lost: ring buffer full */
__u64 map_full;	      /* verdicts not counted: stats map full */
__u64 pmap_full;      /* same, per-process map (LRU: rarely) */

/* Per-interpreter rows: the key's slot in counts (a slot is given once,
 * entries are never deleted, so a key keeps its slot).
 */
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
__u32 slots_unused;   /* of those, slots no key got (see stats_slot()) */

/*
 * The last key counted on this CPU and its slot: consecutive checks nearly
 * always come from the same interpreter, and comparing five words costs a
 * fraction of the hash map's look-up (jhash and memcmp of the 48-byte key,
 * issue 12).  Only for the programs of the patched kernel's tracepoints,
 * which run with preemption disabled, from system calls only (never from
 * an interrupt), and are not nested (prog->active): nothing else can touch
 * this CPU's entry in between.  Not for the syscall-exit program, whose
 * tracepoint may be faultable.
 */
struct tt_last {
	struct tt_bkey key;
	__u32 slot1;	/* slot + 1; 0: empty */
	__u32 pad;
};

/*
 * What each CPU keeps: the self-profile and the last key.  One value, so
 * that a run looks it up once (a helper call on 6.1, where per-CPU array
 * look-ups are not inlined: about 2 % of a check in the VM, 16 ns of the
 * program's 319 ns, issue 12).
 */
struct tt_cpu {
	struct tt_prof prof;	/* first: user space reads only this part */
	struct tt_last last;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tt_cpu);
} cpu_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, TT_ROWS);
	__type(key, struct tt_bkey);
	__type(value, struct tt_counts);
} pstats SEC(".maps");

/* The name of each executable of a counting key, written once when an
 * entry is created (user space reads it then).
 */
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

/* This CPU's state (never NULL in practice: index 0 of a 1-entry array). */
static __always_inline struct tt_cpu *cpu_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_state, &zero);
}

/* Start of a program run: a timestamp when this run is sampled, else 0. */
static __always_inline __u64 prof_begin(struct tt_cpu *pc)
{
	if (!pc)
		return 0;
	pc->prof.runs++;
	return pc->prof.runs % TT_PROF_EVERY ? 0 : bpf_ktime_get_ns();
}

static __always_inline void prof_end(struct tt_cpu *pc, __u64 t0)
{
	if (!t0 || !pc)
		return;
	pc->prof.ns += bpf_ktime_get_ns() - t0;
	pc->prof.sampled++;
}

static const struct tt_counts zero_counts;

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
	if (bits & TF_REASON_WRITE_BUSY)
		__sync_fetch_and_add(&slots[4], 1);
	if (bits & TF_REASON_LSM)
		__sync_fetch_and_add(&slots[5], 1);
	if (bits & TF_REASON_CHECK_ERROR)
		__sync_fetch_and_add(&slots[6], 1);
	if (!would && !(bits & TF_REASON_ALL))
		__sync_fetch_and_add(&slots[TT_REASON_OTHER], 1);
	return 0;
}

/* The exe's basename, as the rows show it (a helper call: only when an
 * entry is created, and for events).
 */
static __always_inline void exe_name(char *out, struct task_struct *task)
{
	struct mm_struct *mm = task->mm;
	struct file *exe = mm ? mm->exe_file : NULL;

	if (exe)
		bpf_probe_read_kernel_str(out, TT_EXE_LEN,
					  exe->f_path.dentry->d_name.name);
}

/* A key's first count: its name first, so that user space never meets an
 * entry it cannot name.
 */
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
	 * less per check, and the three always agree).
	 */
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

	_Static_assert(sizeof(*a) == 6 * sizeof(__u64), "tt_bkey: 6 words");
	return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3] &&
	       x[4] == y[4] && x[5] == y[5];
}

/* The slot of @key in counts, created on its first count; -1: no room.
 * @l: this CPU's last key, or NULL where it may not be used.
 */
static __always_inline int stats_slot(struct tt_bkey *key,
				      struct task_struct *task,
				      struct tt_last *l)
{
	__u32 *sp, slot;

	if (l && l->slot1 && same_key(&l->key, key))
		return l->slot1 - 1;
	sp = bpf_map_lookup_elem(&stats, key);
	if (!sp) {
		/* every slot given out: no more taking (and no wrap) */
		if (next_slot >= TT_SLOTS)
			return -1;
		name_exe(key, task);
		slot = __sync_fetch_and_add(&next_slot, 1);
		if (slot >= TT_SLOTS)
			return -1;
		/* Another CPU may create it first: then its slot is the key's
		 * (this one stays unused, and zero). User space counts on
		 * each slot given out being a key's or counted here.
		 */
		if (bpf_map_update_elem(&stats, key, &slot, BPF_NOEXIST))
			__sync_fetch_and_add(&slots_unused, 1);
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

/* The names of @path, innermost first, crossing mounts up to the root. */
static __always_inline void fill_path(struct tt_event *e, const struct path *path)
{
	struct tf_path_pos p;
	int i;

	tf_path_start(&p, BPF_CORE_READ(path, dentry), BPF_CORE_READ(path, mnt));
#pragma unroll
	for (i = 0; i < TT_PATH_DEPTH; i++) {
		struct dentry *d;

		if (tf_path_cross(&p))
			return; /* reached the root */
		d = p.d;
		if (!tf_path_up(&p))
			return;
		bpf_probe_read_kernel_str(e->path[i], TT_NAME_LEN,
					  BPF_CORE_READ(d, d_name.name));
		e->depth = i + 1;
	}
	/* Depth exhausted: is there more above? */
	if (!tf_path_at_root(&p))
		e->flags |= TT_EV_PATH_TRUNC;
}

static __always_inline void fill_key(struct tt_bkey *key, struct task_struct *task)
{
	/* task is a trusted BTF pointer: plain loads (CO-RE relocated, faults
	 * handled by the JIT) instead of one probe-read helper call per hop,
	 * and no string: the exe's name cost a fifth of the program's run
	 * time (bpf_probe_read_kernel_str, issue 12).
	 */
	struct mm_struct *mm = task->mm;
	struct file *exe = mm ? mm->exe_file : NULL;

	/* The uid bpf_get_current_uid_gid() returns (current_cred()), by
	 * loads instead of a helper call.
	 */
	key->uid = task->cred->uid.val;
	/* comm as two loads, not a helper call: the kernel keeps it
	 * NUL-padded (__set_task_comm() uses strscpy_pad()), so these are
	 * the bytes bpf_get_current_comm() would copy.
	 */
	__builtin_memcpy(key->comm, task->comm, sizeof(key->comm));
	if (exe) {
		struct dentry *d = exe->f_path.dentry;
		struct inode *inode = exe->f_inode;

		key->exe.ino = inode->i_ino;
		key->exe.dev = inode->i_sb->s_dev;
		key->exe.name_hash = d->d_name.hash;
	}
}

/* One verdict as a program got it from the kernel. */
struct tt_verdict {
	int ret;
	int policy;	 /* -1: none applies (AT_EXECVE_CHECK) */
	__u32 reason;	 /* reason bits of a refusal */
	__u32 would;	 /* reason bits policy 3 (the securebit) would refuse */
	__u32 secbits;	 /* with TT_EV_SECBITS */
	__u16 flags;
	__u8 source;	 /* enum tt_source */
};

/* A refusal of the file, as opposed to an error: trusted_for(2) refuses
 * with EACCES (EPERM from an LSM); AT_EXECVE_CHECK as execve(2) would,
 * which adds ETXTBSY (the file is open for writing).  The patched kernel
 * also refuses a file it could not check, with the filesystem's error
 * (EIO, ESTALE...): its reason says so (check_error).
 */
static __always_inline bool refusal(const struct tt_verdict *vd)
{
	return vd->ret == -EACCES || vd->ret == -EPERM ||
	       (vd->source == TT_SRC_EXECVE_CHECK && vd->ret == -ETXTBSY) ||
	       (vd->ret && (vd->reason & TF_REASON_CHECK_ERROR));
}

/*
 * Count one verdict in the rows of the caller's interpreter and process.
 * Returns true when it must be reported as an event (denied, or would be);
 * the caller then fills in the file (report()).  @last: this CPU's last
 * key, for the programs that may use it (see struct tt_last), else NULL.
 */
static __always_inline bool verdict(struct tt_verdict *vd, struct tt_bkey *key,
				    struct tt_last *last)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct tt_counts *c;
	__u32 tgid = task->tgid;
	int v, slot;

	if (self_tgid && tgid == self_tgid)
		return false;
	fill_key(key, task);
	key->api = vd->source;
	v = vd->ret == 0 ? 0 : refusal(vd) ? 1 : -1;
	slot = stats_slot(key, task, last);
	c = slot >= 0 ? bpf_map_lookup_elem(&counts, &slot) : NULL;
	if (c)
		add(c, v, vd->reason, vd->would);
	else
		__sync_fetch_and_add(&map_full, 1);
	if (per_process) {
		key->tgid = tgid;
		count(&pstats, key, task, v, vd->reason, vd->would, &pmap_full);
		key->tgid = 0;
	}
	if (v > 0)
		vd->flags |= TT_EV_DENIED;
	if (vd->would)
		vd->flags |= TT_EV_WOULD;
	return v > 0 || vd->would;
}

/* An event for the verdict, without the file: NULL when the ring is full. */
static __always_inline struct tt_event *event_begin(const struct tt_bkey *key,
						    const struct tt_verdict *vd)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct tt_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&rb_drops, 1);
		return NULL;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->ts_ns = bpf_ktime_get_ns();
	e->pid = (__u32)id;
	e->tgid = id >> 32;
	e->uid = key->uid;
	__builtin_memcpy(e->comm, key->comm, sizeof(e->comm));
	exe_name(e->exe, bpf_get_current_task_btf());
	e->ret = vd->ret;
	e->policy = vd->policy;
	e->reason = vd->reason;
	e->would_deny = vd->would;
	e->secbits = vd->secbits;
	e->source = vd->source;
	e->flags = vd->flags;
	return e;
}

/* Only events need the file's identity: read it here, not per check. */
static __always_inline void event_inode(struct tt_event *e,
					const struct inode *inode)
{
	e->dev = BPF_CORE_READ(inode, i_sb, s_dev);
	e->ino = BPF_CORE_READ(inode, i_ino);
	e->mode = BPF_CORE_READ(inode, i_mode);
}

static __always_inline void event_submit(struct tt_event *e)
{
	__u64 *n, wflag = BPF_RB_NO_WAKEUP;
	__u32 zero = 0;

	/* Sampled wake-up: every wakeup_every-th event on this CPU, or when
	 * the ring is getting full; user space also drains it every tick.
	 */
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

/* Report a verdict on a file the kernel handed over (path and inode). */
static __always_inline void report_path(const struct tt_bkey *key,
					const struct tt_verdict *vd,
					const struct path *path,
					const struct inode *inode)
{
	struct tt_event *e = event_begin(key, vd);

	if (!e)
		return;
	event_inode(e, inode);
	fill_path(e, path);
	event_submit(e);
}

SEC("tp_btf/trusted_for_verdict")
int BPF_PROG(tf_verdict_btf, struct file *file, int usage, int policy,
	     int ret, unsigned int reason, unsigned int would_deny)
{
	struct tt_cpu *pc = cpu_get();
	__u64 t0 = prof_begin(pc);
	struct tt_verdict vd = {
		.ret = ret, .policy = policy, .reason = reason,
		.would = would_deny, .source = TT_SRC_TRUSTED_FOR,
	};
	struct tt_bkey key = {};

	if (verdict(&vd, &key, pc ? &pc->last : NULL))
		report_path(&key, &vd, &file->f_path, file->f_inode);
	prof_end(pc, t0);
	return 0;
}

/*
 * execveat(AT_EXECVE_CHECK) on the patched kernel: the kernel's own
 * verdict and reasons.  AT_EXECVE_CHECK refuses what execve() would,
 * whatever the caller's securebits; the tracepoint's @reason is only set
 * when the caller's securebits make it enforce the verdict (the kernel's
 * rule, tf_ec_enforced()), @would_deny always.  trusttop counts what the
 * kernel refused, as on mainline: the reasons are @would_deny's, and the
 * event carries the securebits and whether the caller enforced.  An open
 * that failed with another error (EIO, ESTALE...) is a refusal too, with
 * the reason check_error (refusal()).
 */
SEC("tp_btf/execve_check_verdict")
int BPF_PROG(ec_verdict_btf, const struct path *path, const struct inode *inode,
	     int ret, unsigned int reason, unsigned int would_deny,
	     unsigned int secbits)
{
	struct tt_cpu *pc = cpu_get();
	__u64 t0 = prof_begin(pc);
	struct tt_verdict vd = {
		.ret = ret, .policy = -1, .reason = would_deny,
		.would = would_deny, .secbits = secbits,
		.flags = TT_EV_SECBITS | (reason ? TT_EV_ENFORCED : 0),
		.source = TT_SRC_EXECVE_CHECK,
	};
	struct tt_bkey key = {};

	if (verdict(&vd, &key, pc ? &pc->last : NULL))
		report_path(&key, &vd, path, inode);
	prof_end(pc, t0);
	return 0;
}

/* Classic tracepoint records, relocated against the patched kernel's BTF:
 * no file, only its device, inode number and mode.
 */
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

struct trace_event_raw_execve_check_verdict___x {
	struct trace_entry ent;
	unsigned long ino;
	dev_t dev;
	int ret;
	unsigned int reason;
	unsigned int would_deny;
	unsigned int secbits;
	umode_t mode;
} __attribute__((preserve_access_index));

#define REPORT_TP_IDS(key, vd, tp)                                             \
	do {                                                                   \
		struct tt_event *__e = event_begin(key, vd);                   \
		if (__e) {                                                     \
			__e->dev = READ_INT_FIELD(tp, dev);                    \
			__e->ino = READ_INT_FIELD(tp, ino);                    \
			__e->mode = READ_INT_FIELD(tp, mode);                  \
			event_submit(__e);                                     \
		}                                                              \
	} while (0)

SEC("tracepoint/trusted_for/trusted_for_verdict")
int tf_verdict_tp(struct trace_event_raw_trusted_for_verdict___x *ctx)
{
	struct tt_cpu *pc = cpu_get();
	__u64 t0 = prof_begin(pc);
	struct tt_verdict vd = {
		.ret = (int)READ_INT_FIELD(ctx, ret),
		.policy = (int)READ_INT_FIELD(ctx, policy),
		.reason = READ_INT_FIELD(ctx, reason),
		.would = READ_INT_FIELD(ctx, would_deny),
		.flags = TT_EV_NO_FILE, .source = TT_SRC_TRUSTED_FOR,
	};
	struct tt_bkey key = {};

	if (verdict(&vd, &key, pc ? &pc->last : NULL))
		REPORT_TP_IDS(&key, &vd, ctx);
	prof_end(pc, t0);
	return 0;
}

SEC("tracepoint/trusted_for/execve_check_verdict")
int ec_verdict_tp(struct trace_event_raw_execve_check_verdict___x *ctx)
{
	struct tt_cpu *pc = cpu_get();
	__u64 t0 = prof_begin(pc);
	__u32 would = READ_INT_FIELD(ctx, would_deny);
	struct tt_verdict vd = {
		.ret = (int)READ_INT_FIELD(ctx, ret), .policy = -1,
		.reason = would, .would = would,
		.secbits = READ_INT_FIELD(ctx, secbits),
		.flags = TT_EV_NO_FILE | TT_EV_SECBITS |
			 (READ_INT_FIELD(ctx, reason) ? TT_EV_ENFORCED : 0),
		.source = TT_SRC_EXECVE_CHECK,
	};
	struct tt_bkey key = {};

	if (verdict(&vd, &key, pc ? &pc->last : NULL))
		REPORT_TP_IDS(&key, &vd, ctx);
	prof_end(pc, t0);
	return 0;
}

/*
 * Mainline: one program at the syscall's exit, which has its arguments too:
 * the registers the task saved on entry (x86-64: di fd, si path, dx argv,
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
	struct tt_verdict vd = {
		.policy = -1, .flags = TT_EV_SECBITS,
		.source = TT_SRC_EXECVE_CHECK,
	};
	struct tt_bkey key = {};
	struct tf_ec_call call;
	struct file *f = NULL;
	struct tt_event *e;
	struct tt_cpu *pc;
	__u64 t0;

	if (!tf_ec_decode(ctx, task, &call))
		return 0;
	pc = cpu_get();
	t0 = prof_begin(pc);
	vd.ret = call.ret;
	if (vd.ret == -EBADF) {
		prof_end(pc, t0);
		return 0; /* no file, no verdict (feature probes use fd -1) */
	}
	/* The file and the securebits are only looked at for refusals (the
	 * fast path stays short; only events carry the securebits).
	 */
	if (refusal(&vd)) {
		vd.secbits = task->cred->securebits;
		f = tf_ec_fd_checked(task, &call);
		if (!f)
			vd.flags |= TT_EV_NO_FILE;
		if (tf_ec_enforced(vd.secbits, f && call.dfd == 0))
			vd.flags |= TT_EV_ENFORCED;
		vd.reason = tf_ec_reason(call.ret, f);
		/* Mainline always enforces everything: would-deny = denied. */
		vd.would = vd.reason;
	}
	e = verdict(&vd, &key, NULL) ? event_begin(&key, &vd) : NULL;
	if (e) {
		if (f) {
			event_inode(e, BPF_CORE_READ(f, f_inode));
			fill_path(e, &f->f_path);
		} else if (call.name) {
			/* > 1: a name, not an empty path */
			if (bpf_probe_read_user_str(e->path[0], TT_NAME_LEN,
						    call.name) > 1)
				e->depth = 1;
			e->flags |= TT_EV_NAME_ARG;
		}
		event_submit(e);
	}
	prof_end(pc, t0);
	return 0;
}
