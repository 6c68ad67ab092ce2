// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trusttop - live view of trusted_for(2) / execveat(AT_EXECVE_CHECK)
 * verdicts per interpreter, counted in the kernel by BPF.
 * This file: the command line and the main loop. The programs to attach
 * are chosen in backend.c, loaded and read in sampling.c, shown by
 * output.c (-b), json.c (--json), ui.c and keys.c (the terminal).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "caps.h"
#include "escape.h"
#include "getopt_error.h"
#include "trustedfor.h"
#include "user.h"
#include "app.h"
#include "backend.h"
#include "sampling.h"

#define VERSION "0.1"

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

/* Words of a usage paragraph, wrapped at 79 columns under @indent. */
struct wrap {
	FILE *f;
	int col, indent;
};

static void wrap_word(struct wrap *w, const char *word)
{
	int len = (int)strlen(word);

	if (w->col > w->indent && w->col + 1 + len > 79) {
		fprintf(w->f, "\n%*s", w->indent, "");
		w->col = w->indent;
	} else if (w->col > w->indent) {
		fputc(' ', w->f);
		w->col++;
	}
	fputs(word, w->f);
	w->col += len;
}

static void usage(FILE *f)
{
	static const char *const backend_tail[] = {
		"(default", "auto:", "every", "interface", "the", "kernel", "has)",
	};
	struct wrap w = { f, 25, 25 };
	const char *s;
	char key[64];

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
"      --backend NAME     ");
	/* The choices of backend.c's table, then the keys of keys.c's. */
	for (size_t i = 0; (s = tt_backend_name_at(i)); i++)
		wrap_word(&w, s);
	for (size_t i = 0; i < sizeof(backend_tail) / sizeof(backend_tail[0]); i++)
		wrap_word(&w, backend_tail[i]);
	fprintf(f, "\n"
"      --no-color         monochrome (also when NO_COLOR is set)\n"
"  -h, --help             this help;  -V, --version\n"
"Keys: ");
	w = (struct wrap){ f, 6, 6 };
	for (size_t i = 0; tt_ui_key_group(i, key, sizeof(key)); i++) {
		size_t l = strlen(key);

		snprintf(key + l, sizeof(key) - l, "%s",
			 tt_ui_key_group(i + 1, NULL, 0) ? "," : ".");
		wrap_word(&w, key);
	}
	fprintf(f, "\n"
"Exit status: 0 ok, 1 runtime failure, 2 usage, 3 missing privileges,\n"
"             4 no usable kernel interface.\n");
}

/* One line naming the option, its value (escaped: it is the user's bytes)
 * and the fix; returns -1 for parse_args() to hand back.
 */
static int bad_arg(const char *opt, const char *arg, const char *fix)
{
	fprintf(stderr, "trusttop: %s '", opt);
	tf_fputs_escaped(arg, stderr);
	fprintf(stderr, "': %s\n", fix);
	return -1;
}

static int parse_args(struct tt_app *a, int argc, char **argv,
		      const struct tt_backend **bk)
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
	char *end, msg[256];
	uid_t uid;
	int c, s;

	opterr = 0; /* the messages below name the option, once */
	while ((c = getopt_long(argc, argv, ":bjn:d:s:rpu:f:a:hV", opts, NULL)) != -1) {
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
			if (errno || end == optarg || *end || a->iterations < 0)
				return bad_arg("-n", optarg, "not a count: give a whole number >= 0 (0 = forever)");
			break;
		case 'd':
			errno = 0;
			a->delay = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(a->delay >= 0.1 && a->delay <= 3600))
				return bad_arg("-d", optarg, "not a delay: give seconds between 0.1 and 3600");
			break;
		case 's':
			s = tt_sort_parse(optarg);
			if (s < 0)
				return bad_arg("--sort", optarg, "unknown key: use rate, checks, allowed, denied, deny%, would, name or uid");
			a->sort = s;
			break;
		case 'r':
			a->reverse = true;
			break;
		case 'p':
			a->per_process = true;
			break;
		case 'u':
			if (tf_parse_user(optarg, &uid))
				return bad_arg("--user", optarg, errno == ENOENT ||
					       errno == EINVAL || errno == ERANGE ?
					       "no such user: give a user name or a numeric uid" :
					       "cannot read the user database: check /etc/passwd and NSS");
			a->uid = uid;
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
			*bk = tt_backend_find(optarg);
			if (!*bk) {
				char list[160], fix[200];

				snprintf(fix, sizeof(fix), "unknown: use %s",
					 tt_backend_list(", ", " or ", list, sizeof(list)));
				return bad_arg("--backend", optarg, fix);
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
		default: /* '?' or ':' */
			fprintf(stderr, "trusttop: %s: see trusttop --help\n",
				tf_getopt_error(c, argv, opts, msg, sizeof(msg)));
			return -1;
		}
	}
	if (optind < argc)
		return bad_arg("unexpected argument", argv[optind], "see trusttop --help");
	if (!a->batch && !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "trusttop: standard output is not a terminal: use -b (text) or --json\n");
		return -1;
	}
	return 0;
}

/* SIGINT, SIGTERM, SIGHUP stop the loop; SIGPIPE is ignored (a reader
 * gone is seen as EPIPE). 0, or -1 with a message.
 */
static int install_signals(void)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal };
	struct sigaction ign = { .sa_handler = SIG_IGN };

	sigemptyset(&sa.sa_mask);
	sigemptyset(&ign.sa_mask);
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		if (sigaction(stops[i], &sa, NULL)) {
			fprintf(stderr, "trusttop: cannot handle signal %d: %s\n",
				stops[i], strerror(errno));
			return -1;
		}
	if (sigaction(SIGPIPE, &ign, NULL)) {
		fprintf(stderr, "trusttop: cannot ignore SIGPIPE: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Load the first attempt of @plan that works; the backend's names go to @a.
 * NULL with a message on stderr when none does.
 */
static struct tt_sampler *load_plan(struct tt_app *a, const struct tt_plan *plan)
{
	char err[256] = "", err2[256] = "";
	struct tt_sampler *s = NULL;

	for (int i = 0; i < plan->n && !s; i++) {
		unsigned int progs = plan->order[i];

		s = tt_sampler_open(a, progs, a->per_process || !a->batch,
				    i ? err2 : err, sizeof(err));
		if (s) {
			const struct tt_flavour *f = tt_flavour_of(progs);

			a->backend = f->label;
			a->backend_ui = f->label_ui ? f->label_ui : f->label;
			if (progs & TT_P_TRUSTED_FOR)
				a->apis |= 1u << TT_SRC_TRUSTED_FOR;
			if (progs & TT_P_EXECVE_CHECK)
				a->apis |= 1u << TT_SRC_EXECVE_CHECK;
		}
	}
	if (!s)
		fprintf(stderr, "trusttop: %s%s%s (set TRUSTTOP_DEBUG=1 for libbpf's log)\n",
			err, *err2 ? "; fallback: " : "", err2);
	return s;
}

/* Updates until stopped: TT_EXIT_OK or TT_EXIT_FAIL (message in @err). */
static int run(struct tt_app *a, struct tt_sampler *s, char *err, size_t errsz)
{
	double next = tt_mono_now() + a->delay;
	int rc = TT_EXIT_OK;

	if (!a->batch)
		tt_ui_draw(a);
	while (!stop_sig) {
		double now = tt_mono_now();
		int timeout = now >= next ? 0 : (int)ceil((next - now) * 1000);

		if (a->batch) {
			int n = tt_sampler_poll(s, timeout);

			if (n < 0 && n != -EINTR) {
				snprintf(err, errsz, "ring buffer: %s", strerror(-n));
				return TT_EXIT_FAIL;
			}
		} else {
			struct pollfd p[2] = {
				{ .fd = STDIN_FILENO, .events = POLLIN },
				{ .fd = tt_sampler_fd(s), .events = POLLIN },
			};

			if (poll(p, 2, timeout) > 0 && p[1].revents)
				tt_sampler_consume(s);
			if (!tt_ui_input(a))
				break;
		}
		if (stop_sig || tt_mono_now() < next)
			continue;
		if (tt_sampler_tick(s, err, errsz))
			return TT_EXIT_FAIL;
		next += a->delay;
		if (next < tt_mono_now())
			next = tt_mono_now() + a->delay;
		if (a->json)
			tt_print_json(a, stdout);
		else if (a->batch)
			tt_print_batch(a, stdout);
		else if (!a->paused)
			tt_ui_draw(a);
		if (a->batch && ferror(stdout)) {
			/* Reader gone (trusttop -b | head): stop quietly. */
			if (errno != EPIPE) {
				snprintf(err, errsz, "cannot write the output: %s",
					 strerror(errno));
				rc = TT_EXIT_FAIL;
			}
			return rc;
		}
		if (a->batch && a->iterations && (long)a->ticks >= a->iterations)
			break;
	}
	/* Interrupted batch run: a last, complete snapshot (nothing lost). */
	if (stop_sig && a->batch && !ferror(stdout)) {
		if (tt_sampler_tick(s, err, errsz))
			return TT_EXIT_FAIL;
		if (a->json)
			tt_print_json(a, stdout);
		else
			tt_print_batch(a, stdout);
	}
	return rc;
}

int main(int argc, char **argv)
{
	static struct tt_app app; /* big (recent events): not on the stack */
	struct tt_app *a = &app;
	const struct tt_backend *bk = tt_backend_find("auto");
	struct tt_sampler *s;
	struct tt_plan plan;
	struct utsname un;
	char err[512] = "";
	int rc;

	a->delay = 1;
	a->uid = -1;
	a->sort = TT_SORT_RATE;
	a->color = !getenv("NO_COLOR");
	a->policy = -1;
	tt_table_init(&a->interp);
	tt_table_init(&a->procs);
	if (parse_args(a, argc, argv, &bk))
		return TT_EXIT_USAGE;

	if (!tf_can_load_bpf()) {
		fprintf(stderr, "trusttop: needs CAP_BPF and CAP_PERFMON (or root) to load its BPF programs: run it as root, e.g. sudo trusttop\n");
		return TT_EXIT_PRIV;
	}
	uname(&un);
	/* The release is printed on terminals: kept escaped (it is ASCII on any
	 * real kernel, and then unchanged).
	 */
	tf_escape_term(un.release, strnlen(un.release, sizeof(un.release)),
		       a->kernel, sizeof(a->kernel));
	tt_libbpf_log(getenv("TRUSTTOP_DEBUG"));

	/* What the running kernel offers for the backend asked for. */
	tt_backend_plan(bk, &plan);
	if (!plan.n) {
		tt_plan_why(bk, &plan, a->kernel, err, sizeof(err));
		fprintf(stderr, "trusttop: %s\n", err);
		return TT_EXIT_NOBACKEND;
	}
	s = load_plan(a, &plan);
	if (!s)
		return TT_EXIT_FAIL;
	/* fs.trust_policy governs trusted_for(2) only; AT_EXECVE_CHECK
	 * refuses what execve() would, and the caller's securebits decide
	 * whether it enforces the refusal.
	 */
	if (!(a->apis & (1u << TT_SRC_TRUSTED_FOR)))
		a->policy_note = "n/a (AT_EXECVE_CHECK: the caller's securebits decide)";
	else if (tf_policy_read(&a->policy))
		a->policy = -1;

	if (tt_sampler_start(s, err, sizeof(err)) || install_signals()) {
		if (*err)
			fprintf(stderr, "trusttop: %s\n", err);
		tt_sampler_close(s);
		return TT_EXIT_FAIL;
	}
	if (!a->batch && tt_ui_init(a)) {
		fprintf(stderr, "trusttop: cannot start the terminal UI (TERM=%s): use -b\n",
			getenv("TERM") ? getenv("TERM") : "unset");
		tt_sampler_close(s);
		return TT_EXIT_FAIL;
	}
	rc = run(a, s, err, sizeof(err));
	if (!a->batch)
		tt_ui_end();
	if (rc != TT_EXIT_OK)
		fprintf(stderr, "trusttop: %s\n", err);
	tt_sampler_close(s);
	tt_table_free(&a->interp);
	tt_table_free(&a->procs);
	return rc;
}
