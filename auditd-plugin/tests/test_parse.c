// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Record parsing through the libauparse feed, on fixtures in tests/data/.
 * Longer than 400 lines: one binary for the record decoder; its cases share
 * the captured logs and the feed driver.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "feed.h"
#include "report.h"

/* The fixture @name of directory @dir, whole (TF_DATA_DIR: slurp()). */
static char *slurp_in(const char *dir, const char *name, size_t *len)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static char *slurp(const char *name, size_t *len)
{
	return slurp_in(TF_DATA_DIR, name, len);
}

/* Feed @len bytes in chunks of @chunk (0: all at once) and flush. */
static void feed_all(struct ap_agg *a, const char *data, size_t len, size_t chunk,
		     const struct ap_filter *flt)
{
	struct ap_feed f;

	assert_int_equal(ap_feed_init(&f, a, flt, 0), 0);
	if (!chunk)
		chunk = len;
	for (size_t off = 0; off < len; off += chunk)
		ap_feed_bytes(&f, data + off, len - off < chunk ? len - off : chunk);
	ap_feed_flush(&f);
	ap_feed_free(&f);
}

static uint64_t hits(const struct ap_agg *a, enum ap_dim d, const char *key, size_t klen)
{
	const struct ap_ss_row *r = ap_ss_find(&a->dim[d], key, klen);

	return r ? r->count : 0;
}
#define HITS(a, d, s) hits(a, d, s, sizeof(s) - 1)

static void check_denials_fixture(const struct ap_agg *a)
{
	assert_int_equal(a->denials, 12);
	assert_int_equal(a->malformed, 0);
	assert_int_equal(a->bad_lines, 0);
	assert_int_equal(a->dim[AP_DIM_INTERP].n, 3);
	assert_int_equal(HITS(a, AP_DIM_INTERP, "/usr/bin/python3.11"), 5);
	assert_int_equal(HITS(a, AP_DIM_INTERP, "/usr/bin/dash"), 4);
	assert_int_equal(HITS(a, AP_DIM_INTERP, "/usr/bin/perl"), 3);
	assert_string_equal(ap_ss_find(&a->dim[AP_DIM_INTERP], "/usr/bin/dash", 13)->note, "sh");
	/* Hex-encoded names are decoded to their exact bytes. */
	assert_int_equal(HITS(a, AP_DIM_FILE, "/tmp/noexec/plain.py"), 3);
	assert_int_equal(HITS(a, AP_DIM_FILE, "/tmp/noexec/evil\n\x1b[31mname.py"), 2);
	assert_int_equal(HITS(a, AP_DIM_FILE, "/tmp/noexec/\xc3\xbcn\xc3\xaf.sh"), 2);
	assert_int_equal(HITS(a, AP_DIM_FILE, "/tmp/noexec/bad\xff\xfe.pl"), 3);
	assert_int_equal(HITS(a, AP_DIM_FILE, "/tmp/noexec/has space.sh"), 2);
	assert_int_equal(HITS(a, AP_DIM_REASON, "noexec_mount"), 9);
	assert_int_equal(HITS(a, AP_DIM_REASON, "noexec_mount,file_perm"), 3);
	assert_int_equal(HITS(a, AP_DIM_MOUNT, "00:1a"), 9);
	assert_int_equal(HITS(a, AP_DIM_MOUNT, "08:01"), 3);
	assert_int_equal(HITS(a, AP_DIM_USER, "1000"), 11);
	assert_int_equal(HITS(a, AP_DIM_USER, "0"), 1);
	assert_int_equal(HITS(a, AP_DIM_AUID, "1000"), 12);
	assert_int_equal(HITS(a, AP_DIM_NODE, ""), 12);
	assert_int_equal(a->first, 1764748800001LL);
	assert_int_equal(a->last, 1764748810002LL);
	/* An allowed call's SYSCALL + PATH event (a syscall rule) counts nothing. */
	assert_int_equal(a->not_denial, 0);
	/* Only op=trust_policy changes; the refused one has new=?. */
	assert_int_equal(a->nchanges, 2);
	assert_int_equal(a->changes[0].c.old_policy, 0);
	assert_int_equal(a->changes[0].c.new_policy, 3);
	assert_int_equal(a->changes[0].c.res, 1);
	assert_int_equal(a->changes[0].c.auid, 1000);
	assert_int_equal(a->changes[1].c.new_policy, -1);
	assert_int_equal(a->changes[1].c.res, 0);
	assert_int_equal(a->changes[1].c.ms, 1764748808000LL);
	/* The writers, from the records' task fields (the fixture's text). */
	assert_true(a->changes[0].c.writer);
	assert_int_equal(a->changes[0].c.pid, 3999);
	assert_int_equal(a->changes[0].c.uid, 0);
	assert_int_equal(a->changes[0].c.ses, 3);
	assert_string_equal(a->changes[0].c.comm, "sysctl");
	assert_string_equal(a->changes[0].c.exe, "/usr/sbin/sysctl");
	assert_true(a->changes[1].c.writer);
	assert_int_equal(a->changes[1].c.pid, 4100);
	assert_int_equal(a->changes[1].c.uid, 0);
	assert_int_equal(a->changes[1].c.auid, 1000);
	/* hex-encoded by the kernel: ESC in comm, U+202E and 0xff in exe */
	assert_string_equal(a->changes[1].c.comm, "pol\x1b[7mset");
	assert_string_equal(a->changes[1].c.exe, "/tmp/x/set\xe2\x80\xaeyc\xff");
}

static void test_fixture_whole(void **s)
{
	struct ap_agg a;
	size_t len;
	char *d = slurp("audit-denials.log", &len);

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	feed_all(&a, d, len, 0, NULL);
	check_denials_fixture(&a);
	ap_agg_free(&a);
	free(d);
}

/* Lines split across reads (the plugin reads 64 KiB chunks) change nothing. */
static void test_fixture_byte_by_byte(void **s)
{
	struct ap_agg a;
	size_t len;
	char *d = slurp("audit-denials.log", &len);

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	feed_all(&a, d, len, 1, NULL);
	check_denials_fixture(&a);
	ap_agg_free(&a);
	free(d);
}

static void test_fleet_nodes(void **s)
{
	struct ap_agg a;
	size_t len;
	char *d = slurp("audit-fleet.log", &len);
	struct ap_filter only_db2 = { INT64_MIN, INT64_MAX, "db2" };

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	feed_all(&a, d, len, 0, NULL);
	assert_int_equal(a.denials, 6);
	assert_int_equal(HITS(&a, AP_DIM_NODE, "web1"), 4);
	assert_int_equal(HITS(&a, AP_DIM_NODE, "db2"), 2);
	assert_int_equal(a.nchanges, 1);
	assert_string_equal(a.changes[0].node, "db2");
	ap_agg_free(&a);

	assert_int_equal(ap_agg_init(&a, 64), 0);
	feed_all(&a, d, len, 0, &only_db2);
	assert_int_equal(a.denials, 2);
	assert_int_equal(HITS(&a, AP_DIM_NODE, "web1"), 0);
	assert_int_equal(HITS(&a, AP_DIM_FILE, "/tmp/noexec/has space.sh"), 2);
	ap_agg_free(&a);
	free(d);
}

static void test_time_filter(void **s)
{
	struct ap_agg a;
	size_t len;
	char *d = slurp("audit-denials.log", &len);
	/* 08:00:04 .. 08:00:07.999: the four dash denials only. */
	struct ap_filter f = { 1764748804000LL, 1764748807999LL, NULL };

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	feed_all(&a, d, len, 0, &f);
	assert_int_equal(a.denials, 4);
	assert_int_equal(HITS(&a, AP_DIM_INTERP, "/usr/bin/dash"), 4);
	assert_int_equal(a.nchanges, 0);
	ap_agg_free(&a);
	free(d);
}

static void test_malformed_counted(void **s)
{
	struct ap_agg a;
	size_t len;
	char *d = slurp("audit-malformed.log", &len);

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	feed_all(&a, d, len, 0, NULL);
	/* The two intact records still count; the rest are skipped and counted. */
	assert_int_equal(a.denials, 2);
	assert_int_equal(HITS(&a, AP_DIM_FILE, "/tmp/noexec/plain.py"), 1);
	assert_int_equal(HITS(&a, AP_DIM_FILE, "/tmp/noexec/has space.sh"), 1);
	assert_int_equal(a.bad_lines, 3);  /* garbage, no serial, empty node */
	/* truncated, no reason, policy=x, no new=, a writer without exe= */
	assert_int_equal(a.malformed, 5);
	assert_int_equal(a.not_denial, 1); /* res=1 */
	assert_int_equal(a.nchanges, 0);
	ap_agg_free(&a);
	free(d);
}

/* A 1350 record arrives alone (no syscall rule, or via audisp-remote): it
 * must count once it is aged out, without any EOE and without EOF.
 */
static void test_counted_without_eoe(void **s)
{
	static const char rec[] =
		"type=UNKNOWN[1350] msg=audit(1000.000:7): usage=execution policy=1 "
		"reason=noexec_mount dev=00:2b ino=5 mode=0100755 ouid=0 ogid=0 "
		"path=\"/dev/shm/x\" ppid=1 pid=9 auid=4294967295 uid=0 gid=0 euid=0 suid=0 "
		"fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=4294967295 comm=\"sh\" exe=\"/bin/dash\" "
		"res=0\n";
	struct ap_agg a;
	struct ap_feed f;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 16), 0);
	assert_int_equal(ap_feed_init(&f, &a, NULL, 0), 0);
	ap_feed_bytes(&f, rec, sizeof(rec) - 1);
	/* The event is 1000 s old by the wall clock: aging completes it. */
	ap_feed_age(&f);
	assert_int_equal(a.denials, 1);
	assert_int_equal(HITS(&a, AP_DIM_USER, "0"), 1);
	assert_int_equal(HITS(&a, AP_DIM_AUID, "-1"), 1); /* unset auid */
	ap_feed_flush(&f);
	assert_int_equal(a.denials, 1); /* not counted twice */
	ap_feed_free(&f);
	ap_agg_free(&a);
}

/* One EOE-less 1350 record at second @sec, serial @serial. */
static void feed_lone(struct ap_feed *f, long sec, int serial)
{
	char line[512];
	int n = snprintf(line, sizeof(line),
			 "type=UNKNOWN[1350] msg=audit(%ld.000:%d): usage=execution policy=1 "
			 "reason=noexec_mount dev=00:2b ino=5 mode=0100755 ouid=0 ogid=0 "
			 "path=\"/dev/shm/x\" ppid=1 pid=9 auid=0 uid=0 gid=0 euid=0 suid=0 "
			 "fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm=\"sh\" "
			 "exe=\"/bin/dash\" res=0\n", sec, serial);

	ap_feed_bytes(f, line, (size_t)n);
}

/* A record from the year 292 million: counted, its time saturated, no overflow. */
static void test_huge_timestamp(void **s)
{
	struct ap_agg a;
	struct ap_feed f;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 16), 0);
	assert_int_equal(ap_feed_init(&f, &a, NULL, 1), 0);
	feed_lone(&f, 9300000000000000L, 1); /* * 1000 overflows */
	feed_lone(&f, 9223372036854L, 2);
	ap_feed_flush(&f);
	assert_int_equal(a.denials, 2);
	assert_true(a.last == INT64_MAX);
	assert_true(a.first == 9223372036854L * 1000);
	ap_feed_free(&f);
	ap_agg_free(&a);
}

/*
 * The plugin's eoe_timeout reaches libauparse although auparse_init() resets
 * it from auditd.conf: a record @timeout seconds younger completes an event,
 * one second less does not. Two timeouts, so that auditd.conf's value (a
 * single number) cannot satisfy both.
 */
static void test_eoe_timeout_applied(void **s)
{
	static const unsigned int timeouts[] = { 1, 7 };
	struct ap_agg a;
	struct ap_feed f;

	(void)s;
	for (size_t i = 0; i < sizeof(timeouts) / sizeof(timeouts[0]); i++) {
		long t = (long)timeouts[i];

		assert_int_equal(ap_agg_init(&a, 16), 0);
		assert_int_equal(ap_feed_init(&f, &a, NULL, timeouts[i]), 0);
		feed_lone(&f, 3000, 1);
		feed_lone(&f, 3000 + t - 1, 2);
		assert_int_equal(a.denials, 0); /* still within the timeout */
		feed_lone(&f, 3000 + t, 3);
		assert_int_equal(a.denials, t == 1 ? 2 : 1); /* at t = 1, serial 2 is 1 s old too */
		ap_feed_flush(&f);
		assert_int_equal(a.denials, 3);
		ap_feed_free(&f);
		ap_agg_free(&a);
	}
}

/*
 * A dense flood (every record in the same second, beyond TF_PENDING_MAX
 * pending), half of the 1350 records inside SYSCALL/PATH/EOE events (a
 * syscall rule on trusted_for): each record
 * counts exactly once although the feed is flushed early (feed.h).
 */
static void test_dense_flood_exact(void **s)
{
	enum { N = 5000 };
	struct ap_agg a;
	struct ap_feed f;
	char line[1024];

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	assert_int_equal(ap_feed_init(&f, &a, NULL, 0), 0);
	for (int i = 0; i < N; i++) {
		int n = snprintf(line, sizeof(line),
				 "type=UNKNOWN[1350] msg=audit(2000000000.%03d:%d): usage=execution "
				 "policy=1 reason=noexec_mount dev=00:2b ino=%d mode=0100644 "
				 "ouid=0 ogid=0 path=\"/tmp/f%d\" ppid=1 pid=9 auid=0 uid=0 gid=0 "
				 "euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 "
				 "comm=\"sh\" exe=\"/bin/dash\" subj=unconfined res=0\n", i % 1000,
				 i + 1, i, i % 10);

		ap_feed_bytes(&f, line, (size_t)n);
		if (i % 2) {
			n = snprintf(line, sizeof(line),
				     "type=SYSCALL msg=audit(2000000000.%03d:%d): arch=c000003e "
				     "syscall=451 success=no exit=-13 items=1\n"
				     "type=PATH msg=audit(2000000000.%03d:%d): item=0 name=(null) "
				     "inode=%d dev=00:2b mode=0100644 ouid=0 ogid=0 rdev=00:00 "
				     "nametype=NORMAL\n"
				     "type=EOE msg=audit(2000000000.%03d:%d): \n",
				     i % 1000, i + 1, i % 1000, i + 1, i, i % 1000, i + 1);
			ap_feed_bytes(&f, line, (size_t)n);
		}
	}
	ap_feed_flush(&f);
	assert_int_equal(a.denials, N);
	assert_int_equal(a.dim[AP_DIM_FILE].n, 10);
	for (int k = 0; k < 10; k++) {
		char p[16];

		snprintf(p, sizeof(p), "/tmp/f%d", k);
		assert_int_equal(hits(&a, AP_DIM_FILE, p, strlen(p)), N / 10);
	}
	assert_int_equal(a.malformed, 0);
	assert_int_equal(a.bad_lines, 0);
	ap_feed_free(&f);
	ap_agg_free(&a);
}

static void test_overlong_line(void **s)
{
	struct ap_agg a;
	struct ap_feed f;
	size_t n = TF_LINE_MAX + 100;
	char *big = malloc(n + 1);

	(void)s;
	assert_non_null(big);
	memset(big, 'A', n);
	memcpy(big, "type=UNKNOWN[1350] msg=audit(1.0:1): ", 37);
	big[n] = '\n';
	assert_int_equal(ap_agg_init(&a, 16), 0);
	assert_int_equal(ap_feed_init(&f, &a, NULL, 0), 0);
	ap_feed_bytes(&f, big, n + 1);
	ap_feed_bytes(&f, "no newline at the end", 21);
	ap_feed_flush(&f);
	assert_int_equal(a.bad_lines, 2);
	assert_int_equal(a.denials, 0);
	ap_feed_free(&f);
	ap_agg_free(&a);
	free(big);
}

/*
 * Records captured from the patched kernel (current layout) under auditd
 * 3.0.9 (ENRICHED) by tests/vm/cases/auditd-denials.sh: every record of the
 * events holding a 1350 or a trust_policy record (SYSCALL, PROCTITLE, and
 * for the batch under a syscall rule CWD and PATH). Expected values counted
 * in the file with grep (tests/data/audit-README.md).
 */
/* A row expected in a table: a comm, or the end of a path, and its hits. */
struct want_row {
	const char *key;
	uint64_t count;
};

#define NWANT(w) (sizeof(w) / sizeof((w)[0]))

/* A captured log fed whole into a fresh @a: @denials, no malformed or stray line. */
static void feed_captured(struct ap_agg *a, const char *name, uint64_t denials)
{
	size_t len;
	char *d = slurp(name, &len);

	assert_int_equal(ap_agg_init(a, 64), 0);
	feed_all(a, d, len, 0, NULL);
	free(d);
	assert_int_equal(a->denials, denials);
	assert_int_equal(a->malformed, 0);
	assert_int_equal(a->bad_lines, 0);
	assert_int_equal(a->not_denial, 0);
}

/* The trusted_for interpreter rows are exactly @w, by comm. */
static void want_comms(const struct ap_agg *a, const struct want_row *w, size_t n)
{
	const struct ap_ss_table *t = &a->dim[AP_DIM_INTERP];

	assert_int_equal(t->n, n);
	for (uint32_t i = 0; i < t->n; i++) {
		size_t k = 0;

		while (k < n && strcmp(t->rows[i].note, w[k].key))
			k++;
		if (k == n)
			fail_msg("unexpected comm %s", t->rows[i].note);
		assert_int_equal(t->rows[i].count, w[k].count);
	}
}

/* Each of @w ends the path of one trusted_for file row, with its count. */
static void want_file_ends(const struct ap_agg *a, const struct want_row *w, size_t n)
{
	const struct ap_ss_table *t = &a->dim[AP_DIM_FILE];
	size_t found = 0;

	for (uint32_t i = 0; i < t->n; i++) {
		const struct ap_ss_row *r = &t->rows[i];

		for (size_t k = 0; k < n; k++) {
			size_t sl = strlen(w[k].key);

			if (r->klen >= sl && !memcmp(r->key + r->klen - sl, w[k].key, sl)) {
				assert_int_equal(r->count, w[k].count);
				found++;
				break;
			}
		}
	}
	assert_int_equal(found, n);
}

/* The hostile file names of the captured logs (tests/data/audit-README.md). */
static const struct want_row captured_files[] = {
	{ "/noexec/evil\n\x1b[31mred.py", 12 },
	{ "/noexec/bad\xff\xfe.pl", 15 },
	{ "/noexec/has space \xc3\xbc.lua", 13 },
	{ "/secret.py", 3 },
};

/* Their interpreters, comm "lua\tx" hex-encoded in the log. */
static const struct want_row captured_comms[] = {
	{ "python3", 12 }, { "perl", 15 }, { "lua\tx", 13 }, { "ruby", 3 },
};

static void test_vm_captured(void **s)
{
	static const struct {
		int old, new, res;
		long pid;
		const char *comm, *exe_tail;
	} want[] = {
		{ 0, 3, 1, 61, "auditd-denials.", "/usr/bin/dash" },
		{ 3, 7, 0, 61, "auditd-denials.", "/usr/bin/dash" }, /* refused, as written */
		/* the hostile writer: ESC and U+202E in comm and exe (hex in the log) */
		{ 3, 0, 1, 125, "pol\x1b[7mset\xe2\x80\xaex", "/bin/pol\x1b[7mset\xe2\x80\xaex" },
		{ 0, 1, 1, 61, "auditd-denials.", "/usr/bin/dash" },
		{ 1, 2, 1, 61, "auditd-denials.", "/usr/bin/dash" },
		{ 2, 3, 1, 61, "auditd-denials.", "/usr/bin/dash" },
	};
	struct ap_agg a;

	(void)s;
	feed_captured(&a, "audit-vm-captured.log", 43);
	want_comms(&a, captured_comms, NWANT(captured_comms));
	want_file_ends(&a, captured_files, NWANT(captured_files));
	assert_int_equal(HITS(&a, AP_DIM_REASON, "noexec_mount"), 40);
	assert_int_equal(HITS(&a, AP_DIM_REASON, "file_perm"), 3); /* policy 2, not 0 or 1 */
	assert_int_equal(HITS(&a, AP_DIM_AUID, "-1"), 43);
	/* the chain of writes, each with its writer */
	assert_int_equal(a.nchanges, 6);
	for (size_t i = 0; i < 6; i++) {
		const struct ap_policy_change *c = &a.changes[i].c;
		size_t el = strlen(c->exe), tl = strlen(want[i].exe_tail);

		assert_int_equal(c->old_policy, want[i].old);
		assert_int_equal(c->new_policy, want[i].new);
		assert_int_equal(c->res, want[i].res);
		assert_true(c->writer);
		assert_int_equal(c->pid, want[i].pid);
		assert_int_equal(c->uid, 0);
		assert_int_equal(c->auid, -1);
		assert_string_equal(c->comm, want[i].comm);
		assert_true(el >= tl && !strcmp(c->exe + el - tl, want[i].exe_tail));
		if (i)
			assert_int_equal(c->old_policy, a.changes[i - 1].c.res ?
					 a.changes[i - 1].c.new_policy : a.changes[i - 1].c.old_policy);
	}
	ap_agg_free(&a);
}

/*
 * Records captured from the previous build of the patched kernel (res= after
 * reason=, CONFIG_CHANGE without the writer) under auditd 3.0.9 (ENRICHED):
 * logs outlive kernels, so they must still count.
 */
static void test_vm_captured_prev(void **s)
{
	struct ap_agg a;

	(void)s;
	feed_captured(&a, "audit-vm-captured-prev.log", 40);
	want_comms(&a, captured_comms, 3);
	want_file_ends(&a, captured_files, 3);
	assert_int_equal(HITS(&a, AP_DIM_REASON, "noexec_mount"), 40);
	assert_int_equal(HITS(&a, AP_DIM_AUID, "-1"), 40);
	assert_int_equal(a.nchanges, 2);
	assert_int_equal(a.changes[0].c.old_policy, 0);
	assert_int_equal(a.changes[0].c.new_policy, 3);
	assert_int_equal(a.changes[0].c.res, 1);
	assert_int_equal(a.changes[1].c.old_policy, 3);
	assert_int_equal(a.changes[1].c.new_policy, 7); /* refused, logged as written */
	assert_int_equal(a.changes[1].c.res, 0);
	/* That kernel did not name the writer: unknown, not made up. */
	for (int i = 0; i < 2; i++) {
		assert_false(a.changes[i].c.writer);
		assert_int_equal(a.changes[i].c.pid, -1);
		assert_int_equal(a.changes[i].c.uid, -1);
		assert_null(a.changes[i].c.comm);
		assert_null(a.changes[i].c.exe);
	}
	ap_agg_free(&a);
}

/* Feed @text (NUL-terminated) whole into a fresh @a. */
static void feed_text(struct ap_agg *a, const char *text)
{
	assert_int_equal(ap_agg_init(a, 16), 0);
	feed_all(a, text, strlen(text), 0, NULL);
}

/*
 * One refusal and one policy write, each in three layouts: the previous
 * kernel's, the current one's (res= last, subj=, the writer's task fields)
 * and the current one's fields shuffled. Fields are taken by name: every
 * layout gives the same denial and the same change; only the previous
 * layout leaves the writer unknown.
 */
#define DENIAL_PREV "type=UNKNOWN[1350] msg=audit(1764748800.250:70): usage=execution " \
	"policy=2 reason=file_perm res=0 dev=08:01 ino=77 mode=0100644 ouid=1000 ogid=1000 " \
	"path=2F686F6D652F612062 ppid=1 pid=55 auid=1000 uid=1001 gid=1001 euid=1001 " \
	"suid=1001 fsuid=1001 egid=1001 sgid=1001 fsgid=1001 tty=pts1 ses=4 comm=\"perl\" " \
	"exe=\"/usr/bin/perl\"\n"
#define DENIAL_NEW "type=UNKNOWN[1350] msg=audit(1764748800.250:70): usage=execution " \
	"policy=2 reason=file_perm dev=08:01 ino=77 mode=0100644 ouid=1000 ogid=1000 " \
	"path=2F686F6D652F612062 ppid=1 pid=55 auid=1000 uid=1001 gid=1001 euid=1001 " \
	"suid=1001 fsuid=1001 egid=1001 sgid=1001 fsgid=1001 tty=pts1 ses=4 comm=\"perl\" " \
	"exe=\"/usr/bin/perl\" subj=unconfined res=0\n"
#define DENIAL_SHUFFLED "type=UNKNOWN[1350] msg=audit(1764748800.250:70): res=0 " \
	"exe=\"/usr/bin/perl\" comm=\"perl\" subj=unconfined path=2F686F6D652F612062 " \
	"auid=1000 uid=1001 reason=file_perm policy=2 usage=execution ino=77 dev=08:01 " \
	"mode=0100644\n"
#define CHANGE_PREV "type=CONFIG_CHANGE msg=audit(1764748801.000:71): op=trust_policy " \
	"old=2 new=3 auid=1000 ses=4 res=1\n"
#define CHANGE_NEW "type=CONFIG_CHANGE msg=audit(1764748801.000:71): op=trust_policy " \
	"old=2 new=3 ppid=50 pid=60 auid=1000 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 " \
	"sgid=0 fsgid=0 tty=pts1 ses=4 comm=7365740A706F6C exe=2F7573722F7362696E2F2273" \
	"797363746C22 subj=unconfined res=1\n"
#define CHANGE_SHUFFLED "type=CONFIG_CHANGE msg=audit(1764748801.000:71): res=1 " \
	"exe=2F7573722F7362696E2F2273797363746C22 comm=7365740A706F6C uid=0 pid=60 ses=4 " \
	"auid=1000 new=3 old=2 op=trust_policy\n"

static void check_layout(const struct ap_agg *a, bool writer)
{
	const struct ap_ss_row *r;

	assert_int_equal(a->denials, 1);
	assert_int_equal(a->malformed, 0);
	assert_int_equal(a->not_denial, 0);
	assert_int_equal(HITS(a, AP_DIM_FILE, "/home/a b"), 1);
	assert_int_equal(HITS(a, AP_DIM_REASON, "file_perm"), 1);
	assert_int_equal(HITS(a, AP_DIM_MOUNT, "08:01"), 1);
	assert_int_equal(HITS(a, AP_DIM_USER, "1001"), 1);
	assert_int_equal(HITS(a, AP_DIM_AUID, "1000"), 1);
	r = ap_ss_find(&a->dim[AP_DIM_INTERP], "/usr/bin/perl", 13);
	assert_non_null(r);
	assert_string_equal(r->note, "perl");
	assert_int_equal(a->first, 1764748800250LL);
	assert_int_equal(a->nchanges, 1);
	assert_int_equal(a->changes[0].c.old_policy, 2);
	assert_int_equal(a->changes[0].c.new_policy, 3);
	assert_int_equal(a->changes[0].c.auid, 1000);
	assert_int_equal(a->changes[0].c.ses, 4);
	assert_int_equal(a->changes[0].c.res, 1);
	assert_int_equal(a->changes[0].c.writer, writer);
	if (!writer) {
		assert_int_equal(a->changes[0].c.pid, -1);
		assert_null(a->changes[0].c.comm);
		return;
	}
	assert_int_equal(a->changes[0].c.pid, 60);
	assert_int_equal(a->changes[0].c.uid, 0);
	assert_string_equal(a->changes[0].c.comm, "set\npol");
	assert_string_equal(a->changes[0].c.exe, "/usr/sbin/\"sysctl\"");
}

static void test_both_layouts(void **s)
{
	struct ap_agg a;

	(void)s;
	feed_text(&a, DENIAL_PREV CHANGE_PREV);
	check_layout(&a, false);
	ap_agg_free(&a);
	feed_text(&a, DENIAL_NEW CHANGE_NEW);
	check_layout(&a, true);
	ap_agg_free(&a);
	feed_text(&a, DENIAL_SHUFFLED CHANGE_SHUFFLED);
	check_layout(&a, true);
	ap_agg_free(&a);
}

/* A log spanning the kernel upgrade: both layouts in one input. */
static void test_mixed_layouts(void **s)
{
	struct ap_agg a;

	(void)s;
	feed_text(&a, CHANGE_PREV DENIAL_PREV
		  "type=CONFIG_CHANGE msg=audit(1764748900.000:2): op=trust_policy old=0 new=2 "
		  "ppid=1 pid=61 auid=4294967295 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 "
		  "sgid=0 fsgid=0 tty=(none) ses=4294967295 comm=\"sh\" exe=\"/usr/bin/dash\" "
		  "res=1\n" DENIAL_NEW);
	assert_int_equal(a.denials, 2);
	assert_int_equal(a.malformed, 0);
	assert_int_equal(a.nchanges, 2);
	assert_false(a.changes[0].c.writer);
	assert_true(a.changes[1].c.writer);
	assert_int_equal(a.changes[1].c.pid, 61);
	assert_int_equal(a.changes[1].c.auid, -1);
	assert_string_equal(a.changes[1].c.exe, "/usr/bin/dash");
	ap_agg_free(&a);
}

/*
 * Issue 11: api= and secbits= after res=. An execve_check refusal has
 * policy=?, is enforced when secbits holds 0x100 (SECBIT_EXEC_RESTRICT_FILE)
 * and observed otherwise; a record without api= is trusted_for. Malformed:
 * an unknown api, execve_check with a number as policy, or without secbits,
 * trusted_for with policy=?, secbits that is not a number.
 */
#define EC_REC(serial, policy, reason, tail)                                              \
	"type=UNKNOWN[1350] msg=audit(1764749000.000:" #serial "): usage=execution "      \
	"policy=" policy " reason=" reason " dev=00:1a ino=9 mode=0100644 ouid=0 ogid=0 " \
	"path=\"/tmp/e.py\" ppid=1 pid=70 auid=1000 uid=1000 gid=1000 euid=1000 "        \
	"suid=1000 fsuid=1000 egid=1000 sgid=1000 fsgid=1000 tty=(none) ses=2 "          \
	"comm=\"python3\" exe=\"/usr/bin/python3.11\" subj=unconfined res=0" tail "\n"

static void test_api_split(void **s)
{
	struct ap_agg a;
	const struct ap_ss_row *r;

	(void)s;
	feed_text(&a,
		  EC_REC(1, "?", "file_perm", " api=execve_check secbits=0x100")
		  EC_REC(2, "?", "write_busy", " api=execve_check secbits=0x500")
		  EC_REC(3, "?", "lsm", " api=execve_check secbits=0x0")
		  EC_REC(4, "?", "noexec_mount", " api=execve_check secbits=0x400")
		  EC_REC(5, "?", "not_regular", " api=execve_check secbits=0x200")
		  EC_REC(14, "?", "pseudo_fs", " api=execve_check secbits=0x300")
		  EC_REC(6, "3", "file_perm", " api=trusted_for secbits=0x100")
		  EC_REC(7, "2", "file_perm", "")
		  /* malformed: */
		  EC_REC(8, "?", "file_perm", " api=execveat secbits=0x0")
		  EC_REC(9, "3", "file_perm", " api=execve_check secbits=0x0")
		  EC_REC(10, "?", "file_perm", " api=execve_check")
		  EC_REC(11, "?", "file_perm", " api=trusted_for secbits=0x0")
		  EC_REC(12, "?", "file_perm", "")
		  EC_REC(13, "?", "file_perm", " api=execve_check secbits=lots"));
	assert_int_equal(a.denials, 8);
	assert_int_equal(a.malformed, 6);
	assert_int_equal(ap_agg_table(&a, AP_API_TRUSTED_FOR, AP_DIM_INTERP)->total, 2);
	/* 0x100, 0x500, 0x300 hold SECBIT_EXEC_RESTRICT_FILE; 0x0, 0x400, 0x200 do not */
	assert_int_equal(ap_agg_table(&a, AP_API_EC_ENFORCED, AP_DIM_INTERP)->total, 3);
	assert_int_equal(ap_agg_table(&a, AP_API_EC_OBSERVED, AP_DIM_INTERP)->total, 3);
	r = ap_ss_find(ap_agg_table(&a, AP_API_EC_ENFORCED, AP_DIM_REASON), "write_busy", 10);
	assert_non_null(r);
	assert_int_equal(r->count, 1);
	r = ap_ss_find(ap_agg_table(&a, AP_API_EC_OBSERVED, AP_DIM_REASON), "lsm", 3);
	assert_non_null(r);
	assert_int_equal(r->count, 1);
	assert_int_equal(HITS(&a, AP_DIM_REASON, "file_perm"), 2);
	assert_int_equal(a.api_first[AP_API_EC_OBSERVED], 1764749000000LL);
	ap_agg_free(&a);
}

/*
 * Issue 23: enforced= (after secbits=) is the kernel's word on whether the
 * caller enforced: SECBIT_EXEC_DENY_INTERACTIVE alone (0x400) is enforced for
 * a check of stdin (enforced=1) and observed for any other (enforced=0);
 * enforced=0 with 0x100 cannot come from the rule but is taken as written.
 * A record without it falls back to 0x100 alone. Malformed: another value.
 */
static void test_enforced_field(void **s)
{
	struct ap_agg a;

	(void)s;
	feed_text(&a,
		  EC_REC(1, "?", "file_perm", " api=execve_check secbits=0x400 enforced=1")
		  EC_REC(2, "?", "file_perm", " api=execve_check secbits=0x400 enforced=0")
		  EC_REC(3, "?", "file_perm", " api=execve_check secbits=0x100 enforced=1")
		  EC_REC(4, "?", "lsm", " api=execve_check secbits=0x100 enforced=0")
		  EC_REC(5, "?", "file_perm", " api=execve_check secbits=0x400")
		  EC_REC(6, "?", "write_busy", " api=execve_check secbits=0x500")
		  /* malformed: */
		  EC_REC(7, "?", "file_perm", " api=execve_check secbits=0x400 enforced=yes")
		  EC_REC(8, "?", "file_perm", " api=execve_check secbits=0x400 enforced=true")
		  EC_REC(9, "?", "file_perm", " api=execve_check secbits=0x100 enforced=2"));
	assert_int_equal(a.denials, 6);
	assert_int_equal(a.malformed, 3);
	/* enforced: 1, 3 (enforced=1), 6 (0x500 without the field) */
	assert_int_equal(ap_agg_table(&a, AP_API_EC_ENFORCED, AP_DIM_INTERP)->total, 3);
	/* observed: 2, 4 (enforced=0), 5 (0x400 without the field) */
	assert_int_equal(ap_agg_table(&a, AP_API_EC_OBSERVED, AP_DIM_INTERP)->total, 3);
	assert_non_null(ap_ss_find(ap_agg_table(&a, AP_API_EC_OBSERVED, AP_DIM_REASON), "lsm", 3));
	assert_non_null(ap_ss_find(ap_agg_table(&a, AP_API_EC_ENFORCED, AP_DIM_REASON),
				   "write_busy", 10));
	ap_agg_free(&a);
}

/* The fixture of the new layout (tests/data/audit-README.md), counted by hand. */
static void test_execve_check_fixture(void **s)
{
	struct ap_agg a;
	size_t len;
	char *d = slurp("audit-execve-check.log", &len);
	static const char *const enforced[] = { "noexec_mount", "file_perm", "not_regular" };
	static const char *const observed[] = { "pseudo_fs", "write_busy", "lsm", "file_perm" };

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	feed_all(&a, d, len, 7, NULL);
	assert_int_equal(a.denials, 9);
	assert_int_equal(a.malformed, 3);
	assert_int_equal(ap_agg_table(&a, AP_API_TRUSTED_FOR, AP_DIM_REASON)->total, 2);
	assert_int_equal(ap_agg_table(&a, AP_API_EC_ENFORCED, AP_DIM_REASON)->total, 3);
	assert_int_equal(ap_agg_table(&a, AP_API_EC_OBSERVED, AP_DIM_REASON)->total, 4);
	for (size_t i = 0; i < 3; i++)
		assert_non_null(ap_ss_find(ap_agg_table(&a, AP_API_EC_ENFORCED, AP_DIM_REASON),
					enforced[i], strlen(enforced[i])));
	for (size_t i = 0; i < 4; i++)
		assert_non_null(ap_ss_find(ap_agg_table(&a, AP_API_EC_OBSERVED, AP_DIM_REASON),
					observed[i], strlen(observed[i])));
	assert_non_null(ap_ss_find(ap_agg_table(&a, AP_API_EC_OBSERVED, AP_DIM_INTERP),
				"/usr/local/bin/trusted-dash", 27));
	ap_agg_free(&a);
	free(d);
}

/*
 * Real records of the issue-11 kernel (tests/data/audit-README.md): the
 * counts are the VM case's workload (tests/vm/cases/auditd-denials.sh, its
 * probes' own counts), not the plugin's. The kernel writes api= and
 * secbits= before res=; fields are taken by name, so both orders count.
 */
static void test_vm_captured_ec(void **s)
{
	static const struct {
		enum ap_api_class c;
		const char *reason;
		uint64_t n;
	} want[] = {
		{ AP_API_TRUSTED_FOR, "noexec_mount", 40 }, /* python3 12, perl 15, lua 13 */
		{ AP_API_TRUSTED_FOR, "file_perm", 3 },	    /* ruby under policy 2 */
		{ AP_API_EC_OBSERVED, "file_perm", 5 },
		{ AP_API_EC_OBSERVED, "noexec_mount", 3 },
		{ AP_API_EC_OBSERVED, "not_regular", 2 },
		{ AP_API_EC_OBSERVED, "write_busy", 4 },
		{ AP_API_EC_ENFORCED, "file_perm", 6 },
		{ AP_API_EC_ENFORCED, "write_busy", 2 },
	};
	struct ap_agg a;

	(void)s;
	feed_captured(&a, "audit-vm-captured-ec.log", 65);
	assert_int_equal(a.nchanges, 6);
	assert_int_equal(ap_agg_table(&a, AP_API_TRUSTED_FOR, AP_DIM_REASON)->total, 43);
	assert_int_equal(ap_agg_table(&a, AP_API_EC_OBSERVED, AP_DIM_REASON)->total, 14);
	assert_int_equal(ap_agg_table(&a, AP_API_EC_ENFORCED, AP_DIM_REASON)->total, 8);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct ap_ss_row *r = ap_ss_find(ap_agg_table(&a, want[i].c, AP_DIM_REASON),
						       want[i].reason, strlen(want[i].reason));

		assert_non_null(r);
		assert_int_equal(r->count, want[i].n);
	}
	/* one interpreter for every execve_check refusal */
	assert_int_equal(ap_agg_table(&a, AP_API_EC_OBSERVED, AP_DIM_INTERP)->n, 1);
	assert_int_equal(ap_agg_table(&a, AP_API_EC_ENFORCED, AP_DIM_INTERP)->n, 1);
	ap_agg_free(&a);
}

/* Hits of @key in dimension @d of class @c (0 when no row). */
static uint64_t class_hits(const struct ap_agg *a, enum ap_api_class c, enum ap_dim d,
			   const char *key)
{
	const struct ap_ss_row *r = ap_ss_find(ap_agg_ctable(a, c, d), key, strlen(key));

	return r ? r->count : 0;
}

/* Hits of @key in dimension @d over every class. */
static uint64_t all_hits(const struct ap_agg *a, enum ap_dim d, const char *key)
{
	uint64_t n = 0;

	for (int c = 0; c < AP_API_CLASSES; c++)
		n += class_hits(a, c, d, key);
	return n;
}

/*
 * check_error (0x40): the kernel refused a file it could not check (the
 * filesystem's permission or open method failed: EIO, ESTALE...), in either
 * interface. Counted under that name in its class, as any reason; a list
 * written in another order is counted in the bit order, and the longest
 * list (all seven names, 71 bytes) whole.
 */
#define ALL_REASONS "noexec_mount,file_perm,not_regular,pseudo_fs,write_busy,lsm,check_error"

static void test_check_error_reason(void **s)
{
	struct ap_agg a;

	(void)s;
	feed_text(&a,
		  EC_REC(1, "?", "check_error", " api=execve_check secbits=0x100 enforced=1")
		  EC_REC(2, "?", "check_error", " api=execve_check secbits=0x0 enforced=0")
		  EC_REC(3, "3", "check_error", " api=trusted_for secbits=0x0 enforced=?")
		  EC_REC(4, "3", "check_error,noexec_mount", " api=trusted_for secbits=0x0 enforced=?")
		  EC_REC(5, "?", ALL_REASONS, " api=execve_check secbits=0x500 enforced=1"));
	assert_int_equal(a.denials, 5);
	assert_int_equal(a.malformed, 0);
	assert_int_equal(class_hits(&a, AP_API_EC_ENFORCED, AP_DIM_REASON, "check_error"), 1);
	assert_int_equal(class_hits(&a, AP_API_EC_OBSERVED, AP_DIM_REASON, "check_error"), 1);
	assert_int_equal(class_hits(&a, AP_API_TRUSTED_FOR, AP_DIM_REASON, "check_error"), 1);
	assert_int_equal(class_hits(&a, AP_API_TRUSTED_FOR, AP_DIM_REASON,
				    "noexec_mount,check_error"), 1);
	assert_int_equal(all_hits(&a, AP_DIM_REASON, "check_error,noexec_mount"), 0);
	assert_int_equal(class_hits(&a, AP_API_EC_ENFORCED, AP_DIM_REASON, ALL_REASONS), 1);
	assert_int_equal(all_hits(&a, AP_DIM_REASON, "check_error"), 3);
	ap_agg_free(&a);
}

/*
 * trustfor-relay's type 2650 records beside the kernel's 1350 ones
 * (auditd-plugin/tests/data/README.md; every count below by hand from the
 * fixture's records R1..R9, K1..K3, L1, L2, M1..M5). The relay's fields
 * come after the sender's (uid=0 auid=4294967295): only the relay's count.
 */
static void check_relay_fixture(const struct ap_agg *a)
{
	static const struct {
		enum ap_api_class c;
		enum ap_dim d;
		const char *key;
		uint64_t n;
	} want[] = {
		{ AP_API_TRUSTED_FOR, AP_DIM_REASON, "noexec_mount", 1 },	  /* K1 */
		{ AP_API_EC_ENFORCED, AP_DIM_REASON, "file_perm", 2 },	  /* R1 K2 */
		{ AP_API_EC_ENFORCED, AP_DIM_REASON, "unknown", 1 },		  /* R4 */
		{ AP_API_EC_ENFORCED, AP_DIM_REASON, "write_busy", 1 },	  /* R6 */
		{ AP_API_EC_ENFORCED, AP_DIM_REASON, "noexec_mount,file_perm", 1 }, /* R9 */
		{ AP_API_EC_OBSERVED, AP_DIM_REASON, "noexec_mount", 2 },	  /* R2 R3 */
		{ AP_API_EC_OBSERVED, AP_DIM_REASON, "unknown", 2 },		  /* R5 R7 */
		{ AP_API_EC_OBSERVED, AP_DIM_REASON, "lsm", 1 },		  /* R8 */
		{ AP_API_EC_OBSERVED, AP_DIM_REASON, "write_busy", 1 },	  /* K3 */
		{ AP_API_TRUSTED_FOR, AP_DIM_INTERP, "/usr/bin/python3.11", 1 },
		{ AP_API_EC_ENFORCED, AP_DIM_INTERP, "/usr/local/bin/trusted-dash", 4 },
		{ AP_API_EC_ENFORCED, AP_DIM_INTERP, "/usr/bin/perl", 1 },
		{ AP_API_EC_OBSERVED, AP_DIM_INTERP, "/usr/bin/python3.11", 4 },
		{ AP_API_EC_OBSERVED, AP_DIM_INTERP, "/usr/local/bin/trusted-dash", 2 },
		/* file=name: the name as given, no device; two names, two rows */
		{ AP_API_EC_ENFORCED, AP_DIM_FILE, "/home/u/run.sh", 2 },
		{ AP_API_EC_ENFORCED, AP_DIM_FILE, "/home/u/secret.sh", 1 },
		{ AP_API_EC_OBSERVED, AP_DIM_FILE, "/srv/x/run.py", 1 },
		{ AP_API_EC_OBSERVED, AP_DIM_FILE, "/srv/x/other.py", 1 },
		{ AP_API_EC_OBSERVED, AP_DIM_FILE, "/tmp/noexec/evil\n\x1b[31mx'y.py", 1 },
		{ AP_API_EC_ENFORCED, AP_DIM_MOUNT, "", 1 },
		{ AP_API_EC_OBSERVED, AP_DIM_MOUNT, "", 2 },
		{ AP_API_EC_OBSERVED, AP_DIM_MOUNT, "00:1a", 2 },
	};

	assert_int_equal(a->denials, 12);
	assert_int_equal(a->malformed, 5);
	assert_int_equal(a->not_denial, 0);
	assert_int_equal(a->bad_lines, 0);
	assert_int_equal(a->relay_lost, 3 + 2);
	assert_int_equal(a->relay_lost_records, 2);
	assert_int_equal(ap_agg_source(a, AP_API_TRUSTED_FOR, AP_SRC_KERNEL), 1);
	assert_int_equal(ap_agg_source(a, AP_API_TRUSTED_FOR, AP_SRC_RELAY), 0);
	assert_int_equal(ap_agg_source(a, AP_API_EC_ENFORCED, AP_SRC_KERNEL), 1);
	assert_int_equal(ap_agg_source(a, AP_API_EC_ENFORCED, AP_SRC_RELAY), 4);
	assert_int_equal(ap_agg_source(a, AP_API_EC_OBSERVED, AP_SRC_KERNEL), 1);
	assert_int_equal(ap_agg_source(a, AP_API_EC_OBSERVED, AP_SRC_RELAY), 5);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint64_t n = class_hits(a, want[i].c, want[i].d, want[i].key);

		if (n != want[i].n)
			fail_msg("%s %s \"%s\": %llu, want %llu", ap_api_label(want[i].c),
				 ap_dim_name(want[i].d), want[i].key, (unsigned long long)n,
				 (unsigned long long)want[i].n);
	}
	/* the relay's uid and auid, never its sender's (uid=0 auid=4294967295) */
	assert_int_equal(all_hits(a, AP_DIM_USER, "1000"), 11);
	assert_int_equal(all_hits(a, AP_DIM_USER, "1001"), 1);
	assert_int_equal(all_hits(a, AP_DIM_USER, "0"), 0);
	assert_int_equal(all_hits(a, AP_DIM_AUID, "1000"), 11);
	assert_int_equal(all_hits(a, AP_DIM_AUID, "-1"), 1);
	assert_int_equal(all_hits(a, AP_DIM_NODE, "web1"), 1);
	assert_int_equal(all_hits(a, AP_DIM_NODE, ""), 11);
	assert_int_equal(a->first, 1733500000000LL);
	assert_int_equal(a->last, 1733500012000LL);
}

static void test_relay_fixture(void **s)
{
	static const size_t chunks[] = { 0, 1, 7 };
	size_t len;
	char *d = slurp_in(AP_DATA_DIR, "audit-relay.log", &len);

	(void)s;
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		struct ap_agg a;

		assert_int_equal(ap_agg_init(&a, 64), 0);
		feed_all(&a, d, len, chunks[i], NULL);
		check_relay_fixture(&a);
		ap_agg_free(&a);
	}
	free(d);
}

/* --node and --since select the relay's lost records as they do refusals. */
static void test_relay_filter(void **s)
{
	struct ap_filter web1 = { INT64_MIN, INT64_MAX, "web1" };
	/* from L1 (1733500004) to R6 (1733500008): L1, R4, K2, R5, R6 */
	struct ap_filter span = { 1733500004000LL, 1733500008000LL, NULL };
	struct ap_agg a;
	size_t len;
	char *d = slurp_in(AP_DATA_DIR, "audit-relay.log", &len);

	(void)s;
	assert_int_equal(ap_agg_init(&a, 64), 0);
	feed_all(&a, d, len, 0, &web1);
	assert_int_equal(a.denials, 1); /* R9 */
	assert_int_equal(a.relay_lost, 2); /* L2 */
	assert_int_equal(ap_agg_source(&a, AP_API_EC_ENFORCED, AP_SRC_RELAY), 1);
	ap_agg_free(&a);
	assert_int_equal(ap_agg_init(&a, 64), 0);
	feed_all(&a, d, len, 0, &span);
	assert_int_equal(a.denials, 4);
	assert_int_equal(a.relay_lost, 3);
	assert_int_equal(ap_agg_source(&a, AP_API_EC_ENFORCED, AP_SRC_KERNEL), 1); /* K2 */
	assert_int_equal(ap_agg_source(&a, AP_API_EC_ENFORCED, AP_SRC_RELAY), 2);  /* R4 R6 */
	assert_int_equal(ap_agg_source(&a, AP_API_EC_OBSERVED, AP_SRC_RELAY), 1);  /* R5 */
	ap_agg_free(&a);
	free(d);
}

/*
 * libaudit's audit_log_user_message() appends the writer's exe=, hostname=,
 * addr=, terminal= and res= to a user message's text: the first occurrence
 * of a name counts, so the relay's own exe and res=0 are the ones taken.
 */
static void test_relay_appended_fields(void **s)
{
	static const char rec[] =
		"type=UNKNOWN[2650] msg=audit(1733500100.000:1): pid=4242 uid=0 auid=4294967295 "
		"ses=4294967295 msg='usage=execution policy=? reason=file_perm dev=08:01 ino=7 "
		"mode=0100644 ouid=0 ogid=0 path=\"/srv/a.sh\" ppid=1 pid=77 auid=1000 uid=1000 "
		"gid=1000 euid=1000 suid=1000 fsuid=1000 egid=1000 sgid=1000 fsgid=1000 ses=2 "
		"comm=\"trusted-dash\" exe=\"/usr/local/bin/trusted-dash\" res=0 api=execve_check "
		"secbits=0x100 src=relay file=fd exe=\"/usr/sbin/trustfor-relay\" hostname=? addr=? "
		"terminal=? res=failed'\n";
	struct ap_agg a;

	(void)s;
	feed_text(&a, rec);
	assert_int_equal(a.denials, 1);
	assert_int_equal(a.malformed, 0);
	assert_int_equal(class_hits(&a, AP_API_EC_ENFORCED, AP_DIM_INTERP,
				    "/usr/local/bin/trusted-dash"), 1);
	assert_int_equal(ap_agg_source(&a, AP_API_EC_ENFORCED, AP_SRC_RELAY), 1);
	ap_agg_free(&a);
}

static void test_line_shape(void **s)
{
	(void)s;
#define IS_REC(x) ap_line_is_record(x, sizeof(x) - 1)
	assert_true(IS_REC("type=EOE msg=audit(1.2:3): "));
	assert_true(IS_REC("node=a.b type=UNKNOWN[1350] msg=audit(1.002:3): x=1"));
	assert_false(IS_REC(""));
	assert_false(IS_REC("type=EOE msg=audit(1.2): "));
	assert_false(IS_REC("type=EOE msg=audit(x.2:3): "));
	assert_false(IS_REC("node= type=EOE msg=audit(1.2:3): "));
	assert_false(IS_REC("type=EOE msg=audit(1.2:3): \0 hidden"));
	assert_false(IS_REC("----"));
	assert_false(IS_REC("type=\x1d msg=audit(17.0:11):"));
	assert_false(IS_REC("type=A\x1d msg=audit(17.0:11): x=1"));
	assert_false(IS_REC("node=a\x1d type=EOE msg=audit(1.2:3): "));
	assert_false(IS_REC("node=a\tb type=EOE msg=audit(1.2:3): "));
#undef L
}

/*
 * A GS byte in the header is a bad line, never given to libauparse 3.0.9
 * (which would leak the record's field array: LeakSanitizer fails this
 * binary at exit). Found by the fuzzer.
 */
static void test_gs_in_header(void **s)
{
	static const char in[] = "type=\x1d msg=audit(17.0:11):\n"
				 "type=EOE\x1d msg=audit(17.0:12): \n";
	struct ap_agg a;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 16), 0);
	feed_all(&a, in, sizeof(in) - 1, 0, NULL);
	assert_int_equal(a.bad_lines, 2);
	assert_int_equal(a.denials, 0);
	ap_agg_free(&a);
}

/*
 * A CWD record never reaches libauparse 3.0.9, which leaks every cwd= value
 * of a CWD record but the last (LeakSanitizer fails this binary at exit),
 * however its type is spelled (libauparse reads cwd, 1307 and UNKNOWN[1307]
 * as CWD). CWD records count nothing: the event's 1350 record still counts
 * once. Found by the fuzzer.
 */
static void test_cwd_twice(void **s)
{
	static const char in[] =
		"type=CWD msg=audit(17.0:11): cwd=\"/a\" cwd=\"/b\"\n"
		"node=n1 type=CWD msg=audit(17.0:12): cwd=: cwd=\"\n"
		"type=CwD msg=audit(17.0:13): cwd=\"/a\" cwd=\"/b\"\n"
		"type=1307 msg=audit(17.0:14): cwd=\"/a\" cwd=\"/b\"\n"
		"type=UNKNOWN[1307] msg=audit(17.0:15): cwd=\"/a\" cwd=\"/b\"\n"
		"type=00000000000000000000000000000000001307 msg=audit(17.0:16): cwd=\"/a\" "
		"cwd=\"/b\"\n"
		"type=SYSCALL msg=audit(1764748800.250:70): arch=c000003e syscall=451 "
		"success=no exit=-13 items=1\n"
		"type=CWD msg=audit(1764748800.250:70): cwd=\"/x\" cwd=\"/y\"\n" DENIAL_NEW;
	struct ap_agg a;

	(void)s;
	assert_int_equal(ap_agg_init(&a, 16), 0);
	feed_all(&a, in, sizeof(in) - 1, 0, NULL);
	assert_int_equal(a.denials, 1);
	assert_int_equal(a.bad_lines, 0);
	assert_int_equal(a.malformed, 0);
	ap_agg_free(&a);
}

/*
 * The report's offline feed (ap_feed_offline(): only records of type 1350,
 * 2650 or CONFIG_CHANGE reach libauparse, each handed back at once) against
 * the feed that gives libauparse every record: the whole text and JSON
 * reports must be the same, byte for byte, on every fixture and on records whose
 * type libauparse reads as 1350 or CONFIG_CHANGE under other spellings
 * (1350, UNKNOWN[1350x]), CONFIG_CHANGE records that are no policy change,
 * denials inside SYSCALL/CWD/PATH/PROCTITLE/EOE events, node= prefixes,
 * records cut by the read size, and a capacity of 4 rows (eviction: the
 * order in which records are counted shows in the rows).
 */
static char *report_of(const char *data, size_t len, bool offline, size_t chunk, bool json)
{
	struct ap_report_opts ro = { .tables = ~0u, .source = "t" };
	struct ap_agg a;
	struct ap_feed f;
	char *out = NULL;
	size_t outlen = 0;
	FILE *m;

	assert_int_equal(ap_agg_init(&a, 4), 0);
	assert_int_equal(ap_feed_init(&f, &a, NULL, 0), 0);
	if (offline)
		ap_feed_offline(&f);
	if (!chunk)
		chunk = len ? len : 1;
	for (size_t off = 0; off < len; off += chunk)
		ap_feed_bytes(&f, data + off, len - off < chunk ? len - off : chunk);
	ap_feed_flush(&f);
	ap_feed_free(&f);
	m = open_memstream(&out, &outlen);
	assert_non_null(m);
	if (json)
		assert_int_equal(ap_report_json(m, &a, &ro), 0);
	else
		ap_report_text(m, &a, &ro);
	fprintf(m, "bad=%llu malformed=%llu not_denial=%llu\n", (unsigned long long)a.bad_lines,
		(unsigned long long)a.malformed, (unsigned long long)a.not_denial);
	assert_int_equal(fclose(m), 0);
	ap_agg_free(&a);
	return out;
}

static void same_reports(const char *data, size_t len)
{
	static const size_t chunks[] = { 0, 1, 7, 4096 };

	for (int json = 0; json < 2; json++) {
		char *ref = report_of(data, len, false, 0, json);

		for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
			char *got = report_of(data, len, true, chunks[i], json);

			assert_string_equal(got, ref);
			free(got);
		}
		free(ref);
	}
}

static void test_offline_same_report(void **s)
{
	static const char *const fixtures[] = {
		"audit-denials.log", "audit-fleet.log", "audit-malformed.log",
		"audit-vm-captured.log", "audit-vm-captured-prev.log",
	};
	static const char spellings[] =
		"type=SYSCALL msg=audit(1764748800.250:70): arch=c000003e syscall=451 "
		"success=no exit=-13 items=1\n" DENIAL_NEW
		"type=CWD msg=audit(1764748800.250:70): cwd=\"/x\"\n"
		"type=PATH msg=audit(1764748800.250:70): item=0 name=\"/a\" inode=3\n"
		"type=PROCTITLE msg=audit(1764748800.250:70): proctitle=6C73\n"
		"type=EOE msg=audit(1764748800.250:70):\n"
		"type=1350 msg=audit(1764748801.000:71): usage=execution policy=2 "
		"reason=file_perm dev=08:01 ino=78 mode=0100644 ouid=0 ogid=0 path=\"/n1\" "
		"ppid=1 pid=5 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 "
		"tty=(none) ses=1 comm=\"sh\" exe=\"/bin/dash\" res=0\n"
		"node=h2 type=UNKNOWN[1350x] msg=audit(1764748802.000:72): usage=execution "
		"policy=1 reason=noexec_mount dev=00:1a ino=79 mode=0100755 ouid=0 ogid=0 "
		"path=\"/n2\" ppid=1 pid=6 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 "
		"sgid=0 fsgid=0 tty=(none) ses=1 comm=\"sh\" exe=\"/bin/sh\" res=0\n"
		"type=UNKNOWN[1351] msg=audit(1764748802.000:73): usage=execution policy=1 "
		"reason=noexec_mount dev=00:1a ino=80 path=\"/n3\" res=0\n"
		"type=CONFIG_CHANGE msg=audit(1764748803.000:74): auid=1000 ses=3 op=add_rule "
		"key=\"w\" list=4 res=1\n"
		"node=h2 type=1305 msg=audit(1764748804.000:75): op=trust_policy old=1 new=2 "
		"auid=1000 ses=3 res=1\n"
		"type=UNKNOWN[1305] msg=audit(1764748805.000:76): op=trust_policy old=2 new=3 "
		"auid=4294967295 ses=4294967295 res=1\n"
		"type=UNKNOWN[1350] msg=audit(1764748806.000:77): usage=execution policy=1\n"
		"not a record\n";
	size_t len;
	char *d;

	(void)s;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		d = slurp(fixtures[i], &len);
		same_reports(d, len);
		free(d);
	}
	d = slurp_in(AP_DATA_DIR, "audit-relay.log", &len);
	same_reports(d, len);
	free(d);
	same_reports(spellings, sizeof(spellings) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_whole),
		cmocka_unit_test(test_fixture_byte_by_byte),
		cmocka_unit_test(test_fleet_nodes),
		cmocka_unit_test(test_time_filter),
		cmocka_unit_test(test_malformed_counted),
		cmocka_unit_test(test_counted_without_eoe),
		cmocka_unit_test(test_eoe_timeout_applied),
		cmocka_unit_test(test_huge_timestamp),
		cmocka_unit_test(test_dense_flood_exact),
		cmocka_unit_test(test_overlong_line),
		cmocka_unit_test(test_vm_captured),
		cmocka_unit_test(test_vm_captured_prev),
		cmocka_unit_test(test_both_layouts),
		cmocka_unit_test(test_mixed_layouts),
		cmocka_unit_test(test_api_split),
		cmocka_unit_test(test_enforced_field),
		cmocka_unit_test(test_execve_check_fixture),
		cmocka_unit_test(test_vm_captured_ec),
		cmocka_unit_test(test_check_error_reason),
		cmocka_unit_test(test_relay_fixture),
		cmocka_unit_test(test_relay_filter),
		cmocka_unit_test(test_relay_appended_fields),
		cmocka_unit_test(test_line_shape),
		cmocka_unit_test(test_gs_in_header),
		cmocka_unit_test(test_cwd_twice),
		cmocka_unit_test(test_offline_same_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
