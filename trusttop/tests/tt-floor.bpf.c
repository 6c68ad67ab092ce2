// SPDX-License-Identifier: GPL-2.0
/*
 * Empty programs on the events trusttop attaches to: what any BPF program
 * there costs before it does any work (the tracepoint's dispatch and, on
 * the patched kernel, the would-deny reasons computed only while the event
 * is enabled).  bench/trusttop-overhead.sh measures it as the floor of
 * trusttop's overhead; tt-floor.c chooses the programs with trusttop's
 * own code (backend.c), one empty program for each of trusttop's.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

/* An empty program @name attached at @sec. */
#define FLOOR(name, sec)		\
	SEC(sec) int name(void *ctx)	\
	{				\
		return 0;		\
	}

FLOOR(floor_tf, "tp_btf/trusted_for_verdict")
FLOOR(floor_ec, "tp_btf/execve_check_verdict")
FLOOR(floor_tf_tp, "tracepoint/trusted_for/trusted_for_verdict")
FLOOR(floor_ec_tp, "tracepoint/trusted_for/execve_check_verdict")
FLOOR(floor_exit, "tracepoint/syscalls/sys_exit_execveat")
