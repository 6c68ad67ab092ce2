/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trusttop: structures shared by the BPF programs (trusttop.bpf.c) and
 * user space. Only fixed-size types: this header is compiled for both.
 */
#ifndef TRUSTTOP_H
#define TRUSTTOP_H

#define TT_COMM_LEN 16	  /* TASK_COMM_LEN */
#define TT_EXE_LEN 16	  /* exe basename, truncated like comm */
#define TT_NAME_LEN 48	  /* one path component in an event */
#define TT_PATH_DEPTH 6	  /* components kept, innermost first */

/* Deny-reason slots: the 7 reason bits (TF_REASON_*: noexec_mount,
 * file_perm, not_regular, pseudo_fs, write_busy, lsm, check_error), then
 * "other" (a refusal with no known bit).
 */
#define TT_NREASON 8
#define TT_REASON_OTHER 7

/* Which kernel interface a verdict came from (rows and events). */
enum tt_source {
	TT_SRC_TRUSTED_FOR = 1,	 /* trusted_for(2): trusted_for_verdict */
	TT_SRC_EXECVE_CHECK = 2, /* execveat(AT_EXECVE_CHECK): the
				  * execve_check_verdict tracepoint of the
				  * patched kernel, or mainline's syscall exit
				  */
};

/* Event flags. */
#define TT_EV_DENIED 0x1	/* the call was denied */
#define TT_EV_WOULD 0x2		/* policy 3 would deny it */
#define TT_EV_PATH_TRUNC 0x4	/* more components above path[depth-1] */
#define TT_EV_NO_FILE 0x8	/* file unknown: only dev/ino or the name */
#define TT_EV_NAME_ARG 0x10	/* path[0] is the execveat() path argument */
#define TT_EV_SECBITS 0x20	/* secbits holds the caller's securebits */
#define TT_EV_ENFORCED 0x40	/* AT_EXECVE_CHECK: they made it refuse the
				 * file (tf_ec_enforced(), the kernel's
				 * enforced=)
				 */

/* Self-profiling, per CPU: every TT_PROF_EVERY-th program run is timed, so
 * trusttop can show its own cost without enabling the kernel's global BPF
 * run-time statistics (which would tax every BPF program on the system).
 */
#define TT_PROF_EVERY 64
struct tt_prof {
	__u64 runs;	/* program runs */
	__u64 sampled;	/* runs timed */
	__u64 ns;	/* time of the timed runs */
};

/* A row: one interpreter (exe basename + comm) run by one uid, through
 * one interface.
 */
struct tt_key {
	__u32 uid;
	__u32 tgid; /* 0 in the per-interpreter rows */
	char exe[TT_EXE_LEN];
	char comm[TT_COMM_LEN];
	__u32 api;  /* enum tt_source */
};

/*
 * The executable as the BPF side names it: no string to read per check,
 * only loads. The dentry's name hash (salted by its parent) tells apart
 * the names of one inode (hard links: perl, perl5.36.0) and a reused
 * inode number under another name; the name itself is read once, when a
 * counting entry is created, into the names map.
 */
struct tt_exe_id {
	__u64 ino;
	__u32 dev;	 /* kernel dev_t of the exe's file system */
	__u32 name_hash; /* d_name.hash of the exe's dentry */
};

/* Rows the BPF maps hold: per interpreter (stats) and per process (pstats). */
#define TT_ROWS 16384
/* Slots of the counts array behind stats: one per key, and a few for keys
 * two CPUs created at once (the loser's slot stays unused).
 */
#define TT_SLOTS (TT_ROWS + 1024)

/* Counting key of the BPF maps (stats, pstats): user space turns exe back
 * into the name (names map) and adds up the entries of one tt_key.
 */
struct tt_bkey {
	__u32 uid;
	__u32 tgid; /* 0 in the per-interpreter map */
	struct tt_exe_id exe; /* all zero: no executable (kernel thread) */
	char comm[TT_COMM_LEN];
	__u32 api;  /* enum tt_source */
	__u32 pad;  /* zero: the key is compared as 6 words */
};

struct tt_exe_name {
	char name[TT_EXE_LEN];
};

/* Cumulative counters since the programs were loaded; never reset. */
struct tt_counts {
	__u64 checks;  /* verdicts seen: allowed + denied; the BPF side leaves
			* it 0, user space sets it when it reads the map
			*/
	__u64 allowed;
	__u64 denied;
	__u64 errors;  /* AT_EXECVE_CHECK failing otherwise (not EBADF) */
	__u64 would;   /* calls policy 3 would deny */
	__u64 reason[TT_NREASON];	/* denials per reason (bit or "other") */
	__u64 would_reason[TT_NREASON]; /* would-deny per reason bit */
};

/* One denied (or would-be-denied) call, through the ring buffer. */
struct tt_event {
	__u64 ts_ns; /* bpf_ktime_get_ns() */
	__u64 ino;
	__u32 dev;   /* kernel dev_t: major << 20 | minor */
	__u32 mode;
	__u32 pid;   /* thread id */
	__u32 tgid;
	__u32 uid;
	__s32 ret;
	__s32 policy; /* -1: not known (AT_EXECVE_CHECK backend) */
	__u32 reason;
	__u32 would_deny;
	__u32 secbits; /* the caller's securebits (AT_EXECVE_CHECK) */
	__u32 pad;
	__u16 flags;
	__u8 source;
	__u8 depth;  /* path components filled */
	char comm[TT_COMM_LEN];
	char exe[TT_EXE_LEN];
	char path[TT_PATH_DEPTH][TT_NAME_LEN]; /* path[0] = basename */
};

#endif /* TRUSTTOP_H */
