/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AP_DROPCAPS_H
#define AP_DROPCAPS_H

/*
 * Drop every capability (effective, permitted, inheritable, ambient and the
 * bounding set) and set no_new_privs. The plugin only reads stdin and writes
 * its own root-owned state directory, which needs no capability as its
 * owner. Returns 0, or -1 with errno.
 */
int ap_drop_caps(void);

#endif
