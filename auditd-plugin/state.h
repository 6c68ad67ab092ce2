/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plugin's state file: the whole aggregator as JSON (json-c), written
 * atomically (lib/atomic_file.h). Row keys, notes (comm) and nodes follow
 * the JSON convention of lib/tfjson.h: "key" the text, "key_hex" the exact
 * bytes when the key is not valid UTF-8 or holds a control or format
 * character; the loader takes "key_hex" first.
 * Version 2 writes "key" and "key_hex" together (version 1 wrote one of the
 * two, and wrote "note" raw); a version 1 file still loads. A version 1
 * reader would take the lossy "key" of a version 2 file: it refuses it.
 * A policy change names its writer with "pid", "uid", "comm" (+"comm_hex")
 * and "exe" (+"exe_hex") when its record did; without them (a record of the
 * previous kernel, or a file written before the writer was kept) the writer
 * is unknown. Older version 2 readers ignore these keys.
 * "metrics" holds the exact labelled counters of metrics.h (denial series,
 * policy changes, the policy gauges, "folded"), label values as escaped
 * text, so that the exported counters stay monotonic across restarts; a file
 * without it (an older plugin's) loads with those counters at 0. Older
 * version 2 readers ignore it.
 * Version 3 (issue 11) splits the denials by API: "dims" holds the
 * trusted_for tables as before, "classes" holds "trusted_for",
 * "execve_check_enforced" and "execve_check_observed", each with its
 * "first" and "last" (ms), the two execve_check ones with their own "dims";
 * "denials" counts every class. A metrics denial series has "api" and
 * "enforced" too (absent: trusted_for). Versions 1 and 2 still load (all
 * their denials are trusted_for); a version 2 reader refuses version 3.
 * Each class also holds "relay": how many of its denials trustfor-relay
 * logged (type 2650; the kernel logged the rest), and the root
 * "relay_lost" (refusals the relay could not log) and "relay_lost_records"
 * (its op=lost records); a metrics denial series has "source" ("kernel" or
 * "relay"). A file without them (written before the relay) loads with every
 * denial the kernel's and nothing lost; older version 3 readers ignore them.
 */
#ifndef AP_STATE_H
#define AP_STATE_H

#include "aggregate.h"

#define AP_STATE_PATH "/var/lib/audisp-trusted-for/state.json"
#define AP_STATE_VERSION 3

/* The keys of the classes under "classes" (version 3), by enum ap_api_class. */
extern const char *const ap_state_class_keys[AP_API_CLASSES];

/* 0, or -1 with errno (state_save.c). */
int ap_state_save(const struct ap_agg *a, const char *path);

/*
 * Load @path into @a (initialised here with at least @cap rows per
 * dimension). Returns 0; -1 with errno ENOENT when the file does not exist,
 * EPROTO when it is not a state file of this version (@why says what is
 * wrong), or another errno (state_load.c).
 */
int ap_state_load(struct ap_agg *a, uint32_t cap, const char *path,
		  char *why, size_t why_len);

#endif
