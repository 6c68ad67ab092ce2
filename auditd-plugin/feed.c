// SPDX-License-Identifier: GPL-2.0-or-later
/* Audit text -> libauparse feed -> aggregator; see feed.h. */
#include "feed.h"

#include <ctype.h>
#include <libaudit.h>
#include <stdlib.h>
#include <string.h>

#include "report_spool.h"
#include "trustedfor.h"

static bool digits(const char **p, const char *end)
{
	const char *s = *p;

	while (*p < end && isdigit((unsigned char)**p))
		(*p)++;
	return *p > s;
}

static bool lit(const char **p, const char *end, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(end - *p) < n || memcmp(*p, s, n))
		return false;
	*p += n;
	return true;
}

/* A node name: bytes up to a space, none of them a control byte. */
static bool node_name(const char **p, const char *end)
{
	const char *s = *p;

	while (*p < end && (unsigned char)**p > ' ' && **p != 0x7f)
		(*p)++;
	return *p > s;
}

/*
 * A record type: letters, digits, '_' and the brackets of UNKNOWN[1350].
 * Anything else is not a record, and must not reach libauparse 3.0.9: a GS
 * byte (0x1d) there leaves a record without fields, whose field array
 * nvlist_clear() then never frees (fixed upstream after 3.0.9).
 */
static bool type_name(const char **p, const char *end)
{
	const char *s = *p;

	while (*p < end && (isalnum((unsigned char)**p) || **p == '_' || **p == '[' ||
			    **p == ']'))
		(*p)++;
	return *p > s;
}

/* The header of a record; on success *type and *tlen give its type= value. */
static bool header(const char *line, size_t len, const char **type, size_t *tlen)
{
	const char *p = line, *end = line + len;

	if (memchr(line, '\0', len))
		return false;
	if (lit(&p, end, "node=") && !(node_name(&p, end) && lit(&p, end, " ")))
		return false;
	if (!lit(&p, end, "type="))
		return false;
	*type = p;
	if (!type_name(&p, end))
		return false;
	*tlen = (size_t)(p - *type);
	return lit(&p, end, " msg=audit(") && digits(&p, end) && lit(&p, end, ".") &&
	       digits(&p, end) && lit(&p, end, ":") && digits(&p, end) && lit(&p, end, "):");
}

bool ap_line_is_record(const char *line, size_t len)
{
	const char *type;
	size_t tlen;

	return header(line, len, &type, &tlen);
}

/*
 * The record type libauparse makes of type= value @type: it takes it with
 * audit_name_to_msg_type(), so UNKNOWN[1350], 1350 and UNKNOWN[1350x] are
 * all 1350, and CWD, cwd, 1307 and UNKNOWN[1307] all CWD. Asking the same
 * function gives the same answer; a small cache of the last values asked
 * about keeps this cheap (a log holds a handful of distinct type names).
 * AP_TYPE_UNSURE when a long value cannot be copied (out of memory).
 */
#define AP_TYPE_UNSURE (-2)
static int msg_type(struct ap_feed *f, const char *type, size_t tlen)
{
	struct ap_type_memo *m;
	char *name;
	int t;

	if (tlen >= sizeof(m->name)) { /* not cached */
		name = strndup(type, tlen);
		t = name ? audit_name_to_msg_type(name) : AP_TYPE_UNSURE;
		free(name);
		return t;
	}
	for (unsigned int i = 0; i < AP_TYPE_MEMO; i++) {
		m = &f->types[i];
		if (m->len == tlen && !memcmp(m->name, type, tlen))
			return m->type;
	}
	m = &f->types[f->next_type++ % AP_TYPE_MEMO];
	memcpy(m->name, type, tlen);
	m->name[tlen] = '\0';
	m->len = (unsigned char)tlen;
	m->type = audit_name_to_msg_type(m->name);
	return m->type;
}

/*
 * Whether ap_record_parse() may count a record of type @t: 1350, 2650 (the
 * relay's) and CONFIG_CHANGE; one of an unsure type is fed, libauparse decides.
 */
static bool counted_type(int t)
{
	return t == TF_AUDIT_TYPE || t == TF_AUDIT_USER_TYPE || t == AUDIT_CONFIG_CHANGE ||
	       t == AP_TYPE_UNSURE;
}

static bool wanted(const struct ap_filter *flt, int64_t ms, const char *node)
{
	if (!flt)
		return true;
	if (ms < flt->since_ms || ms > flt->until_ms)
		return false;
	return !flt->node || !strcmp(flt->node, node ? node : "");
}

/* Counted here, or spooled for the process that counts (ap_feed_spool()). */
static void count_denial(struct ap_feed *f, const struct ap_denial *d)
{
	if (f->spool)
		ap_spool_denial(f->spool, d);
	else
		ap_agg_add_denial(f->agg, d);
}

static void count_lost(struct ap_feed *f, const struct ap_denial *d)
{
	if (f->spool)
		ap_spool_lost(f->spool, d);
	else
		ap_agg_add_lost(f->agg, d);
}

static void count_change(struct ap_feed *f, const struct ap_policy_change *p)
{
	if (f->spool)
		ap_spool_change(f->spool, p);
	else
		ap_agg_add_change(f->agg, p);
}

static void on_event(auparse_state_t *au, auparse_cb_event_t type, void *arg)
{
	struct ap_feed *f = arg;
	struct ap_denial d;
	struct ap_policy_change p;
	char node[256];

	if (type != AUPARSE_CB_EVENT_READY || auparse_first_record(au) <= 0)
		return;
	f->done += auparse_get_num_records(au);
	do {
		switch (ap_record_parse(au, &d, &p, node, sizeof(node))) {
		case AP_PARSE_DENIAL:
			if (wanted(f->filter, d.ms, d.node))
				count_denial(f, &d);
			ap_denial_clear(&d);
			break;
		case AP_PARSE_LOST:
			if (wanted(f->filter, d.ms, d.node))
				count_lost(f, &d);
			break;
		case AP_PARSE_POLICY:
			if (wanted(f->filter, p.ms, p.node))
				count_change(f, &p);
			ap_policy_change_clear(&p);
			break;
		case AP_PARSE_MALFORMED:
			f->agg->malformed++;
			break;
		case AP_PARSE_NOT_DENIAL:
			f->agg->not_denial++;
			break;
		case AP_PARSE_OTHER:
			break;
		}
	} while (auparse_next_record(au) > 0);
	if (f->spool && f->spool->unpublished >= 65536)
		ap_spool_publish(f->spool);
}

int ap_feed_init(struct ap_feed *f, struct ap_agg *agg, const struct ap_filter *filter,
		 unsigned int eoe_timeout)
{
	memset(f, 0, sizeof(*f));
	f->agg = agg;
	f->filter = filter;
	f->line = malloc(TF_LINE_MAX + 1);
	f->au = auparse_init(AUSOURCE_FEED, NULL);
	if (!f->line || !f->au) {
		ap_feed_free(f);
		return -1;
	}
	if (eoe_timeout) /* after auparse_init(), which reloads auditd.conf's */
		auparse_set_eoe_timeout((time_t)eoe_timeout);
	/* Keep decoded names as raw bytes; they are escaped when shown. */
	auparse_set_escape_mode(f->au, AUPARSE_ESC_RAW);
	auparse_add_callback(f->au, on_event, f, NULL);
	return 0;
}

void ap_feed_free(struct ap_feed *f)
{
	if (f->au)
		auparse_destroy(f->au);
	free(f->line);
	memset(f, 0, sizeof(*f));
}

/* One line, without its newline; @line[@len] is a newline. */
static void take_line(struct ap_feed *f, const char *line, size_t len)
{
	const char *type;
	size_t tlen;

	if (len == 0) {
		/* blank line: nothing */
	} else if (!header(line, len, &type, &tlen)) {
		f->agg->bad_lines++;
	} else if (f->offline) {
		/* see ap_feed_offline() */
		if (counted_type(msg_type(f, type, tlen))) {
			auparse_feed(f->au, line, len + 1);
			f->fed++;
			auparse_flush_feed(f->au);
		}
	} else if (msg_type(f, type, tlen) == AUDIT_CWD) {
		/*
		 * Never counted, and not to reach libauparse 3.0.9, which leaks
		 * the value of every cwd= field of a CWD record but the last
		 * (found by the fuzzer: a CWD record with two cwd= fields, then
		 * one spelled CwD).
		 */
	} else {
		auparse_feed(f->au, line, len + 1);
		if (++f->fed - f->done > TF_PENDING_MAX) /* see feed.h */
			auparse_flush_feed(f->au);
	}
	f->lines++;
}

static void end_line(struct ap_feed *f)
{
	if (f->overlong) {
		f->agg->bad_lines++;
		f->lines++;
	} else {
		f->line[f->len] = '\n';
		take_line(f, f->line, f->len);
	}
	f->len = 0;
	f->overlong = false;
}

void ap_feed_bytes(struct ap_feed *f, const char *data, size_t n)
{
	while (n) {
		const char *nl = memchr(data, '\n', n);
		size_t chunk = nl ? (size_t)(nl - data) : n;

		if (nl && !f->len && !f->overlong && chunk <= TF_LINE_MAX) {
			/* a whole line in @data: no copy */
			take_line(f, data, chunk);
			data += chunk + 1;
			n -= chunk + 1;
			continue;
		}
		if (!f->overlong) {
			if (f->len + chunk > TF_LINE_MAX) {
				f->overlong = true;
			} else {
				memcpy(f->line + f->len, data, chunk);
				f->len += chunk;
			}
		}
		if (!nl)
			return;
		end_line(f);
		data += chunk + 1;
		n -= chunk + 1;
	}
}

void ap_feed_spool(struct ap_feed *f, struct ap_spool *spool)
{
	f->spool = spool;
}

void ap_feed_offline(struct ap_feed *f)
{
	f->offline = true;
}

void ap_feed_age(struct ap_feed *f)
{
	auparse_feed_age_events(f->au);
}

void ap_feed_flush(struct ap_feed *f)
{
	if (f->len || f->overlong)
		end_line(f);
	auparse_flush_feed(f->au);
}
