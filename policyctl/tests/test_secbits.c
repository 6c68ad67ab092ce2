// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exec securebits as `policyctl status` names them. The bit values are
 * mainline's uapi/linux/securebits.h (Linux 6.14), which the trustfor 6.1
 * series copies (notes/issue11-abi.md): SECURE_EXEC_RESTRICT_FILE 8,
 * its lock 9, SECURE_EXEC_DENY_INTERACTIVE 10, its lock 11; written here as
 * numbers, not through the header under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "secbits.h"

static void test_bits(void **state)
{
	static const struct {
		unsigned int bits;
		bool rf, rf_locked, di, di_locked;
	} t[] = {
		{ 0, false, false, false, false },
		{ 1u << 8, true, false, false, false },
		{ 1u << 9, false, true, false, false },
		{ 1u << 10, false, false, true, false },
		{ 1u << 11, false, false, false, true },
		{ (1u << 8) | (1u << 9), true, true, false, false },
		{ 0x500, true, false, true, false }, /* SECURE_ALL_UNPRIVILEGED */
		{ 0xf00, true, true, true, true },
		/* the older bits (noroot, keep_caps...) are not exec bits */
		{ 0xff, false, false, false, false },
		{ 0xff | (1u << 10), false, false, true, false },
	};
	struct pc_exec_secbit sb[2];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		pc_exec_secbits(t[i].bits, sb);
		assert_string_equal(sb[0].secbit, "SECBIT_EXEC_RESTRICT_FILE");
		assert_string_equal(sb[1].secbit, "SECBIT_EXEC_DENY_INTERACTIVE");
		assert_int_equal(sb[0].on, t[i].rf);
		assert_int_equal(sb[0].locked, t[i].rf_locked);
		assert_int_equal(sb[1].on, t[i].di);
		assert_int_equal(sb[1].locked, t[i].di_locked);
		assert_non_null(sb[0].meaning);
		assert_non_null(sb[1].meaning);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
