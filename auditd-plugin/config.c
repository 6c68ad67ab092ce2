// SPDX-License-Identifier: GPL-2.0-or-later
/* Plugin configuration file; see config.h. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "state.h"

void ap_config_defaults(struct ap_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->state_file, sizeof(c->state_file), "%s", AP_STATE_PATH);
	c->save_interval = 60;
	c->capacity = AP_AGG_CAP_DEFAULT;
	c->eoe_timeout = 2;
	c->metrics_top = AP_METRICS_EXE_DEFAULT;
	c->metrics_nodes = AP_METRICS_NODE_DEFAULT;
	c->metrics_series = AP_METRICS_SERIES_DEFAULT;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int number(const char *v, unsigned long min, unsigned long max,
		  unsigned long *out)
{
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)*v))
		return -1;
	*out = strtoul(v, &end, 10);
	return errno || *end || *out < min || *out > max ? -1 : 0;
}

int ap_config_load(struct ap_config *c, const char *path, int must_exist,
		   char *err, size_t err_len)
{
	struct ap_config n = *c;
	char line[4352];
	unsigned int lineno = 0;
	FILE *f = fopen(path, "re");

	if (!f) {
		if (errno == ENOENT && !must_exist)
			return 0;
		snprintf(err, err_len, "%s: %s (check the -c path)", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *k, *v, *eq;
		unsigned long num;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, err_len, "%s:%u: line too long", path, lineno);
			goto fail;
		}
		k = trim(line);
		if (!*k || *k == '#')
			continue;
		eq = strchr(k, '=');
		if (!eq) {
			snprintf(err, err_len, "%s:%u: expected \"key = value\"", path, lineno);
			goto fail;
		}
		*eq = '\0';
		k = trim(k);
		v = trim(eq + 1);
		if (!strcmp(k, "state_file")) {
			if (v[0] != '/' || strlen(v) >= sizeof(n.state_file)) {
				snprintf(err, err_len, "%s:%u: state_file must be an absolute path",
					 path, lineno);
				goto fail;
			}
			strcpy(n.state_file, v);
		} else if (!strcmp(k, "save_interval")) {
			if (number(v, 1, 86400, &num)) {
				snprintf(err, err_len,
					 "%s:%u: save_interval must be 1..86400 seconds", path,
					 lineno);
				goto fail;
			}
			n.save_interval = (unsigned int)num;
		} else if (!strcmp(k, "capacity")) {
			if (number(v, 16, 1048576, &num)) {
				snprintf(err, err_len, "%s:%u: capacity must be 16..1048576 rows",
					 path, lineno);
				goto fail;
			}
			n.capacity = (uint32_t)num;
		} else if (!strcmp(k, "eoe_timeout")) {
			if (number(v, 1, 60, &num)) {
				snprintf(err, err_len, "%s:%u: eoe_timeout must be 1..60 seconds",
					 path, lineno);
				goto fail;
			}
			n.eoe_timeout = (unsigned int)num;
		} else if (!strcmp(k, "metrics_dir")) {
			if ((v[0] && v[0] != '/') || strlen(v) >= sizeof(n.metrics_dir) - 64) {
				snprintf(err, err_len,
					 "%s:%u: metrics_dir must be an absolute path (or empty: no metrics)",
					 path, lineno);
				goto fail;
			}
			strcpy(n.metrics_dir, v);
		} else if (!strcmp(k, "metrics_top") || !strcmp(k, "metrics_nodes") ||
			   !strcmp(k, "metrics_series")) {
			unsigned long max = k[8] == 't' ? 1000 : k[8] == 'n' ? 100000 : 1000000;

			if (number(v, 1, max, &num)) {
				snprintf(err, err_len, "%s:%u: %s must be 1..%lu", path, lineno, k,
					 max);
				goto fail;
			}
			*(k[8] == 't' ? &n.metrics_top : k[8] == 'n' ? &n.metrics_nodes :
			  &n.metrics_series) = (uint32_t)num;
		} else {
			snprintf(err, err_len,
				 "%s:%u: unknown key \"%.64s\" (known: state_file, save_interval, capacity, eoe_timeout, metrics_dir, metrics_top, metrics_nodes, metrics_series)",
				 path, lineno, k);
			goto fail;
		}
	}
	if (ferror(f)) {
		snprintf(err, err_len, "%s: read error", path);
		goto fail;
	}
	fclose(f);
	*c = n;
	return 0;
fail:
	fclose(f);
	return -1;
}
