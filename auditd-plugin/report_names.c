// SPDX-License-Identifier: GPL-2.0-or-later
/* The names a report shows for keys and ids; see report_names.h. */
#include "report_names.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "1000" -> "alice" with -i, ids that are unset as "unset". */
static void user_name(const char *id, bool interpret, char *buf, size_t len)
{
	char *end;
	long v = strtol(id, &end, 10);
	struct passwd *pw;

	if (*end || v < -1) {
		snprintf(buf, len, "%s", id);
		return;
	}
	if (v == -1) {
		snprintf(buf, len, "unset");
		return;
	}
	pw = interpret ? getpwuid((uid_t)v) : NULL;
	if (pw)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "%ld", v);
}

void ap_id_name(long id, bool interpret, char *buf, size_t len)
{
	char num[24];

	snprintf(num, sizeof(num), "%ld", id);
	user_name(num, interpret, buf, len);
}

/* With -i, "00:1a" -> "00:1a (/tmp/x)" when this machine mounts that device. */
static char *mount_name(const char *dev, const struct tf_mountinfo *mi)
{
	unsigned int maj, min;
	char *out = NULL;
	size_t len = 0;
	FILE *m;
	char extra;

	if (!mi || sscanf(dev, "%x:%x%c", &maj, &min, &extra) != 2)
		return strdup(dev);
	m = open_memstream(&out, &len);
	if (!m)
		return NULL;
	fputs(dev, m);
	size_t n = 0;

	for (size_t i = 0; i < mi->count; i++) {
		if (mi->mounts[i].major != maj || mi->mounts[i].minor != min)
			continue;
		fputs(n++ ? ", " : " (here: ", m);
		fputs(mi->mounts[i].mount_point, m);
	}
	if (n)
		fputc(')', m);
	fclose(m);
	return out;
}

char *ap_row_name(enum ap_dim d, const struct ap_ss_row *r, bool interpret,
		  const struct tf_mountinfo *mi)
{
	char buf[256];

	switch (d) {
	case AP_DIM_USER:
	case AP_DIM_AUID:
		user_name(r->key, interpret, buf, sizeof(buf));
		return strdup(buf);
	case AP_DIM_NODE:
		return strdup(r->klen ? r->key : "(local)");
	case AP_DIM_MOUNT:
		/* a relay's refusal of a name: no file was opened, no device known */
		if (!r->klen)
			return strdup("(not opened)");
		return mount_name(r->key, interpret ? mi : NULL);
	default:
		/* all klen bytes: a key loaded from "key_hex" may hold a NUL */
		return ap_ss_key_dup(r->key, r->klen);
	}
}

size_t ap_row_name_len(enum ap_dim d, const struct ap_ss_row *r, const char *name)
{
	return d == AP_DIM_FILE || d == AP_DIM_INTERP ? r->klen : strlen(name);
}
