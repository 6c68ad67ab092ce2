// SPDX-License-Identifier: GPL-2.0-or-later
/* Dropping capabilities with libcap; see caps.h. */
#include "caps.h"

#include <stdbool.h>
#include <sys/capability.h>
#include <sys/prctl.h>

static bool have_setpcap(void)
{
	cap_t cur = cap_get_proc();
	cap_flag_value_t v = CAP_CLEAR;

	if (cur) {
		cap_get_flag(cur, CAP_SETPCAP, CAP_EFFECTIVE, &v);
		cap_free(cur);
	}
	return v == CAP_SET;
}

int ap_drop_caps(void)
{
	cap_t none;
	int rc;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	/* The bounding set first: that needs CAP_SETPCAP, dropped below. */
	if (have_setpcap()) {
		for (cap_value_t c = 0; c < cap_max_bits(); c++)
			if (cap_get_bound(c) == 1 && cap_drop_bound(c))
				return -1;
	}
	if (cap_reset_ambient())
		return -1;
	none = cap_init();
	if (!none)
		return -1;
	rc = cap_set_proc(none);
	cap_free(none);
	return rc;
}
