// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The aureport-like text report (ap_report_text(), report.h): a summary,
 * one table per dimension asked for, the policy change timeline. Every
 * name is escaped for the terminal (lib/escape.h).
 */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "escape.h"
#include "report_names.h"
#include "report_view.h"
#include "timefmt.h"

static const char *const titles[AP_DIM_COUNT] = {
	[AP_DIM_INTERP] = "Interpreter", [AP_DIM_FILE] = "File",
	[AP_DIM_REASON] = "Reason",	 [AP_DIM_MOUNT] = "Mount",
	[AP_DIM_USER] = "User",		 [AP_DIM_AUID] = "Login User",
	[AP_DIM_NODE] = "Host",
};

static const char *const plural[AP_DIM_COUNT] = {
	[AP_DIM_INTERP] = "interpreters", [AP_DIM_FILE] = "files",
	[AP_DIM_REASON] = "reasons",	  [AP_DIM_MOUNT] = "mounts",
	[AP_DIM_USER] = "users",	  [AP_DIM_AUID] = "login users",
	[AP_DIM_NODE] = "hosts",
};

static const char rule[] = "===============================================";

static void fmt_time(int64_t ms, char *buf, size_t len)
{
	tf_time_local((time_t)(ms / 1000), buf, len);
}

/*
 * @len bytes of @s escaped: a file or interpreter key may hold a NUL,
 * which tf_fputs_escaped() of a C string would stop at.
 */
static void distinct(FILE *f, const struct ap_agg *a, enum ap_dim d,
		     const struct ap_report_opts *o)
{
	uint64_t n;
	bool capped;

	ap_view_distinct(a, d, o, &n, &capped);
	if (capped)
		fprintf(f, "more than %llu (table capped, see \"other\" rows)\n",
			(unsigned long long)n);
	else
		fprintf(f, "%llu\n", (unsigned long long)n);
}

static void text_table(FILE *f, const struct ap_agg *a, enum ap_dim d,
		       const struct ap_report_opts *o, const struct tf_mountinfo *mi)
{
	size_t n = 0;
	struct ap_view_row *m = ap_view_rows(a, d, o, &n);
	uint64_t hidden = 0;
	uint32_t shown = 0;
	bool approx = false, observed = false;

	fprintf(f, "\n%s Summary Report\n%s\ntotal  rate/min  last seen  api  %s\n%s\n",
		titles[d], rule, d == AP_DIM_INTERP ? "interpreter (comm)" : ap_dim_name(d), rule);
	if (!m) {
		fputs("(out of memory)\n", f);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ap_ss_row *r = m[i].r;
		uint64_t g = r->count - r->err;
		char when[64], *name;

		if (o->top && shown >= o->top) {
			hidden += g;
			continue;
		}
		shown++;
		fmt_time(r->last, when, sizeof(when));
		fprintf(f, "%llu%s  %.1f  %s  %s  ", (unsigned long long)g, r->err ? "+" : "",
			ap_view_rate(r->count - r->err, r->first, r->last), when,
			ap_api_label(m[i].c));
		name = ap_row_name(d, r, o->interpret, mi);
		if (name) {
			if (tf_fwrite_escaped(name, ap_row_name_len(d, r, name), f) == EOF &&
			    errno == ENOMEM)
				fputs("(out of memory)", f);
			free(name);
		}
		if (r->note) {
			fputs(" (", f);
			tf_fputs_escaped(r->note, f);
			fputc(')', f);
		}
		fputc('\n', f);
		approx |= r->err != 0;
		observed |= m[i].c == AP_API_EC_OBSERVED;
	}
	free(m);
	if (hidden)
		fprintf(f, "%llu  -  -  (%u more rows, see --top)\n",
			(unsigned long long)hidden, (unsigned int)(n - shown));
	for (int c = 0; c < AP_API_CLASSES; c++) {
		uint64_t other = ap_view_shows(o, c) ? ap_ss_other(ap_agg_ctable(a, c, d)) : 0;

		if (other)
			fprintf(f, "%llu  -  -  %s  other (keys evicted from the capped table)\n",
				(unsigned long long)other, ap_api_label(c));
	}
	if (approx)
		fprintf(f, "# N+ : approximate row, at least N hits (Space-Saving bound)\n");
	if (observed)
		fprintf(f, "# execve_check/observed: refused by AT_EXECVE_CHECK but not enforced (the caller's securebits did not make it refuse the file): would be refused if SECBIT_EXEC_RESTRICT_FILE were set\n");
}

static void text_timeline(FILE *f, const struct ap_agg *a, const struct ap_report_opts *o)
{
	struct ap_change *c = ap_view_changes(a);

	fprintf(f, "\nPolicy Change Report\n%s\n"
		   "# date time node old -> new applied auid uid pid exe (comm)\n%s\n",
		rule, rule);
	if (!c) {
		fputs("(out of memory)\n", f);
		return;
	}
	for (size_t i = 0; i < a->nchanges; i++) {
		const struct ap_policy_change *p = &c[i].c;
		char when[64], user[256];

		fmt_time(p->ms, when, sizeof(when));
		fprintf(f, "%zu. %s ", i + 1, when);
		tf_fputs_escaped(c[i].node[0] ? c[i].node : "(local)", f);
		if (p->new_policy < 0)
			fprintf(f, " %d -> ?", p->old_policy);
		else
			fprintf(f, " %d -> %d", p->old_policy, p->new_policy);
		ap_id_name(p->auid, o->interpret, user, sizeof(user));
		fprintf(f, " %s %s", p->res ? "yes" : "no", user);
		if (!p->writer) { /* a record of the previous kernel: auid only */
			fputs(" ? ? ?\n", f);
			continue;
		}
		ap_id_name(p->uid, o->interpret, user, sizeof(user));
		fprintf(f, " %s %ld ", user, p->pid);
		tf_fputs_escaped(p->exe, f);
		fputs(" (", f);
		tf_fputs_escaped(p->comm, f);
		fputs(")\n", f);
	}
	if (a->changes_dropped)
		fprintf(f, "# %llu older changes were not kept\n",
			(unsigned long long)a->changes_dropped);
	free(c);
}

/* "Denials by API: trusted_for N, execve_check N (enforced E, observed only O)" */
static void text_apis(FILE *f, const struct ap_agg *a, const struct ap_report_opts *o)
{
	const char *sep = "";

	fputs("Denials by API:", f);
	if (ap_view_shows(o, AP_API_TRUSTED_FOR)) {
		fprintf(f, " trusted_for %llu", (unsigned long long)
			ap_agg_ctable(a, AP_API_TRUSTED_FOR, AP_DIM_INTERP)->total);
		sep = ",";
	}
	if (ap_view_shows(o, AP_API_EC_ENFORCED) || ap_view_shows(o, AP_API_EC_OBSERVED)) {
		uint64_t en = ap_agg_ctable(a, AP_API_EC_ENFORCED, AP_DIM_INTERP)->total;
		uint64_t ob = ap_agg_ctable(a, AP_API_EC_OBSERVED, AP_DIM_INTERP)->total;

		en = ap_view_shows(o, AP_API_EC_ENFORCED) ? en : 0;
		ob = ap_view_shows(o, AP_API_EC_OBSERVED) ? ob : 0;
		fprintf(f, "%s execve_check %llu (enforced %llu, observed only %llu)", sep,
			(unsigned long long)(en + ob), (unsigned long long)en,
			(unsigned long long)ob);
	}
	fputc('\n', f);
}

/*
 * "Denials by source: kernel N, relay M (the relay lost L more: refused, not
 * logged)", when the relay logged or lost a refusal of the classes shown.
 */
static void text_sources(FILE *f, const struct ap_agg *a, const struct ap_report_opts *o)
{
	uint64_t relay = ap_view_source(a, o, AP_SRC_RELAY), lost = ap_view_relay_lost(a, o);

	if (!relay && !lost)
		return;
	fprintf(f, "Denials by source: kernel %llu, relay %llu (the relay lost %llu more: refused, not logged)\n",
		(unsigned long long)ap_view_source(a, o, AP_SRC_KERNEL),
		(unsigned long long)relay, (unsigned long long)lost);
}

void ap_report_text(FILE *f, const struct ap_agg *a, const struct ap_report_opts *o)
{
	char t1[64] = "", t2[64] = "";
	struct tf_mountinfo mib, *mi = ap_view_mounts(o, &mib);
	int64_t first, last;

	fprintf(f, "\nTrusted-for Denial Report\n%s\n", rule);
	if (o->source) {
		fputs("Source: ", f);
		tf_fputs_escaped(o->source, f);
		fputc('\n', f);
	}
	if (ap_view_range(a, o, &first, &last)) {
		fmt_time(first, t1, sizeof(t1));
		fmt_time(last, t2, sizeof(t2));
		fprintf(f, "Range of time in report: %s - %s\n", t1, t2);
	} else {
		fprintf(f, "Range of time in report: (no denials)\n");
	}
	fprintf(f, "Number of denials: %llu\n", (unsigned long long)ap_view_denials(a, o));
	/* The split by API (issue 11), execve_check by enforcement. */
	text_apis(f, a, o);
	text_sources(f, a, o);
	for (int d = 0; d < AP_DIM_COUNT; d++) {
		if (d == AP_DIM_AUID)
			continue;
		fprintf(f, "Number of %s: ", plural[d]);
		distinct(f, a, d, o);
	}
	fprintf(f, "Number of policy changes: %llu\n",
		(unsigned long long)(a->nchanges + a->changes_dropped));
	fprintf(f, "Number of malformed records skipped: %llu\n",
		(unsigned long long)a->malformed);
	fprintf(f, "Number of non-audit lines skipped: %llu\n",
		(unsigned long long)a->bad_lines);
	for (int d = 0; d < AP_DIM_COUNT; d++)
		if (o->tables & (1u << d))
			text_table(f, a, d, o, mi);
	if (o->tables & (1u << AP_TABLE_POLICY))
		text_timeline(f, a, o);
	ap_view_mounts_free(mi);
}
