// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_latency: the latency of one audited system call, N times.
 *
 * usage: syscall_latency [-r FILE] N [PAUSE_US]
 * Calls uname(2) N times (an audit rule on uname makes each call log a
 * SYSCALL record, which waits when the audit backlog is full), PAUSE_US
 * microseconds apart (default 1000), each timed with the CPU's time-stamp
 * counter, converted to microseconds by CLOCK_MONOTONIC over the whole run
 * (the test VM's clock source ticks at 4 ms; the counter follows the
 * host's clock under TCG).  With -r FILE, each call is instead an
 * execution check of FILE (libtrustedfor's trusted_for_exec()) that the
 * policy must refuse: a refusal record, which no rule selects.  Prints one
 * line:
 *   calls N median_us M p99_us P max_us X over_10ms K
 * Exit status: 0; 1 when a check of FILE was not refused; 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "getopt_error.h"
#include "trustedfor.h"

#define USAGE "usage: syscall_latency [-r FILE] N [PAUSE_US] (N >= 1, PAUSE_US 1..1000000)\n"

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static int parse(const char *s, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return !errno && end != s && !*end && *out >= 1 && *out <= max;
}

/* The timed call: uname(2), or with @fd >= 0 a check of @fd (its result). */
static int call(int fd, struct utsname *u)
{
	return fd < 0 ? uname(u) : trusted_for_exec(fd);
}

int main(int argc, char **argv)
{
	long n, pause_us = 1000, i, over = 0, t, t0;
	const char *refuse = NULL;
	unsigned long long c0;
	double ns_per_tick;
	struct utsname u;
	int fd = -1, opt, r;
	char msg[128];
	long *lat;

	/* getopt_long(), so that "--x" is named as written */
	static const struct option none[] = { { NULL, 0, NULL, 0 } };

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":r:", none, NULL)) != -1) {
		if (opt != 'r') {
			fprintf(stderr, "syscall_latency: %s\n" USAGE,
				tf_getopt_error(opt, argv, none, msg, sizeof(msg)));
			return 2;
		}
		refuse = optarg;
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 2 || argc > 3 || !parse(argv[1], 10000000, &n) ||
	    (argc == 3 && !parse(argv[2], 1000000, &pause_us))) {
		fputs(USAGE, stderr);
		return 2;
	}
	if (refuse) {
		fd = open(refuse, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "syscall_latency: %s: %s\n", refuse,
				strerror(errno));
			return 2;
		}
	}
	lat = calloc(n, sizeof(*lat));
	if (!lat) {
		perror("syscall_latency: calloc");
		return 2;
	}
	t0 = now_ns();
	c0 = __rdtsc();
	for (i = 0; i < n; i++) {
		t = (long)__rdtsc();
		r = call(fd, &u);
		lat[i] = (long)__rdtsc() - t;
		if (fd >= 0 && (r == 0 || errno != EACCES)) {
			fprintf(stderr, "syscall_latency: %s was not refused (%s)\n",
				refuse, r ? strerror(errno) : "allowed");
			free(lat);
			return 1;
		}
		usleep(pause_us);
	}
	ns_per_tick = (double)(now_ns() - t0) / (double)(__rdtsc() - c0);
	qsort(lat, n, sizeof(*lat), cmp_long);
	for (i = 0; i < n; i++)
		if (lat[i] * ns_per_tick > 10e6)
			over++;
	printf("calls %ld median_us %.1f p99_us %.1f max_us %.1f over_10ms %ld\n",
	       n, lat[n / 2] * ns_per_tick / 1e3,
	       lat[(n * 99) / 100] * ns_per_tick / 1e3,
	       lat[n - 1] * ns_per_tick / 1e3, over);
	free(lat);
	return 0;
}
