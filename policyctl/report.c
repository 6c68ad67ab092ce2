// SPDX-License-Identifier: GPL-2.0-or-later
/* Text and JSON reports of a dry run; see report.h. */
#include "report.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "escape.h"
#include "tfjson.h"
#include "trustedfor.h"

static size_t mount_index(const struct pc_check *c, const struct pc_mount *pm)
{
	return (size_t)(pm - c->mounts.v);
}

static const struct pc_check *sort_ctx;

static int cmp_denial(const void *a, const void *b)
{
	const struct pc_denial *x = *(const struct pc_denial *const *)a;
	const struct pc_denial *y = *(const struct pc_denial *const *)b;
	size_t mx = mount_index(sort_ctx, x->pm), my = mount_index(sort_ctx, y->pm);

	if (mx != my)
		return mx < my ? -1 : 1;
	if (x->reasons != y->reasons)
		return x->reasons < y->reasons ? -1 : 1;
	return strcmp(x->path, y->path);
}

static void sort_denials(struct pc_check *c)
{
	sort_ctx = c;
	if (c->ndenials)
		qsort(c->denials, c->ndenials, sizeof(*c->denials), cmp_denial);
}

static unsigned long long total(struct pc_check *c, size_t off)
{
	unsigned long long t = 0;

	for (size_t i = 0; i < c->mounts.n; i++)
		t += *(unsigned long long *)((char *)&c->mounts.v[i] + off);
	return t;
}

#define TOTAL(c, field) total(c, offsetof(struct pc_mount, field))

static const char *mount_effect(const struct pc_check *c, const struct pc_mount *pm)
{
	if (c->model == PC_MODEL_EXECVE_CHECK)
		return pc_mount_effect_execve_check(pm);
	return pc_mount_effect(pm, c->policy);
}

void pc_verdict(struct pc_check *c, char *buf, size_t len)
{
	unsigned long long scripts = TOTAL(c, scripts);
	size_t mounts = 0;

	for (size_t i = 0; i < c->mounts.n; i++)
		mounts += c->mounts.v[i].denied != 0;
	if (c->model == PC_MODEL_EXECVE_CHECK && c->ndenials)
		snprintf(buf, len,
			 "with SECBIT_EXEC_RESTRICT_FILE set, interpreters would refuse %zu of %llu interpreted files, on %zu mount%s",
			 c->ndenials, scripts, mounts, mounts == 1 ? "" : "s");
	else if (c->model == PC_MODEL_EXECVE_CHECK)
		snprintf(buf, len,
			 "with SECBIT_EXEC_RESTRICT_FILE set, interpreters would refuse none of %llu interpreted files",
			 scripts);
	else if (c->ndenials)
		snprintf(buf, len,
			 "policy %d would deny %zu of %llu interpreted files, on %zu mount%s",
			 c->policy, c->ndenials, scripts, mounts,
			 mounts == 1 ? "" : "s");
	else
		snprintf(buf, len,
			 "policy %d would deny none of %llu interpreted files",
			 c->policy, scripts);
}

static void reasons_counts(const struct pc_mount *pm, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int b = 0; b < TF_REASON_COUNT; b++) {
		if (!pm->by_reason[b])
			continue;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
					 "%s%s=%llu", used ? "," : "",
					 tf_reason_name(1u << b), pm->by_reason[b]);
	}
	if (!used)
		snprintf(buf, len, "-");
}

static const char *user_name(const struct pc_user *u)
{
	return u->name;
}

void pc_report_text(struct pc_check *c, FILE *out, bool all)
{
	size_t w = strlen("MOUNT POINT");
	char verdict[256], rs[160], num[2][24];

	sort_denials(c);
	for (size_t i = 0; i < c->mounts.n; i++) {
		char *e = tf_escape_dup(c->mounts.v[i].m->mount_point);

		if (e && strlen(e) > w)
			w = strlen(e);
		free(e);
	}
	if (w > 40)
		w = 40;
	fprintf(out, "%-*s  %-10s %8s %7s  %-24s %-32s %s\n", (int)w,
		"MOUNT POINT", "FSTYPE", "SCRIPTS", "DENIED", "BY REASON",
		"OPTIONS", "EFFECT");
	for (size_t i = 0; i < c->mounts.n; i++) {
		struct pc_mount *pm = &c->mounts.v[i];
		char *mp = tf_escape_dup(pm->m->mount_point);
		char *fst = tf_escape_dup(pm->m->fstype);
		char *opts = tf_escape_dup(pm->m->mnt_opts);
		char effect[128];

		if (pm->selected) {
			snprintf(num[0], sizeof(num[0]), "%llu", pm->scripts);
			snprintf(num[1], sizeof(num[1]), "%llu", pm->denied);
			reasons_counts(pm, rs, sizeof(rs));
		} else {
			strcpy(num[0], "-");
			strcpy(num[1], "-");
			strcpy(rs, "-");
		}
		if (pm->skip)
			snprintf(effect, sizeof(effect), "%s; not walked: %s",
				 mount_effect(c, pm), pm->skip);
		else
			snprintf(effect, sizeof(effect), "%s",
				 mount_effect(c, pm));
		fprintf(out, "%-*s  %-10s %8s %7s  %-24s %-32s %s\n", (int)w,
			mp ? mp : "?", fst ? fst : "?", num[0], num[1], rs,
			opts ? opts : "?", effect);
		free(mp);
		free(fst);
		free(opts);
	}

	if (c->ndenials)
		fprintf(out, "\n%s:\n", c->model == PC_MODEL_EXECVE_CHECK ?
			"Interpreters would refuse" : "Would be denied");
	for (size_t i = 0; i < c->ndenials;) {
		struct pc_denial *g = c->denials[i];
		size_t end = i, shown = 0;
		char *mp = tf_escape_dup(g->pm->m->mount_point);
		/* "fuse.<subtype>": the subtype is chosen by whoever mounted it */
		char *fst = tf_escape_dup(g->pm->m->fstype);

		while (end < c->ndenials && c->denials[end]->pm == g->pm &&
		       c->denials[end]->reasons == g->reasons)
			end++;
		tf_reason_str(g->reasons, rs, sizeof(rs));
		fprintf(out, "\n%s (%s): %s: %zu file%s\n", mp ? mp : "?",
			fst ? fst : "?", rs, end - i, end - i == 1 ? "" : "s");
		free(mp);
		free(fst);
		for (; i < end; i++) {
			struct pc_denial *d = c->denials[i];

			if (!all && shown == PC_REPORT_TOP) {
				fprintf(out, "  ... and %zu more (--all lists every one)\n",
					end - i);
				i = end;
				break;
			}
			shown++;
			fprintf(out, "  %04o%s %u:%u  ", (unsigned int)(d->mode & 07777),
				d->acl ? "+" : " ", (unsigned int)d->uid,
				(unsigned int)d->gid);
			tf_fputs_escaped(d->path, out);
			fprintf(out, c->model == PC_MODEL_EXECVE_CHECK ?
				"  refused for:" : "  denied for:");
			for (size_t s = 0; s < d->nsub; s++) {
				fputs(s ? ", " : " ", out);
				tf_fputs_escaped(user_name(d->sub[s].user), out);
			}
			fputc('\n', out);
		}
	}

	unsigned long long unread = TOTAL(c, unreadable_dirs);
	unsigned long long vanished = TOTAL(c, vanished);
	unsigned long long errors = TOTAL(c, errors);

	if (unread || vanished || errors || c->walk.nproblems_total) {
		fprintf(out, "\nWalk: %llu unreadable director%s, %llu vanished during the walk, %llu other error%s\n",
			unread, unread == 1 ? "y" : "ies", vanished, errors,
			errors == 1 ? "" : "s");
		for (size_t i = 0; i < c->walk.nproblems; i++) {
			fputs("  ", out);
			tf_fputs_escaped(c->walk.problems[i], out);
			fputc('\n', out);
		}
		if (c->walk.nproblems_total > c->walk.nproblems)
			fprintf(out, "  ... and %llu more\n",
				c->walk.nproblems_total - c->walk.nproblems);
	}
	if (c->model == PC_MODEL_EXECVE_CHECK && c->writers.unseen)
		fprintf(out, "\nFiles open for writing (write_busy): the descriptors of %llu process%s could not be read (not root?); a script they hold open for writing is not listed\n",
			c->writers.unseen, c->writers.unseen == 1 ? "" : "es");
	pc_verdict(c, verdict, sizeof(verdict));
	fprintf(out, "\n%s\n", verdict);
}

int pc_json_add_bytes(struct json_object *obj, const char *key, const char *s)
{
	return tf_json_add_str(obj, key, s);
}

struct json_object *pc_json_reasons(unsigned int reasons)
{
	struct json_object *a = json_object_new_array();

	for (unsigned int b = 0; b < 32; b++) {
		const char *n;

		if (!(reasons & (1u << b)))
			continue;
		n = tf_reason_name(1u << b);
		json_object_array_add(a, json_object_new_string(n ? n : "unknown"));
	}
	return a;
}

int pc_json_print(struct json_object *obj, FILE *out)
{
	return tf_json_print(out, obj, JSON_C_TO_STRING_PRETTY |
					       JSON_C_TO_STRING_NOSLASHESCAPE);
}

static struct json_object *u64(unsigned long long v)
{
	return json_object_new_int64((int64_t)v);
}

static struct json_object *json_mount(struct pc_check *c, struct pc_mount *pm)
{
	struct json_object *o = json_object_new_object();
	struct json_object *by = json_object_new_object();

	json_object_object_add(o, "mount_id", u64(pm->m->mnt_id));
	pc_json_add_bytes(o, "mount_point", pm->m->mount_point);
	pc_json_add_bytes(o, "root", pm->m->root);
	pc_json_add_bytes(o, "fstype", pm->m->fstype);
	pc_json_add_bytes(o, "source", pm->m->source);
	pc_json_add_bytes(o, "options", pm->m->mnt_opts);
	pc_json_add_bytes(o, "super_options", pm->m->super_opts);
	json_object_object_add(o, "noexec", json_object_new_boolean(pm->fs.noexec_mount));
	json_object_object_add(o, "pseudo_fs", json_object_new_boolean(pm->fs.pseudo_fs));
	json_object_object_add(o, "effect",
			       json_object_new_string(mount_effect(c, pm)));
	json_object_object_add(o, "walked", json_object_new_boolean(pm->selected));
	json_object_object_add(o, "not_walked_because",
			       pm->skip ? json_object_new_string(pm->skip) : NULL);
	json_object_object_add(o, "scripts", u64(pm->scripts));
	json_object_object_add(o, "denied", u64(pm->denied));
	for (unsigned int b = 0; b < TF_REASON_COUNT; b++)
		json_object_object_add(by, tf_reason_name(1u << b),
				       u64(pm->by_reason[b]));
	json_object_object_add(o, "denied_by_reason", by);
	json_object_object_add(o, "unreadable_dirs", u64(pm->unreadable_dirs));
	json_object_object_add(o, "vanished", u64(pm->vanished));
	json_object_object_add(o, "errors", u64(pm->errors));
	return o;
}

static struct json_object *json_denial(struct pc_denial *d)
{
	struct json_object *o = json_object_new_object();
	struct json_object *subs = json_object_new_array();
	char mode[8];

	pc_json_add_bytes(o, "path", d->path);
	pc_json_add_bytes(o, "mount_point", d->pm->m->mount_point);
	json_object_object_add(o, "mount_id", u64(d->pm->m->mnt_id));
	json_object_object_add(o, "reasons", pc_json_reasons(d->reasons));
	snprintf(mode, sizeof(mode), "%04o", (unsigned int)(d->mode & 07777));
	json_object_object_add(o, "mode", json_object_new_string(mode));
	json_object_object_add(o, "uid", u64(d->uid));
	json_object_object_add(o, "gid", u64(d->gid));
	json_object_object_add(o, "acl", json_object_new_boolean(d->acl));
	for (size_t s = 0; s < d->nsub; s++) {
		struct json_object *so = json_object_new_object();

		pc_json_add_bytes(so, "user", d->sub[s].user->name);
		json_object_object_add(so, "uid", u64(d->sub[s].user->uid));
		json_object_object_add(so, "reasons",
				       pc_json_reasons(d->sub[s].reasons));
		json_object_array_add(subs, so);
	}
	json_object_object_add(o, "denied_for", subs);
	return o;
}

int pc_report_json(struct pc_check *c, FILE *out)
{
	struct json_object *root = json_object_new_object();
	struct json_object *mounts = json_object_new_array();
	struct json_object *denied = json_object_new_array();
	struct json_object *walk = json_object_new_object();
	struct json_object *probs = json_object_new_array();
	struct json_object *subj;
	char verdict[256];
	int rc;

	if (!root)
		return -1;
	sort_denials(c);
	if (c->model == PC_MODEL_EXECVE_CHECK) {
		/* no policy: the securebit decides whether it is enforced */
		json_object_object_add(root, "policy", NULL);
		json_object_object_add(root, "model", json_object_new_string("execve_check"));
	} else {
		json_object_object_add(root, "policy", json_object_new_int(c->policy));
	}
	if (c->nusers) {
		subj = json_object_new_array();
		for (size_t i = 0; i < c->nusers; i++)
			json_object_array_add(subj, tf_json_text(c->users[i]->name,
								 strlen(c->users[i]->name)));
	} else {
		subj = json_object_new_string("root+owner");
	}
	json_object_object_add(root, "subjects", subj);
	for (size_t i = 0; i < c->mounts.n; i++)
		json_object_array_add(mounts, json_mount(c, &c->mounts.v[i]));
	json_object_object_add(root, "mounts", mounts);
	for (size_t i = 0; i < c->ndenials; i++)
		json_object_array_add(denied, json_denial(c->denials[i]));
	json_object_object_add(root, "denied", denied);
	json_object_object_add(walk, "dirs", u64(c->walk.dirs));
	json_object_object_add(walk, "files", u64(c->walk.files));
	json_object_object_add(walk, "scripts", u64(c->walk.scripts));
	json_object_object_add(walk, "denied", u64(c->ndenials));
	json_object_object_add(walk, "unreadable_dirs", u64(TOTAL(c, unreadable_dirs)));
	json_object_object_add(walk, "vanished", u64(TOTAL(c, vanished)));
	json_object_object_add(walk, "errors", u64(TOTAL(c, errors)));
	for (size_t i = 0; i < c->walk.nproblems; i++) {
		struct json_object *p = json_object_new_object();

		pc_json_add_bytes(p, "problem", c->walk.problems[i]);
		json_object_array_add(probs, p);
	}
	json_object_object_add(walk, "problems", probs);
	if (c->model == PC_MODEL_EXECVE_CHECK)
		json_object_object_add(walk, "writers_unseen_processes",
				       u64(c->writers.unseen));
	json_object_object_add(root, "walk", walk);
	pc_verdict(c, verdict, sizeof(verdict));
	json_object_object_add(root, "verdict", json_object_new_string(verdict));
	rc = pc_json_print(root, out);
	json_object_put(root);
	return rc;
}
