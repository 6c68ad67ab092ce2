// SPDX-License-Identifier: GPL-2.0
/*
 * tt-floor: attach empty BPF programs where trusttop's auto mode would
 * attach its own (both tp_btf tracepoints of the patched kernel, else
 * mainline's sys_exit_execveat), say "attached" on stdout, and keep them
 * attached until killed.  For bench/trusttop-overhead.sh: the overhead
 * any program there has, against which trusttop's own is read.
 *
 * usage: tt-floor        (root)
 * Exit status: 0 on SIGTERM/SIGINT after attaching; 1 when nothing could
 * be loaded or attached (the reason on stderr).
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "tt-floor.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static bool has_raw_tp(const char *name)
{
	return libbpf_find_vmlinux_btf_id(name, BPF_TRACE_RAW_TP) >= 0;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct tt_floor_bpf *skel;
	sigset_t term, old;
	bool tf, ec;
	int err;

	libbpf_set_print(quiet);
	tf = has_raw_tp("trusted_for_verdict");
	ec = has_raw_tp("execve_check_verdict");
	skel = tt_floor_bpf__open();
	if (!skel) {
		fprintf(stderr, "tt-floor: cannot open the BPF object: %s\n",
			strerror(errno));
		return 1;
	}
	bpf_program__set_autoload(skel->progs.floor_tf, tf);
	bpf_program__set_autoload(skel->progs.floor_ec, ec);
	bpf_program__set_autoload(skel->progs.floor_exit, !tf && !ec);
	err = tt_floor_bpf__load(skel);
	if (err) {
		fprintf(stderr, "tt-floor: cannot load the empty programs: %s (run as root, on a kernel with BTF)\n",
			strerror(-err));
		goto out;
	}
	err = tt_floor_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "tt-floor: cannot attach the empty programs: %s (is tracefs mounted?)\n",
			strerror(-err));
		goto out;
	}
	/* Blocked until sigsuspend(): a signal before it is not lost. */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigaddset(&term, SIGINT);
	if (sigprocmask(SIG_BLOCK, &term, &old) ||
	    sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL)) {
		fprintf(stderr, "tt-floor: sigaction: %s\n", strerror(errno));
		err = -1;
		goto out;
	}
	if (printf("attached%s%s%s\n", tf ? " tp_btf/trusted_for_verdict" : "",
		   ec ? " tp_btf/execve_check_verdict" : "",
		   tf || ec ? "" : " tracepoint/syscalls/sys_exit_execveat") < 0 ||
	    fflush(stdout)) {
		err = -1;
		goto out;
	}
	while (!stop)
		sigsuspend(&old);
out:
	tt_floor_bpf__destroy(skel);
	return err ? 1 : 0;
}
