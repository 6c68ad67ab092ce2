// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe: the one test program that asks the kernel whether files may be
 * executed and reports its verdicts (issue 13: it replaces tf-deny,
 * tt-workload, tf-probe, tf-verdict and tf-run --backend).  Options,
 * output and exit status are in usage() below; kernel.c holds the
 * questions themselves and the probe of what the kernel offers.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "escape.h"
#include "getopt_error.h"
#include "probe.h"
#include "user.h"

#define EXIT_DENIED 1
#define EXIT_USAGE 2
#define EXIT_NOKERNEL 3
#define EXIT_ERROR 4

static const char usage_text[] =
"usage: probe [OPTION]... FILE...\n"
"       probe --kernel | --backend | --help\n"
"Ask the kernel whether each FILE may be executed (interpreted).\n"
"  -a, --api API      default: libtrustedfor's choice (tf_check_exec);\n"
"                     trusted_for: syscall 451 itself, only where\n"
"                       /proc/sys/fs/trust_policy exists (else ENOSYS);\n"
"                     execve_check: execveat(fd, \"\", AT_EMPTY_PATH |\n"
"                       AT_EXECVE_CHECK) itself (EINVAL, a kernel without\n"
"                       the flag, is reported as ENOSYS)\n"
"  -n, --count N      ask N times about each FILE and print only the summary\n"
"  -u, --as USER      open the FILEs first, then become USER (name or uid)\n"
"                     with its primary and supplementary groups, and ask\n"
"  -c, --comm NAME    the process name (comm) while asking\n"
"  -s, --secbits BITS OR BITS into the securebits first (0x100:\n"
"                     SECBIT_EXEC_RESTRICT_FILE)\n"
"  -w, --write        open each FILE read-write (execve would find it busy)\n"
"  -H, --hold         after the answers, keep the descriptors open until\n"
"                     standard input is closed\n"
"      --kernel       print what the kernel offers, probed without\n"
"                     libtrustedfor and without syscall 451: \"trusted_for\",\n"
"                     \"execve_check\", both (in that order) or \"none\"\n"
"      --backend      print the interface libtrustedfor uses by default\n"
"FILE is a path (opened O_RDONLY|O_NONBLOCK, symlinks followed), \"-\" or\n"
"fd:N (the inherited descriptor, asked as it is), or fd:pipe, fd:memfd,\n"
"fd:socket (made after --as, owned by the subject).\n"
"Output, one line a FILE (tab-separated; FILE as given, escaped as\n"
"lib/escape.h does for a terminal):\n"
"  allow|deny|error  ERRNO-NAME (- when allowed)  API  FILE  [/proc/PID/fd/N]\n"
"API is the interface that answered (trusted_for, execve_check, none); a\n"
"deny is EACCES, EPERM or ETXTBSY (busy); the fifth field, for fd:pipe,\n"
"fd:memfd and fd:socket only, names the descriptor.  With --count, one\n"
"line instead: \"allowed A denied D errors E checks C\" (C = A + D + E).\n"
"Exit status: 0 every check allowed, 1 some denied, 2 usage or setup\n"
"error, 3 the kernel cannot answer (ENOSYS), 4 a FILE could not be opened\n"
"or a check failed otherwise (3 before 4 before 1); --kernel exits 2 when\n"
"it cannot tell.\n";

struct opts {
	enum probe_api api;
	unsigned long count; /* 0: one verdict line a FILE */
	const char *as, *comm, *secbits;
	bool write, hold;
};

struct target {
	const char *name;
	int fd, err; /* err: errno of a failed open */
	bool made;   /* fd:pipe, fd:memfd, fd:socket */
};

static int bad(const char *what, const char *arg, const char *fix)
{
	fprintf(stderr, "probe: %s '", what);
	tf_fputs_escaped(arg, stderr);
	fprintf(stderr, "': %s (see probe --help)\n", fix);
	return EXIT_USAGE;
}

static int parse_ulong(const char *s, int base, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, base);
	return errno || end == s || *end || *s == '-' ? -1 : 0;
}

/* setgroups, setresgid, setresuid: every capability is lost but uid 0's */
static int become(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);
	gid_t gid = pw ? pw->pw_gid : (gid_t)uid, groups[256];
	int n = 256;

	if (!pw)
		n = 0;
	else if (getgrouplist(pw->pw_name, gid, groups, &n) < 0)
		return -1;
	if (setgroups((size_t)n, groups) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid))
		return -1;
	return 0;
}

static int open_target(struct target *t, const struct opts *o)
{
	unsigned long n;

	if (!strcmp(t->name, "-"))
		return STDIN_FILENO;
	if (!strncmp(t->name, "fd:", 3) && !parse_ulong(t->name + 3, 10, &n)) {
		if (n > 65535 || fcntl((int)n, F_GETFD) < 0) {
			errno = EBADF;
			return -1;
		}
		return (int)n;
	}
	return open(t->name, (o->write ? O_RDWR : O_RDONLY) | O_NONBLOCK |
			     O_NOCTTY);
}

/* a pipe's write end stays open (and leaks) with its read end */
static int make_fd(const char *kind)
{
	int p[2];

	if (!strcmp(kind, "fd:pipe"))
		return pipe(p) ? -1 : p[0];
	if (!strcmp(kind, "fd:memfd"))
		return memfd_create("probe", 0);
	return socket(AF_UNIX, SOCK_STREAM, 0);
}

static bool is_made(const char *name)
{
	return !strcmp(name, "fd:pipe") || !strcmp(name, "fd:memfd") ||
	       !strcmp(name, "fd:socket");
}

static int setup(const struct opts *o)
{
	unsigned long bits;
	int cur;

	if (o->secbits) {
		cur = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
		if (parse_ulong(o->secbits, 0, &bits))
			return bad("--secbits", o->secbits, "give a number such as 0x100");
		if (cur < 0 || (((unsigned long)cur | bits) != (unsigned long)cur &&
				prctl(PR_SET_SECUREBITS, (unsigned long)cur | bits, 0, 0, 0))) {
			fprintf(stderr, "probe: --secbits %s: %s\n", o->secbits, strerror(errno));
			return EXIT_USAGE;
		}
	}
	if (o->comm && prctl(PR_SET_NAME, o->comm, 0, 0, 0)) {
		fprintf(stderr, "probe: --comm: %s\n", strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

static void print_line(const char *verdict, int err, enum probe_api by,
		       const struct target *t)
{
	printf("%s\t%s\t%s\t", verdict, err ? strerrorname_np(err) : "-",
	       probe_api_name(by));
	tf_fputs_escaped(t->name, stdout);
	if (t->made)
		printf("\t/proc/%d/fd/%d", (int)getpid(), t->fd);
	putchar('\n');
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "api", required_argument, NULL, 'a' },
		{ "count", required_argument, NULL, 'n' },
		{ "as", required_argument, NULL, 'u' },
		{ "comm", required_argument, NULL, 'c' },
		{ "secbits", required_argument, NULL, 's' },
		{ "write", no_argument, NULL, 'w' },
		{ "hold", no_argument, NULL, 'H' },
		{ "kernel", no_argument, NULL, 'K' },
		{ "backend", no_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct opts o = { .api = PROBE_API_DEFAULT };
	unsigned long allowed = 0, denied = 0, errors = 0;
	bool nokernel = false, failed = false;
	struct target *ts;
	uid_t uid = 0;
	char buf[64], msg[256];
	int c, n, rc;

	opterr = 0; /* one line of our own below, not getopt's too */
	while ((c = getopt_long(argc, argv, "+:a:n:u:c:s:wH", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (probe_api_parse(optarg, &o.api))
				return bad("--api", optarg, "use default, trusted_for or execve_check");
			break;
		case 'n':
			if (parse_ulong(optarg, 10, &o.count) || !o.count)
				return bad("--count", optarg, "give a whole number above 0");
			break;
		case 'u':
			o.as = optarg;
			if (tf_parse_user(optarg, &uid))
				return bad("--as", optarg, "give a user name or a uid");
			break;
		case 'c':
			o.comm = optarg;
			break;
		case 's':
			o.secbits = optarg;
			break;
		case 'w':
			o.write = true;
			break;
		case 'H':
			o.hold = true;
			break;
		case 'K':
			return probe_kernel_offers() ? EXIT_USAGE : 0;
		case 'B':
			puts(probe_default_backend());
			return 0;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default: /* '?' or ':' */
			fprintf(stderr, "probe: %s (see probe --help)\n",
				tf_getopt_error(c, argv, longopts, msg, sizeof(msg)));
			return EXIT_USAGE;
		}
	}
	n = argc - optind;
	if (n <= 0) {
		fprintf(stderr, "probe: no FILE to ask about (see probe --help)\n");
		return EXIT_USAGE;
	}
	rc = setup(&o);
	if (rc)
		return rc;
	ts = calloc((size_t)n, sizeof(*ts));
	if (!ts) {
		perror("probe");
		return EXIT_USAGE;
	}
	/* the caller's opens; the subject only asks */
	for (int i = 0; i < n; i++) {
		ts[i].name = argv[optind + i];
		ts[i].made = is_made(ts[i].name);
		ts[i].fd = ts[i].made ? -1 : open_target(&ts[i], &o);
		ts[i].err = ts[i].fd < 0 ? errno : 0;
	}
	if (o.as && become(uid)) {
		fprintf(stderr, "probe: cannot become %s: %s\n", o.as, strerror(errno));
		free(ts);
		return EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		struct target *t = &ts[i];
		enum probe_api by = PROBE_API_NONE;
		unsigned long k, count = o.count ? o.count : 1;
		int err = 0;

		if (t->made) {
			t->fd = make_fd(t->name);
			t->err = t->fd < 0 ? errno : 0;
		}
		if (t->fd < 0) {
			failed = true;
			if (o.count)
				fprintf(stderr, "probe: %s: %s\n", t->name, strerror(t->err));
			else
				print_line("error", t->err, PROBE_API_NONE, t);
			continue;
		}
		for (k = 0; k < count; k++) {
			err = probe_ask(t->fd, o.api, &by);
			if (!err) {
				allowed++;
			} else if (probe_is_refusal(err)) {
				denied++;
			} else {
				errors++;
				if (err == ENOSYS)
					nokernel = true;
				else
					failed = true;
			}
		}
		if (!o.count)
			print_line(!err ? "allow" : probe_is_refusal(err) ? "deny" : "error",
				   err, by, t);
		else if (err == ENOSYS)
			fprintf(stderr, "probe: %s: the kernel lacks the interface asked for\n",
				t->name);
	}
	if (o.count)
		printf("allowed %lu denied %lu errors %lu checks %lu\n",
		       allowed, denied, errors, allowed + denied + errors);
	fflush(stdout);
	if (o.hold)
		while (read(STDIN_FILENO, buf, sizeof(buf)) > 0)
			;
	free(ts);
	if (nokernel)
		return EXIT_NOKERNEL;
	if (failed)
		return EXIT_ERROR;
	return denied ? EXIT_DENIED : 0;
}
