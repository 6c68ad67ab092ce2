// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/self/mountinfo parser; see mountinfo.h. */
#include "mountinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool is_odigit(char c)
{
	return c >= '0' && c <= '7';
}

char *tf_mountinfo_unescape(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && is_odigit(r[1]) && is_odigit(r[2]) &&
		    is_odigit(r[3])) {
			int v = (r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0');

			if (v > 0 && v < 256) {
				*w++ = (char)v;
				r += 4;
				continue;
			}
		}
		*w++ = *r++;
	}
	*w = '\0';
	return s;
}

/* Next space-separated field; NULL at the end of the line. */
static char *field(char **cursor)
{
	char *s = *cursor, *e;

	if (!s || !*s)
		return NULL;
	e = strchr(s, ' ');
	if (e) {
		*e = '\0';
		*cursor = e + 1;
	} else {
		*cursor = NULL;
	}
	return s;
}

static int parse_ull(const char *s, unsigned long long *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return (errno || *end) ? -1 : 0;
}

int tf_mountinfo_parse_line(char *line, struct tf_mount *m)
{
	char *cur = line, *dev, *sep, *colon, *opt_start = NULL, *opt_end = NULL;
	unsigned long long maj, min;
	size_t n;

	memset(m, 0, sizeof(*m));
	n = strlen(line);
	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';

	if (parse_ull(field(&cur), &m->mnt_id) ||
	    parse_ull(field(&cur), &m->parent_id))
		goto bad;
	dev = field(&cur);
	colon = dev ? strchr(dev, ':') : NULL;
	if (!colon)
		goto bad;
	*colon = '\0';
	if (parse_ull(dev, &maj) || parse_ull(colon + 1, &min) ||
	    maj > 0xfffff || min > 0xfffff)
		goto bad;
	m->major = (unsigned int)maj;
	m->minor = (unsigned int)min;
	m->root = field(&cur);
	m->mount_point = field(&cur);
	m->mnt_opts = field(&cur);
	if (!m->root || !m->mount_point || !m->mnt_opts)
		goto bad;
	/* (7) optional fields: zero or more, up to the "-" separator */
	for (;;) {
		sep = field(&cur);
		if (!sep)
			goto bad;
		if (strcmp(sep, "-") == 0)
			break;
		if (!opt_start)
			opt_start = sep;
		opt_end = sep + strlen(sep);
	}
	if (opt_start) {
		/* rejoin the optional fields with the spaces field() cut */
		for (char *p = opt_start; p < opt_end; p++)
			if (*p == '\0')
				*p = ' ';
		m->optional = opt_start;
	} else {
		m->optional = sep + strlen(sep); /* "" */
	}
	m->fstype = field(&cur);
	m->source = field(&cur);
	m->super_opts = field(&cur);
	if (!m->fstype || !m->source || !m->super_opts || cur)
		goto bad;
	tf_mountinfo_unescape(m->root);
	tf_mountinfo_unescape(m->mount_point);
	tf_mountinfo_unescape(m->fstype);
	tf_mountinfo_unescape(m->source);
	tf_mountinfo_unescape(m->super_opts);
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

static void mark_overmounts(struct tf_mountinfo *mi)
{
	/*
	 * A mount is hidden when a later mount sits on the same mount point
	 * in the same parent (a stacked mount: same parent_id) or on top of
	 * it (its parent is this mount and its mount point is the same path).
	 */
	for (size_t i = 0; i < mi->count; i++) {
		struct tf_mount *a = &mi->mounts[i];

		for (size_t j = i + 1; j < mi->count; j++) {
			const struct tf_mount *b = &mi->mounts[j];

			if (strcmp(a->mount_point, b->mount_point) != 0)
				continue;
			if (b->parent_id == a->mnt_id ||
			    b->parent_id == a->parent_id) {
				a->overmounted = true;
				break;
			}
		}
	}
}

int tf_mountinfo_parse(char *text, struct tf_mountinfo *mi, size_t *bad_line)
{
	size_t lines = 0, cap = 0;
	char *line, *next;

	memset(mi, 0, sizeof(*mi));
	mi->text = text;
	for (char *p = text; *p; p++)
		if (*p == '\n')
			cap++;
	cap++;
	mi->mounts = calloc(cap, sizeof(*mi->mounts));
	if (!mi->mounts) {
		free(text);
		mi->text = NULL;
		return -1;
	}
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lines++;
		if (tf_mountinfo_parse_line(line, &mi->mounts[mi->count]) < 0) {
			if (bad_line)
				*bad_line = lines;
			tf_mountinfo_free(mi);
			errno = EINVAL;
			return -1;
		}
		mi->count++;
	}
	mark_overmounts(mi);
	return 0;
}

int tf_mountinfo_load(const char *path, struct tf_mountinfo *mi,
		      size_t *bad_line)
{
	size_t cap = 16384, len = 0;
	char *buf = malloc(cap), *nbuf;
	int fd, saved;
	ssize_t n;

	if (!buf)
		return -1;
	fd = open(path ? path : "/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	for (;;) {
		if (cap - len < 4096) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf)
				goto fail_fd;
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail_fd;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (memchr(buf, '\0', len)) {
		free(buf);
		errno = EINVAL;
		if (bad_line)
			*bad_line = 0;
		return -1;
	}
	return tf_mountinfo_parse(buf, mi, bad_line);
fail_fd:
	saved = errno;
	close(fd);
	errno = saved;
fail:
	saved = errno;
	free(buf);
	errno = saved;
	return -1;
}

void tf_mountinfo_free(struct tf_mountinfo *mi)
{
	free(mi->mounts);
	free(mi->text);
	memset(mi, 0, sizeof(*mi));
}

const struct tf_mount *tf_mountinfo_find(const struct tf_mountinfo *mi,
					 unsigned long long mnt_id)
{
	for (size_t i = 0; i < mi->count; i++)
		if (mi->mounts[i].mnt_id == mnt_id)
			return &mi->mounts[i];
	return NULL;
}

bool tf_mount_opt_has(const char *opts, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *p = opts; p && *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && memcmp(p, opt, n) == 0)
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}
