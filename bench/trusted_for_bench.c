// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of trusted_for(2) relative to fstat(2) and faccessat2(AT_EMPTY_PATH),
 * all measured in the same run on the same file descriptor.
 *
 * usage: trusted_for_bench [-n ITERATIONS] [-r ROUNDS] CASE...
 *   CASE: fstat fstatat faccessat2 allowed denied
 * Prints, per case, the best of ROUNDS rounds in ns/call, the ratio to
 * fstat and the number of calls made (the sanity call plus every timed one:
 * the denied case's count is what the audit log must hold).  Every call's
 * result is checked: a case whose verdict is not the expected one (allowed:
 * 0, denied: EACCES) on any call exits 1.  The caller sets the policy, audit
 * and the tracepoint around it (bench/trusted-for.sh does, in the VM).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trustedfor.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

enum bench_case { B_FSTAT, B_FSTATAT, B_FACCESSAT2, B_ALLOWED, B_DENIED };

static int one_call(enum bench_case c, int fd)
{
	struct stat st;

	switch (c) {
	case B_FSTAT:
		/* The raw syscall: glibc's fstat() is fstatat(AT_EMPTY_PATH). */
		return syscall(SYS_fstat, fd, &st);
	case B_FSTATAT:
		return fstatat(fd, "", &st, AT_EMPTY_PATH);
	case B_FACCESSAT2:
		return syscall(SYS_faccessat2, fd, "", R_OK, AT_EMPTY_PATH);
	case B_ALLOWED:
	case B_DENIED:
		return syscall(TF_SYSCALL_NR, fd, TF_USAGE_EXECUTION, 0);
	}
	return -1;
}

/* Best time per call over @rounds rounds of @n calls; *@wrong counts the
 * calls whose result was not @expect (-1 must come with EACCES).
 */
static double measure(enum bench_case c, int fd, long n, int rounds,
		      int expect, long *wrong)
{
	double best = 0;

	for (int r = 0; r < rounds; r++) {
		double t0 = now_ns();

		for (long i = 0; i < n; i++) {
			int ret = one_call(c, fd);

			if (ret != expect || (ret && errno != EACCES))
				(*wrong)++;
		}
		double per = (now_ns() - t0) / n;

		if (!r || per < best)
			best = per;
	}
	return best;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "fstat", "fstatat", "faccessat2",
					     "allowed", "denied" };
	const char *allowed = "/tmp/bench-allowed.sh";
	const char *denied = "/tmp/bench-noexec/denied.sh";
	long n = 200000, wrong = 0;
	int rounds = 5, opt;
	double base = 0;
	char bad[8];

	opterr = 0; /* one message of our own, below */
	while ((opt = getopt(argc, argv, ":n:r:a:d:")) != -1) {
		switch (opt) {
		case 'n':
			n = atol(optarg);
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'a':
			allowed = optarg;
			break;
		case 'd':
			denied = optarg;
			break;
		default:
			snprintf(bad, sizeof(bad), isgraph(optopt) ? "-%c" : "-\\x%02x",
				 (unsigned char)optopt);
			fprintf(stderr, opt == ':' ? "trusted_for_bench: option '%s' needs a value\n" :
				"trusted_for_bench: unknown option '%s'\n", bad);
			fprintf(stderr, "usage: %s [-n N] [-r ROUNDS] [-a ALLOWED_FILE] [-d DENIED_FILE] CASE...\n",
				argv[0]);
			return 2;
		}
	}
	if (n <= 0 || rounds <= 0) {
		fprintf(stderr, "trusted_for_bench: -n and -r must be positive\n");
		return 2;
	}
	if (tf_backend_detect() != TF_BACKEND_TRUSTED_FOR) {
		fprintf(stderr, "trusted_for_bench: this kernel has no trusted_for(2) (%s missing): run it in the VM (tests/vm/run)\n",
			TF_POLICY_PATH);
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		enum bench_case c;
		const char *path;
		int fd, expect;

		for (c = B_FSTAT; c <= B_DENIED; c++)
			if (!strcmp(argv[i], names[c]))
				break;
		if (c > B_DENIED) {
			fprintf(stderr, "trusted_for_bench: unknown case '%s' (fstat, fstatat, faccessat2, allowed, denied)\n",
				argv[i]);
			return 2;
		}
		path = c == B_DENIED ? denied : allowed;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "trusted_for_bench: %s: %s\n", path,
				strerror(errno));
			return 2;
		}
		/* The case must measure what it says, on every call. */
		expect = c == B_DENIED ? -1 : 0;
		if (one_call(c, fd) != expect ||
		    (c == B_DENIED && errno != EACCES)) {
			fprintf(stderr, "trusted_for_bench: %s: unexpected verdict on %s (%s)\n",
				names[c], path, strerror(errno));
			return 1;
		}
		long before = wrong;
		double ns = measure(c, fd, n, rounds, expect, &wrong);

		if (c == B_FSTAT)
			base = ns;
		if (base > 0)
			printf("%-12s %8.1f ns/call  %5.2fx fstat  calls %ld\n",
			       names[c], ns, ns / base, 1 + n * rounds);
		else
			printf("%-12s %8.1f ns/call  calls %ld\n", names[c], ns,
			       1 + n * rounds);
		if (wrong != before)
			fprintf(stderr, "trusted_for_bench: %s: %ld of %ld calls did not return %d\n",
				names[c], wrong - before, n * rounds, expect);
		close(fd);
	}
	fflush(stdout);
	return wrong ? 1 : 0;
}
