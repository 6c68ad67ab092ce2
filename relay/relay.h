/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trustfor-relay: what the BPF program (relay.bpf.c) hands user space for
 * each execveat(AT_EXECVE_CHECK) refusal.  Fixed-size types only: this
 * header is compiled for both.
 */
#ifndef RELAY_H
#define RELAY_H

#define RL_COMM_LEN 16	 /* TASK_COMM_LEN */
#define RL_NAME_LEN 256	 /* the name argument, NUL included */
/*
 * Path buffers: the components, innermost first, each ending with a NUL
 * (user space joins them in reverse).  A component is read with room for
 * NAME_MAX + 1 bytes, so a buffer holds RL_PATH_ROOM bytes of components
 * plus that slack; deeper paths are cut (RL_EV_PATH_CUT, RL_EV_EXE_CUT).
 * Sized so that a record with every name hex-encoded stays below the
 * kernel's limit for a user message (AUDIT_MESSAGE_TEXT_MAX, 8560).
 */
#define RL_PATH_ROOM 2048
#define RL_EXE_ROOM 512
#define RL_COMP_MAX 256	 /* NAME_MAX + 1 */
#define RL_DEPTH 64	 /* components walked at most */

/* Event flags. */
#define RL_EV_FD 0x1	   /* a check by descriptor: the file is known */
#define RL_EV_PATH_CUT 0x2 /* path: more components above the first kept */
#define RL_EV_EXE_CUT 0x4  /* exe: likewise */
#define RL_EV_NAME_CUT 0x8 /* the name argument was longer */
#define RL_EV_DIR 0x10	   /* path holds the directory of a relative name */
#define RL_EV_AUDIT 0x20   /* auid and ses were read (CONFIG_AUDIT) */
#define RL_EV_PSEUDO 0x40  /* path: the name of a file in no tree (pipe, socket, memfd) */
#define RL_EV_STDIN 0x80   /* a check of descriptor 0 itself (tf_ec_enforced()) */

struct rl_event {
	__u64 ino;
	__u32 dev;	/* kernel dev_t: major << 20 | minor */
	__u32 mode;
	__u32 ouid, ogid;
	__u32 pid, ppid; /* thread-group ids, as audit's pid= and ppid= */
	__u32 uid, gid, euid, suid, fsuid, egid, sgid, fsgid;
	__u32 auid, ses;
	__u32 secbits;
	__u32 reason;	/* TF_REASON_* bits; 0 when the program cannot tell */
	__s32 ret;	/* -EACCES, -EPERM, -ETXTBSY */
	__u16 flags;	/* RL_EV_* */
	__u16 path_len;	/* bytes used in path */
	__u16 exe_len;
	__u16 pad;
	char comm[RL_COMM_LEN];
	char exe[RL_EXE_ROOM + RL_COMP_MAX];
	char name[RL_NAME_LEN];
	/* last: the ring buffer carries only its path_len bytes */
	char path[RL_PATH_ROOM + RL_COMP_MAX];
};

/* The bytes of an event in the ring buffer: all but path's unused part. */
#define RL_EVENT_MIN __builtin_offsetof(struct rl_event, path)

#endif /* RELAY_H */
