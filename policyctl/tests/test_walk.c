// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policyctl/walk.c on a real tmpfs tree, in a private mount namespace:
 * which files are found, hostile names kept exact, mounts not crossed,
 * symlinks not followed, --exclude, unreadable directories counted, files
 * vanishing during the walk counted, the progress callback called. Needs root (mount, unshare).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "mounts.h"
#include "walk.h"

static char top[] = "/tmp/pc-walk-XXXXXX";
static char inner[96];
#define HOSTILE "sp ace\n\x1b[31m\xff.py"

#define NVANISH 40 /* more than a batch of the walker's io_uring */

struct seen {
	char *paths[NVANISH];
	size_t n;
	const char *delete_dir; /* when set: remove the other scripts there */
};

static void on_script(void *ctx, struct pc_mount *pm, const char *path, int fd,
		      const struct statx *stx)
{
	struct seen *s = ctx;
	char other[128];

	(void)pm;
	(void)fd;
	assert_true(S_ISREG(stx->stx_mode));
	if (s->n < NVANISH)
		s->paths[s->n++] = strdup(path);
	if (s->delete_dir) {
		for (int i = 0; i < NVANISH; i++) {
			snprintf(other, sizeof(other), "%s/v%d.sh", s->delete_dir, i);
			if (strcmp(other, path))
				unlink(other);
		}
	}
}

static bool has(struct seen *s, const char *suffix)
{
	char want[256];

	snprintf(want, sizeof(want), "%s/%s", top, suffix);
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->paths[i], want))
			return true;
	return false;
}

static void put(const char *rel, const char *content, mode_t mode)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
}

static void mk(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static int setup(void **state)
{
	char path[256];

	(void)state;
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		fprintf(stderr, "test_walk: unshare/mount: %s (run as root)\n",
			strerror(errno));
		return -1;
	}
	if (!mkdtemp(top) || mount("pcwalk", top, "tmpfs", 0, "mode=0755") < 0)
		return -1;
	put("a.sh", "echo a\n", 0755);
	put("b", "#!/bin/sh\necho b\n", 0644);
	put("c.txt", "data\n", 0644);
	put("#!", "data named like a shebang\n", 0644);
	put(HOSTILE, "print()\n", 0644);
	mk("dir");
	mk("dir/deep");
	put("dir/deep/x.pl", "1;\n", 0600);
	mk("excluded");
	put("excluded/e.sh", "echo e\n", 0755);
	mk("locked");
	put("locked/l.sh", "echo l\n", 0755);
	assert_int_equal(chown(strcat(strcpy(path, top), "/locked"), 65534, 65534), 0);
	assert_int_equal(chmod(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/loop", top);
	assert_int_equal(symlink("loop", path), 0);
	snprintf(path, sizeof(path), "%s/link.sh", top);
	assert_int_equal(symlink("a.sh", path), 0);
	snprintf(path, sizeof(path), "%s/dirlink", top);
	assert_int_equal(symlink("dir", path), 0);
	snprintf(path, sizeof(path), "%s/fifo.sh", top);
	assert_int_equal(mkfifo(path, 0644), 0);
	mk("sub");
	snprintf(inner, sizeof(inner), "%s/sub", top);
	if (mount("pcinner", inner, "tmpfs", MS_NOEXEC, NULL) < 0)
		return -1;
	put("sub/s.sh", "echo s\n", 0755);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	umount(inner);
	umount(top);
	rmdir(top);
	return 0;
}

static struct pc_mount *mount_at(struct pc_mounts *ms, const char *mp)
{
	char err[256];

	assert_int_equal(pc_mounts_load(ms, NULL, err, sizeof(err)), 0);
	for (size_t i = 0; i < ms->n; i++)
		if (!strcmp(ms->v[i].m->mount_point, mp) && !ms->v[i].m->overmounted)
			return &ms->v[i];
	fail_msg("no mount at %s", mp);
	return NULL;
}

static void test_finds_scripts_only_on_its_mount(void **state)
{
	struct pc_mounts ms;
	struct pc_mount *pm = mount_at(&ms, top);
	struct seen s = { 0 };
	char excl[128];
	char *excls[1] = { excl };
	struct pc_walk w = { .on_script = on_script, .ctx = &s,
			     .excludes = excls, .nexcludes = 1 };

	(void)state;
	snprintf(excl, sizeof(excl), "%s/excluded", top);
	assert_int_equal(pc_walk_mount(&w, pm, NULL), 0);
	assert_true(has(&s, "a.sh"));
	assert_true(has(&s, "b"));
	assert_true(has(&s, HOSTILE)); /* exact bytes */
	assert_true(has(&s, "dir/deep/x.pl"));
	assert_true(has(&s, "locked/l.sh")); /* root reads every directory */
	/* data, fifo, symlinks, excluded tree and the other mount: not seen */
	assert_int_equal(s.n, 5);
	assert_int_equal(pm->scripts, 5);
	assert_int_equal(pm->unreadable_dirs, 0);
	assert_false(pm->fs.noexec_mount);
	for (size_t i = 0; i < s.n; i++)
		free(s.paths[i]);
	pc_walk_free(&w);

	/* the inner mount on its own: one script, noexec mount */
	pm = NULL;
	for (size_t i = 0; i < ms.n; i++)
		if (!strcmp(ms.v[i].m->mount_point, inner))
			pm = &ms.v[i];
	assert_non_null(pm);
	assert_true(pm->fs.noexec_mount);
	memset(&s, 0, sizeof(s));
	assert_int_equal(pc_walk_mount(&w, pm, NULL), 0);
	assert_int_equal(s.n, 1);
	free(s.paths[0]);
	pc_mounts_free(&ms);
}

static void test_unreadable_dir_counted(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* root without DAC capabilities cannot open locked/ (0700, 65534) */
		cap_t none = cap_init();
		struct pc_mounts ms;
		struct pc_mount *pm;
		struct seen s = { 0 };
		struct pc_walk w = { .on_script = on_script, .ctx = &s };

		if (cap_set_proc(none) < 0)
			_exit(10);
		pm = mount_at(&ms, top);
		if (pc_walk_mount(&w, pm, NULL) < 0)
			_exit(11);
		if (pm->unreadable_dirs != 1 || w.nproblems != 1 ||
		    !strstr(w.problems[0], "/locked: unreadable directory"))
			_exit(12);
		/* the rest of the tree was still walked */
		_exit(s.n == 5 ? 0 : 13);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * The first script seen deletes the others: those the walker has not opened
 * yet vanish (counted, not errors); those already open (a batch of the
 * io_uring path is opened at once) are still seen. Either way every file
 * is one or the other. With and without the io_uring.
 */
static void vanishing_files_counted(const char *sub, bool no_uring)
{
	struct pc_mounts ms;
	struct pc_mount *pm;
	struct seen s = { 0 };
	struct pc_walk w = { .on_script = on_script, .ctx = &s };
	char dir[128], rel[64];

	mk(sub);
	for (int i = 0; i < NVANISH; i++) {
		snprintf(rel, sizeof(rel), "%s/v%d.sh", sub, i);
		put(rel, "echo\n", 0755);
	}
	snprintf(dir, sizeof(dir), "%s/%s", top, sub);
	s.delete_dir = dir;
	if (no_uring)
		setenv("POLICYCTL_NO_IO_URING", "1", 1);
	pm = mount_at(&ms, top);
	assert_int_equal(pc_walk_mount(&w, pm, dir), 0);
	unsetenv("POLICYCTL_NO_IO_URING");
	assert_true(s.n >= 1);
	assert_true(pm->vanished >= 1);
	assert_int_equal(s.n + pm->vanished, NVANISH);
	assert_int_equal(pm->files, NVANISH); /* a vanished one too */
	assert_int_equal(pm->errors, 0);
	if (no_uring)
		assert_int_equal(s.n, 1); /* each file opened when reached */
	for (size_t i = 0; i < s.n; i++)
		free(s.paths[i]);
	pc_mounts_free(&ms);
}

static void test_vanishing_files_counted(void **state)
{
	(void)state;
	vanishing_files_counted("vanish", false);
	vanishing_files_counted("vanish-plain", true);
}

struct progress_seen {
	unsigned long long calls, last_files;
	bool where_ok;
};

static void on_progress(void *ctx, const struct pc_walk *w, const char *where)
{
	struct progress_seen *p = ctx;

	p->calls++;
	p->where_ok &= where && !strncmp(where, top, strlen(top));
	assert_true(w->files >= p->last_files);
	p->last_files = w->files;
}

/* The walk draws nothing itself: it calls on_progress every 1024 entries. */
static void test_progress_callback(void **state)
{
	struct pc_mounts ms;
	struct pc_mount *pm;
	struct seen s = { 0 };
	struct progress_seen p = { .where_ok = true };
	struct pc_walk w = { .on_script = on_script, .ctx = &s,
			     .on_progress = on_progress, .progress_ctx = &p,
			     .threads = 1 };
	char dir[128], rel[64];

	(void)state;
	mk("many");
	for (int i = 0; i < 2100; i++) {
		snprintf(rel, sizeof(rel), "many/f%d", i);
		put(rel, "", 0644);
	}
	snprintf(dir, sizeof(dir), "%s/many", top);
	pm = mount_at(&ms, top);
	assert_int_equal(pc_walk_mount(&w, pm, dir), 0);
	/* entries 1, 1025 and 2049 */
	assert_int_equal(p.calls, 3);
	assert_true(p.where_ok);
	assert_int_equal(w.files, 2100);
	assert_int_equal(s.n, 0);
	pc_mounts_free(&ms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finds_scripts_only_on_its_mount),
		cmocka_unit_test(test_unreadable_dir_counted),
		cmocka_unit_test(test_vanishing_files_counted),
		cmocka_unit_test(test_progress_callback),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
