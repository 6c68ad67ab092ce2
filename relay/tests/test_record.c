// SPDX-License-Identifier: GPL-2.0-or-later
/* The text of trustfor-relay's records, against hand-written expectations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "record.h"
#include "trustedfor_abi.h"

/* Components innermost first, each NUL-ended, as the BPF walk writes them. */
static size_t comps(char *buf, const char *const *c, int n)
{
	size_t o = 0;

	for (int i = 0; i < n; i++) {
		strcpy(buf + o, c[i]);
		o += strlen(c[i]) + 1;
	}
	return o;
}

static void base(struct rl_event *e)
{
	static const char *const exe[] = { "python3", "bin", "usr" };

	memset(e, 0, sizeof(*e));
	e->pid = 42;
	e->ppid = 1;
	e->uid = e->euid = e->suid = e->fsuid = 1000;
	e->gid = e->egid = e->sgid = e->fsgid = 100;
	e->auid = 1000;
	e->ses = 3;
	e->flags = RL_EV_AUDIT;
	e->secbits = 0x100;
	e->ret = -13;
	strcpy(e->comm, "python3");
	e->exe_len = comps(e->exe, exe, 3);
}

static void test_fd(void **state)
{
	static const char *const p[] = { "x.py", "uploads", "run" };
	struct rl_event e;
	char out[RL_TEXT_MAX];

	(void)state;
	base(&e);
	e.flags |= RL_EV_FD;
	e.reason = TF_REASON_NOEXEC_MOUNT;
	e.dev = (254u << 20) | 1;
	e.ino = 1234;
	e.mode = 0100644;
	e.ouid = 1000;
	e.ogid = 100;
	e.path_len = comps(e.path, p, 3);
	assert_int_not_equal(rl_record_text(&e, out, sizeof(out)), -1);
	assert_string_equal(out,
		"usage=execution policy=? reason=noexec_mount dev=fe:01 ino=1234 "
		"mode=0100644 ouid=1000 ogid=100 path=\"/run/uploads/x.py\" ppid=1 pid=42 "
		"auid=1000 uid=1000 gid=100 euid=1000 suid=1000 fsuid=1000 egid=100 sgid=100 "
		"fsgid=100 ses=3 comm=\"python3\" exe=\"/usr/bin/python3\" "
		"api=execve_check secbits=0x100 enforced=1 file=fd res=0 src=relay");
}

/*
 * enforced= by the kernel's rule (check_exec.rst), each case written out:
 * a check of descriptor 0 itself (RL_EV_STDIN) under 0x400, any other
 * under 0x100.
 */
static void test_enforced(void **state)
{
	static const struct {
		unsigned int secbits, flags;
		const char *want;
	} c[] = {
		{ 0x0, RL_EV_FD, " secbits=0x0 enforced=0 file=fd " },
		{ 0x0, RL_EV_FD | RL_EV_STDIN, " secbits=0x0 enforced=0 file=fd " },
		{ 0x400, RL_EV_FD, " secbits=0x400 enforced=0 file=fd " },
		{ 0x400, RL_EV_FD | RL_EV_STDIN, " secbits=0x400 enforced=1 file=fd " },
		{ 0x400, 0, " secbits=0x400 enforced=0 file=name " },
		{ 0x100, 0, " secbits=0x100 enforced=1 file=name " },
		{ 0x100, RL_EV_FD | RL_EV_STDIN, " secbits=0x100 enforced=0 file=fd " },
		{ 0x500, RL_EV_FD, " secbits=0x500 enforced=1 file=fd " },
		{ 0x500, RL_EV_FD | RL_EV_STDIN, " secbits=0x500 enforced=1 file=fd " },
		{ 0x800, RL_EV_FD | RL_EV_STDIN, " secbits=0x800 enforced=0 file=fd " },
	};
	struct rl_event e;
	char out[RL_TEXT_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		base(&e);
		e.secbits = c[i].secbits;
		e.flags |= c[i].flags;
		strcpy(e.name, "/s.py");
		assert_int_not_equal(rl_record_text(&e, out, sizeof(out)), -1);
		if (!strstr(out, c[i].want))
			fail_msg("case %zu: no '%s' in %s", i, c[i].want, out);
	}
}

static void test_name_relative_hostile(void **state)
{
	static const char *const dir[] = { "a'b", "tmp" };
	struct rl_event e;
	char out[RL_TEXT_MAX];

	(void)state;
	base(&e);
	e.flags = RL_EV_DIR; /* no audit fields: unset */
	e.secbits = 0;
	e.path_len = comps(e.path, dir, 2);
	strcpy(e.name, "s\xe2\x80\xae.py");
	assert_int_not_equal(rl_record_text(&e, out, sizeof(out)), -1);
	/* "/tmp/a'b/s" U+202E ".py": a quote and a bidi control, so hex */
	assert_non_null(strstr(out, "reason=unknown path=2F746D702F6127622F73E280AE2E7079 "));
	assert_non_null(strstr(out, " auid=4294967295 "));
	assert_non_null(strstr(out, " ses=4294967295 comm="));
	assert_null(strstr(out, " dev="));
	assert_null(strstr(out, " ino="));
	assert_non_null(strstr(out, " secbits=0x0 enforced=0 file=name res=0 src=relay"));
}

/* A single quote would end the kernel's msg='...': hex, though audit would quote it. */
static void test_quote(void **state)
{
	struct rl_event e;
	char out[RL_TEXT_MAX];

	(void)state;
	base(&e);
	strcpy(e.name, "/it's");
	assert_int_not_equal(rl_record_text(&e, out, sizeof(out)), -1);
	assert_non_null(strstr(out, " path=2F69742773 "));
	assert_null(strchr(out, '\''));
}

static void test_name_absolute_cut(void **state)
{
	static const char *const p[] = { "c", "b" };
	struct rl_event e;
	char out[RL_TEXT_MAX];

	(void)state;
	base(&e);
	strcpy(e.name, "/srv/x.sh");
	e.flags |= RL_EV_EXE_CUT;
	e.exe_len = comps(e.exe, p, 2);
	assert_int_not_equal(rl_record_text(&e, out, sizeof(out)), -1);
	assert_non_null(strstr(out, " path=\"/srv/x.sh\" "));
	/* the exe lost what was above b: no leading slash, and cut= says so */
	assert_non_null(strstr(out, " exe=\"b/c\" "));
	assert_non_null(strstr(out, " file=name cut=exe res=0 src=relay"));
}

static void test_no_exe_and_too_small(void **state)
{
	struct rl_event e;
	char out[RL_TEXT_MAX];

	(void)state;
	base(&e);
	e.exe_len = 0;
	strcpy(e.name, "/x");
	assert_int_not_equal(rl_record_text(&e, out, sizeof(out)), -1);
	assert_non_null(strstr(out, " exe=? api="));
	assert_int_equal(rl_record_text(&e, out, 40), -1);
}

static void test_lost(void **state)
{
	char out[128];

	(void)state;
	assert_int_equal(rl_lost_text(17, out, sizeof(out)),
			 (int)strlen("usage=execution op=lost lost=17 res=0 api=execve_check src=relay"));
	assert_string_equal(out, "usage=execution op=lost lost=17 res=0 api=execve_check src=relay");
}

static void test_join(void **state)
{
	static const char *const p[] = { "f", "d" };
	char buf[64], out[64];
	size_t n = comps(buf, p, 2);

	(void)state;
	assert_int_equal(rl_path_join(buf, n, 0, out, sizeof(out)), 4);
	assert_string_equal(out, "/d/f");
	rl_path_join(buf, 0, 0, out, sizeof(out));
	assert_string_equal(out, "/");
	rl_path_join(buf, n, 0, out, 3);
	assert_string_equal(out, "/d");
}

/*
 * Components of @sizes[i] - 1 bytes each (i = 0 innermost), every byte one
 * that audit hex-encodes (0x7f, and 'A' + i first, to tell them apart),
 * written as the BPF walk writes them; @want gets the joined path, built
 * here from the sizes, outermost first.
 */
static size_t big_comps(char *buf, const size_t *sizes, int n, char *want)
{
	size_t o = 0, w = 0;

	for (int i = 0; i < n; i++) {
		memset(buf + o, 0x7f, sizes[i] - 1);
		buf[o] = (char)('A' + i);
		buf[o + sizes[i] - 1] = '\0';
		o += sizes[i];
	}
	for (int i = n; i-- > 0;) {
		size_t at = 0;

		for (int k = 0; k < i; k++)
			at += sizes[k];
		want[w++] = '/';
		memcpy(want + w, buf + at, sizes[i] - 1);
		w += sizes[i] - 1;
	}
	want[w] = '\0';
	return o;
}

/* The value of field @name in @out, hex-decoded into @dec. */
static void unhex_field(const char *out, const char *name, char *dec)
{
	const char *v = strstr(out, name);
	size_t n = 0;

	assert_non_null(v);
	v += strlen(name);
	for (; v[0] && v[0] != ' '; v += 2) {
		char two[3] = { v[0], v[1], '\0' }, *end;

		dec[n++] = (char)strtoul(two, &end, 16);
		assert_true(*end == '\0' && v[1]);
	}
	dec[n] = '\0';
}

/*
 * The largest event the program can build: the directory of a relative
 * name and the executable both as deep as the walk goes (a component that
 * starts below the room's end may use RL_COMP_MAX more), a name of
 * RL_NAME_LEN - 1 bytes, every byte hex-encoded.  Nothing may be dropped
 * (the innermost component least of all), and the record fits.
 */
static void test_largest(void **state)
{
	/* 7 components of 256, one of 255 (up to RL_PATH_ROOM - 1), one of 256 */
	static const size_t dir[] = { 256, 256, 256, 256, 256, 256, 256, 255, 256 };
	static const size_t exe[] = { 256, 255, 256 }; /* RL_EXE_ROOM - 1, then 256 */
	static char want_dir[RL_PATH_ROOM + RL_COMP_MAX + 1], want_exe[RL_EXE_ROOM + RL_COMP_MAX + 1];
	static char want[sizeof(want_dir) + RL_NAME_LEN + 1], dec[sizeof(want) + 1];
	static char out[RL_TEXT_MAX];
	static struct rl_event e;

	(void)state;
	base(&e);
	e.flags = RL_EV_AUDIT | RL_EV_DIR;
	e.path_len = (uint16_t)big_comps(e.path, dir, 9, want_dir);
	assert_int_equal(e.path_len, RL_PATH_ROOM + RL_COMP_MAX - 1);
	e.exe_len = (uint16_t)big_comps(e.exe, exe, 3, want_exe);
	assert_int_equal(e.exe_len, RL_EXE_ROOM + RL_COMP_MAX - 1);
	memset(e.name, 0x7f, RL_NAME_LEN - 1);
	e.name[RL_NAME_LEN - 1] = '\0';
	snprintf(want, sizeof(want), "%s/%s", want_dir, e.name);
	memset(e.comm, 0x7f, RL_COMM_LEN);

	assert_int_not_equal(rl_record_text(&e, out, sizeof(out)), -1);
	unhex_field(out, " path=", dec);
	assert_string_equal(dec, want);
	unhex_field(out, " exe=", dec);
	assert_string_equal(dec, want_exe);
	assert_null(strstr(out, " cut="));
}

/* Files in no tree: their own name, or pipe:[ino] / socket:[ino] as /proc shows them. */
static void test_pseudo(void **state)
{
	static const struct {
		const char *name;
		unsigned int mode;
		const char *want;
	} cases[] = {
		{ "", 0010600, " path=\"pipe:[77]\" " },
		{ "", 0140777, " path=\"socket:[77]\" " },
		{ "memfd:x", 0100777, " path=\"memfd:x\" " },
		{ "", 0100600, " path=\"?\" " },
	};
	struct rl_event e;
	char out[RL_TEXT_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		base(&e);
		e.flags |= RL_EV_FD | RL_EV_PSEUDO;
		e.ino = 77;
		e.mode = cases[i].mode;
		strcpy(e.path, cases[i].name);
		e.path_len = (uint16_t)(strlen(cases[i].name) + 1);
		assert_int_not_equal(rl_record_text(&e, out, sizeof(out)), -1);
		assert_non_null(strstr(out, cases[i].want));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fd),
		cmocka_unit_test(test_enforced),
		cmocka_unit_test(test_name_relative_hostile),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_name_absolute_cut),
		cmocka_unit_test(test_no_exe_and_too_small),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_largest),
		cmocka_unit_test(test_pseudo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
