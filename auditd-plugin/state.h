/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plugin's state file: the whole aggregator as JSON (json-c), written
 * atomically (lib/atomic_file.h). Keys that are not valid UTF-8 are stored
 * hex-encoded ("key_hex") so that the file stays valid JSON.
 */
#ifndef TF_STATE_H
#define TF_STATE_H

#include "aggregate.h"

#define TF_STATE_PATH "/var/lib/audisp-trusted-for/state.json"
#define TF_STATE_VERSION 1

/* 0, or -1 with errno. */
int tf_state_save(const struct tf_agg *a, const char *path);

/*
 * Load @path into @a (initialised here with at least @cap rows per
 * dimension). Returns 0; -1 with errno ENOENT when the file does not exist,
 * EPROTO when it is not a state file of this version (@why says what is
 * wrong), or another errno.
 */
int tf_state_load(struct tf_agg *a, uint32_t cap, const char *path,
		  char *why, size_t why_len);

#endif
