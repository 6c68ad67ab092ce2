/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plugin's own configuration file (default AP_CONFIG_PATH), lines of
 * "key = value", '#' comments:
 *   state_file = /var/lib/audisp-trusted-for/state.json
 *   save_interval = 60        seconds between state saves (1..86400)
 *   capacity = 4096           rows kept per dimension (16..1048576)
 *   eoe_timeout = 2           seconds before an event without EOE is counted (1..60)
 *   metrics_dir =             node exporter textfile-collector directory; empty: no metrics
 *   metrics_top = 32          interpreter (exe) label values admitted (1..1000)
 *   metrics_nodes = 1024      node label values admitted (1..100000)
 *   metrics_series = 16384    denial series (1..1000000)
 * A missing file means the defaults.
 */
#ifndef AP_CONFIG_H
#define AP_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define AP_CONFIG_PATH "/etc/audit/audisp-trusted-for.conf"

struct ap_config {
	char state_file[4096];
	unsigned int save_interval;
	uint32_t capacity;
	unsigned int eoe_timeout;
	char metrics_dir[4096];	/* "" : off */
	uint32_t metrics_top, metrics_nodes, metrics_series;
};

void ap_config_defaults(struct ap_config *c);
/*
 * Read @path over the defaults. Returns 0 (also when @path does not exist and
 * @must_exist is 0), or -1 with a one-line message in @err.
 */
int ap_config_load(struct ap_config *c, const char *path, int must_exist,
		   char *err, size_t err_len);

#endif
