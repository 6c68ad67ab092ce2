// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trustfor-relay: an audit record for every execveat(AT_EXECVE_CHECK)
 * refusal on a kernel that logs none (mainline 6.14 and later), through
 * libaudit's user-message interface: what auditd stores, audisp-remote
 * forwards and audisp-trusted-for counts (source "relay").
 *
 * The BPF program (relay.bpf.c) hands each refusal over a ring buffer;
 * this loop writes the records.  Refusals the program could not hand over
 * (ring buffer full) are counted there and logged as "op=lost" records,
 * so that the log says how many are missing.
 *
 * Exit status: 0 stopped by SIGTERM/SIGINT, or nothing to do (the kernel
 * logs these refusals itself); 1 a runtime error; 2 a usage error;
 * 3 the kernel cannot be watched (no AT_EXECVE_CHECK, no BPF, no
 * tracepoint); 4 not permitted (capabilities, audit socket).
 */
#include <errno.h>
#include <getopt.h>
#include <libaudit.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <systemd/sd-daemon.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "caps.h"
#include "getopt_error.h"
#include "record.h"
#include "relay.skel.h"
#include "trustedfor.h"

enum {
	RL_EXIT_OK = 0,
	RL_EXIT_RUNTIME = 1,
	RL_EXIT_USAGE = 2,
	RL_EXIT_KERNEL = 3,
	RL_EXIT_PERM = 4,
};

static volatile sig_atomic_t stop_flag, stats_flag;
static bool libbpf_verbose;

/*
 * Records handed to the audit socket per ring_buffer__poll(): libbpf goes on
 * reading while the program keeps producing, and each record is a netlink
 * round trip, so a steady flood would never let the loop announce losses or
 * see a signal.  on_event() ends a batch with RL_BATCH_END.
 */
#define RL_BATCH 256
#define RL_BATCH_END (-ECANCELED)

struct relay {
	struct relay_bpf *skel;
	struct ring_buffer *rb;
	int audit_fd;
	unsigned int batch;	/* events of the current poll */
	uint64_t logged;	/* refusal records the audit socket took */
	uint64_t lost_logged;	/* refusals announced in op=lost records it took */
	uint64_t unsent;	/* refusal records not written: refused or unformattable */
	time_t last_warn;
	bool verbose;
};

/* The one way this program reports a failure (bpftool's p_err()). */
static void __attribute__((format(printf, 1, 2))) err(const char *fmt, ...)
{
	va_list ap;

	fputs("trustfor-relay: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fputs("usage: trustfor-relay [-v] [--ring-kib N]\n"
	      "Write an audit record (type 2650) for every execveat(AT_EXECVE_CHECK)\n"
	      "refusal on a kernel that logs none (Linux 6.14 and later).\n"
	      "  --ring-kib N   BPF ring buffer size in KiB, a power of two >= 16\n"
	      "                 (default 16384)\n"
	      "  -v, --verbose  libbpf's messages\n"
	      "  -h, --help     this text\n"
	      "SIGUSR1 prints the counters to stderr. See trustfor-relay(8).\n", f);
}

static void on_stop(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void on_usr1(int sig)
{
	(void)sig;
	stats_flag = 1;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level != LIBBPF_WARN && !libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* One record: true when the audit socket took it; a refusal is said at most every 10 s. */
static bool send_text(struct relay *r, const char *text)
{
	time_t now;
	int rc;

	rc = audit_log_user_message(r->audit_fd, TF_AUDIT_USER_TYPE, text, NULL, NULL, NULL, 0);
	if (rc > 0)
		return true;
	now = time(NULL);
	if (now - r->last_warn >= 10) {
		r->last_warn = now;
		/* libaudit returns -errno, or 0 when it gave up (ECONNREFUSED) */
		err("the audit socket refused a record (%s); %llu refusals unsent so far",
		    rc < 0 ? strerror(-rc) : "not accepted",
		    (unsigned long long)r->unsent + 1);
	}
	return false;
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct relay *r = ctx;
	char text[RL_TEXT_MAX];
	struct rl_event e;

	if (size < RL_EVENT_MIN || size > sizeof(e))
		return 0;
	memcpy(&e, data, size);
	if (e.path_len > size - RL_EVENT_MIN)
		e.path_len = (__u16)(size - RL_EVENT_MIN);
	if (rl_record_text(&e, text, sizeof(text)) >= 0 && send_text(r, text))
		r->logged++;
	else
		r->unsent++;
	return ++r->batch >= RL_BATCH ? RL_BATCH_END : 0;
}

/*
 * An op=lost record for what the program dropped since the last one the
 * audit socket took: a refused one is announced again, with what came since.
 */
static void flush_lost(struct relay *r)
{
	uint64_t lost = __atomic_load_n(&r->skel->bss->lost, __ATOMIC_RELAXED);
	char text[128];

	if (lost == r->lost_logged || rl_lost_text(lost - r->lost_logged, text,
						   sizeof(text)) < 0)
		return;
	if (send_text(r, text))
		r->lost_logged = lost;
}

/* seen = logged + lost + unsent, once the program is detached and drained. */
static void print_stats(const struct relay *r)
{
	fprintf(stderr,
		"trustfor-relay: seen %llu, logged %llu, lost %llu, unsent %llu\n",
		(unsigned long long)__atomic_load_n(&r->skel->bss->seen, __ATOMIC_RELAXED),
		(unsigned long long)r->logged,
		(unsigned long long)__atomic_load_n(&r->skel->bss->lost, __ATOMIC_RELAXED),
		(unsigned long long)r->unsent);
}

/* One poll (@timeout_ms; 0: what is there): at most RL_BATCH records. */
static int poll_batch(struct relay *r, int timeout_ms)
{
	int n;

	r->batch = 0;
	n = timeout_ms ? ring_buffer__poll(r->rb, timeout_ms) : ring_buffer__consume(r->rb);
	if (n == RL_BATCH_END)
		return RL_BATCH;
	return n;
}

/* What this kernel offers; RL_EXIT_OK with nothing to do, else the exit status. */
static int check_kernel(void)
{
	if (tf_kernel_has_trusted_for()) {
		err("this kernel logs AT_EXECVE_CHECK refusals itself (audit record %d): "
		    "nothing to relay", TF_AUDIT_TYPE);
		return RL_EXIT_OK;
	}
	if (!tf_kernel_has_execve_check()) {
		err("this kernel has no execveat(AT_EXECVE_CHECK) (Linux 6.14 and later): "
		    "nothing to watch");
		return RL_EXIT_KERNEL;
	}
	/* Not tf_can_load_bpf(): CAP_SYS_ADMIN would be dropped before loading. */
	if (tf_cap_effective(CAP_BPF) != 1 || tf_cap_effective(CAP_PERFMON) != 1) {
		err("loading BPF needs CAP_BPF and CAP_PERFMON (run as root)");
		return RL_EXIT_PERM;
	}
	if (tf_cap_effective(CAP_AUDIT_WRITE) != 1) {
		err("writing audit records needs CAP_AUDIT_WRITE (run as root)");
		return RL_EXIT_PERM;
	}
	if (access("/sys/kernel/tracing/events", F_OK) &&
	    access("/sys/kernel/debug/tracing/events", F_OK)) {
		err("tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
		return RL_EXIT_KERNEL;
	}
	return -1;
}

static int parse_args(int argc, char **argv, unsigned int *ring_kib, bool *verbose)
{
	static const struct option opts[] = {
		{ "ring-kib", required_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char buf[256], *end;
	unsigned long v;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || v < 16 || v > 1024 * 1024 || (v & (v - 1))) {
				err("--ring-kib wants a power of two from 16 to 1048576, not '%s'",
				    optarg);
				return RL_EXIT_USAGE;
			}
			*ring_kib = (unsigned int)v;
			break;
		case 'v':
			*verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(RL_EXIT_OK);
		default:
			err("%s (see trustfor-relay --help)",
			    tf_getopt_error(optopt, argv, opts, buf, sizeof(buf)));
			return RL_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		err("unexpected argument (see trustfor-relay --help)");
		return RL_EXIT_USAGE;
	}
	return -1;
}

static int start(struct relay *r, unsigned int ring_kib)
{
	static const int load_caps[] = { CAP_BPF, CAP_PERFMON, CAP_AUDIT_WRITE };
	static const int run_caps[] = { CAP_AUDIT_WRITE };
	int e;

	if (tf_caps_keep(load_caps, 3)) {
		err("cannot drop capabilities: %s", strerror(errno));
		return RL_EXIT_PERM;
	}
	r->audit_fd = audit_open();
	if (r->audit_fd < 0) {
		err("cannot open the audit socket: %s", strerror(errno));
		return RL_EXIT_PERM;
	}
	r->skel = relay_bpf__open();
	if (!r->skel) {
		err("cannot open the BPF object: %s", strerror(errno));
		return RL_EXIT_KERNEL;
	}
	if (bpf_map__set_max_entries(r->skel->maps.events, ring_kib * 1024) ||
	    relay_bpf__load(r->skel) || relay_bpf__attach(r->skel)) {
		/* the capabilities were checked: the kernel refused the program */
		e = errno;
		err("cannot load or attach the BPF program on "
		    "syscalls/sys_exit_execveat: %s (-v says more)", strerror(e));
		return RL_EXIT_KERNEL;
	}
	r->rb = ring_buffer__new(bpf_map__fd(r->skel->maps.events), on_event, r, NULL);
	if (!r->rb) {
		err("cannot read the ring buffer: %s", strerror(errno));
		return RL_EXIT_RUNTIME;
	}
	/* Loaded and attached: from here on only the audit socket needs a capability. */
	if (tf_caps_keep(run_caps, 1)) {
		err("cannot drop capabilities: %s", strerror(errno));
		return RL_EXIT_PERM;
	}
	return -1;
}

static int run(struct relay *r)
{
	int n;

	sd_notify(0, "READY=1");
	err("ready: watching execveat(AT_EXECVE_CHECK) refusals");
	while (!stop_flag) {
		n = poll_batch(r, 500);
		if (n < 0 && n != -EINTR) {
			err("reading the ring buffer: %s", strerror(-n));
			return RL_EXIT_RUNTIME;
		}
		flush_lost(r);
		if (stats_flag) {
			stats_flag = 0;
			print_stats(r);
		}
	}
	sd_notify(0, "STOPPING=1");
	/*
	 * Detached first, so that nothing is seen after the last read: what
	 * was handed over before is still logged, and every refusal seen is
	 * logged, lost or unsent.
	 */
	relay_bpf__detach(r->skel);
	do
		n = poll_batch(r, 0);
	while (n > 0);
	flush_lost(r);
	print_stats(r);
	return RL_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct relay r = { .audit_fd = -1 };
	unsigned int ring_kib = 16384;
	struct sigaction sa = { .sa_handler = on_stop };
	int rc;

	rc = parse_args(argc, argv, &ring_kib, &r.verbose);
	if (rc >= 0)
		return rc;
	libbpf_verbose = r.verbose;
	libbpf_set_print(libbpf_print);
	rc = check_kernel();
	if (rc >= 0)
		return rc;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	rc = start(&r, ring_kib);
	if (rc < 0)
		rc = run(&r);
	ring_buffer__free(r.rb);
	relay_bpf__destroy(r.skel);
	if (r.audit_fd >= 0)
		audit_close(r.audit_fd);
	return rc;
}
