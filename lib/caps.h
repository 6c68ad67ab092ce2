/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * caps.h - what this process may do, from its effective capability set
 * (libcap: link with `pkg-config --libs libcap`).
 */
#ifndef TF_LIB_CAPS_H
#define TF_LIB_CAPS_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Does the effective set hold capability @cap (CAP_SYS_ADMIN, CAP_BPF...)?
 * Returns 1 held, 0 not held, -1 with errno when the set cannot be read
 * (EINVAL for a negative @cap).  A capability the running kernel does not
 * know (CAP_BPF before 5.8) is not held: 0.
 */
int tf_cap_effective(int cap);

/*
 * May this process load BPF programs and read perf events: CAP_BPF and
 * CAP_PERFMON, or CAP_SYS_ADMIN (what kernels before 5.8 want)?
 * false also when the capability set cannot be read.
 */
bool tf_can_load_bpf(void);

/*
 * Keep only the @n capabilities of @keep (permitted and effective; none
 * inheritable or ambient), take every other one out of the bounding set
 * (when CAP_SETPCAP allows: it goes too, unless kept) and set
 * no_new_privs.  @n 0 drops everything.  Returns 0, or -1 with errno.
 */
int tf_caps_keep(const int *keep, int n);

#ifdef __cplusplus
}
#endif

#endif /* TF_LIB_CAPS_H */
