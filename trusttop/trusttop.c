// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trusttop - live view of trusted_for(2) / execveat(AT_EXECVE_CHECK)
 * verdicts per interpreter, counted in the kernel by BPF.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <sys/capability.h>
#include "escape.h"
#include "trustedfor.h"
#include "app.h"
#include "trusttop.skel.h"

#define VERSION "0.1"

enum backend_choice {
	BK_AUTO,	    /* every interface the kernel has */
	BK_TRUSTED_FOR,	    /* tp_btf, else classic tracepoint */
	BK_TF_BTF,
	BK_TF_TP,
	BK_EXECVE_CHECK,    /* patched kernel's tracepoint, else mainline's */
	BK_EC_TP,	    /* classic execve_check_verdict tracepoint */
};

/* The BPF programs one attempt loads (trusttop.bpf.c). */
enum {
	P_TF_BTF = 1 << 0,   /* tp_btf/trusted_for_verdict */
	P_TF_TP = 1 << 1,    /* tracepoint trusted_for/trusted_for_verdict */
	P_EC_BTF = 1 << 2,   /* tp_btf/execve_check_verdict */
	P_EC_TP = 1 << 3,    /* tracepoint trusted_for/execve_check_verdict */
	P_EC_EXIT = 1 << 4,  /* tracepoint syscalls/sys_exit_execveat */
};

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: trusttop [OPTIONS]\n"
"Live view of trusted_for / AT_EXECVE_CHECK verdicts per interpreter.\n\n"
"  -b, --batch            plain text snapshots (like top -b), no terminal UI\n"
"  -j, --json             one JSON object per interval (implies --batch)\n"
"  -n, --iterations N     stop after N updates (batch/json; 0 = forever)\n"
"  -d, --delay SECONDS    update interval (0.1..3600, default 1)\n"
"  -s, --sort KEY         rate checks allowed denied deny%% would name uid\n"
"  -r, --reverse          reverse the sort order\n"
"  -p, --per-process      one row per process instead of per interpreter\n"
"  -u, --user USER        only this user (name or uid)\n"
"  -f, --filter TEXT      only rows whose exe, comm or last file contain TEXT\n"
"  -a, --api NAME         only one interface: trusted_for, execve_check\n"
"                         (default all)\n"
"      --backend NAME     auto trusted_for trusted_for-btf trusted_for-tp\n"
"                         execve_check execve_check-tp (default auto: every\n"
"                         interface the kernel has)\n"
"      --no-color         monochrome (also when NO_COLOR is set)\n"
"  -h, --help             this help;  -V, --version\n"
"Keys: q quit, space pause, < > s sort, r reverse, / filter, u user,\n"
"      a interface, p per-process, h ? help, Ctrl-L redraw.\n"
"Exit status: 0 ok, 1 runtime failure, 2 usage, 3 missing privileges,\n"
"             4 no usable kernel interface.\n");
}

static int parse_uid(const char *s, long *uid)
{
	struct passwd *pw = getpwnam(s);
	char *end;
	long v;

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > UINT32_MAX)
		return -1;
	*uid = v;
	return 0;
}

/* One line naming the option, its value (escaped: it is the user's bytes)
 * and the fix; returns -1 for parse_args() to hand back. */
static int bad_arg(const char *opt, const char *arg, const char *fix)
{
	fprintf(stderr, "trusttop: %s '", opt);
	tf_fputs_escaped(arg, stderr);
	fprintf(stderr, "': %s\n", fix);
	return -1;
}

static int parse_args(struct tt_app *a, int argc, char **argv,
		      enum backend_choice *bk)
{
	static const struct option opts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "delay", required_argument, NULL, 'd' },
		{ "sort", required_argument, NULL, 's' },
		{ "reverse", no_argument, NULL, 'r' },
		{ "per-process", no_argument, NULL, 'p' },
		{ "user", required_argument, NULL, 'u' },
		{ "filter", required_argument, NULL, 'f' },
		{ "api", required_argument, NULL, 'a' },
		{ "backend", required_argument, NULL, 'B' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c, s;

	while ((c = getopt_long(argc, argv, "bjn:d:s:rpu:f:a:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			a->batch = true;
			break;
		case 'j':
			a->json = a->batch = true;
			break;
		case 'n':
			errno = 0;
			a->iterations = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || a->iterations < 0) {
				return bad_arg("-n", optarg, "not a count: give a whole number >= 0 (0 = forever)");
			}
			break;
		case 'd':
			errno = 0;
			a->delay = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(a->delay >= 0.1 && a->delay <= 3600)) {
				return bad_arg("-d", optarg, "not a delay: give seconds between 0.1 and 3600");
			}
			break;
		case 's':
			s = tt_sort_parse(optarg);
			if (s < 0) {
				return bad_arg("--sort", optarg, "unknown key: use rate, checks, allowed, denied, deny%, would, name or uid");
			}
			a->sort = s;
			break;
		case 'r':
			a->reverse = true;
			break;
		case 'p':
			a->per_process = true;
			break;
		case 'u':
			if (parse_uid(optarg, &a->uid)) {
				return bad_arg("--user", optarg, "no such user: give a user name or a numeric uid");
			}
			break;
		case 'f':
			snprintf(a->filter, sizeof(a->filter), "%s", optarg);
			break;
		case 'a':
			s = tt_api_parse(optarg);
			if (s < 0)
				return bad_arg("--api", optarg, "unknown interface: use trusted_for, execve_check or all");
			a->api = (unsigned int)s;
			break;
		case 'B':
			if (!strcmp(optarg, "auto"))
				*bk = BK_AUTO;
			else if (!strcmp(optarg, "trusted_for"))
				*bk = BK_TRUSTED_FOR;
			else if (!strcmp(optarg, "trusted_for-btf"))
				*bk = BK_TF_BTF;
			else if (!strcmp(optarg, "trusted_for-tp"))
				*bk = BK_TF_TP;
			else if (!strcmp(optarg, "execve_check"))
				*bk = BK_EXECVE_CHECK;
			else if (!strcmp(optarg, "execve_check-tp"))
				*bk = BK_EC_TP;
			else {
				return bad_arg("--backend", optarg, "unknown: use auto, trusted_for, trusted_for-btf, trusted_for-tp, execve_check or execve_check-tp");
			}
			break;
		case 'C':
			a->color = false;
			break;
		case 'h':
			usage(stdout);
			exit(TT_EXIT_OK);
		case 'V':
			printf("trusttop " VERSION "\n");
			exit(TT_EXIT_OK);
		default:
			fprintf(stderr, "trusttop: bad option: see trusttop --help\n");
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "trusttop: unexpected argument '%s': see trusttop --help\n", argv[optind]);
		return -1;
	}
	if (!a->batch && !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "trusttop: standard output is not a terminal: use -b (text) or --json\n");
		return -1;
	}
	return 0;
}

/* CAP_BPF + CAP_PERFMON, or CAP_SYS_ADMIN (what older kernels want). */
static bool have_privileges(void)
{
	cap_t caps = cap_get_proc();
	cap_flag_value_t bpf = CAP_CLEAR, perfmon = CAP_CLEAR, admin = CAP_CLEAR;

	if (!caps)
		return false;
	cap_get_flag(caps, CAP_SYS_ADMIN, CAP_EFFECTIVE, &admin);
	if (CAP_IS_SUPPORTED(CAP_BPF))
		cap_get_flag(caps, CAP_BPF, CAP_EFFECTIVE, &bpf);
	if (CAP_IS_SUPPORTED(CAP_PERFMON))
		cap_get_flag(caps, CAP_PERFMON, CAP_EFFECTIVE, &perfmon);
	cap_free(caps);
	return admin == CAP_SET || (bpf == CAP_SET && perfmon == CAP_SET);
}

static const char *tracefs_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < 2; i++) {
		char p[64];

		snprintf(p, sizeof(p), "%s/events", dirs[i]);
		if (!access(p, F_OK))
			return dirs[i];
	}
	/* Not mounted (minimal systems, containers): mount it ourselves. */
	if (!mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return "/sys/kernel/tracing";
	return NULL;
}

static bool tracepoint_exists(const char *cat, const char *name)
{
	const char *dir = tracefs_dir();
	char p[256];

	if (!dir)
		return false;
	snprintf(p, sizeof(p), "%s/events/%s/%s/id", dir, cat, name);
	return !access(p, R_OK);
}

/* Does the kernel's BTF describe the tracepoint @name (for tp_btf)? */
static bool btf_has_tp(const struct btf *btf, const char *name)
{
	char type[96];

	snprintf(type, sizeof(type), "btf_trace_%s", name);
	return btf && btf__find_by_name_kind(btf, type, BTF_KIND_TYPEDEF) >= 0;
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && getenv("TRUSTTOP_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	if (level == LIBBPF_DEBUG && getenv("TRUSTTOP_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

/*
 * The sets of programs trusttop loads, in one table: what each is called
 * in -b and JSON ("backend"), in the terminal's header (80 columns: both
 * interfaces by the API column's names), and in load errors.
 */
static const struct flavour {
	unsigned int progs;
	const char *label, *label_ui, *programs;
} flavours[] = {
	{ P_TF_BTF | P_EC_BTF, "trusted_for+execve_check (tp_btf)",
	  "tf+check (tp_btf)",
	  "tp_btf/trusted_for_verdict, tp_btf/execve_check_verdict" },
	{ P_TF_TP | P_EC_TP, "trusted_for+execve_check (tracepoint)",
	  "tf+check (tracepoint)",
	  "tracepoints trusted_for_verdict, execve_check_verdict" },
	{ P_TF_BTF, "trusted_for (tp_btf)", NULL, "tp_btf/trusted_for_verdict" },
	{ P_TF_TP, "trusted_for (tracepoint)", NULL,
	  "tracepoint trusted_for_verdict" },
	{ P_EC_BTF, "execve_check (tp_btf)", NULL, "tp_btf/execve_check_verdict" },
	{ P_EC_TP, "execve_check (tracepoint)", NULL,
	  "tracepoint execve_check_verdict" },
	{ P_EC_EXIT, "execve_check", NULL, "tracepoint sys_exit_execveat" },
};

static const struct flavour *flavour_of(unsigned int progs)
{
	for (size_t i = 0; i < sizeof(flavours) / sizeof(flavours[0]); i++)
		if (flavours[i].progs == progs)
			return &flavours[i];
	return &flavours[sizeof(flavours) / sizeof(flavours[0]) - 1];
}

/* Open, load and attach one flavour. Returns NULL with a message on failure. */
static struct trusttop_bpf *load(unsigned int progs, bool per_process,
				 char *err, size_t errsz)
{
	struct trusttop_bpf *skel = trusttop_bpf__open();
	const char *stage;
	int e;

	if (!skel) {
		snprintf(err, errsz, "cannot open the BPF object: %s", strerror(errno));
		return NULL;
	}
	bpf_program__set_autoload(skel->progs.tf_verdict_btf, progs & P_TF_BTF);
	bpf_program__set_autoload(skel->progs.tf_verdict_tp, progs & P_TF_TP);
	bpf_program__set_autoload(skel->progs.ec_verdict_btf, progs & P_EC_BTF);
	bpf_program__set_autoload(skel->progs.ec_verdict_tp, progs & P_EC_TP);
	bpf_program__set_autoload(skel->progs.execveat_exit, progs & P_EC_EXIT);
	skel->rodata->per_process = per_process;
	skel->rodata->self_tgid = (__u32)getpid();
	e = trusttop_bpf__load(skel);
	stage = "load";
	if (!e) {
		e = trusttop_bpf__attach(skel);
		stage = "attach";
	}
	if (e) {
		snprintf(err, errsz, "cannot %s the BPF programs (%s): %s", stage,
			 flavour_of(progs)->programs, strerror(-e));
		trusttop_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct tt_app *a = ctx;
	const struct tt_event *e = data;
	struct tt_recent *r;
	struct tt_key k = { 0 };
	struct tt_row *row;

	if (size < sizeof(*e))
		return 0;
	a->recent_seq++;
	r = &a->recent[(a->recent_seq - 1) % TT_RECENT];
	r->ev = *e;
	r->seq = a->recent_seq;
	r->wall = wall_now();
	tt_event_path(e, r->path, sizeof(r->path));
	tt_shown_add(a, r);
	if (!(e->flags & TT_EV_DENIED))
		return 0;
	k.uid = e->uid;
	k.api = e->source;
	memcpy(k.exe, e->exe, TT_EXE_LEN);
	memcpy(k.comm, e->comm, TT_COMM_LEN);
	row = tt_table_get(&a->interp, &k);
	if (row)
		snprintf(row->last_file, sizeof(row->last_file), "%s", r->path);
	k.tgid = e->tgid;
	row = tt_table_get(&a->procs, &k);
	if (row)
		snprintf(row->last_file, sizeof(row->last_file), "%s", r->path);
	return 0;
}

/* Executables' names, read from the names map once each. */
static struct tt_names exe_names;

/* The name of @id: known, else from the names map (written by the BPF side
 * before the counting entry), else "?" (names map full: names_full). */
static const char *exe_name(int names_fd, const struct tt_exe_id *id)
{
	const char *name = tt_names_find(&exe_names, id);
	struct tt_exe_name n;

	if (name)
		return name;
	if (bpf_map_lookup_elem(names_fd, id, &n))
		return "?";
	if (tt_names_add(&exe_names, id, n.name))
		return NULL;
	return tt_names_find(&exe_names, id);
}

/* The rows of one BPF map: its values are the counts, or with counts_fd >= 0
 * (stats) slots of that array, which holds them. */
static int read_map(int fd, int counts_fd, int names_fd, struct tt_table *t)
{
	struct tt_bkey key, next;
	struct tt_counts c;
	struct tt_bkey *prev = NULL;
	__u32 slot;

	tt_table_begin(t);
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		int e = counts_fd < 0 ? bpf_map_lookup_elem(fd, &next, &c)
			: bpf_map_lookup_elem(fd, &next, &slot) ? -1
			: bpf_map_lookup_elem(counts_fd, &slot, &c);

		if (e == 0) {
			struct tt_key k = { .uid = next.uid, .tgid = next.tgid,
					    .api = next.api };
			const char *name = exe_name(names_fd, &next.exe);

			if (!name)
				return -ENOMEM;
			c.checks = c.allowed + c.denied; /* see trusttop.h */
			snprintf(k.exe, sizeof(k.exe), "%s", name);
			memcpy(k.comm, next.comm, sizeof(k.comm));
			if (!tt_table_add(t, &k, &c))
				return -ENOMEM;
		}
		key = next;
		prev = &key;
	}
	return 0;
}

struct overhead {
	double cpu;	    /* own CPU seconds at the last tick */
	uint64_t bpf_ns, bpf_cnt;
};

static double self_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* Estimated BPF run time so far: the sampled runs' mean times all runs.
 * Each CPU's value in cpu_state starts with its struct tt_prof; the rest
 * is the programs' own (a per-CPU value is 8-byte aligned per CPU). */
static void bpf_runtime(struct trusttop_bpf *skel, uint64_t *ns, uint64_t *cnt)
{
	int ncpu = libbpf_num_possible_cpus();
	size_t stride = (bpf_map__value_size(skel->maps.cpu_state) + 7) & ~(size_t)7;
	uint64_t runs = 0, sampled = 0, sns = 0;
	unsigned char *v;
	__u32 zero = 0;

	*ns = *cnt = 0;
	if (ncpu <= 0 || stride < sizeof(struct tt_prof) ||
	    !(v = calloc(ncpu, stride)))
		return;
	if (!bpf_map_lookup_elem(bpf_map__fd(skel->maps.cpu_state), &zero, v)) {
		for (int i = 0; i < ncpu; i++) {
			struct tt_prof p;

			memcpy(&p, v + (size_t)i * stride, sizeof(p));
			runs += p.runs;
			sampled += p.sampled;
			sns += p.ns;
		}
	}
	free(v);
	*cnt = runs;
	*ns = sampled ? (uint64_t)((double)sns / (double)sampled * (double)runs) : 0;
}

static int tick(struct tt_app *a, struct trusttop_bpf *skel,
		struct ring_buffer *rb, double *last, struct overhead *ov)
{
	double t = mono_now(), cpu = self_cpu();
	uint64_t ns, cnt;
	int e;

	ring_buffer__consume(rb);
	e = read_map(bpf_map__fd(skel->maps.stats),
		     bpf_map__fd(skel->maps.counts),
		     bpf_map__fd(skel->maps.names), &a->interp);
	if (!e && a->per_process)
		e = read_map(bpf_map__fd(skel->maps.pstats), -1,
			     bpf_map__fd(skel->maps.names), &a->procs);
	if (e)
		return e;
	a->elapsed = t - *last;
	*last = t;
	a->now = wall_now();
	tt_table_tick(&a->interp, a->elapsed);
	tt_table_tick(&a->procs, a->elapsed);
	tt_table_totals(&a->interp, 0, &a->total, &a->total_delta);
	for (unsigned int api = 1; api < 3; api++)
		tt_table_totals(&a->interp, api, &a->api_total[api],
				&a->api_delta[api]);
	a->rb_drops = skel->bss->rb_drops;
	a->map_full = skel->bss->map_full;
	a->pmap_full = skel->bss->pmap_full;
	bpf_runtime(skel, &ns, &cnt);
	if (a->elapsed > 0) {
		a->self_cpu_pct = 100 * (cpu - ov->cpu) / a->elapsed;
		a->bpf_cpu_pct = 100 * (double)(ns - ov->bpf_ns) / 1e9 / a->elapsed;
	}
	a->bpf_runs = cnt;
	a->bpf_ns_per_event = cnt > ov->bpf_cnt ?
		(double)(ns - ov->bpf_ns) / (double)(cnt - ov->bpf_cnt) : 0;
	ov->cpu = cpu;
	ov->bpf_ns = ns;
	ov->bpf_cnt = cnt;
	a->ticks++;
	if (a->policy_note == NULL && tf_policy_read(&a->policy))
		a->policy = -1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct tt_app app; /* big (recent events): not on the stack */
	struct tt_app *a = &app;
	enum backend_choice bk = BK_AUTO;
	unsigned int order[3];
	struct btf *btf;
	struct trusttop_bpf *skel = NULL;
	struct ring_buffer *rb = NULL;
	struct overhead ov = { 0 };
	struct utsname un;
	char err[256] = "", err2[256] = "";
	double last, next;
	int norder = 0, rc = TT_EXIT_OK;
	bool want_tf, want_ec, tf_btf, tf_tp, ec_btf, ec_tp, has_ec, ec_exit;

	a->delay = 1;
	a->uid = -1;
	a->sort = TT_SORT_RATE;
	a->color = !getenv("NO_COLOR");
	a->policy = -1;
	tt_table_init(&a->interp);
	tt_table_init(&a->procs);
	if (parse_args(a, argc, argv, &bk))
		return TT_EXIT_USAGE;

	if (!have_privileges()) {
		fprintf(stderr, "trusttop: needs CAP_BPF and CAP_PERFMON (or root) to load its BPF programs: run it as root, e.g. sudo trusttop\n");
		return TT_EXIT_PRIV;
	}
	uname(&un);
	/* The release is printed on terminals: kept escaped (it is ASCII on any
	 * real kernel, and then unchanged). */
	tf_escape_term(un.release, strnlen(un.release, sizeof(un.release)),
		       a->kernel, sizeof(a->kernel));
	libbpf_set_print(quiet_print);

	/* Probe what the running kernel offers: the patched kernel's two
	 * tracepoints (through BTF, else tracefs), or mainline's
	 * AT_EXECVE_CHECK seen at the syscall's exit. */
	want_tf = bk != BK_EXECVE_CHECK && bk != BK_EC_TP;
	want_ec = bk == BK_AUTO || bk == BK_EXECVE_CHECK || bk == BK_EC_TP;
	btf = btf__load_vmlinux_btf(); /* NULL without BTF: no tp_btf */
	tf_btf = want_tf && bk != BK_TF_TP && btf_has_tp(btf, "trusted_for_verdict");
	tf_tp = want_tf && bk != BK_TF_BTF &&
		tracepoint_exists("trusted_for", "trusted_for_verdict");
	ec_btf = want_ec && bk != BK_EC_TP && btf_has_tp(btf, "execve_check_verdict");
	ec_tp = want_ec && tracepoint_exists("trusted_for", "execve_check_verdict");
	btf__free(btf);
	has_ec = want_ec && bk != BK_EC_TP && !ec_btf && !ec_tp &&
		 tf_kernel_has_execve_check();
	ec_exit = has_ec && tracepoint_exists("syscalls", "sys_exit_execveat");
	/* Both interfaces of the patched kernel in one load (tp_btf first);
	 * with --backend execve_check, its tracepoint alone; mainline's
	 * syscall exit when there is neither. */
	if (want_tf) {
		if (tf_btf)
			order[norder++] = P_TF_BTF | (ec_btf ? P_EC_BTF : 0);
		if (tf_tp)
			order[norder++] = P_TF_TP | (ec_tp ? P_EC_TP : 0);
	} else {
		if (ec_btf)
			order[norder++] = P_EC_BTF;
		if (ec_tp)
			order[norder++] = P_EC_TP;
	}
	if (!norder && ec_exit)
		order[norder++] = P_EC_EXIT;
	if (!norder) {
		/* One line: what is missing, for each backend asked for. */
		const char *no_tf = bk == BK_TF_BTF ?
			"no trusted_for_verdict tracepoint in the kernel's BTF (needs the trustfor-patched kernel with CONFIG_DEBUG_INFO_BTF)" :
			!tracefs_dir() ? "no tracefs to find the trusted_for_verdict tracepoint in (needs the trustfor-patched kernel and CONFIG_TRACING)" :
			"no trusted_for_verdict tracepoint (needs the trustfor-patched kernel)";
		const char *no_ec = !has_ec ?
			"no execveat(AT_EXECVE_CHECK) (needs Linux >= 6.14)" :
			"AT_EXECVE_CHECK but no syscall tracepoints (sys_exit_execveat: needs CONFIG_FTRACE_SYSCALLS and tracefs)";

		if (bk == BK_EC_TP)
			fprintf(stderr, "trusttop: backend execve_check-tp unavailable on kernel %s: no execve_check_verdict tracepoint (needs the trustfor-patched kernel with AT_EXECVE_CHECK and CONFIG_TRACING)\n",
				a->kernel);
		else if (bk == BK_EXECVE_CHECK)
			fprintf(stderr, "trusttop: backend execve_check unavailable on kernel %s: %s\n",
				a->kernel, no_ec);
		else if (bk != BK_AUTO)
			fprintf(stderr, "trusttop: backend %s unavailable on kernel %s: %s\n",
				bk == BK_TF_TP ? "trusted_for-tp" : bk == BK_TF_BTF ? "trusted_for-btf" : "trusted_for",
				a->kernel, no_tf);
		else
			fprintf(stderr, "trusttop: no backend on kernel %s: %s, and %s\n",
				a->kernel, no_tf, no_ec);
		return TT_EXIT_NOBACKEND;
	}
	for (int i = 0; i < norder && !skel; i++) {
		skel = load(order[i], a->per_process || !a->batch, i ? err2 : err,
			    sizeof(err));
		if (skel) {
			const struct flavour *f = flavour_of(order[i]);

			a->backend = f->label;
			a->backend_ui = f->label_ui ? f->label_ui : f->label;
			if (order[i] & (P_TF_BTF | P_TF_TP))
				a->apis |= 1u << TT_SRC_TRUSTED_FOR;
			if (order[i] & (P_EC_BTF | P_EC_TP | P_EC_EXIT))
				a->apis |= 1u << TT_SRC_EXECVE_CHECK;
		}
	}
	if (!skel) {
		fprintf(stderr, "trusttop: %s%s%s (set TRUSTTOP_DEBUG=1 for libbpf's log)\n",
			err, *err2 ? "; fallback: " : "", err2);
		return TT_EXIT_FAIL;
	}
	/* fs.trust_policy governs trusted_for(2) only; AT_EXECVE_CHECK
	 * refuses what execve() would, and the caller's securebits decide
	 * whether it enforces the refusal. */
	if (!(a->apis & (1u << TT_SRC_TRUSTED_FOR)))
		a->policy_note = "n/a (AT_EXECVE_CHECK: the caller's securebits decide)";
	else if (tf_policy_read(&a->policy))
		a->policy = -1;

	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), on_event, a, NULL);
	if (!rb) {
		fprintf(stderr, "trusttop: cannot set up the ring buffer: %s\n", strerror(errno));
		trusttop_bpf__destroy(skel);
		return TT_EXIT_FAIL;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);

	if (!a->batch && tt_ui_init(a)) {
		fprintf(stderr, "trusttop: cannot start the terminal UI (TERM=%s): use -b\n",
			getenv("TERM") ? getenv("TERM") : "unset");
		rc = TT_EXIT_FAIL;
		goto out;
	}
	last = mono_now();
	ov.cpu = self_cpu();
	bpf_runtime(skel, &ov.bpf_ns, &ov.bpf_cnt);
	next = last + a->delay;
	if (!a->batch)
		tt_ui_draw(a);
	while (!stop_sig) {
		double now = mono_now();
		int timeout = now >= next ? 0 : (int)ceil((next - now) * 1000);

		if (a->batch) {
			int n = ring_buffer__poll(rb, timeout);

			if (n < 0 && n != -EINTR) {
				fprintf(stderr, "trusttop: ring buffer: %s\n", strerror(-n));
				rc = TT_EXIT_FAIL;
				break;
			}
		} else {
			struct pollfd p[2] = {
				{ .fd = STDIN_FILENO, .events = POLLIN },
				{ .fd = ring_buffer__epoll_fd(rb), .events = POLLIN },
			};

			if (poll(p, 2, timeout) > 0 && p[1].revents)
				ring_buffer__consume(rb);
			if (!tt_ui_input(a))
				break;
		}
		if (stop_sig || mono_now() < next)
			continue;
		if (tick(a, skel, rb, &last, &ov)) {
			rc = TT_EXIT_FAIL;
			break;
		}
		next += a->delay;
		if (next < mono_now())
			next = mono_now() + a->delay;
		if (a->json)
			tt_print_json(a, stdout);
		else if (a->batch)
			tt_print_batch(a, stdout);
		else if (!a->paused)
			tt_ui_draw(a);
		if (a->batch && ferror(stdout)) {
			/* Reader gone (trusttop -b | head): stop quietly. */
			if (errno != EPIPE) {
				fprintf(stderr, "trusttop: cannot write the output: %s\n", strerror(errno));
				rc = TT_EXIT_FAIL;
			}
			break;
		}
		if (a->batch && a->iterations && (long)a->ticks >= a->iterations)
			break;
	}
	/* Interrupted batch run: a last, complete snapshot (nothing lost). */
	if (stop_sig && a->batch && rc == TT_EXIT_OK && !ferror(stdout) &&
	    !tick(a, skel, rb, &last, &ov)) {
		if (a->json)
			tt_print_json(a, stdout);
		else
			tt_print_batch(a, stdout);
	}
out:
	if (!a->batch)
		tt_ui_end();
	ring_buffer__free(rb);
	trusttop_bpf__destroy(skel);
	tt_table_free(&a->interp);
	tt_table_free(&a->procs);
	tt_names_free(&exe_names);
	return rc;
}
