// SPDX-License-Identifier: GPL-2.0-or-later
/* Dropping capabilities with libcap; see dropcaps.h. */
#include "dropcaps.h"

#include <sys/capability.h>
#include <sys/prctl.h>

#include "caps.h" /* lib: tf_cap_effective() */

int ap_drop_caps(void)
{
	cap_t none;
	int rc;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	/* The bounding set first: that needs CAP_SETPCAP, dropped below. */
	if (tf_cap_effective(CAP_SETPCAP) == 1) {
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
