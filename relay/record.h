/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text of trustfor-relay's audit records (type TF_AUDIT_USER_TYPE,
 * docs/CONVENTIONS.md): what libaudit's audit_log_user_message() is given,
 * before the fields it appends itself (the writer's exe, hostname, addr,
 * terminal and res=).
 */
#ifndef RL_RECORD_H
#define RL_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "relay.h"

/* Room for any record's text: below the kernel's AUDIT_MESSAGE_TEXT_MAX
 * (8560) less what libaudit appends.
 */
#define RL_TEXT_MAX 8000

/*
 * The refusal @e as a record's text in @out (@outsz bytes).  Returns its
 * length, or -1 when it does not fit (an event the program built cannot
 * overflow RL_TEXT_MAX; a smaller buffer can).
 */
int rl_record_text(const struct rl_event *e, char *out, size_t outsz);

/* The record of @n refusals the program saw but could not hand over. */
int rl_lost_text(uint64_t n, char *out, size_t outsz);

/*
 * The path of @len bytes of components in @buf (innermost first, each
 * NUL-ended) as "/a/b/c", into @out; "/" when there is none.  When @cut,
 * components above were left out: no leading "/" ("b/c").
 */
size_t rl_path_join(const char *buf, size_t len, int cut, char *out, size_t outsz);

#endif /* RL_RECORD_H */
