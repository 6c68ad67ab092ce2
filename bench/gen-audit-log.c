// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gen-audit-log: writes a synthetic audit.log of trusted_for denials, in the
 * exact layout auditd 3.0.9 (log_format = ENRICHED) writes the patched
 * kernel's records (see tests/data/audit-vm-captured.log):
 *
 *   type=UNKNOWN[1350] msg=audit(SEC.MS:SERIAL): usage=execution policy=3
 *   reason=noexec_mount dev=00:19 ino=2 mode=0100755 ouid=0 ogid=0
 *   path=<untrusted> ppid= pid= auid= uid= gid= euid= suid= fsuid= egid= sgid=
 *   fsgid= tty=(none) ses= comm=<untrusted> exe=<untrusted> subj=unconfined
 *   res=0\x1dOUID="root" ...
 *
 *   type=CONFIG_CHANGE msg=audit(SEC.MS:SERIAL): op=trust_policy old=0 new=3
 *   ppid= pid= auid= uid= gid= euid= suid= fsuid= egid= sgid= fsgid=
 *   tty=(none) ses= comm=<untrusted> exe=<untrusted> subj=unconfined
 *   res=1\x1dAUID="unset" UID="root" ...
 *
 * (the kernel's current layout: res= last, subj= from AppArmor, the writer
 * of a policy change named; records are written only under a non-zero
 * policy, so every denial record has policy 1..3.)
 * Untrusted strings are quoted, or upper-case hex when they hold '"', a byte
 * < 0x21 or > 0x7e (the kernel's audit_log_untrustedstring()).
 * Each record is its own event (no syscall rule matched: no SYSCALL, no EOE).
 *
 * usage: gen-audit-log [-n RECORDS] [-p DISTINCT_PATHS] [-c CONFIG_EVERY]
 *                      [-x HOSTILE_EVERY] [-H NODES] [-r] [-s SEED] [-o FILE]
 *   -n  denial records (type 1350), default 1000000
 *   -p  distinct file paths, used in turn; default = RECORDS (every
 *       record a new path)
 *   -c  one CONFIG_CHANGE op=trust_policy record after every C denials
 *       (default 100000; 0: none); they come on top of the N denials
 *   -x  one path in X is a hostile name (control bytes, space, 0xff, '"'),
 *       hex-encoded by the kernel (default 50; 0: none)
 *   -H  prefix records with node=hostK (K < NODES), as a fleet's aggregating
 *       auditd writes them (default 0: local records, no node=)
 *   -r  RAW log_format (no \x1d-separated interpreted fields)
 *   -m  a realistic mixed log: about M other records (lines) before each
 *       denial, in whole ordinary events (SYSCALL, CWD, PATH, PROCTITLE, EOE
 *       with one serial; now and then a CONFIG_CHANGE op=add_rule record
 *       that is not a policy change); and one denial in 4 is itself inside
 *       a syscall-rule event (SYSCALL, 1350, CWD, PATH, PROCTITLE, EOE).
 *       Default 0: denials and policy changes only. -m 99: 1 % denials.
 *   -e  one execveat(AT_EXECVE_CHECK) refusal after every E trusted_for
 *       denials (default 0: none), in the layout of issue 11: policy=?,
 *       reason one of the seven (write_busy, lsm and check_error included),
 *       and after res=0 api=execve_check secbits=0x..., the securebits drawn
 *       so that some hold SECBIT_EXEC_RESTRICT_FILE (0x100: enforced) and
 *       some not (observed); with -e the trusted_for records carry
 *       api=trusted_for secbits=0x... too, one in two (the rest: an older
 *       kernel's layout)
 *   -s  PRNG seed (default 1); the output is a function of the options
 * A summary line goes to stderr, and with -m a second one: the number of
 * records written that are neither denials nor policy changes. With -e,
 * lines "gen-audit-log: split CLASS REASON COUNT" give the records written
 * per class (trusted_for, execve_check/enforced, execve_check/observed) and
 * reason list, and "gen-audit-log: class CLASS COUNT" the totals.
 *
 * Longer than 400 lines: one generator whose record layouts and counts must
 * agree with each other; it is a bench tool, not part of a product.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng_state;

static uint64_t rnd(void) /* xorshift64* */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static uint64_t mix(uint64_t x) /* splitmix64 finaliser: per-path attributes */
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

struct interp {
	const char *exe;
	const char *comm; /* what the kernel keeps: basename, at most 15 bytes */
};

static const struct interp interps[] = {
	{ "/usr/bin/python3.11", "python3.11" },
	{ "/usr/bin/perl", "perl" },
	{ "/usr/bin/dash", "dash" },
	{ "/usr/local/bin/trusted-python3", "trusted-python3" },
	{ "/usr/bin/ruby3.1", "ruby3.1" },
	{ "/opt/my tools/bin/lua\tx", "lua\tx" }, /* hex-encoded exe and comm */
};
#define NINTERP (sizeof(interps) / sizeof(interps[0]))

struct user {
	unsigned int uid, gid;
	const char *name, *group;
};

static const struct user users[] = {
	{ 0, 0, "root", "root" },
	{ 1000, 1000, "alice", "alice" },
	{ 1001, 1001, "bob", "bob" },
	{ 33, 33, "www-data", "www-data" },
	{ 65534, 65534, "nobody", "nogroup" },
};
#define NUSER (sizeof(users) / sizeof(users[0]))

struct mount {
	const char *dev;
	const char *dir;
};

static const struct mount mounts[] = {
	{ "00:19", "/tmp" }, { "00:1a", "/dev/shm" }, { "08:01", "/home" },
	{ "00:2c", "/srv/uploads" }, { "08:11", "/mnt/usb" },
};
#define NMOUNT (sizeof(mounts) / sizeof(mounts[0]))

/* Who writes fs.trust_policy; the last one with a hostile name (hex-encoded). */
static const struct interp writers[] = {
	{ "/usr/sbin/sysctl", "sysctl" },
	{ "/usr/local/sbin/policyctl", "policyctl" },
	{ "/usr/bin/dash", "sh" },
	{ "/tmp/x/pol\x1b[7mset\xe2\x80\xae", "pol\x1b[7mset\xe2\x80\xae" },
};
#define NWRITER (sizeof(writers) / sizeof(writers[0]))

static const char *const hostile[] = {
	"evil\n\x1b[31mred%" PRIu64 ".py", "bad\xff\xfe%" PRIu64 ".pl",
	"has space \xc3\xbc%" PRIu64 ".lua", "quo\"te%" PRIu64 ".sh",
	"tab\there%" PRIu64 ".rb", "\x7f" "del%" PRIu64 ".sh",
};
#define NHOSTILE (sizeof(hostile) / sizeof(hostile[0]))

static const char *const exts[] = { "py", "pl", "sh", "rb", "lua" };

/* -e: what was written, per class and reason (the tests' expected values) */
static const char *const classes[] = { "trusted_for", "execve_check/enforced",
				       "execve_check/observed" };
#define NCLASS 3
static const char *const ec_reasons[] = { "noexec_mount", "file_perm", "not_regular",
					  "pseudo_fs", "write_busy", "lsm", "check_error" };
#define NECR (sizeof(ec_reasons) / sizeof(ec_reasons[0]))
static const char *const ec_modes[NECR] = { "0100755", "0100644", "0010644",
					    "0100444", "0100755", "0100755", "0100755" };
/* securebits of the callers: 0x100 (RESTRICT_FILE) with or without its lock
 * and DENY_INTERACTIVE, or without it
 */
static const unsigned int ec_secbits[] = { 0x100, 0x300, 0x500, 0xf00, 0x0, 0x200, 0x400, 0xc00, 0x0 };
#define NSECBITS (sizeof(ec_secbits) / sizeof(ec_secbits[0]))

struct split {
	char reason[32];
	int cls;
	uint64_t n;
};
static struct split splits[64];
static size_t nsplits;
static uint64_t class_n[NCLASS];

static void count_split(int cls, const char *reason)
{
	size_t i;

	class_n[cls]++;
	for (i = 0; i < nsplits; i++)
		if (splits[i].cls == cls && !strcmp(splits[i].reason, reason))
			break;
	if (i == nsplits) {
		if (nsplits == sizeof(splits) / sizeof(splits[0]))
			abort();
		nsplits++;
		splits[i].cls = cls;
		snprintf(splits[i].reason, sizeof(splits[i].reason), "%s", reason);
	}
	splits[i].n++;
}

static void untrusted(FILE *f, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p == '"' || *p < 0x21 || *p > 0x7e)
			break;
	if (!*p) {
		fprintf(f, "\"%s\"", s);
		return;
	}
	for (p = (const unsigned char *)s; *p; p++) {
		static const char hx[] = "0123456789ABCDEF";

		putc(hx[*p >> 4], f);
		putc(hx[*p & 15], f);
	}
}

static void name_of(char *buf, size_t size, unsigned int id)
{
	for (size_t i = 0; i < NUSER; i++)
		if (users[i].uid == id) {
			snprintf(buf, size, "%s", users[i].name);
			return;
		}
	snprintf(buf, size, "unknown(%u)", id);
}

/* The hex of an untrusted string, as PROCTITLE always writes it. */
static void hexstr(FILE *f, const char *s)
{
	static const char hx[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		putc(hx[*p >> 4], f);
		putc(hx[*p & 15], f);
	}
}

static const char *const progs[][3] = { /* exe, comm, a file it opens */
	{ "/usr/bin/bash", "bash", "/etc/profile" },
	{ "/usr/sbin/sshd", "sshd", "/etc/ssh/sshd_config" },
	{ "/usr/bin/python3.11", "python3", "/usr/lib/python3.11/os.py" },
	{ "/usr/sbin/cron", "cron", "/etc/crontab" },
	{ "/usr/bin/ls", "ls", "/home/alice" },
};
#define NPROG (sizeof(progs) / sizeof(progs[0]))

/* SYSCALL, CWD, PATH (one or two), PROCTITLE, EOE of serial @serial; with
 * @denial, that record (already written to @den) comes after SYSCALL.
 */
static uint64_t ordinary_event(FILE *f, uint64_t ms, uint64_t serial, uint64_t r,
			       const char *node, bool raw, const char *den)
{
	const char *const *pg = progs[r % NPROG];
	unsigned int syscall = den ? 451 : (r >> 8) & 1 ? 257 : 59;
	unsigned int pid = 300 + (unsigned int)((r >> 16) % 4000000);
	unsigned int uid = (r >> 40) & 1 ? 1000 : 0;
	unsigned int items = den ? 1 : 1 + (unsigned int)((r >> 44) & 1);
	uint64_t lines = 0;
	char ts[64];

	snprintf(ts, sizeof(ts), "msg=audit(%" PRIu64 ".%03u:%" PRIu64 "):", ms / 1000,
		 (unsigned int)(ms % 1000), serial);
	fprintf(f, "%stype=SYSCALL %s arch=c000003e syscall=%u success=%s exit=%s a0=ffffff9c"
		   " a1=7ffc1e2a3b40 a2=80000 a3=0 items=%u ppid=%u pid=%u auid=%u uid=%u gid=%u"
		   " euid=%u suid=%u fsuid=%u egid=%u sgid=%u fsgid=%u tty=pts0 ses=3 comm=",
		node, ts, syscall, den ? "no" : "yes", den ? "-13" : "3", items, pid - 1, pid,
		uid ? uid : 4294967295u, uid, uid, uid, uid, uid, uid, uid, uid);
	untrusted(f, pg[1]);
	fputs(" exe=", f);
	untrusted(f, pg[0]);
	fputs(" subj=unconfined key=(null)", f);
	if (!raw)
		fprintf(f, "\x1d" "ARCH=x86_64 SYSCALL=%s AUID=\"%s\" UID=\"%s\"",
			syscall == 451 ? "trusted_for" : syscall == 257 ? "openat" : "execve",
			uid ? "alice" : "unset", uid ? "alice" : "root");
	putc('\n', f);
	lines++;
	if (den)
		fputs(den, f); /* counted by the caller */
	fprintf(f, "%stype=CWD %s cwd=", node, ts);
	untrusted(f, uid ? "/home/alice" : "/");
	putc('\n', f);
	lines++;
	for (unsigned int i = 0; i < items; i++) {
		fprintf(f, "%stype=PATH %s item=%u name=", node, ts, i);
		untrusted(f, i ? "/lib64/ld-linux-x86-64.so.2" : pg[2]);
		fprintf(f, " inode=%u dev=08:01 mode=0100644 ouid=0 ogid=0 rdev=00:00"
			   " nametype=NORMAL cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0",
			1000 + (unsigned int)((r >> 20) % 100000));
		if (!raw)
			fputs("\x1d" "OUID=\"root\" OGID=\"root\"", f);
		putc('\n', f);
		lines++;
	}
	fprintf(f, "%stype=PROCTITLE %s proctitle=", node, ts);
	hexstr(f, pg[0]);
	putc('\n', f);
	fprintf(f, "%stype=EOE %s\n", node, ts);
	return lines + 2;
}

static uint64_t num(const char *s, const char *opt)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || !*s || *end || *s == '-') {
		fprintf(stderr, "gen-audit-log: bad number for %s: %s\n", opt, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	uint64_t n = 1000000, paths = 0, cfg_every = 100000, hostile_every = 50;
	uint64_t nodes = 0, seed = 1, cfg_records = 0, hex_paths = 0, denials = 0;
	uint64_t mixed = 0, others = 0, ec_every = 0;
	bool raw = false;
	const char *out = NULL;
	int c;
	char bad[8];

	opterr = 0; /* one message of our own, below */
	while ((c = getopt(argc, argv, ":n:p:c:x:H:rs:o:m:e:h")) != -1) {
		switch (c) {
		case 'n':
			n = num(optarg, "-n");
			break;
		case 'p':
			paths = num(optarg, "-p");
			break;
		case 'c':
			cfg_every = num(optarg, "-c");
			break;
		case 'x':
			hostile_every = num(optarg, "-x");
			break;
		case 'H':
			nodes = num(optarg, "-H");
			break;
		case 'r':
			raw = true;
			break;
		case 's':
			seed = num(optarg, "-s");
			break;
		case 'o':
			out = optarg;
			break;
		case 'm':
			mixed = num(optarg, "-m");
			break;
		case 'e':
			ec_every = num(optarg, "-e");
			break;
		case ':':
		case '?':
			/* a short option: optopt is it (any byte: shown as hex) */
			snprintf(bad, sizeof(bad), isgraph(optopt) ? "-%c" : "-\\x%02x",
				 (unsigned char)optopt);
			fprintf(stderr, c == ':' ? "gen-audit-log: option '%s' needs a value\n" :
				"gen-audit-log: unknown option '%s'\n", bad);
			/* fall through */
		default:
			fprintf(stderr, "usage: gen-audit-log [-n RECORDS] [-p DISTINCT_PATHS] "
					"[-c CONFIG_EVERY] [-x HOSTILE_EVERY] [-H NODES] [-r] "
					"[-s SEED] [-m OTHERS] [-e EC_EVERY] [-o FILE]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "gen-audit-log: unexpected argument %s\n", argv[optind]);
		return 2;
	}
	if (!paths || paths > n)
		paths = n ? n : 1;
	if (out && !freopen(out, "w", stdout)) {
		fprintf(stderr, "gen-audit-log: %s: %s\n", out, strerror(errno));
		return 1;
	}
	static char obuf[1 << 20];

	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	rng_state = mix(seed) | 1;

	FILE *f = stdout;
	uint64_t ms = 1796286225861ULL; /* same epoch as the captured log */
	uint64_t serial = 7;
	unsigned int policy = 0;
	char path[512], name[256], a1[32], a2[32];

	for (uint64_t i = 0; i <= n; i++) {
		/* policy change: first record, then every cfg_every denials */
		if (i < n && (i == 0 || (cfg_every && i % cfg_every == 0))) {
			unsigned int old = policy, nw, auid;
			uint64_t ses;
			int res = 1;
			uint64_t r = rnd();

			auid = r & 1 ? 4294967295u : 1000;
			ses = auid == 4294967295u ? 4294967295u : 3 + (r >> 8) % 50;
			if (i && r % 5 == 0) { /* refused write, as in the captured log */
				nw = 7;
				res = 0;
			} else {
				nw = i ? 1 + (unsigned int)(r >> 16) % 3 : 3;
				policy = nw;
			}
			const struct interp *w = &writers[(r >> 32) % NWRITER];
			unsigned int wpid = 300 + (unsigned int)((r >> 40) % 4000000);

			if (nodes)
				fprintf(f, "node=host%" PRIu64 " ", (r >> 24) % nodes);
			/* the writer is root (CAP_SYS_ADMIN), logged in or not */
			fprintf(f, "type=CONFIG_CHANGE msg=audit(%" PRIu64 ".%03u:%" PRIu64
				   "): op=trust_policy old=%u new=%u ppid=1 pid=%u auid=%u uid=0"
				   " gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none)"
				   " ses=%" PRIu64 " comm=",
				ms / 1000, (unsigned int)(ms % 1000), serial++, old, nw, wpid, auid, ses);
			untrusted(f, w->comm);
			fputs(" exe=", f);
			untrusted(f, w->exe);
			fprintf(f, " subj=unconfined res=%d", res);
			if (!raw) {
				name_of(a1, sizeof(a1), auid);
				fprintf(f, "\x1d" "AUID=\"%s\" UID=\"root\" GID=\"root\""
					   " EUID=\"root\" SUID=\"root\" FSUID=\"root\""
					   " EGID=\"root\" SGID=\"root\" FSGID=\"root\"",
					auid == 4294967295u ? "unset" : a1);
			}
			putc('\n', f);
			cfg_records++;
			ms += 1 + rnd() % 5;
		}
		if (i == n)
			break;

		uint64_t r = rnd();
		uint64_t pi = i % paths;           /* which file */
		uint64_t h = mix(pi ^ (seed << 40)); /* its fixed attributes */
		const struct mount *m = &mounts[h % NMOUNT];
		const struct user *owner = &users[(h >> 8) % NUSER];
		const struct user *u = &users[(r >> 8) % NUSER];
		const struct interp *in = &interps[(r >> 16) % NINTERP];
		const char *reason, *mode;
		unsigned int pol = policy ? policy : 3;

		/* the reason agrees with the policy and the file's mode */
		switch ((h >> 16) % 16) {
		case 0:
			reason = "not_regular";
			mode = "0010644";
			break;
		case 1:
			reason = "pseudo_fs";
			mode = "0100444";
			break;
		case 2:
		case 3:
		case 4:
			reason = "noexec_mount,file_perm";
			mode = "0100644";
			break;
		case 5:
		case 6:
		case 7:
		case 8:
			reason = "file_perm";
			mode = "0100644";
			break;
		default:
			reason = "noexec_mount";
			mode = "0100755";
			break;
		}
		if (pol == 1 && !strcmp(reason, "noexec_mount,file_perm"))
			reason = "noexec_mount";
		else if (pol == 1 && !strcmp(reason, "file_perm"))
			reason = "noexec_mount", mode = "0100644";
		else if (pol == 2 && !strncmp(reason, "noexec_mount", 12))
			reason = "file_perm", mode = "0100644";

		if (hostile_every && (h >> 24) % hostile_every == 0) {
			snprintf(name, sizeof(name), hostile[(h >> 32) % NHOSTILE], pi);
			hex_paths++;
		} else {
			snprintf(name, sizeof(name), "script%07" PRIu64 ".%s", pi,
				 exts[(h >> 32) % 5]);
		}
		snprintf(path, sizeof(path), "%s/%s/d%02u/%s", m->dir, owner->name,
			 (unsigned int)((h >> 40) % 100), name);

		unsigned int auid = u->uid ? u->uid : 4294967295u;
		uint64_t ses = u->uid ? 1 + (r >> 24) % 40 : 4294967295u;
		unsigned int pid = 300 + (unsigned int)((r >> 32) % 4000000);
		unsigned int ppid = 1 + (unsigned int)((r >> 40) % 4000);

		char nodebuf[32] = "";
		uint64_t others_here = 0;

		if (nodes)
			snprintf(nodebuf, sizeof(nodebuf), "node=host%" PRIu64 " ", (r >> 48) % nodes);
		/* -m: ordinary events first, then maybe this denial inside one */
		while (mixed && others_here < mixed) {
			uint64_t e = rnd();

			if (e % 1000 == 0) { /* an audit rule change: CONFIG_CHANGE, not ours */
				fprintf(f, "%stype=CONFIG_CHANGE msg=audit(%" PRIu64 ".%03u:%" PRIu64
					   "): auid=1000 ses=3 subj=unconfined op=add_rule"
					   " key=\"watch\" list=4 res=1\n",
					nodebuf, ms / 1000, (unsigned int)(ms % 1000), serial++);
				others_here++;
			} else {
				others_here += ordinary_event(f, ms, serial++, e, nodebuf, raw, NULL);
			}
			ms += rnd() % 2;
		}
		others += others_here;
		bool in_event = mixed && r % 4 == 0;
		char *dbuf = NULL;
		size_t dlen = 0;
		FILE *df = f;

		if (in_event) {
			df = open_memstream(&dbuf, &dlen);
			if (!df) {
				fprintf(stderr, "gen-audit-log: out of memory\n");
				return 1;
			}
		}
		f = df;
		fputs(nodebuf, f);
		fprintf(f, "type=UNKNOWN[1350] msg=audit(%" PRIu64 ".%03u:%" PRIu64
			   "): usage=execution policy=%u reason=%s dev=%s ino=%" PRIu64
			   " mode=%s ouid=%u ogid=%u path=",
			ms / 1000, (unsigned int)(ms % 1000), serial++, pol, reason, m->dev,
			12 + pi, mode, owner->uid, owner->gid);
		untrusted(f, path);
		fprintf(f, " ppid=%u pid=%u auid=%u uid=%u gid=%u euid=%u suid=%u fsuid=%u"
			   " egid=%u sgid=%u fsgid=%u tty=(none) ses=%" PRIu64 " comm=",
			ppid, pid, auid, u->uid, u->gid, u->uid, u->uid, u->uid, u->gid,
			u->gid, u->gid, ses);
		untrusted(f, in->comm);
		fputs(" exe=", f);
		untrusted(f, in->exe);
		fputs(" subj=unconfined res=0", f);
		/* -e: the layout of issue 11 for one record in two */
		if (ec_every && (r >> 56) & 1)
			fprintf(f, " api=trusted_for secbits=0x%x",
				ec_secbits[(r >> 57) % NSECBITS]);
		if (!raw) {
			name_of(a1, sizeof(a1), auid);
			snprintf(a2, sizeof(a2), "%s", auid == 4294967295u ? "unset" : a1);
			fprintf(f, "\x1d" "OUID=\"%s\" OGID=\"%s\" AUID=\"%s\" UID=\"%s\""
				   " GID=\"%s\" EUID=\"%s\" SUID=\"%s\" FSUID=\"%s\""
				   " EGID=\"%s\" SGID=\"%s\" FSGID=\"%s\"",
				owner->name, owner->group, a2, u->name, u->group, u->name,
				u->name, u->name, u->group, u->group, u->group);
		}
		putc('\n', f);
		f = stdout;
		if (in_event) {
			if (fclose(df)) {
				fprintf(stderr, "gen-audit-log: out of memory\n");
				return 1;
			}
			others += ordinary_event(f, ms, serial - 1, r, nodebuf, raw, dbuf); /* its serial */
			free(dbuf);
		}
		denials++;
		if (ec_every)
			count_split(0, reason);
		ms += rnd() % 5; /* ~2 ms apart: 1M records span ~33 minutes */

		/* -e: an AT_EXECVE_CHECK refusal, logged whatever the securebits */
		if (ec_every && denials % ec_every == 0) {
			uint64_t e = rnd();
			unsigned int ri = (unsigned int)(e % NECR);
			unsigned int sb = ec_secbits[(e >> 8) % NSECBITS];
			const struct interp *ei = &interps[(e >> 16) % NINTERP];
			const struct user *eu = &users[(e >> 24) % NUSER];
			unsigned int eauid = eu->uid ? eu->uid : 4294967295u;

			fputs(nodebuf, f);
			fprintf(f, "type=UNKNOWN[1350] msg=audit(%" PRIu64 ".%03u:%" PRIu64
				   "): usage=execution policy=? reason=%s dev=%s ino=%" PRIu64
				   " mode=%s ouid=%u ogid=%u path=",
				ms / 1000, (unsigned int)(ms % 1000), serial++, ec_reasons[ri], m->dev,
				12 + pi, ec_modes[ri], owner->uid, owner->gid);
			untrusted(f, path);
			fprintf(f, " ppid=%u pid=%u auid=%u uid=%u gid=%u euid=%u suid=%u fsuid=%u"
				   " egid=%u sgid=%u fsgid=%u tty=(none) ses=%" PRIu64 " comm=",
				ppid, pid + 1, eauid, eu->uid, eu->gid, eu->uid, eu->uid, eu->uid,
				eu->gid, eu->gid, eu->gid,
				eu->uid ? 1 + (e >> 32) % 40 : (uint64_t)4294967295u);
			untrusted(f, ei->comm);
			fputs(" exe=", f);
			untrusted(f, ei->exe);
			fprintf(f, " subj=unconfined res=0 api=execve_check secbits=0x%x", sb);
			if (!raw) {
				name_of(a1, sizeof(a1), eauid);
				fprintf(f, "\x1d" "OUID=\"%s\" OGID=\"%s\" AUID=\"%s\" UID=\"%s\"",
					owner->name, owner->group,
					eauid == 4294967295u ? "unset" : a1, eu->name);
			}
			putc('\n', f);
			count_split(sb & 0x100 ? 1 : 2, ec_reasons[ri]);
			ms += rnd() % 5;
		}
	}
	if (fflush(f) || ferror(f)) {
		fprintf(stderr, "gen-audit-log: write error: %s\n", strerror(errno));
		return 1;
	}
	/* Counted as written (not the request): what the benchmark checks against. */
	fprintf(stderr, "gen-audit-log: %" PRIu64 " denials (type 1350), %" PRIu64
			" distinct paths, %" PRIu64 " hostile-name records, %" PRIu64
			" CONFIG_CHANGE records\n",
		denials, paths, hex_paths, cfg_records);
	if (mixed)
		fprintf(stderr, "gen-audit-log: %" PRIu64 " other records\n", others);
	for (int k = 0; ec_every && k < NCLASS; k++)
		fprintf(stderr, "gen-audit-log: class %s %" PRIu64 "\n", classes[k], class_n[k]);
	for (size_t k = 0; k < nsplits; k++)
		fprintf(stderr, "gen-audit-log: split %s %s %" PRIu64 "\n", classes[splits[k].cls],
			splits[k].reason, splits[k].n);
	return 0;
}
