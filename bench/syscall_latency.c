// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_latency: the latency of one audited system call, N times.
 *
 * usage: syscall_latency N [PAUSE_US]
 * Calls uname(2) N times (an audit rule on uname makes each call log a
 * SYSCALL record, which waits when the audit backlog is full), PAUSE_US
 * microseconds apart (default 1000), each timed with the CPU's time-stamp
 * counter, converted to microseconds by CLOCK_MONOTONIC over the whole run
 * (the test VM's clock source ticks at 4 ms; the counter follows the
 * host's clock under TCG).  Prints one line:
 *   calls N median_us M p99_us P max_us X over_10ms K
 * Exit status: 0, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

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

int main(int argc, char **argv)
{
	long n, pause_us = 1000, i, over = 0, t, t0;
	unsigned long long c0;
	double ns_per_tick;
	struct utsname u;
	long *lat;

	if (argc < 2 || argc > 3 || !parse(argv[1], 10000000, &n) ||
	    (argc == 3 && !parse(argv[2], 1000000, &pause_us))) {
		fprintf(stderr, "usage: syscall_latency N [PAUSE_US] (N >= 1, PAUSE_US 1..1000000)\n");
		return 2;
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
		uname(&u);
		lat[i] = (long)__rdtsc() - t;
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
