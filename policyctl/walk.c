// SPDX-License-Identifier: GPL-2.0-or-later
/* Mount-bounded tree walker; see walk.h. */
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "interp.h"

#define DENTS_BUF (64 * 1024)
#define STX_MASK (STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID | \
		  STATX_INO | STATX_MNT_ID)

struct pathbuf {
	char *s;
	size_t len, cap;
};

static int path_push(struct pathbuf *p, const char *name, size_t *saved)
{
	size_t n = strlen(name), need;
	bool slash = p->len && p->s[p->len - 1] != '/';

	need = p->len + slash + n + 1;
	if (need > p->cap) {
		size_t cap = p->cap ? p->cap : 256;
		char *s;

		while (cap < need)
			cap *= 2;
		s = realloc(p->s, cap);
		if (!s)
			return -1;
		p->s = s;
		p->cap = cap;
	}
	*saved = p->len;
	if (slash)
		p->s[p->len++] = '/';
	memcpy(p->s + p->len, name, n + 1);
	p->len += n;
	return 0;
}

static void path_pop(struct pathbuf *p, size_t saved)
{
	p->len = saved;
	p->s[saved] = '\0';
}

static void problem(struct pc_walk *w, const char *path, const char *what,
		    int err)
{
	char buf[64];
	char *line;
	size_t n;

	w->nproblems_total++;
	if (w->nproblems >= PC_WALK_MAX_PROBLEMS)
		return;
	snprintf(buf, sizeof(buf), ": %s: %s", what, strerror(err));
	n = strlen(path) + strlen(buf) + 1;
	line = malloc(n);
	if (!line)
		return;
	snprintf(line, n, "%s%s", path, buf);
	w->problems[w->nproblems++] = line;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull +
	       (unsigned long long)ts.tv_nsec;
}

static void progress(struct pc_walk *w, const char *where)
{
	unsigned long long t;
	char shown[64];

	if (!w->progress || (++w->tick & 1023))
		return;
	t = now_ns();
	if (t - w->last_progress_ns < 250000000ull)
		return;
	w->last_progress_ns = t;
	tf_escape_term(where, strlen(where), shown, sizeof(shown));
	fprintf(stderr, "\r\033[K%llu dirs, %llu files, %llu scripts: %s",
		w->dirs, w->files, w->scripts, shown);
}

void pc_walk_progress_done(struct pc_walk *w)
{
	if (w->progress && w->last_progress_ns)
		fprintf(stderr, "\r\033[K");
}

static bool excluded(const struct pc_walk *w, const char *path)
{
	for (size_t i = 0; i < w->nexcludes; i++)
		if (strcmp(w->excludes[i], path) == 0)
			return true;
	return false;
}

/* Open a regular file without following links, atime untouched if we can. */
static int open_file(int dirfd, const char *name)
{
	int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	int fd = openat(dirfd, name, flags | O_NOATIME);

	if (fd < 0 && errno == EPERM)
		fd = openat(dirfd, name, flags);
	return fd;
}

/* A regular file @name in @dirfd: is it a script? then hand it over. */
static void visit_file(struct pc_walk *w, struct pc_mount *pm, int dirfd,
		       const char *name, const char *path)
{
	bool by_name = pc_interp_by_name(name);
	struct statx stx;
	int fd, sb;

	w->files++;
	pm->files++;
	fd = open_file(dirfd, name);
	if (fd < 0) {
		if (errno == ENOENT) {
			pm->vanished++;
		} else if (errno == ELOOP || errno == ENXIO) {
			/* replaced by a symlink / special file meanwhile */
		} else {
			pm->errors++;
			problem(w, path, "cannot open", errno);
		}
		return;
	}
	if (statx(fd, "", AT_EMPTY_PATH, STX_MASK, &stx) < 0) {
		pm->errors++;
		problem(w, path, "cannot stat", errno);
		goto out;
	}
	if (!S_ISREG(stx.stx_mode))
		goto out; /* replaced during the walk */
	if (stx.stx_mnt_id != pm->m->mnt_id)
		goto out; /* a file bind-mounted here: walked as its own mount */
	if (!by_name) {
		sb = pc_interp_shebang(fd);
		if (sb < 0) {
			pm->errors++;
			problem(w, path, "cannot read", errno);
		}
		if (sb <= 0)
			goto out;
	}
	w->scripts++;
	pm->scripts++;
	w->on_script(w->ctx, pm, path, fd, &stx);
out:
	close(fd);
}

static void walk_dir(struct pc_walk *w, struct pc_mount *pm, int fd,
		     struct pathbuf *path)
{
	char *buf = malloc(DENTS_BUF);
	ssize_t n;

	w->dirs++;
	pm->dirs++;
	if (!buf) {
		pm->errors++;
		problem(w, path->s, "cannot walk", ENOMEM);
		return;
	}
	while ((n = getdents64(fd, buf, DENTS_BUF)) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			unsigned char type = d->d_type;
			const char *name = d->d_name;
			size_t saved;

			off += d->d_reclen;
			if (name[0] == '.' && (!name[1] ||
					       (name[1] == '.' && !name[2])))
				continue;
			if (type != DT_DIR && type != DT_REG &&
			    type != DT_UNKNOWN)
				continue;
			if (path_push(path, name, &saved) < 0) {
				pm->errors++;
				problem(w, path->s, "cannot walk", ENOMEM);
				continue;
			}
			progress(w, path->s);
			if (excluded(w, path->s)) {
				path_pop(path, saved);
				continue;
			}
			if (type == DT_UNKNOWN) {
				struct statx stx;

				if (statx(fd, name, AT_SYMLINK_NOFOLLOW,
					  STATX_TYPE, &stx) < 0) {
					if (errno == ENOENT)
						pm->vanished++;
					path_pop(path, saved);
					continue;
				}
				type = S_ISDIR(stx.stx_mode) ? DT_DIR :
				       S_ISREG(stx.stx_mode) ? DT_REG : DT_UNKNOWN;
			}
			if (type == DT_REG) {
				visit_file(w, pm, fd, name, path->s);
			} else if (type == DT_DIR) {
				int sub = openat(fd, name, O_RDONLY | O_DIRECTORY |
						 O_NOFOLLOW | O_CLOEXEC);
				struct statx stx;

				if (sub < 0) {
					if (errno == ENOENT || errno == ENOTDIR ||
					    errno == ELOOP) {
						pm->vanished++;
					} else {
						pm->unreadable_dirs++;
						problem(w, path->s, "unreadable directory",
							errno);
					}
				} else {
					if (statx(sub, "", AT_EMPTY_PATH,
						  STATX_MNT_ID, &stx) == 0 &&
					    stx.stx_mnt_id == pm->m->mnt_id)
						walk_dir(w, pm, sub, path);
					close(sub);
				}
			}
			path_pop(path, saved);
		}
	}
	if (n < 0) {
		if (errno == ENOENT) {
			pm->vanished++; /* directory removed while read */
		} else {
			pm->unreadable_dirs++;
			problem(w, path->s, "unreadable directory", errno);
		}
	}
	free(buf);
}

int pc_walk_mount(struct pc_walk *w, struct pc_mount *pm, const char *start)
{
	const char *root = start ? start : pm->m->mount_point;
	struct pathbuf path = { 0 };
	struct statx stx;
	size_t saved;
	int fd, rc = -1;

	fd = open(root, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
			      O_NOCTTY);
	if (fd < 0 && errno == ELOOP)
		return 0; /* a symlink given with --path: nothing to walk */
	if (fd < 0) {
		if (errno == EACCES)
			pm->unreadable_dirs++;
		else
			pm->errors++;
		problem(w, root, "cannot open", errno);
		return -1;
	}
	if (statx(fd, "", AT_EMPTY_PATH, STX_MASK, &stx) < 0) {
		pm->errors++;
		problem(w, root, "cannot stat", errno);
		goto out;
	}
	if (stx.stx_mnt_id != pm->m->mnt_id) {
		problem(w, root, "not reachable (another mount sits on it)",
			EBUSY);
		goto out;
	}
	if (path_push(&path, root, &saved) < 0)
		goto out;
	if (S_ISDIR(stx.stx_mode)) {
		walk_dir(w, pm, fd, &path);
	} else if (S_ISREG(stx.stx_mode)) {
		const char *slash = strrchr(root, '/');
		char *dir = slash ? strndup(root, (size_t)(slash - root) + 1)
				  : strdup(".");
		int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

		if (dfd >= 0) {
			visit_file(w, pm, dfd, slash ? slash + 1 : root, root);
			close(dfd);
		}
		free(dir);
	}
	rc = 0;
out:
	free(path.s);
	close(fd);
	return rc;
}

void pc_walk_free(struct pc_walk *w)
{
	for (size_t i = 0; i < w->nproblems; i++)
		free(w->problems[i]);
	w->nproblems = 0;
}
