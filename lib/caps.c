// SPDX-License-Identifier: LGPL-2.1-or-later
/* The capability sets through libcap; see caps.h. */
#include "caps.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/capability.h>
#include <sys/prctl.h>

int tf_cap_effective(int cap)
{
	cap_flag_value_t v = CAP_CLEAR;
	cap_t caps;
	int rc;

	if (cap < 0) {
		errno = EINVAL;
		return -1;
	}
	if (!CAP_IS_SUPPORTED((cap_value_t)cap))
		return 0;
	caps = cap_get_proc();
	if (!caps)
		return -1;
	rc = cap_get_flag(caps, (cap_value_t)cap, CAP_EFFECTIVE, &v);
	cap_free(caps);
	if (rc < 0)
		return -1;
	return v == CAP_SET;
}

bool tf_can_load_bpf(void)
{
	if (tf_cap_effective(CAP_SYS_ADMIN) == 1)
		return true;
	return tf_cap_effective(CAP_BPF) == 1 && tf_cap_effective(CAP_PERFMON) == 1;
}

static bool kept(const int *keep, int n, cap_value_t c)
{
	for (int i = 0; i < n; i++)
		if (keep[i] == c)
			return true;
	return false;
}

int tf_caps_keep(const int *keep, int n)
{
	cap_value_t vals[CAP_LAST_CAP + 1];
	int nv = 0, rc;
	cap_t set;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	/* The bounding set first: that needs CAP_SETPCAP, dropped below. */
	if (tf_cap_effective(CAP_SETPCAP) == 1) {
		for (cap_value_t c = 0; c < cap_max_bits(); c++)
			if (!kept(keep, n, c) && cap_get_bound(c) == 1 && cap_drop_bound(c))
				return -1;
	}
	if (cap_reset_ambient())
		return -1;
	set = cap_init();
	if (!set)
		return -1;
	for (int i = 0; i < n; i++)
		if (keep[i] >= 0 && keep[i] <= CAP_LAST_CAP && CAP_IS_SUPPORTED(keep[i]) &&
		    nv <= CAP_LAST_CAP)
			vals[nv++] = keep[i];
	rc = nv ? cap_set_flag(set, CAP_PERMITTED, nv, vals, CAP_SET) |
		  cap_set_flag(set, CAP_EFFECTIVE, nv, vals, CAP_SET) : 0;
	if (!rc)
		rc = cap_set_proc(set);
	cap_free(set);
	return rc;
}
