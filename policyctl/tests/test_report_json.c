// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `policyctl check` output with hostile names: --json follows lib/tfjson.h
 * (KEY text + KEY_hex exact bytes, hidden code points as \uXXXX), the text
 * report escapes them (lib/escape.h). Expected values written by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "check.h"
#include "escape.h"
#include "report.h"
#include "../../tests/lib/json_checks.h"

/* mount point with U+202E, fstype with an invalid byte and U+2066 (a FUSE
 * subtype is the mounter's choice), a file name with both, a user with ESC
 */
#define MP "/srv/x\xe2\x80\xae"
#define MP_HEX "2f7372762f78e280ae"
#define FST "fuse.\xff\xe2\x81\xa6"
#define FST_TEXT "fuse.\xef\xbf\xbd\xe2\x81\xa6"
#define FST_HEX "667573652effe281a6"
#define FILE_PATH MP "/ev\xffil\xe2\x80\xaeh.sh"
#define FILE_TEXT MP "/ev\xef\xbf\xbdil\xe2\x80\xaeh.sh"
#define FILE_HEX MP_HEX "2f6576ff696ce280ae682e7368"
#define USER "al\x1b" "ice"
#define USER_HEX "616c1b696365"

static struct tf_mount m = {
	.mnt_id = 42, .root = "/", .mount_point = MP, .mnt_opts = "rw,nosuid",
	.optional = "", .fstype = FST, .source = "src", .super_opts = "rw",
};
static struct pc_mount pm = { .m = &m, .selected = true, .scripts = 2, .denied = 1,
			      .by_reason = { [1] = 1 } };
static struct pc_user alice = { .uid = 1000, .name = USER };

static void fill(struct pc_check *c, struct pc_denial **d)
{
	*d = calloc(1, sizeof(**d) + sizeof((*d)->sub[0]));
	assert_non_null(*d);
	(*d)->path = FILE_PATH;
	(*d)->pm = &pm;
	(*d)->reasons = TF_REASON_FILE_PERM;
	(*d)->mode = 0100644;
	(*d)->uid = 1000;
	(*d)->gid = 1000;
	(*d)->nsub = 1;
	(*d)->sub[0].user = &alice;
	(*d)->sub[0].reasons = TF_REASON_FILE_PERM;
	memset(c, 0, sizeof(*c));
	c->policy = 3;
	c->mounts.v = &pm;
	c->mounts.n = 1;
	c->denials = d;
	c->ndenials = 1;
}

/* The report of the filled check, JSON or text (--all); safe on a terminal. */
static char *render(bool json)
{
	struct pc_check c;
	struct pc_denial *d;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fill(&c, &d);
	assert_non_null(f);
	if (json)
		assert_int_equal(pc_report_json(&c, f), 0);
	else
		pc_report_text(&c, f, true);
	assert_int_equal(fclose(f), 0);
	free(d);
	assert_terminal_safe(text);
	return text;
}

static void test_json(void **state)
{
	char *text = render(true);
	json_object *root, *o, *v;

	(void)state;
	assert_non_null(strstr(text, "\"mount_point\":\"/srv/x\\u202e\""));
	root = json_tokener_parse(text);
	assert_non_null(root);

	assert_true(json_object_object_get_ex(root, "mounts", &v));
	o = json_object_array_get_idx(v, 0);
	want_field(o, "mount_point", MP);
	want_field(o, "mount_point_hex", MP_HEX);
	want_field(o, "fstype", FST_TEXT);
	want_field(o, "fstype_hex", FST_HEX);
	want_field(o, "source", "src");
	assert_null(field(o, "source_hex"));
	want_field(o, "options", "rw,nosuid");
	assert_null(field(o, "options_hex"));

	assert_true(json_object_object_get_ex(root, "denied", &v));
	o = json_object_array_get_idx(v, 0);
	want_field(o, "path", FILE_TEXT);
	want_field(o, "path_hex", FILE_HEX);
	want_field(o, "mount_point_hex", MP_HEX);
	assert_true(json_object_object_get_ex(o, "denied_for", &v));
	o = json_object_array_get_idx(v, 0);
	want_field(o, "user", USER);
	want_field(o, "user_hex", USER_HEX);

	json_object_put(root);
	free(text);
}

static void test_text(void **state)
{
	char *text = render(false);

	(void)state;
	/* the group header: mount point and fstype escaped */
	assert_non_null(strstr(text, "\n/srv/x\\xe2\\x80\\xae (fuse.\\xff\\xe2\\x81\\xa6): file_perm: 1 file\n"));
	assert_non_null(strstr(text, "  /srv/x\\xe2\\x80\\xae/ev\\xffil\\xe2\\x80\\xaeh.sh  denied for: al\\x1bice\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
