/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trusttop: what the terminal view (ui.c) and its keys (keys.c) share. */
#ifndef TRUSTTOP_UI_H
#define TRUSTTOP_UI_H

#include <stdbool.h>
#include <stddef.h>

/* Print at most the remaining columns of line @y from column @x. */
void tt_ui_put(int y, int x, const char *s);
/* Is the help screen up (until the next key)? Draw it. */
bool tt_ui_help_shown(void);
void tt_ui_draw_help(void);
/* The last line: the prompt, a message, or the keys' status line. */
void tt_ui_bottom_line(char *line, size_t outsz);

#endif /* TRUSTTOP_UI_H */
