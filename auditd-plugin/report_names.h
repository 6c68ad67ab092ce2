/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The names a report shows for keys and ids: uids as user names (-i),
 * devices with the mount points of this machine (-i), the local node as
 * "(local)", the device of a file never opened (a relay's refusal of a
 * name) as "(not opened)". Raw bytes: the caller escapes them for its output.
 */
#ifndef AP_REPORT_NAMES_H
#define AP_REPORT_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "aggregate.h"
#include "mountinfo.h"

/*
 * Display name of a row of dimension @d, malloc'd (NULL when out of
 * memory). A file or interpreter name is the row's klen bytes, which may
 * hold a NUL (a key loaded from "key_hex"); ap_name_len() gives its length.
 * @mi: the mounts to name devices with, or NULL.
 */
char *ap_row_name(enum ap_dim d, const struct ap_ss_row *r, bool interpret,
		  const struct tf_mountinfo *mi);
/* The length of ap_row_name()'s @name for row @r of dimension @d. */
size_t ap_row_name_len(enum ap_dim d, const struct ap_ss_row *r, const char *name);

/* An audit id as a user name (-i) or a number, "unset" for -1. */
void ap_id_name(long id, bool interpret, char *buf, size_t len);

#endif
