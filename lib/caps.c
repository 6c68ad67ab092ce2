// SPDX-License-Identifier: LGPL-2.1-or-later
/* Reading the effective capability set with libcap; see caps.h. */
#include "caps.h"

#include <errno.h>
#include <sys/capability.h>

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
