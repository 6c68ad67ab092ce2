// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * audisp-trusted-for plugin main loop. Signal handlers only set flags; the
 * loop polls stdin with a one-second timeout and acts on the flags:
 *   SIGHUP  reload the configuration file, write the metrics
 *   SIGUSR1 save the state (and the metrics) now
 *   SIGTERM (and EOF on stdin) flush pending events, save, exit 0
 * The metrics file (metrics_dir, metrics.h) is written after each state
 * save, at start, on SIGHUP and at exit; a directory it cannot be written to
 * is reported once (again only after a success), and counting goes on.
 */
#include "plugin.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "caps.h" /* lib: tf_caps_keep() */
#include "escape.h"
#include "feed.h"
#include "fsutil.h"
#include "getopt_error.h"
#include "metrics.h"
#include "state.h"

static volatile sig_atomic_t got_hup, got_usr1, got_term;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else if (sig == SIGUSR1)
		got_usr1 = 1;
	else
		got_term = 1;
}

/* Messages go to syslog (auditd discards a plugin's stderr) and to stderr. */
static void say(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsyslog(prio, fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	fputs("audisp-trusted-for: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static int64_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* Load the state, or start empty. A corrupt file is kept aside, never overwritten. */
static int load_state(struct ap_agg *agg, const struct ap_config *cfg)
{
	char why[256];

	if (ap_state_load(agg, cfg->capacity, cfg->state_file, why, sizeof(why)) == 0) {
		say(LOG_INFO, "loaded %s: %llu denials", cfg->state_file,
		    (unsigned long long)agg->denials);
		return 0;
	}
	if (errno == EPROTO) {
		char aside[4200];

		snprintf(aside, sizeof(aside), "%s.corrupt.%lld", cfg->state_file,
			 (long long)time(NULL));
		if (rename(cfg->state_file, aside)) {
			say(LOG_ERR, "%s is not a usable state file (%s) and cannot be moved aside: %s",
			    cfg->state_file, why, strerror(errno));
			return -1;
		}
		say(LOG_ERR, "%s is not a usable state file (%s); kept as %s, starting empty",
		    cfg->state_file, why, aside);
	} else if (errno != ENOENT) {
		say(LOG_ERR, "cannot read %s: %s (fix its permissions or state_file)",
		    cfg->state_file, strerror(errno));
		return -1;
	}
	return ap_agg_init(agg, cfg->capacity);
}

static struct ap_metrics_health health = { .plugin = true };
static bool metrics_failing;

static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void write_metrics(const struct ap_agg *agg, const struct ap_config *cfg)
{
	if (!cfg->metrics_dir[0])
		return;
	if (ap_metrics_save(cfg->metrics_dir, agg, &health) == 0) {
		if (metrics_failing)
			say(LOG_INFO, "metrics written to %s/%s again", cfg->metrics_dir,
			    AP_METRICS_FILE);
		metrics_failing = false;
		return;
	}
	if (!metrics_failing)
		say(LOG_ERR, "cannot write metrics to %s/%s: %s (metrics_dir must be an existing directory the plugin can write; counting goes on, retried at every save)",
		    cfg->metrics_dir, AP_METRICS_FILE, strerror(errno));
	metrics_failing = true;
}

static void set_limits(struct ap_agg *agg, const struct ap_config *cfg)
{
	agg->metrics.lim.exe = cfg->metrics_top;
	agg->metrics.lim.node = cfg->metrics_nodes;
	agg->metrics.lim.series = cfg->metrics_series;
}

static int save(const struct ap_agg *agg, const struct ap_config *cfg)
{
	if (ap_state_save(agg, cfg->state_file) == 0) {
		health.last_save_ms = wall_ms();
		write_metrics(agg, cfg);
		return 0;
	}
	write_metrics(agg, cfg);
	say(LOG_ERR, "cannot save %s: %s (check the directory exists and is writable)",
	    cfg->state_file, strerror(errno));
	return -1;
}

/* On SIGTERM, take what auditd already wrote to the pipe (at most 2 s). */
static void drain(struct ap_feed *feed, char *buf, size_t size)
{
	int64_t end = now_s() + 2;
	int fl = fcntl(STDIN_FILENO, F_GETFL);

	if (fl < 0 || fcntl(STDIN_FILENO, F_SETFL, fl | O_NONBLOCK))
		return;
	while (now_s() < end) {
		ssize_t r = read(STDIN_FILENO, buf, size);

		if (r > 0)
			ap_feed_bytes(feed, buf, (size_t)r);
		else if (r == 0 || (errno != EINTR))
			break;
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: audisp-trusted-for [-c CONFIG]   (plugin: audit events on stdin)\n"
		   "       audisp-trusted-for report [OPTIONS] (see audisp-trusted-for(8))\n");
}

int ap_plugin_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *config_path = AP_CONFIG_PATH;
	int config_given = 0;
	struct ap_config cfg;
	struct ap_agg agg;
	struct ap_feed feed;
	struct sigaction sa;
	char err[512], buf[65536];
	int64_t last_save, last_age;
	int opt, rc = 0;

	opterr = 0; /* tf_getopt_error() says what is wrong, once */
	while ((opt = getopt_long(argc, argv, ":c:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			config_path = optarg;
			config_given = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "%s: %s\n", "audisp-trusted-for",
				tf_getopt_error(opt, argv, longopts, err, sizeof(err)));
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fputs("audisp-trusted-for: unexpected argument '", stderr);
		tf_fputs_escaped(argv[optind], stderr);
		fputs("' (did you mean 'report'?)\n", stderr);
		return 2;
	}
	openlog("audisp-trusted-for", LOG_PID, LOG_DAEMON);
	ap_config_defaults(&cfg);
	if (ap_config_load(&cfg, config_path, config_given,
			   err, sizeof(err))) {
		say(LOG_ERR, "%s", err);
		return 2;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (tf_mkdir_parent(cfg.state_file, 0700))
		say(LOG_WARNING, "cannot create the directory of %s: %s", cfg.state_file,
		    strerror(errno));
	/*
	 * It only reads stdin and writes its own root-owned state directory:
	 * no capability needed, none kept (the bounding set and no_new_privs
	 * included).
	 */
	if (tf_caps_keep(NULL, 0))
		say(LOG_WARNING, "cannot drop capabilities: %s", strerror(errno));
	if (load_state(&agg, &cfg))
		return 1;
	set_limits(&agg, &cfg);
	write_metrics(&agg, &cfg);
	if (ap_feed_init(&feed, &agg, NULL, cfg.eoe_timeout)) {
		say(LOG_ERR, "cannot start libauparse: %s", strerror(errno));
		ap_agg_free(&agg);
		return 1;
	}
	last_save = last_age = now_s();

	for (;;) {
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		int n = got_term ? 0 : poll(&p, 1, 1000);
		int64_t now;

		if (n > 0) {
			ssize_t r = read(STDIN_FILENO, buf, sizeof(buf));

			if (r == 0)
				break;
			if (r > 0)
				ap_feed_bytes(&feed, buf, (size_t)r);
			else if (errno != EINTR && errno != EAGAIN)
				break;
		}
		if (got_term)
			break;
		if (got_hup) {
			struct ap_config n2 = cfg;

			got_hup = 0;
			if (ap_config_load(&n2, config_path, 0, err, sizeof(err))) {
				say(LOG_ERR, "reload: %s; keeping the running configuration", err);
			} else {
				if (n2.capacity != cfg.capacity)
					say(LOG_INFO, "reload: capacity applies at the next start");
				n2.capacity = cfg.capacity;
				if (strcmp(n2.metrics_dir, cfg.metrics_dir))
					metrics_failing = false; /* report the new one's errors */
				cfg = n2;
				set_limits(&agg, &cfg);
				auparse_set_eoe_timeout((time_t)cfg.eoe_timeout);
				say(LOG_INFO, "reloaded %s (save_interval %u s, state %s)",
				    config_path, cfg.save_interval, cfg.state_file);
			}
			write_metrics(&agg, &cfg);
		}
		now = now_s();
		if (now != last_age) {
			ap_feed_age(&feed);
			last_age = now;
		}
		if (got_usr1 || now - last_save >= (int64_t)cfg.save_interval) {
			got_usr1 = 0;
			save(&agg, &cfg);
			last_save = now;
		}
	}
	if (got_term)
		drain(&feed, buf, sizeof(buf));
	ap_feed_flush(&feed);
	if (save(&agg, &cfg))
		rc = 1;
	say(LOG_INFO, "stopped: %llu denials, %llu policy changes", (unsigned long long)agg.denials,
	    (unsigned long long)(agg.nchanges + agg.changes_dropped));
	ap_feed_free(&feed);
	ap_agg_free(&agg);
	return rc;
}
