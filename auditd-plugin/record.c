// SPDX-License-Identifier: GPL-2.0-or-later
/* Decoding AUDIT_TRUSTED_FOR, trustfor-relay's and CONFIG_CHANGE op=trust_policy records. */
#include "record.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfjson.h" /* tf_hex_decode() */
#include "trustedfor.h"

/* Parse a decimal or (base 0) number filling all of @s. */
static bool num(const char *s, int base, long long *out)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*out = strtoll(s, &end, base);
	return !errno && *end == '\0';
}

/* Audit ids: 4294967295 ((u32)-1) means "unset"; shown as -1. */
static bool id(const char *s, long *out)
{
	long long v;

	if (!num(s, 10, &v) || v < -1 || v > 4294967295LL)
		return false;
	*out = v == 4294967295LL ? -1 : (long)v;
	return true;
}

/*
 * The current field of @au, whose value is @val, decoded from the audit
 * untrusted-string encoding (malloc'd; NULL when out of memory).
 *
 * libauparse decodes a path, comm or exe ("escaped" fields) so, in its raw
 * escape mode (feed.c): a value in quotes, as its text up to the next quote;
 * a run of hex digits, as the bytes they encode, up to the first NUL byte.
 * Those two forms, all but every value, are decoded here: the library's
 * interpretation (a lookup of the field's type by name, a copy the library
 * keeps, then ours) was a tenth of a report's time. Anything else (an odd
 * count of digits, a name that starts with a NUL byte, "(null)", "") gets
 * the library's own decoding, rules its versions have changed.
 * tests/test_decode.c holds both ways to the same result, but in one case,
 * on purpose: after a GS byte (0x1d) a record carries auditd's enriched
 * values, which the library's interpretation prefers to the field's own.
 * auditd enriches ids, syscalls, arches and addresses, never these fields,
 * and the kernel writes no GS in the records read here; but a user message
 * (type 2650) may hold any bytes, so a path there after a GS is a forgery:
 * the field's own value is decoded (in the two forms above; the others
 * still get the library's rules).
 */
char *ap_record_decode(auparse_state_t *au, const char *val)
{
	const char *v;
	size_t n;
	char *out;

	if (val[0] == '"') {
		v = strchr(val + 1, '"');
		if (v)
			return strndup(val + 1, (size_t)(v - val - 1));
	} else if (val[0] && !(val[0] == '0' && val[1] == '0')) {
		out = tf_hex_decode(val, strlen(val), &n);
		if (out || errno == ENOMEM)
			return out;
	}
	v = auparse_interpret_field(au);
	return strdup(v ? v : "?");
}

/*
 * A field a parser takes, by name, at its first occurrence: its value in
 * *val; or, for a name the kernel may hex-encode (path, comm, exe), the
 * decoded bytes in *dec (malloc'd). The first occurrence: a field that
 * libaudit appends after a user message's text cannot replace the text's.
 */
struct field {
	const char *name;
	const char **val;
	char **dec;
};
#define VAL(name, p) { name, p, NULL }
#define DEC(name, p) { name, NULL, p }

/* Whether the current field of @au is named @name. */
static bool named(auparse_state_t *au, const char *name)
{
	const char *n = auparse_get_field_name(au);

	return n && !strcmp(n, name);
}

/* Take the current field of @au when @fields (ended by a NULL name) names it. */
static void take_field(auparse_state_t *au, const struct field *fields)
{
	const char *name = auparse_get_field_name(au);
	const char *val = auparse_get_field_str(au);

	if (!name || !val)
		return;
	for (const struct field *f = fields; f->name; f++) {
		/*
		 * The first two bytes first: they tell apart almost every
		 * field of a record from these, so that strcmp() runs about
		 * once per field taken (it was a tenth of a report's time).
		 */
		if (f->name[0] != name[0] || f->name[1] != name[1] ||
		    (name[1] && strcmp(f->name + 2, name + 2)))
			continue;
		if (f->val && !*f->val)
			*f->val = val;
		else if (f->dec && !*f->dec)
			*f->dec = ap_record_decode(au, val);
		return;
	}
}

/*
 * Take @fields from the current record of @au, from its first field named
 * @from on (NULL: from its first field). False when there is no such field.
 */
static bool take_fields(auparse_state_t *au, const struct field *fields, const char *from)
{
	int more = auparse_first_field(au);

	while (more > 0 && from && !named(au, from))
		more = auparse_next_field(au);
	if (more <= 0)
		return false;
	do
		take_field(au, fields);
	while (auparse_next_field(au) > 0);
	return true;
}

/*
 * @src into @dst (@size bytes), cut to fit; false when cut.  (Not
 * snprintf("%s"): this runs for every record, several times.)
 */
static bool copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	bool fits = n < size;

	if (!fits)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return fits;
}

static void stamp(auparse_state_t *au, int64_t *ms, unsigned long *serial,
		  const char **node, char *node_buf, size_t node_len)
{
	const au_event_t *e = auparse_get_timestamp(au);
	const char *n = e && e->host ? e->host : "";

	/* libauparse accepts seconds up to LONG_MAX - eoe_timeout: saturate. */
	if (!e)
		*ms = 0;
	else if (e->sec < 0 || e->sec > (INT64_MAX - (int64_t)UINT_MAX) / 1000)
		*ms = e->sec < 0 ? INT64_MIN : INT64_MAX;
	else
		*ms = (int64_t)e->sec * 1000 + e->milli;
	if (serial)
		*serial = e ? e->serial : 0;
	copy_str(node_buf, node_len, n);
	*node = node_buf;
}

/* The values of a refusal's fields, as written (NULL: absent). */
struct raw {
	const char *usage, *policy, *reason, *res, *dev, *ino, *uid, *auid;
	const char *api, *secbits, *enforced;
	const char *op, *lost, *src, *file; /* the relay's (type 2650) */
};

/* The fields of a refusal record of either type, from its field @from on. */
static bool take_refusal(auparse_state_t *au, struct ap_denial *d, struct raw *r,
			 const char *from)
{
	const struct field fields[] = {
		VAL("usage", &r->usage), VAL("uid", &r->uid), VAL("policy", &r->policy),
		VAL("reason", &r->reason), VAL("res", &r->res), VAL("dev", &r->dev),
		VAL("ino", &r->ino), VAL("auid", &r->auid), VAL("api", &r->api),
		VAL("secbits", &r->secbits), VAL("enforced", &r->enforced), VAL("op", &r->op), VAL("lost", &r->lost),
		VAL("src", &r->src), VAL("file", &r->file),
		DEC("path", &d->path), DEC("comm", &d->comm), DEC("exe", &d->exe),
		VAL(NULL, NULL),
	};

	memset(r, 0, sizeof(*r));
	return take_fields(au, fields, from);
}

/* Whether @s is present and is @want. */
static bool is(const char *s, const char *want)
{
	return s && !strcmp(s, want);
}

/*
 * What both record types share, once present: the ids, the API class (by
 * api= and secbits=), the file (dev= and ino=, when there), the reasons.
 */
static enum ap_parse decode_refusal(const struct raw *r, struct ap_denial *d)
{
	long long v;
	unsigned int bits;
	int enforced;

	if (!id(r->uid, &d->uid) || !id(r->auid, &d->auid))
		return AP_PARSE_MALFORMED;
	/*
	 * api= and secbits= (issue 11; the kernel writes them just before
	 * res=, the ABI notes had them after): no api= is a trusted_for record
	 * of an older kernel. An execve_check record has policy=? (the sysctl
	 * does not govern it) and its secbits; enforced= (issue 23) says
	 * whether a caller that honours them is expected to refuse the file
	 * (trusted_for records: enforced=?, not read). A record without it
	 * comes from a kernel or relay that knew no other rule than
	 * SECBIT_EXEC_RESTRICT_FILE's (tf_ec_enforced() without a check of
	 * stdin).
	 */
	if (r->secbits) {
		if (!num(r->secbits, 16, &v) || v < 0 || v > UINT32_MAX)
			return AP_PARSE_MALFORMED;
		d->secbits = (unsigned long)v;
	}
	if (!r->api || !strcmp(r->api, "trusted_for")) {
		d->api = AP_API_TRUSTED_FOR;
		if (!num(r->policy, 10, &v) || v < 0 || v > TF_POLICY_MAX)
			return AP_PARSE_MALFORMED;
		d->policy = (int)v;
	} else if (!strcmp(r->api, "execve_check")) {
		if (strcmp(r->policy, "?") || !r->secbits)
			return AP_PARSE_MALFORMED;
		d->policy = -1;
		if (r->enforced && !is(r->enforced, "0") && !is(r->enforced, "1"))
			return AP_PARSE_MALFORMED;
		enforced = r->enforced ? is(r->enforced, "1") :
					 tf_ec_enforced((unsigned int)d->secbits, 0);
		d->api = enforced ? AP_API_EC_ENFORCED : AP_API_EC_OBSERVED;
	} else {
		return AP_PARSE_MALFORMED;
	}
	if (r->ino) {
		if (!num(r->ino, 10, &v) || v < 0)
			return AP_PARSE_MALFORMED;
		d->ino = (unsigned long)v;
	}
	if (r->dev && !copy_str(d->dev, sizeof(d->dev), r->dev))
		return AP_PARSE_MALFORMED;
	/* Canonical reason names; an unknown name is kept as it was written. */
	if (tf_reason_parse(r->reason, &bits) == 0)
		tf_reason_str(bits, d->reason, sizeof(d->reason));
	else if (!copy_str(d->reason, sizeof(d->reason), r->reason))
		return AP_PARSE_MALFORMED;
	return AP_PARSE_DENIAL;
}

/* Type 1350: every field is the kernel's. */
static enum ap_parse parse_denial(auparse_state_t *au, struct ap_denial *d)
{
	struct raw r;
	long long v;

	if (!take_refusal(au, d, &r, NULL))
		return AP_PARSE_MALFORMED;
	/*
	 * res is the last field of the current layout, exe the last of the
	 * previous one (res came after reason): a record truncated in either
	 * layout lacks one of the two.
	 */
	if (!r.usage || !r.reason || !r.res || !r.dev || !r.ino || !r.policy || !r.uid ||
	    !r.auid || !d->path || !d->comm || !d->exe)
		return AP_PARSE_MALFORMED;
	if (!num(r.res, 10, &v))
		return AP_PARSE_MALFORMED;
	if (v != 0)
		return AP_PARSE_NOT_DENIAL;
	return decode_refusal(&r, d);
}

/* The relay's op=lost record: lost= refusals it could not log, at least one. */
static enum ap_parse parse_lost(const struct raw *r, struct ap_denial *d)
{
	long long v;

	if (!is(r->op, "lost") || !num(r->lost, 10, &v) || v < 1)
		return AP_PARSE_MALFORMED;
	d->lost = (uint64_t)v;
	return AP_PARSE_LOST;
}

/*
 * A relay's refusal on a descriptor (file=fd) names the file it read (dev=,
 * ino=); one on a name (file=name) was refused before a file was opened,
 * and has neither.
 */
static bool relay_file_ok(const struct raw *r)
{
	if (is(r->file, "fd"))
		return r->dev && r->ino;
	return is(r->file, "name") && !r->dev && !r->ino;
}

/*
 * Type 2650, trustfor-relay's: the sender's fields the kernel writes first
 * are skipped, the relay's begin at usage=.
 */
static enum ap_parse parse_relay(auparse_state_t *au, struct ap_denial *d)
{
	struct raw r;

	if (!take_refusal(au, d, &r, "usage"))
		return AP_PARSE_MALFORMED;
	if (!is(r.usage, "execution") || !is(r.res, "0") || !is(r.api, "execve_check") ||
	    !is(r.src, "relay"))
		return AP_PARSE_MALFORMED;
	if (r.op)
		return parse_lost(&r, d);
	/* policy=? and secbits=: decode_refusal(), as for api=execve_check of 1350 */
	if (!r.policy || !r.reason || !r.uid || !r.auid || !d->path || !d->comm || !d->exe ||
	    !relay_file_ok(&r))
		return AP_PARSE_MALFORMED;
	return decode_refusal(&r, d);
}

/* The writer's fields (current layout); all or none, else malformed. */
static enum ap_parse parse_writer(struct ap_policy_change *p, const char *pid,
				  const char *uid)
{
	long long v;

	p->pid = p->uid = -1;
	if (!pid && !uid && !p->comm && !p->exe)
		return AP_PARSE_POLICY; /* the previous layout: writer unknown */
	if (!pid || !uid || !p->comm || !p->exe)
		return AP_PARSE_MALFORMED;
	if (!num(pid, 10, &v) || v < 0 || v > INT_MAX || !id(uid, &p->uid))
		return AP_PARSE_MALFORMED;
	p->pid = (long)v;
	p->writer = true;
	return AP_PARSE_POLICY;
}

static enum ap_parse parse_policy(auparse_state_t *au, struct ap_policy_change *p)
{
	const char *op = NULL, *old = NULL, *new = NULL, *auid = NULL;
	const char *ses = NULL, *res = NULL, *pid = NULL, *uid = NULL;
	long long v;
	const struct field fields[] = {
		VAL("op", &op), VAL("old", &old), VAL("new", &new), VAL("auid", &auid),
		VAL("ses", &ses), VAL("res", &res), VAL("pid", &pid), VAL("uid", &uid),
		DEC("comm", &p->comm), DEC("exe", &p->exe),
		VAL(NULL, NULL),
	};

	if (!take_fields(au, fields, NULL) || !is(op, "trust_policy"))
		return AP_PARSE_OTHER;
	if (!old || !new || !auid || !ses || !res)
		return AP_PARSE_MALFORMED;
	if (!num(old, 10, &v) || v < 0 || v > TF_POLICY_MAX)
		return AP_PARSE_MALFORMED;
	p->old_policy = (int)v;
	if (!strcmp(new, "?"))
		p->new_policy = -1;
	else if (num(new, 10, &v) && v >= 0 && v <= INT_MAX)
		p->new_policy = (int)v; /* a refused write logs the rejected value */
	else
		return AP_PARSE_MALFORMED;
	if (!id(auid, &p->auid) || !id(ses, &p->ses))
		return AP_PARSE_MALFORMED;
	if (!num(res, 10, &v) || (v != 0 && v != 1))
		return AP_PARSE_MALFORMED;
	p->res = (int)v;
	return parse_writer(p, pid, uid);
}

enum ap_parse ap_record_parse(auparse_state_t *au, struct ap_denial *d,
			      struct ap_policy_change *p, char *node_buf,
			      size_t node_len)
{
	int type = auparse_get_type(au);
	enum ap_parse r;

	memset(d, 0, sizeof(*d));
	memset(p, 0, sizeof(*p));
	if (type == TF_AUDIT_TYPE || type == TF_AUDIT_USER_TYPE) {
		stamp(au, &d->ms, &d->serial, &d->node, node_buf, node_len);
		d->source = type == TF_AUDIT_TYPE ? AP_SRC_KERNEL : AP_SRC_RELAY;
		r = d->source == AP_SRC_KERNEL ? parse_denial(au, d) : parse_relay(au, d);
		if (r != AP_PARSE_DENIAL)
			ap_denial_clear(d);
		return r;
	}
	if (type == AUDIT_CONFIG_CHANGE) {
		stamp(au, &p->ms, NULL, &p->node, node_buf, node_len);
		r = parse_policy(au, p);
		if (r != AP_PARSE_POLICY)
			ap_policy_change_clear(p);
		return r;
	}
	return AP_PARSE_OTHER;
}

void ap_denial_clear(struct ap_denial *d)
{
	free(d->path);
	free(d->comm);
	free(d->exe);
	d->path = d->comm = d->exe = NULL;
}

void ap_policy_change_clear(struct ap_policy_change *p)
{
	free(p->comm);
	free(p->exe);
	p->comm = p->exe = NULL;
}
