// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The evaluator's rule table against hand-built inodes, ACLs and subjects.
 * Each expectation is what Linux 6.1's acl_permission_check(),
 * posix_acl_permission(), generic_permission() and the trusted_for patch
 * (kernel/patches/0001) decide for that input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "eval.h"
#include "trustedfor.h"


static const struct pc_fsinfo plain = { false, false };
static const struct pc_fsinfo noexec = { true, false };
static const struct pc_fsinfo pseudo = { false, true };

static const gid_t alice_groups[] = { 1000, 2000 };
/* uid 1000, gid 1000, supplementary 2000 */
static const struct pc_subject alice = { 1000, 1000, alice_groups, 2, false, false };
/* uid 1001, gid 1001, no supplementary group */
static const struct pc_subject bob = { 1001, 1001, NULL, 0, false, false };
static const gid_t root_groups[] = { 0 };
static const struct pc_subject root = { 0, 0, root_groups, 1, true, true };
/* root without capabilities (e.g. a capability-dropped service) */
static const struct pc_subject root_nocap = { 0, 0, root_groups, 1, false, false };

static struct pc_inode file(mode_t perm, uid_t uid, gid_t gid)
{
	struct pc_inode i = { S_IFREG | perm, uid, gid, NULL, 0, false };

	return i;
}

static unsigned int ev(int policy, const struct pc_fsinfo *fs,
		       struct pc_inode i, const struct pc_subject *s)
{
	return pc_eval(policy, PC_MODEL_TRUSTED_FOR, fs, &i, s);
}

static void test_owner_class(void **state)
{
	(void)state;
	assert_int_equal(ev(3, &plain, file(0700, 1000, 1000), &alice), 0);
	assert_int_equal(ev(3, &plain, file(0644, 1000, 1000), &alice), TF_REASON_FILE_PERM);
	/* exec without read is not enough: executing data implies reading */
	assert_int_equal(ev(3, &plain, file(0300, 1000, 1000), &alice), TF_REASON_FILE_PERM);
	/* the owner class is final: group/other bits do not help the owner */
	assert_int_equal(ev(3, &plain, file(0477, 1000, 1000), &alice), TF_REASON_FILE_PERM);
	/* ...and policy 0/1 only need read */
	assert_int_equal(ev(0, &plain, file(0400, 1000, 1000), &alice), 0);
	assert_int_equal(ev(1, &plain, file(0400, 1000, 1000), &alice), 0);
	assert_int_equal(ev(0, &plain, file(0077, 1000, 1000), &alice), TF_REASON_FILE_PERM);
}

static void test_group_and_other(void **state)
{
	(void)state;
	/* owning group 1000 = alice's primary group */
	assert_int_equal(ev(3, &plain, file(0750, 0, 1000), &alice), 0);
	/* supplementary group 2000 */
	assert_int_equal(ev(3, &plain, file(0750, 0, 2000), &alice), 0);
	/* group class is final even when other would allow */
	assert_int_equal(ev(3, &plain, file(0705, 0, 2000), &alice), TF_REASON_FILE_PERM);
	/* not in the group: other class */
	assert_int_equal(ev(3, &plain, file(0705, 0, 2000), &bob), 0);
	assert_int_equal(ev(3, &plain, file(0750, 0, 2000), &bob), TF_REASON_FILE_PERM);
	assert_int_equal(ev(2, &plain, file(0744, 0, 0), &bob), TF_REASON_FILE_PERM);
	assert_int_equal(ev(1, &plain, file(0744, 0, 0), &bob), 0);
}

static void test_root_capabilities(void **state)
{
	(void)state;
	/* CAP_DAC_OVERRIDE grants exec only when some x bit is set */
	assert_int_equal(ev(3, &plain, file(0644, 1000, 1000), &root), TF_REASON_FILE_PERM);
	assert_int_equal(ev(3, &plain, file(0001, 1000, 1000), &root), 0);
	assert_int_equal(ev(3, &plain, file(0010, 1000, 1000), &root), 0);
	assert_int_equal(ev(3, &plain, file(0100, 1000, 1000), &root), 0);
	/* root's own file with only the group x bit: owner class fails, override works */
	assert_int_equal(ev(3, &plain, file(0614, 0, 1000), &root), 0);
	/* read is always overridable */
	assert_int_equal(ev(0, &plain, file(0000, 1000, 1000), &root), 0);
	assert_int_equal(ev(3, &plain, file(0000, 1000, 1000), &root), TF_REASON_FILE_PERM);
	/* without capabilities, uid 0 is an ordinary owner */
	assert_int_equal(ev(3, &plain, file(0611, 0, 0), &root_nocap), TF_REASON_FILE_PERM);
	assert_int_equal(ev(0, &plain, file(0000, 1000, 1000), &root_nocap), TF_REASON_FILE_PERM);
}

static void test_static_reasons(void **state)
{
	struct pc_inode fifo = { S_IFIFO | 0777, 0, 0, NULL, 0, false };
	struct pc_inode dir = { S_IFDIR | 0755, 0, 0, NULL, 0, false };
	struct pc_inode chr = { S_IFCHR | 0666, 0, 0, NULL, 0, false };

	(void)state;
	/* bit 0: noexec mount */
	assert_int_equal(ev(1, &noexec, file(0755, 0, 0), &root), TF_REASON_NOEXEC_MOUNT);
	assert_int_equal(ev(3, &noexec, file(0755, 0, 0), &root), TF_REASON_NOEXEC_MOUNT);
	assert_int_equal(ev(2, &noexec, file(0755, 0, 0), &root), 0);
	/* static reasons short-circuit the permission check */
	assert_int_equal(ev(3, &noexec, file(0644, 0, 0), &bob), TF_REASON_NOEXEC_MOUNT);
	/* pseudo fs and non-regular files: under any non-zero policy */
	assert_int_equal(ev(2, &pseudo, file(0777, 0, 0), &root), TF_REASON_PSEUDO_FS);
	assert_int_equal(ev(1, &pseudo, file(0777, 0, 0), &root), TF_REASON_PSEUDO_FS);
	assert_int_equal(ev(1, &plain, fifo, &root), TF_REASON_NOT_REGULAR);
	assert_int_equal(ev(3, &noexec, chr, &bob), TF_REASON_NOT_REGULAR | TF_REASON_NOEXEC_MOUNT);
	assert_int_equal(ev(2, &pseudo, fifo, &bob), TF_REASON_NOT_REGULAR | TF_REASON_PSEUDO_FS);
	assert_int_equal(ev(1, &plain, dir, &root), TF_REASON_NOT_REGULAR);
	/* policy 0: none of them, a read permission check only */
	assert_int_equal(ev(0, &pseudo, fifo, &bob), 0);
	assert_int_equal(ev(0, &noexec, file(0644, 0, 0), &bob), 0);
	assert_int_equal(ev(0, &plain, dir, &bob), 0);
	assert_int_equal(ev(0, &plain, file(0640, 0, 0), &bob), TF_REASON_FILE_PERM);
}

#define E(t, p, id) { PC_ACL_##t, p, id }

static unsigned int ev_acl(int policy, mode_t perm, const struct pc_acl_entry *acl,
			   size_t n, const struct pc_subject *s)
{
	struct pc_inode i = { S_IFREG | perm, 0, 0, acl, n, false };

	return pc_eval(policy, PC_MODEL_TRUSTED_FOR, &plain, &i, s);
}

/* u::rw- u:alice:r-x g::r-- m::r-x o::--- ; mode 0650 (group = mask) */
static const struct pc_acl_entry acl_alice[] = {
	E(USER_OBJ, 6, 0), E(USER, 5, 1000), E(GROUP_OBJ, 4, 0),
	E(MASK, 5, 0), E(OTHER, 0, 0),
};
/* same, mask r-- */
static const struct pc_acl_entry acl_alice_masked[] = {
	E(USER_OBJ, 6, 0), E(USER, 5, 1000), E(GROUP_OBJ, 4, 0),
	E(MASK, 4, 0), E(OTHER, 0, 0),
};
/* mask ---: mode group bits 0, the kernel skips the ACL entirely */
static const struct pc_acl_entry acl_zero_mask[] = {
	E(USER_OBJ, 6, 0), E(USER, 7, 1000), E(GROUP_OBJ, 0, 0),
	E(MASK, 0, 0), E(OTHER, 5, 0),
};
/* u::rw- g::r-- g:2000:r-x m::rwx o::r-- */
static const struct pc_acl_entry acl_group[] = {
	E(USER_OBJ, 6, 0), E(GROUP_OBJ, 4, 0), E(GROUP, 5, 2000),
	E(MASK, 7, 0), E(OTHER, 4, 0),
};
/* read from one group, exec from another: no single entry grants both */
static const struct pc_acl_entry acl_split[] = {
	E(USER_OBJ, 6, 0), E(GROUP_OBJ, 0, 0), E(GROUP, 4, 1000),
	E(GROUP, 1, 2000), E(MASK, 7, 0), E(OTHER, 7, 0),
};
/* matching group without the wanted bits: other does not apply */
static const struct pc_acl_entry acl_found_only[] = {
	E(USER_OBJ, 6, 0), E(GROUP_OBJ, 0, 0), E(GROUP, 4, 2000),
	E(MASK, 7, 0), E(OTHER, 7, 0),
};
/* named group allowed but mask takes exec away */
static const struct pc_acl_entry acl_group_masked[] = {
	E(USER_OBJ, 6, 0), E(GROUP_OBJ, 4, 0), E(GROUP, 7, 2000),
	E(MASK, 6, 0), E(OTHER, 0, 0),
};

/* One expectation: @policy on a file of mode @perm, owned 0:0, with @acl. */
struct acl_case {
	int policy;
	mode_t perm;
	const struct pc_acl_entry *acl;
	size_t n;
	const struct pc_subject *s;
	unsigned int want;
};
#define NACL(a) (sizeof(a) / sizeof((a)[0]))

static void run_acl_cases(const struct acl_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned int got = ev_acl(c[i].policy, c[i].perm, c[i].acl,
					  c[i].n, c[i].s);

		if (got != c[i].want)
			fail_msg("case %zu: policy %d mode %04o uid %u: got %#x, want %#x",
				 i, c[i].policy, (unsigned int)c[i].perm,
				 (unsigned int)c[i].s->uid, got, c[i].want);
	}
}

static void test_acl_named_user_and_mask(void **state)
{
	static const struct acl_case cases[] = {
		{ 3, 0650, acl_alice, NACL(acl_alice), &alice, 0 },
		{ 3, 0650, acl_alice, NACL(acl_alice), &bob, TF_REASON_FILE_PERM },
		{ 3, 0640, acl_alice_masked, NACL(acl_alice_masked), &alice, TF_REASON_FILE_PERM },
		{ 0, 0640, acl_alice_masked, NACL(acl_alice_masked), &alice, 0 },
		/*
		 * POSIX.1e would deny alice (u:alice:rwx & m::---), but with
		 * no group bit in the mode acl_permission_check() never reads
		 * the ACL: alice falls to the other class (r-x) and is allowed.
		 */
		{ 3, 0605, acl_zero_mask, NACL(acl_zero_mask), &alice, 0 },
		/* root: some x bit set (other x) -> override */
		{ 3, 0640, acl_alice_masked, NACL(acl_alice_masked), &root, TF_REASON_FILE_PERM },
		{ 3, 0650, acl_alice, NACL(acl_alice), &root, 0 },
	};

	(void)state;
	run_acl_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_acl_groups(void **state)
{
	static const struct acl_case cases[] = {
		{ 3, 0674, acl_group, NACL(acl_group), &alice, 0 },
		{ 3, 0674, acl_group, NACL(acl_group), &bob, TF_REASON_FILE_PERM },
		{ 3, 0677, acl_split, NACL(acl_split), &alice, TF_REASON_FILE_PERM },
		{ 0, 0677, acl_split, NACL(acl_split), &alice, 0 },
		{ 3, 0677, acl_found_only, NACL(acl_found_only), &alice, TF_REASON_FILE_PERM },
		{ 3, 0677, acl_found_only, NACL(acl_found_only), &bob, 0 },
		{ 3, 0660, acl_group_masked, NACL(acl_group_masked), &alice, TF_REASON_FILE_PERM },
		{ 2, 0660, acl_group_masked, NACL(acl_group_masked), &alice, TF_REASON_FILE_PERM },
		{ 1, 0660, acl_group_masked, NACL(acl_group_masked), &alice, 0 },
	};

	(void)state;
	run_acl_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_acl_owner_ignores_acl(void **state)
{
	const struct pc_acl_entry acl[] = {
		E(USER_OBJ, 4, 0), E(USER, 7, 1000), E(GROUP_OBJ, 7, 0),
		E(MASK, 7, 0), E(OTHER, 7, 0),
	};
	struct pc_inode i = { S_IFREG | 0477, 1000, 0, acl, 5, false };

	(void)state;
	assert_int_equal(pc_eval(3, PC_MODEL_TRUSTED_FOR, &plain, &i, &alice),
			 TF_REASON_FILE_PERM);
}

static void test_execve_check_model(void **state)
{
	struct pc_inode xonly = file(0100, 1000, 1000);
	struct pc_inode fifo = { S_IFIFO | 0777, 0, 0, NULL, 0, false };

	(void)state;
	/* AT_EXECVE_CHECK asks MAY_EXEC only: no read needed */
	assert_int_equal(pc_eval(0, PC_MODEL_EXECVE_CHECK, &plain, &xonly, &alice), 0);
	assert_int_equal(pc_eval(3, PC_MODEL_TRUSTED_FOR, &plain, &xonly, &alice),
			 TF_REASON_FILE_PERM);
	assert_int_equal(pc_eval(0, PC_MODEL_EXECVE_CHECK, &noexec, &xonly, &alice),
			 TF_REASON_NOEXEC_MOUNT);
	assert_int_equal(pc_eval(0, PC_MODEL_EXECVE_CHECK, &plain, &fifo, &root),
			 TF_REASON_NOT_REGULAR);
	/* no pseudo_fs notion there: a regular file of a pseudo fs is asked */
	struct pc_inode rx = file(0755, 0, 0);

	assert_int_equal(pc_eval(0, PC_MODEL_EXECVE_CHECK, &pseudo, &rx, &alice), 0);
}

/*
 * A file open for writing (i_writecount > 0): fs/exec.c do_open_execat()
 * fails with ETXTBSY in deny_write_access(), after the open for execution
 * succeeded, so every static and permission refusal comes first.
 * trusted_for(2) does not look at writers.
 */
static void test_execve_check_write_busy(void **state)
{
	struct pc_inode busy = file(0750, 1000, 1000);
	struct pc_inode busy_ro = file(0644, 1000, 1000);

	(void)state;
	busy.open_for_write = busy_ro.open_for_write = true;
	assert_int_equal(pc_eval(-1, PC_MODEL_EXECVE_CHECK, &plain, &busy, &alice),
			 TF_REASON_WRITE_BUSY);
	/* root: an x bit is set, CAP_DAC_OVERRIDE lets the open succeed */
	assert_int_equal(pc_eval(-1, PC_MODEL_EXECVE_CHECK, &plain, &busy, &root),
			 TF_REASON_WRITE_BUSY);
	/* bob has no exec permission: EACCES at the open, not ETXTBSY */
	assert_int_equal(pc_eval(-1, PC_MODEL_EXECVE_CHECK, &plain, &busy, &bob),
			 TF_REASON_FILE_PERM);
	assert_int_equal(pc_eval(-1, PC_MODEL_EXECVE_CHECK, &plain, &busy_ro, &root),
			 TF_REASON_FILE_PERM);
	assert_int_equal(pc_eval(-1, PC_MODEL_EXECVE_CHECK, &noexec, &busy, &alice),
			 TF_REASON_NOEXEC_MOUNT);
	/* trusted_for: a writer changes nothing */
	for (int p = 0; p <= 3; p++)
		assert_int_equal(ev(p, &plain, busy, &alice), 0);
}

static void test_acl_xattr_parse(void **state)
{
	/* version 2; USER_OBJ rw-; USER 1000 r-x; GROUP_OBJ r--; MASK r-x; OTHER --- */
	const unsigned char x[] = {
		2, 0, 0, 0,
		0x01, 0, 6, 0, 0xff, 0xff, 0xff, 0xff,
		0x02, 0, 5, 0, 0xe8, 0x03, 0, 0,
		0x04, 0, 4, 0, 0xff, 0xff, 0xff, 0xff,
		0x10, 0, 5, 0, 0xff, 0xff, 0xff, 0xff,
		0x20, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
	};
	unsigned char bad[sizeof(x)];
	struct pc_acl_entry e[8];

	(void)state;
	assert_int_equal(pc_acl_parse_xattr(x, sizeof(x), e, 8), 5);
	assert_int_equal(e[1].tag, PC_ACL_USER);
	assert_int_equal(e[1].perm, 5);
	assert_int_equal(e[1].id, 1000);
	assert_int_equal(e[4].tag, PC_ACL_OTHER);
	assert_int_equal(pc_acl_parse_xattr(x, sizeof(x), e, 4), -1);
	assert_int_equal(pc_acl_parse_xattr(x, sizeof(x) - 1, e, 8), -1);
	memcpy(bad, x, sizeof(x));
	bad[0] = 1; /* wrong version */
	assert_int_equal(pc_acl_parse_xattr(bad, sizeof(bad), e, 8), -1);
	memcpy(bad, x, sizeof(x));
	bad[4] = 0x40; /* unknown tag */
	assert_int_equal(pc_acl_parse_xattr(bad, sizeof(bad), e, 8), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner_class),
		cmocka_unit_test(test_group_and_other),
		cmocka_unit_test(test_root_capabilities),
		cmocka_unit_test(test_static_reasons),
		cmocka_unit_test(test_acl_named_user_and_mask),
		cmocka_unit_test(test_acl_groups),
		cmocka_unit_test(test_acl_owner_ignores_acl),
		cmocka_unit_test(test_execve_check_model),
		cmocka_unit_test(test_execve_check_write_busy),
		cmocka_unit_test(test_acl_xattr_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
