// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/caps.c: tf_cap_effective() against the kernel's own account of the
 * effective set (CapEff in /proc/self/status), and tf_can_load_bpf()'s
 * rule (CAP_BPF + CAP_PERFMON, or CAP_SYS_ADMIN) with the effective set
 * changed in a child process (clearing an effective bit needs no
 * privilege; raising one back needs it permitted).
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "caps.h"

static uint64_t status_caps(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	size_t flen = strlen(field);
	char line[256];
	uint64_t v = 0;
	bool found = false;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, flen) && line[flen] == ':')
			found = sscanf(line + flen + 1, "%" SCNx64, &v) == 1;
	fclose(f);
	assert_true(found);
	return v;
}

static void test_matches_status(void **state)
{
	uint64_t eff = status_caps("CapEff");

	(void)state;
	for (int c = 0; c <= CAP_LAST_CAP; c++)
		assert_int_equal(tf_cap_effective(c), (int)((eff >> c) & 1));
	errno = 0;
	assert_int_equal(tf_cap_effective(-1), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(tf_cap_effective(63), 0); /* no kernel has it */
}

/* Make the effective set exactly @caps (when permitted): true if it could. */
static bool set_effective(const cap_value_t *caps, int n)
{
	cap_t c = cap_get_proc();
	bool ok;

	assert_non_null(c);
	assert_int_equal(cap_clear_flag(c, CAP_EFFECTIVE), 0);
	if (n)
		assert_int_equal(cap_set_flag(c, CAP_EFFECTIVE, n, caps, CAP_SET), 0);
	ok = cap_set_proc(c) == 0;
	cap_free(c);
	return ok;
}

/* Child: exit 0 when every effective set it could reach gave the right answer. */
static int child(void)
{
	static const struct {
		cap_value_t caps[2];
		int n;
		bool want;
	} sets[] = {
		{ { 0 }, 0, false },
		{ { CAP_SYS_ADMIN }, 1, true },
		{ { CAP_BPF, CAP_PERFMON }, 2, true },
		{ { CAP_BPF }, 1, false },
		{ { CAP_PERFMON }, 1, false },
		{ { CAP_NET_ADMIN, CAP_SYS_PTRACE }, 2, false },
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		if (!set_effective(sets[i].caps, sets[i].n)) {
			printf("# set %zu not permitted here: not tried\n", i);
			continue;
		}
		if (tf_can_load_bpf() != sets[i].want) {
			printf("# set %zu: tf_can_load_bpf() is %d\n", i, !sets[i].want);
			bad++;
		}
	}
	return bad ? 1 : 0;
}

static void test_can_load_bpf(void **state)
{
	pid_t pid;
	int st;

	(void)state;
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child());
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_matches_status),
	cmocka_unit_test(test_can_load_bpf),
};

int main(void)
{
	return cmocka_run_group_tests_name("caps", tests, NULL, NULL);
}
