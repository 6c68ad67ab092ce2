// SPDX-License-Identifier: GPL-2.0
/*
 * tt-floor: attach empty BPF programs where trusttop's auto mode would
 * attach its own (the same choice: backend.c's plan for "auto"), say
 * "attached PROGRAMS" on stdout, and keep them attached until killed.  For
 * bench/trusttop-overhead.sh: the overhead any program there has, against
 * which trusttop's own is read.
 *
 * usage: tt-floor        (root)
 * Exit status: 0 on SIGTERM/SIGINT after attaching; 1 when nothing could
 * be loaded or attached (the reason on stderr, then libbpf's warnings).
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "backend.h"
#include "tt-floor.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The empty programs of @progs (TT_P_*), loaded and attached; NULL with
 * the reason in @err.
 */
static struct tt_floor_bpf *floor_load(unsigned int progs, char *err,
				       size_t errsz)
{
	struct tt_floor_bpf *skel = tt_floor_bpf__open();
	const char *stage = "load";
	int e;

	if (!skel) {
		snprintf(err, errsz, "cannot open the BPF object: %s", strerror(errno));
		return NULL;
	}
	struct bpf_program *const set[TT_NPROGS] = {
		skel->progs.floor_tf, skel->progs.floor_tf_tp, skel->progs.floor_ec,
		skel->progs.floor_ec_tp, skel->progs.floor_exit
	};

	tt_backend_autoload(set, progs);
	e = tt_floor_bpf__load(skel);
	if (!e) {
		stage = "attach";
		e = tt_floor_bpf__attach(skel);
	}
	if (e) {
		snprintf(err, errsz, "cannot %s the empty programs (%s): %s", stage,
			 tt_flavour_of(progs)->programs, strerror(-e));
		tt_floor_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct tt_floor_bpf *skel = NULL;
	struct tt_plan plan;
	struct utsname un;
	char err[512] = "";
	sigset_t term, old;
	int i, rc = 1;

	/* libbpf's warnings are kept and shown when nothing could attach. */
	tt_libbpf_log(getenv("TRUSTTOP_DEBUG"));
	tt_backend_plan(tt_backend_find("auto"), &plan);
	if (!plan.n) {
		uname(&un);
		tt_plan_why(tt_backend_find("auto"), &plan, un.release, err,
			    sizeof(err));
		fprintf(stderr, "tt-floor: %s\n", err);
		return 1;
	}
	for (i = 0; i < plan.n && !skel; i++)
		skel = floor_load(plan.order[i], err, sizeof(err));
	if (!skel) {
		fprintf(stderr, "tt-floor: %s (run as root)\n", err);
		tt_libbpf_dump(stderr, "tt-floor: ");
		return 1;
	}
	/* Blocked until sigsuspend(): a signal before it is not lost. */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigaddset(&term, SIGINT);
	sigemptyset(&sa.sa_mask);
	if (sigprocmask(SIG_BLOCK, &term, &old) ||
	    sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL)) {
		fprintf(stderr, "tt-floor: sigaction: %s\n", strerror(errno));
		goto out;
	}
	if (printf("attached %s\n", tt_flavour_of(plan.order[i - 1])->programs) < 0 ||
	    fflush(stdout))
		goto out;
	while (!stop)
		sigsuspend(&old);
	rc = 0;
out:
	tt_floor_bpf__destroy(skel);
	return rc;
}
