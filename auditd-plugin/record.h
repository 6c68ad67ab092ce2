/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The record kinds audisp-trusted-for counts, decoded from the current
 * libauparse record (docs/CONVENTIONS.md "Kernel ABI"):
 *  - type 1350 AUDIT_TRUSTED_FOR, one per refusal;
 *  - type 2650 (TF_AUDIT_USER_TYPE), trustfor-relay's user message: one per
 *    execveat(AT_EXECVE_CHECK) refusal on a kernel that logs none, or a count
 *    of refusals it lost (op=lost). The sender's fields the kernel writes
 *    first (pid, uid, auid, ses, subj) are skipped: only the fields from
 *    usage= on are the relay's;
 *  - type 1305 CONFIG_CHANGE with op=trust_policy, one per policy write.
 * Fields are found by name, never by position: the kernel's current layout
 * (res= last, the writer's task fields in CONFIG_CHANGE, subj= with an LSM)
 * and the previous one (res= after reason=, CONFIG_CHANGE with auid= and
 * ses= only) both parse, since logs outlive the kernel that wrote them.
 */
#ifndef AP_RECORD_H
#define AP_RECORD_H

#include <auparse.h>
#include <libaudit.h> /* AUDIT_CONFIG_CHANGE */
#include <stdbool.h>
#include <stdint.h>

#include "trustedfor.h"

/*
 * Which interface a refusal record is about (its api= field; a record without
 * one is a trusted_for record of an older kernel of the series), and for
 * execveat(AT_EXECVE_CHECK) whether the caller enforces the verdict: the
 * record's enforced= (issue 23: SECBIT_EXEC_RESTRICT_FILE, or
 * SECBIT_EXEC_DENY_INTERACTIVE for a check of stdin; tf_ec_enforced()), or
 * without it SECBIT_EXEC_RESTRICT_FILE in secbits=. An execve_check refusal
 * that is not enforced is "observed": what would be refused if
 * SECBIT_EXEC_RESTRICT_FILE were set. The report and the state keep one set
 * of tables per class.
 */
enum ap_api_class {
	AP_API_TRUSTED_FOR,	/* api=trusted_for, or no api= */
	AP_API_EC_ENFORCED,	/* api=execve_check, enforced=1 */
	AP_API_EC_OBSERVED,	/* api=execve_check, enforced=0 */
	AP_API_CLASSES
};

/* Who logged a refusal: the record type says, never a field. */
enum ap_source {
	AP_SRC_KERNEL,		/* type 1350 */
	AP_SRC_RELAY,		/* type 2650 */
	AP_SOURCES
};

struct ap_denial {
	int64_t ms;		/* event time, ms since the epoch */
	unsigned long serial;
	const char *node;	/* "" when the record has no node= */
	/* canonical reason list, e.g. "noexec_mount,file_perm" (or a name as written) */
	char reason[TF_REASON_STR_MAX];
	char dev[32];		/* "00:1a"; "" when no file was opened (relay, file=name) */
	unsigned long ino;
	int policy;		/* -1 for policy=? (execve_check records) */
	enum ap_api_class api;
	enum ap_source source;
	unsigned long secbits;	/* 0 when the record has no secbits= */
	long uid, auid;		/* -1 when unset (4294967295) */
	/* Decoded bytes (the kernel's hex encoding undone), NUL-terminated. */
	char *path;
	char *comm;
	char *exe;
	uint64_t lost;		/* AP_PARSE_LOST: refusals the relay could not log */
};

struct ap_policy_change {
	int64_t ms;
	const char *node;
	int old_policy;
	int new_policy;		/* as written (a refused write may be out of range); -1 for new=? */
	long auid;
	long ses;
	int res;		/* 1 applied, 0 refused */
	/*
	 * Who wrote: the task fields of the current layout. A record of the
	 * previous kernel names only auid and ses: writer false, pid and uid
	 * -1, comm and exe NULL.
	 */
	bool writer;
	long pid;
	long uid;		/* -1 when unset (4294967295) */
	char *comm;		/* decoded bytes, NUL-terminated */
	char *exe;
};

enum ap_parse {
	AP_PARSE_DENIAL,	/* filled a struct ap_denial */
	AP_PARSE_POLICY,	/* filled a struct ap_policy_change */
	/* a relay's op=lost record: ms, node, source and lost of the ap_denial */
	AP_PARSE_LOST,
	AP_PARSE_OTHER,		/* a record this tool does not count */
	AP_PARSE_NOT_DENIAL,	/* a 1350 record with res != 0 */
	/*
	 * a 1350 / 2650 / op=trust_policy record missing fields (or with an
	 * unknown api=, or a policy= that does not fit its api)
	 */
	AP_PARSE_MALFORMED,
};

/*
 * Decode the current record of @au (escape mode must be AUPARSE_ESC_RAW).
 * On AP_PARSE_DENIAL, free the strings with ap_denial_clear(); on
 * AP_PARSE_POLICY with ap_policy_change_clear() (AP_PARSE_LOST holds no
 * string). The node string of both structs is owned by @node_buf (size
 * @node_len).
 */
enum ap_parse ap_record_parse(auparse_state_t *au, struct ap_denial *d,
			      struct ap_policy_change *p, char *node_buf,
			      size_t node_len);
void ap_denial_clear(struct ap_denial *d);

/*
 * The current field of @au (a path, comm or exe; its value @val, as
 * auparse_get_field_str() gives it) decoded as auparse_interpret_field()
 * decodes it in raw escape mode (but never from a record's enriched part:
 * see record.c), malloc'd; NULL when out of memory.
 */
char *ap_record_decode(auparse_state_t *au, const char *val);
void ap_policy_change_clear(struct ap_policy_change *p);

#endif
