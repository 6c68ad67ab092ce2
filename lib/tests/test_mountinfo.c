// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/mountinfo.c: parsing, escapes, bind mounts and overmounts. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mountinfo.h"

static void test_simple_line(void **state)
{
	char line[] = "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n";
	struct tf_mount m;

	(void)state;
	assert_int_equal(tf_mountinfo_parse_line(line, &m), 0);
	assert_int_equal(m.mnt_id, 36);
	assert_int_equal(m.parent_id, 35);
	assert_int_equal(m.major, 98);
	assert_int_equal(m.minor, 0);
	assert_string_equal(m.root, "/mnt1");
	assert_string_equal(m.mount_point, "/mnt2");
	assert_string_equal(m.mnt_opts, "rw,noatime");
	assert_string_equal(m.optional, "master:1");
	assert_string_equal(m.fstype, "ext3");
	assert_string_equal(m.source, "/dev/root");
	assert_string_equal(m.super_opts, "rw,errors=continue");
}

static void test_optional_fields(void **state)
{
	char none[] = "20 1 0:5 / /dev rw - devtmpfs udev rw,size=1k";
	char many[] = "21 1 0:6 / /x rw shared:4 master:2 propagate_from:1 - tmpfs none rw";
	struct tf_mount m;

	(void)state;
	assert_int_equal(tf_mountinfo_parse_line(none, &m), 0);
	assert_string_equal(m.optional, "");
	assert_string_equal(m.fstype, "devtmpfs");
	assert_int_equal(tf_mountinfo_parse_line(many, &m), 0);
	assert_string_equal(m.optional, "shared:4 master:2 propagate_from:1");
	assert_string_equal(m.source, "none");
}

static void test_escapes(void **state)
{
	char line[] = "40 30 0:40 /a\\134b /mnt/with\\040space\\011tab\\012nl\\134bs rw,noexec - tmpfs my\\040src rw";
	char lit[] = "a\\x41\\9\\0400";
	struct tf_mount m;

	(void)state;
	assert_int_equal(tf_mountinfo_parse_line(line, &m), 0);
	assert_string_equal(m.root, "/a\\b");
	assert_string_equal(m.mount_point, "/mnt/with space\ttab\nnl\\bs");
	assert_string_equal(m.source, "my src");
	/* only \ooo is an escape; other backslashes stay */
	assert_string_equal(tf_mountinfo_unescape(lit), "a\\x41\\9 0");
}

static void test_malformed(void **state)
{
	const char *bad[] = {
		"",
		"36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 ext3 /dev/root rw",
		"36 35 98-0 / / rw - ext4 /dev/root rw",
		"x 35 98:0 / / rw - ext4 /dev/root rw",
		"36 35 98:0 / / rw - ext4 /dev/root",
		"36 35 98:0 / / rw - ext4 /dev/root rw extra",
		"-1 35 98:0 / / rw - ext4 /dev/root rw",
	};
	struct tf_mount m;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *copy = strdup(bad[i]);

		errno = 0;
		assert_int_equal(tf_mountinfo_parse_line(copy, &m), -1);
		assert_int_equal(errno, EINVAL);
		free(copy);
	}
}

static void test_bind_and_overmount(void **state)
{
	/* /data bind-mounted noexec at /srv (root /data), then /srv overmounted,
	 * and /stack has two mounts stacked in the same parent
	 */
	const char text[] =
		"1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
		"2 1 8:1 /data /srv rw,noexec - ext4 /dev/sda1 rw\n"
		"3 2 0:50 / /srv rw - tmpfs none rw\n"
		"4 1 0:51 / /stack rw - tmpfs a rw\n"
		"5 1 0:52 / /stack rw - tmpfs b rw\n"
		"6 1 0:53 / /other rw - tmpfs c rw\n";
	struct tf_mountinfo mi;
	size_t bad = 99;

	(void)state;
	assert_int_equal(tf_mountinfo_parse(strdup(text), &mi, &bad), 0);
	assert_int_equal(mi.count, 6);
	assert_string_equal(mi.mounts[1].root, "/data");
	assert_true(tf_mount_opt_has(mi.mounts[1].mnt_opts, "noexec"));
	assert_true(mi.mounts[1].overmounted);
	assert_false(mi.mounts[2].overmounted);
	assert_true(mi.mounts[3].overmounted);
	assert_false(mi.mounts[4].overmounted);
	assert_false(mi.mounts[0].overmounted);
	assert_false(mi.mounts[5].overmounted);
	assert_ptr_equal(tf_mountinfo_find(&mi, 5), &mi.mounts[4]);
	assert_null(tf_mountinfo_find(&mi, 77));
	tf_mountinfo_free(&mi);
}

static void test_bad_line_number(void **state)
{
	const char text[] = "1 0 8:1 / / rw - ext4 /dev/sda1 rw\nbroken\n";
	struct tf_mountinfo mi;
	size_t bad = 0;

	(void)state;
	assert_int_equal(tf_mountinfo_parse(strdup(text), &mi, &bad), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(bad, 2);
}

static void test_opt_has(void **state)
{
	(void)state;
	assert_true(tf_mount_opt_has("rw,noexec,relatime", "noexec"));
	assert_true(tf_mount_opt_has("noexec", "noexec"));
	assert_false(tf_mount_opt_has("rw,noexecx,relatime", "noexec"));
	assert_false(tf_mount_opt_has("rw,xnoexec", "noexec"));
	assert_false(tf_mount_opt_has("", "noexec"));
}

static void test_real_mountinfo(void **state)
{
	struct tf_mountinfo mi;
	bool root = false;

	(void)state;
	assert_int_equal(tf_mountinfo_load(NULL, &mi, NULL), 0);
	assert_true(mi.count > 0);
	for (size_t i = 0; i < mi.count; i++)
		root |= !strcmp(mi.mounts[i].mount_point, "/");
	assert_true(root);
	tf_mountinfo_free(&mi);
	assert_int_equal(tf_mountinfo_load("/nonexistent/mountinfo", &mi, NULL), -1);
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple_line),
		cmocka_unit_test(test_optional_fields),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_bind_and_overmount),
		cmocka_unit_test(test_bad_line_number),
		cmocka_unit_test(test_opt_has),
		cmocka_unit_test(test_real_mountinfo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
