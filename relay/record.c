// SPDX-License-Identifier: GPL-2.0-or-later
/* The text of trustfor-relay's audit records. */
#include "record.h"

#include <libaudit.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "trustedfor.h"

/* Where the text is written; a failed write sticks. */
struct text {
	char *p;
	size_t n, size;
	bool full;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (t->full)
		return;
	va_start(ap, fmt);
	w = vsnprintf(t->p + t->n, t->size - t->n, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= t->size - t->n)
		t->full = true;
	else
		t->n += (size_t)w;
}

/*
 * The longest path a record names: a directory as deep as the walk goes
 * (its components' NULs become the slashes), "/", a name.  Joined paths
 * fit their buffers whole: nothing is dropped here, only where the
 * program stopped walking (cut=).
 */
#define RL_JOINED_MAX (RL_PATH_ROOM + RL_COMP_MAX + 1 + RL_NAME_LEN)

/*
 * " name=value" in audit's untrusted-string encoding: "quoted", or hex when
 * the value holds a byte audit would encode, or a single quote (the kernel
 * wraps a user message in msg='...').
 */
static void put_untrusted(struct text *t, const char *name, const char *v, size_t len)
{
	char hex[2 * RL_JOINED_MAX + 1];

	if (len * 2 + 1 > sizeof(hex)) {
		t->full = true;
		return;
	}
	if (!audit_value_needs_encoding(v, len) && !memchr(v, '\'', len))
		put(t, " %s=\"%.*s\"", name, (int)len, v);
	else
		put(t, " %s=%s", name, audit_encode_value(hex, v, len));
}

size_t rl_path_join(const char *buf, size_t len, int cut, char *out, size_t outsz)
{
	size_t ends[RL_DEPTH + 1], n = 0, o = 0;

	/* the start of each component, innermost first */
	for (size_t i = 0; i < len && n < RL_DEPTH; n++) {
		ends[n] = i;
		i += strnlen(buf + i, len - i) + 1;
	}
	if (!outsz)
		return 0;
	if (!n) {
		snprintf(out, outsz, "%s", cut ? "" : "/");
		return strlen(out);
	}
	for (size_t k = n; k-- > 0;) {
		const char *c = buf + ends[k];
		size_t cl = strnlen(c, len - ends[k]);

		if (!(cut && k == n - 1) && o + 1 < outsz)
			out[o++] = '/';
		if (o + cl >= outsz)
			cl = outsz - o - 1;
		memcpy(out + o, c, cl);
		o += cl;
	}
	out[o] = '\0';
	return o;
}

static void put_dev(struct text *t, uint32_t dev)
{
	put(t, " dev=%02x:%02x", dev >> 20, dev & 0xfffff);
}

/*
 * A file in no tree (a pipe, a socket, a memfd...): its dentry's own name,
 * or, for the unnamed ones, what /proc/PID/fd shows for pipes and sockets.
 */
static size_t pseudo_name(const struct rl_event *e, char *out, size_t outsz)
{
	size_t n = strnlen(e->path, e->path_len);

	if (n)
		return (size_t)snprintf(out, outsz, "%.*s", (int)n, e->path);
	if (S_ISFIFO(e->mode))
		return (size_t)snprintf(out, outsz, "pipe:[%llu]", (unsigned long long)e->ino);
	if (S_ISSOCK(e->mode))
		return (size_t)snprintf(out, outsz, "socket:[%llu]", (unsigned long long)e->ino);
	return (size_t)snprintf(out, outsz, "?");
}

int rl_record_text(const struct rl_event *e, char *out, size_t outsz)
{
	struct text t = { out, 0, outsz, outsz == 0 };
	char reasons[128], path[RL_JOINED_MAX + 1], exe[RL_EXE_ROOM + RL_COMP_MAX + 1];
	size_t pl, el;
	const char *sep = "";

	if (!e->reason || !tf_reason_str(e->reason, reasons, sizeof(reasons)))
		snprintf(reasons, sizeof(reasons), "unknown");
	put(&t, "usage=execution policy=? reason=%s", reasons);
	if (e->flags & RL_EV_FD) {
		put_dev(&t, e->dev);
		put(&t, " ino=%llu mode=0%o ouid=%u ogid=%u", (unsigned long long)e->ino,
		    e->mode, e->ouid, e->ogid);
		if (e->flags & RL_EV_PSEUDO)
			pl = pseudo_name(e, path, sizeof(path));
		else
			pl = rl_path_join(e->path, e->path_len, e->flags & RL_EV_PATH_CUT,
					  path, sizeof(path));
	} else if (e->flags & RL_EV_DIR) {
		/* the directory, then the name relative to it */
		pl = rl_path_join(e->path, e->path_len, e->flags & RL_EV_PATH_CUT, path,
				  sizeof(path) - RL_NAME_LEN);
		pl += snprintf(path + pl, sizeof(path) - pl, "%s%s",
			       pl && path[pl - 1] == '/' ? "" : "/", e->name);
	} else {
		pl = snprintf(path, sizeof(path), "%s", e->name);
	}
	put_untrusted(&t, "path", path, pl);
	put(&t, " ppid=%u pid=%u auid=%u uid=%u gid=%u euid=%u suid=%u fsuid=%u"
		" egid=%u sgid=%u fsgid=%u ses=%u",
	    e->ppid, e->pid, e->flags & RL_EV_AUDIT ? e->auid : 4294967295u, e->uid,
	    e->gid, e->euid, e->suid, e->fsuid, e->egid, e->sgid, e->fsgid,
	    e->flags & RL_EV_AUDIT ? e->ses : 4294967295u);
	put_untrusted(&t, "comm", e->comm, strnlen(e->comm, sizeof(e->comm)));
	el = e->exe_len ? rl_path_join(e->exe, e->exe_len, e->flags & RL_EV_EXE_CUT, exe,
				       sizeof(exe)) : 0;
	if (el)
		put_untrusted(&t, "exe", exe, el);
	else
		put(&t, " exe=?"); /* a task without an executable */
	put(&t, " api=execve_check secbits=0x%x enforced=%d file=%s", e->secbits,
	    tf_ec_enforced(e->secbits, !!(e->flags & RL_EV_STDIN)),
	    e->flags & RL_EV_FD ? "fd" : "name");
	if (e->flags & (RL_EV_PATH_CUT | RL_EV_EXE_CUT | RL_EV_NAME_CUT)) {
		put(&t, " cut=");
		if (e->flags & (RL_EV_PATH_CUT | RL_EV_NAME_CUT)) {
			put(&t, "path");
			sep = ",";
		}
		if (e->flags & RL_EV_EXE_CUT)
			put(&t, "%sexe", sep);
	}
	/* res=0 (a refusal), as the kernel's record: libaudit appends its own
	 * res= (and the writer's exe=) after src=; readers take the first.
	 */
	put(&t, " res=0 src=relay");
	return t.full ? -1 : (int)t.n;
}

int rl_lost_text(uint64_t n, char *out, size_t outsz)
{
	int w = snprintf(out, outsz,
			 "usage=execution op=lost lost=%llu res=0 api=execve_check src=relay",
			 (unsigned long long)n);

	return w < 0 || (size_t)w >= outsz ? -1 : w;
}
