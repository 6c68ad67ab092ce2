/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Adding to json-c objects and arrays without leaking on out of memory:
 * json_object_object_add() and json_object_array_add() leave a value they
 * could not add to the caller. These free it (as when the container is NULL,
 * its own allocation failed) and return -1; 0 when added. Used by the
 * report's JSON (report_json.c) and the state file (state.c).
 */
#ifndef AP_JSON_OWN_H
#define AP_JSON_OWN_H

#include <json-c/json.h>

static inline int ap_json_add(json_object *o, const char *key, json_object *v)
{
	if (!o || json_object_object_add(o, key, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

static inline int ap_json_push(json_object *arr, json_object *v)
{
	if (!arr || json_object_array_add(arr, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

#endif
