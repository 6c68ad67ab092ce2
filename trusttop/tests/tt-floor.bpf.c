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

/* Empty programs, one where each of trusttop's attaches. */
SEC("tp_btf/trusted_for_verdict") int floor_tf(void *ctx) { return 0; }
SEC("tp_btf/execve_check_verdict") int floor_ec(void *ctx) { return 0; }
SEC("tracepoint/trusted_for/trusted_for_verdict") int floor_tf_tp(void *ctx) { return 0; }
SEC("tracepoint/trusted_for/execve_check_verdict") int floor_ec_tp(void *ctx) { return 0; }
SEC("tracepoint/syscalls/sys_exit_execveat") int floor_exit(void *ctx) { return 0; }
