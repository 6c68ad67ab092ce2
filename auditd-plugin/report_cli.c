// SPDX-License-Identifier: GPL-2.0-or-later
/* The report command line: sources, filters, output format. */
#include "report_cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "escape.h"
#include "feed.h"
#include "getopt_error.h"
#include "metrics.h"
#include "report.h"
#include "report_input.h"
#include "report_split.h"
#include "state.h"

#define PROG "audisp-trusted-for report"

static int64_t ms_of(time_t t)
{
	return (int64_t)t * 1000;
}

static time_t midnight(time_t t, int days_back)
{
	struct tm tm;

	localtime_r(&t, &tm);
	tm.tm_mday -= days_back;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

int ap_parse_time(const char *s, int end_of_day, int64_t *ms)
{
	static const char *const fmts[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
					    "%Y-%m-%d %H:%M", "%Y-%m-%d" };
	time_t now = time(NULL);
	char *end;

	if (!strcmp(s, "now")) {
		*ms = ms_of(now);
		return 0;
	}
	if (!strcmp(s, "recent")) { /* aureport: ten minutes ago */
		*ms = ms_of(now - 600);
		return 0;
	}
	if (!strcmp(s, "today")) {
		*ms = ms_of(midnight(now, 0));
		return 0;
	}
	if (!strcmp(s, "yesterday")) {
		*ms = ms_of(midnight(now, 1));
		return 0;
	}
	if (s[0] == '@') {
		long long v;

		errno = 0;
		v = strtoll(s + 1, &end, 10);
		if (errno || end == s + 1 || *end || v < 0 || v > INT64_MAX / 1000)
			return -1;
		*ms = v * 1000;
		return 0;
	}
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		struct tm tm;
		const char *rest;

		memset(&tm, 0, sizeof(tm));
		rest = strptime(s, fmts[i], &tm);
		if (!rest || *rest)
			continue;
		tm.tm_isdst = -1;
		*ms = ms_of(mktime(&tm));
		/* A bare date as --until means the whole day. */
		if (i == 3 && end_of_day)
			*ms += 86400 * 1000LL - 1;
		else if (i == 2 && end_of_day)
			*ms += 60 * 1000LL - 1;
		else if (end_of_day)
			*ms += 999;
		return 0;
	}
	return -1;
}

/* Parse --table "interpreter,file,policy" into a table mask; -1 on an unknown name. */
static int parse_tables(const char *list, unsigned int *mask)
{
	char *copy = strdup(list), *save = NULL;

	*mask = 0;
	if (!copy)
		return -1;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int d = ap_dim_from_name(t);

		if (d >= 0) {
			*mask |= 1u << d;
		} else if (!strcmp(t, "policy")) {
			*mask |= 1u << AP_TABLE_POLICY;
		} else {
			free(copy);
			return -1;
		}
	}
	free(copy);
	return *mask ? 0 : -1;
}

/*
 * Parse --api "trusted_for,execve_check" (execve_check/enforced and
 * execve_check/observed for one half of execve_check) into a class mask;
 * -1 on an unknown name.
 */
static int parse_apis(const char *list, unsigned int *mask)
{
	char *copy = strdup(list), *save = NULL;

	*mask = 0;
	if (!copy)
		return -1;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int c = 0;

		if (!strcmp(t, "execve_check")) {
			*mask |= 1u << AP_API_EC_ENFORCED | 1u << AP_API_EC_OBSERVED;
			continue;
		}
		while (c < AP_API_CLASSES && strcmp(t, ap_api_label(c)))
			c++;
		if (c == AP_API_CLASSES) {
			free(copy);
			return -1;
		}
		*mask |= 1u << c;
	}
	free(copy);
	return *mask ? 0 : -1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [--state FILE | --input [FILE...]] [-i] [--since TIME]\n"
		"         [--until TIME] [--node NAME] [--table LIST] [--api LIST] [--top N] [--json]\n"
		"         [-c CONFIG]\n"
		"  --state FILE    the plugin's state (default: state_file of the config,\n"
		"                  " AP_STATE_PATH ")\n"
		"  --input [FILE...] audit logs (audit.log, audit.log.1, ...); none or '-':\n"
		"                  stdin, e.g. ausearch --raw -m 1350,2650 | " PROG " --input\n"
		"  -i, --interpret user names and mount points\n"
		"  --since/--until TIME  YYYY-MM-DD[ HH:MM[:SS]], @EPOCH, now, recent,\n"
		"                  today, yesterday (needs --input)\n"
		"  --node NAME     only records from node NAME ('' for local records; needs --input)\n"
		"  --table LIST    interpreter,file,reason,mount,user,auid,node,policy\n"
		"  --api LIST      only these APIs' denials: trusted_for, execve_check,\n"
		"                  execve_check/enforced, execve_check/observed (refusals\n"
		"                  that SECBIT_EXEC_RESTRICT_FILE would enforce)\n"
		"  --top N         at most N rows per table\n"
		"  --jobs N        parse the --input logs with N processes (default: one per\n"
		"                  CPU for 16 MiB or more of regular files); same result\n"
		"  --json          JSON instead of text\n"
		"  --metrics[=DIR] Prometheus text exposition instead of the report: on stdout,\n"
		"                  or written atomically as DIR/" AP_METRICS_FILE "\n");
}

int ap_report_main(int argc, char **argv)
{
	enum { O_STATE = 256, O_INPUT, O_SINCE, O_UNTIL, O_NODE, O_TABLE, O_TOP, O_JSON,
	       O_METRICS, O_API, O_JOBS };
	static const struct option longopts[] = {
		{ "state", required_argument, NULL, O_STATE },
		{ "input", no_argument, NULL, O_INPUT },
		{ "interpret", no_argument, NULL, 'i' },
		{ "since", required_argument, NULL, O_SINCE },
		{ "until", required_argument, NULL, O_UNTIL },
		{ "node", required_argument, NULL, O_NODE },
		{ "table", required_argument, NULL, O_TABLE },
		{ "api", required_argument, NULL, O_API },
		{ "top", required_argument, NULL, O_TOP },
		{ "jobs", required_argument, NULL, O_JOBS },
		{ "json", no_argument, NULL, O_JSON },
		{ "metrics", optional_argument, NULL, O_METRICS },
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ap_report_opts ro = { .tables = ~0u };
	struct ap_filter flt = { INT64_MIN, INT64_MAX, NULL };
	const char *state = NULL, *config = NULL;
	bool input = false, json = false, filtered = false, metrics = false;
	unsigned int jobs = 0;
	const char *metrics_dir = NULL;
	struct ap_config cfg;
	struct ap_agg agg;
	char err[512], *src = NULL;
	int opt, rc;

	setlocale(LC_ALL, "");
	optind = 1;
	opterr = 0; /* tf_getopt_error() says what is wrong, once */
	while ((opt = getopt_long(argc, argv, ":ic:h", longopts, NULL)) != -1) {
		char *end;
		unsigned long v;

		switch (opt) {
		case O_STATE:
			state = optarg;
			break;
		case O_INPUT:
			input = true;
			break;
		case 'i':
			ro.interpret = true;
			break;
		case O_SINCE:
		case O_UNTIL:
			if (ap_parse_time(optarg, opt == O_UNTIL,
					  opt == O_SINCE ? &flt.since_ms : &flt.until_ms)) {
				fprintf(stderr,
					PROG ": %s '%s': not a time; use YYYY-MM-DD[ HH:MM[:SS]], @EPOCH, now, recent, today or yesterday\n",
					opt == O_SINCE ? "--since" : "--until", optarg);
				return 2;
			}
			filtered = true;
			break;
		case O_NODE:
			flt.node = optarg;
			filtered = true;
			break;
		case O_TABLE:
			if (parse_tables(optarg, &ro.tables)) {
				fprintf(stderr,
					PROG ": --table '%s': unknown table; use a comma list of interpreter,file,reason,mount,user,auid,node,policy\n",
					optarg);
				return 2;
			}
			break;
		case O_API:
			if (parse_apis(optarg, &ro.apis)) {
				fprintf(stderr,
					PROG ": --api '%s': unknown API; use a comma list of trusted_for,execve_check,execve_check/enforced,execve_check/observed\n",
					optarg);
				return 2;
			}
			break;
		case O_TOP:
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-' || v > 1000000) {
				fprintf(stderr, PROG ": --top '%s': use a number of rows 0..1000000 (0: all)\n",
					optarg);
				return 2;
			}
			ro.top = (unsigned int)v;
			break;
		case O_JOBS:
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-' || v < 1 ||
			    v > AP_SPLIT_MAX_JOBS) {
				fprintf(stderr, PROG ": --jobs '%s': use a number of processes 1..%u\n",
					optarg, AP_SPLIT_MAX_JOBS);
				return 2;
			}
			jobs = (unsigned int)v;
			break;
		case O_JSON:
			json = true;
			break;
		case O_METRICS:
			metrics = true;
			metrics_dir = optarg;
			if (metrics_dir && metrics_dir[0] != '/') {
				fprintf(stderr, PROG ": --metrics=DIR: use an absolute directory\n");
				return 2;
			}
			break;
		case 'c':
			config = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "%s: %s\n", PROG,
				tf_getopt_error(opt, argv, longopts, err, sizeof(err)));
			usage(stderr);
			return 2;
		}
	}
	if (state && input) {
		fprintf(stderr, PROG ": --state and --input exclude each other; pick one source\n");
		return 2;
	}
	if (!input && optind < argc) {
		fputs(PROG ": unexpected argument '", stderr);
		tf_fputs_escaped(argv[optind], stderr);
		fputs("' (log files go after --input)\n", stderr);
		return 2;
	}
	if (!input && jobs) {
		fprintf(stderr, PROG ": --jobs splits the parsing of --input logs: use it with --input\n");
		return 2;
	}
	if (!input && filtered) {
		fprintf(stderr, PROG ": --since, --until and --node filter records: use them with --input (the state holds only totals)\n");
		return 2;
	}
	if (flt.since_ms > flt.until_ms) {
		fprintf(stderr, PROG ": --since is after --until; swap them\n");
		return 2;
	}

	if (metrics && ro.apis) {
		fprintf(stderr, PROG ": --api selects report rows; the metrics carry every API (select with the api label)\n");
		return 2;
	}
	if (metrics && json) {
		fprintf(stderr, PROG ": --metrics and --json exclude each other; pick one format\n");
		return 2;
	}
	ap_config_defaults(&cfg);
	if (input) {
		/* -c gives the metrics' label limits (metrics_top, ...) */
		if (config && ap_config_load(&cfg, config, 1, err, sizeof(err))) {
			fprintf(stderr, PROG ": %s\n", err);
			return 2;
		}
		if (ap_agg_init(&agg, cfg.capacity)) {
			fprintf(stderr, PROG ": out of memory\n");
			return 1;
		}
		agg.metrics.lim.exe = cfg.metrics_top;
		agg.metrics.lim.node = cfg.metrics_nodes;
		agg.metrics.lim.series = cfg.metrics_series;
		/* The labelled counters are only printed by --metrics, and cost a
		 * tenth of the time per record (issue 12).
		 */
		agg.no_metrics = !metrics;
		if (ap_report_read_inputs(&agg, &flt, argv + optind, argc - optind, jobs)) {
			ap_agg_free(&agg);
			return 1;
		}
		ro.source = optind < argc ? "audit logs" : "audit records on stdin";
	} else {
		if (config && ap_config_load(&cfg, config, 1, err, sizeof(err))) {
			fprintf(stderr, PROG ": %s\n", err);
			return 2;
		}
		if (!config && ap_config_load(&cfg, AP_CONFIG_PATH, 0, err, sizeof(err))) {
			fprintf(stderr, PROG ": %s\n", err);
			return 2;
		}
		if (!state)
			state = cfg.state_file;
		if (ap_state_load(&agg, cfg.capacity, state, err, sizeof(err))) {
			int e = errno; /* before the messages' calls */

			fprintf(stderr, PROG ": cannot use ");
			tf_fputs_escaped(state, stderr);
			if (e == ENOENT)
				fprintf(stderr, ": no state yet (is the plugin active in auditd's plugins.d? or use --input FILE)\n");
			else if (e == EPROTO)
				fprintf(stderr, ": not a state file: %s\n", err);
			else
				fprintf(stderr, ": %s\n", strerror(e));
			return 1;
		}
		if (asprintf(&src, "state %s", state) < 0)
			src = NULL;
		ro.source = src;
	}
	if (metrics && metrics_dir) {
		struct ap_metrics_health h = { 0 };

		rc = 0;
		if (ap_metrics_save(metrics_dir, &agg, &h)) {
			int e = errno;

			fprintf(stderr, PROG ": cannot write ");
			tf_fputs_escaped(metrics_dir, stderr);
			fprintf(stderr, "/" AP_METRICS_FILE ": %s (is it a directory you can write?)\n",
				strerror(e));
			rc = 1;
		}
	} else if (metrics) {
		rc = ap_metrics_write(stdout, &agg, NULL) ? 1 : 0;
	} else if (json) {
		rc = ap_report_json(stdout, &agg, &ro) ? 1 : 0;
	} else {
		ap_report_text(stdout, &agg, &ro);
		rc = 0;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": cannot write the report: %s\n", strerror(errno));
		rc = 1;
	}
	free(src);
	ap_agg_free(&agg);
	return rc;
}
