/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `policyctl check` output: the text report and its --json twin. */
#ifndef PC_REPORT_H
#define PC_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "check.h"

/* Denied files listed per mount and reason group in the text report. */
#define PC_REPORT_TOP 20

void pc_report_text(struct pc_check *c, FILE *out, bool all);
/* Returns 0, or -1 when out of memory. */
int pc_report_json(struct pc_check *c, FILE *out);

/*
 * Add the NUL-terminated @s under @key by the JSON convention of
 * lib/tfjson.h (tf_json_add_str): @key the text (invalid bytes as U+FFFD),
 * "<key>_hex" the exact bytes when @s is not valid UTF-8 or holds a control
 * or format character. Returns 0 or -1.
 */
int pc_json_add_bytes(struct json_object *obj, const char *key, const char *s);

/* ["noexec_mount", "file_perm"] */
struct json_object *pc_json_reasons(unsigned int reasons);

/* Print @obj pretty with a newline, hidden code points as \uXXXX (tf_json_print). */
int pc_json_print(struct json_object *obj, FILE *out);

/* The one-line verdict shared by the text report and JSON. */
void pc_verdict(struct pc_check *c, char *buf, size_t len);

#endif /* PC_REPORT_H */
