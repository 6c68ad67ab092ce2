/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AP_PLUGIN_H
#define AP_PLUGIN_H

/*
 * Plugin mode: read audit events from stdin (auditd's dispatcher, format =
 * string) until EOF or SIGTERM. Exit status: 0 after a clean stop (state
 * saved), 1 when the state cannot be loaded or saved, 2 on a usage or
 * configuration error.
 */
int ap_plugin_main(int argc, char **argv);

#endif
