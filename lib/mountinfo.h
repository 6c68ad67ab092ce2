/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * /proc/<pid>/mountinfo parser (proc(5)):
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   (1)(2)(3)   (4)   (5)      (6)      (7)    (8) (9)   (10)         (11)
 * The kernel writes space, tab, newline and backslash in paths and sources
 * as octal escapes (\040 \011 \012 \134); every field is returned unescaped.
 */
#ifndef TF_MOUNTINFO_H
#define TF_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tf_mount {
	unsigned long long mnt_id;    /* (1), as statx's STATX_MNT_ID */
	unsigned long long parent_id; /* (2) */
	unsigned int major, minor;    /* (3) st_dev of the filesystem */
	char *root;		      /* (4) root of the mount in its fs */
	char *mount_point;	      /* (5) */
	char *mnt_opts;		      /* (6) per-mount options (noexec...) */
	char *optional;		      /* (7) "shared:1 master:2", may be "" */
	char *fstype;		      /* (9) "ext4", "fuse.sshfs" */
	char *source;		      /* (10) */
	char *super_opts;	      /* (11) per-superblock options */
	/* Another mount sits on the same mount point, mounted later. */
	bool overmounted;
};

struct tf_mountinfo {
	struct tf_mount *mounts; /* in the file's order (mount order) */
	size_t count;
	char *text; /* backing storage of every string */
};

/*
 * The two steps of tf_mountinfo_parse(); no tool calls them, they stay
 * exported so that lib/tests/test_mountinfo.c can test one line at a time.
 *
 * Parse one line in place (it is modified; @m's strings point into it).
 * Returns 0, or -1 with errno EINVAL when the line is malformed.
 */
int tf_mountinfo_parse_line(char *line, struct tf_mount *m);

/* Decode \ooo octal escapes in place; returns @s. */
char *tf_mountinfo_unescape(char *s);

/*
 * Read and parse a whole mountinfo file (NULL: /proc/self/mountinfo), and
 * mark overmounted entries. Returns 0, or -1 with errno; on EINVAL
 * *bad_line (when not NULL) is the 1-based number of the malformed line.
 */
int tf_mountinfo_load(const char *path, struct tf_mountinfo *mi,
		      size_t *bad_line);
/* Same, from a NUL-terminated buffer; the buffer is taken over (freed). */
int tf_mountinfo_parse(char *text, struct tf_mountinfo *mi, size_t *bad_line);
void tf_mountinfo_free(struct tf_mountinfo *mi);

/* The mount with that id, or NULL. */
const struct tf_mount *tf_mountinfo_find(const struct tf_mountinfo *mi,
					 unsigned long long mnt_id);

/* Whether the comma list @opts holds exactly @opt ("noexec"). */
bool tf_mount_opt_has(const char *opts, const char *opt);

#ifdef __cplusplus
}
#endif

#endif /* TF_MOUNTINFO_H */
