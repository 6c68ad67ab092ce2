// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dry run as check and apply run it: the progress line they draw on
 * standard error when it is a terminal (the walk reports its totals through
 * walk.h on_progress, this file decides when and how to draw them), and
 * the report they print.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "escape.h"
#include "report.h"

/* Not more often than this; nothing at all for a walk shorter than it. */
#define PROGRESS_EVERY_NS 250000000ull

struct progress {
	unsigned long long last_ns;
	bool drawn;
};

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull +
	       (unsigned long long)ts.tv_nsec;
}

/* The walk's on_progress: called one thread at a time. */
static void draw(void *ctx, const struct pc_walk *w, const char *where)
{
	struct progress *p = ctx;
	unsigned long long t = now_ns();
	char shown[64];

	if (!p->last_ns) {
		p->last_ns = t; /* nothing drawn for short walks */
		return;
	}
	if (t - p->last_ns < PROGRESS_EVERY_NS)
		return;
	p->last_ns = t;
	p->drawn = true;
	tf_escape_term(where, strlen(where), shown, sizeof(shown));
	fprintf(stderr, "\r\033[K%llu dirs, %llu files, %llu scripts: %s",
		w->dirs, w->files, w->scripts, shown);
}

int pc_dry_run(struct pc_check *c, char *err, size_t errlen)
{
	struct progress p = { 0 };
	int rc;

	if (pc_check_init(c, err, errlen) < 0)
		return -1;
	if (isatty(STDERR_FILENO)) {
		c->walk.on_progress = draw;
		c->walk.progress_ctx = &p;
	}
	rc = pc_check_run(c, err, errlen);
	c->walk.on_progress = NULL;
	if (p.drawn)
		fprintf(stderr, "\r\033[K"); /* the line is cleared */
	return rc;
}

int pc_print_report(const char *cmd, struct pc_check *c, bool json, bool all,
		    const char *then)
{
	if (json ? pc_report_json(c, stdout) :
		   (pc_report_text(c, stdout, all), 0)) {
		pc_err("%s: out of memory writing the report%s", cmd, then);
		return -1;
	}
	if (fflush(stdout) != 0) {
		pc_err("%s: cannot write the report: %m%s", cmd, then);
		return -1;
	}
	return 0;
}
