// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trusttop: the keys of the terminal view. One table of key bindings gives
 * each key's action, the help screen, the status line and --help's "Keys:";
 * the prompts (filter, user, sort) and their line.
 */
#include <curses.h>
#include <stddef.h>
#include <string.h>
#include "user.h"
#include "app.h"
#include "ui.h"

#define CTRL_L 12

enum prompt { P_NONE, P_FILTER, P_USER, P_SORT };

static struct {
	bool help;
	enum prompt prompt;
	char input[128];
	size_t len;
	char msg[160]; /* one-line feedback (bad input) */
} ui;

static void start_prompt(enum prompt p);

/*
 * The key bindings, htop style: each key's action, its line on the help
 * screen, its word in --help's "Keys:" (consecutive equal words share it:
 * "< > s sort") and its part of the status line.
 */
enum action {
	A_QUIT,
	A_TOGGLE,    /* flip the bool at .field of struct tt_app */
	A_SORT_STEP, /* '<' previous, '>' next column */
	A_PROMPT,    /* ask for .prompt's input */
	A_API,	     /* all -> trusted_for -> execve_check -> all */
	A_HELP,
	A_REDRAW,
};

struct key_binding {
	int keys[2];	    /* what the user presses (0: none) */
	const char *name;   /* the keys as the help screen names them */
	const char *help;   /* the help screen's text */
	const char *word;   /* --help's word */
	const char *status; /* the status line's part, NULL: not there */
	enum action act;
	size_t field;	    /* A_TOGGLE: offsetof(struct tt_app, ...) */
	enum prompt prompt; /* A_PROMPT */
};

static const struct key_binding bindings[] = {
	{ { 'q', 'Q' }, "q", "quit", "quit", "q quit", .act = A_QUIT },
	{ { ' ' }, "space", "pause / resume the display", "pause", "space pause",
	  .act = A_TOGGLE, .field = offsetof(struct tt_app, paused) },
	{ { '<', '>' }, "< >", "sort by the previous / next column", "sort",
	  "< > s sort", .act = A_SORT_STEP },
	{ { 's' }, "s", "sort by a column given by name", "sort", NULL,
	  .act = A_PROMPT, .prompt = P_SORT },
	{ { 'r' }, "r", "reverse the sort order", "reverse", NULL,
	  .act = A_TOGGLE, .field = offsetof(struct tt_app, reverse) },
	{ { '/' }, "/", "filter rows (exe, comm, file); empty clears", "filter",
	  "/ filter", .act = A_PROMPT, .prompt = P_FILTER },
	{ { 'u' }, "u", "only one user (name or uid); empty clears", "user",
	  "u user", .act = A_PROMPT, .prompt = P_USER },
	{ { 'a' }, "a", "only trusted_for (tf), only AT_EXECVE_CHECK (check), all",
	  "interface", "a api", .act = A_API },
	{ { 'p' }, "p", "per-process rows / per-interpreter rows", "per-process",
	  "p per-process", .act = A_TOGGLE, .field = offsetof(struct tt_app, per_process) },
	{ { 'h', '?' }, "h ?", "this help", "help", "h help", .act = A_HELP },
	{ { CTRL_L }, "Ctrl-L", "redraw the screen", "redraw", NULL, .act = A_REDRAW },
};

#define NBINDINGS (sizeof(bindings) / sizeof(bindings[0]))

const char *tt_ui_key_group(size_t i, char *out, size_t outsz)
{
	size_t b = 0, g = 0;

	/* Group @i: bindings b..e-1 share a word. */
	while (b < NBINDINGS && g < i) {
		const char *w = bindings[b].word;

		while (b < NBINDINGS && !strcmp(bindings[b].word, w))
			b++;
		g++;
	}
	if (b >= NBINDINGS)
		return NULL;
	if (out && outsz) {
		size_t off = 0, e = b;

		out[0] = 0;
		for (; e < NBINDINGS && off < outsz &&
		       !strcmp(bindings[e].word, bindings[b].word); e++)
			off += (size_t)snprintf(out + off, outsz - off, "%s ",
						bindings[e].name);
		if (off < outsz)
			snprintf(out + off, outsz - off, "%s", bindings[b].word);
	}
	return out ? out : "";
}

void tt_ui_draw_help(void)
{
	char line[128];
	int y = 0;

	erase();
	tt_ui_put(y++, 1, "trusttop keys");
	y++;
	for (size_t i = 0; i < NBINDINGS; i++) {
		snprintf(line, sizeof(line), "  %-10s %s", bindings[i].name,
			 bindings[i].help);
		tt_ui_put(y++, 1, line);
	}
	y++;
	tt_ui_put(y, 1, "Any key returns.");
	refresh();
}

/* The status line when no prompt or message is up. */
static void status_line(char *out, size_t outsz)
{
	size_t off = 0;

	out[0] = 0;
	for (size_t i = 0; i < NBINDINGS && off < outsz; i++)
		if (bindings[i].status)
			off += (size_t)snprintf(out + off, outsz - off, "%s%s",
						off ? "  " : "",
						bindings[i].status);
}

bool tt_ui_help_shown(void)
{
	return ui.help;
}

void tt_ui_bottom_line(char *line, size_t outsz)
{
	if (ui.prompt != P_NONE) {
		snprintf(line, outsz, "%s: %s_",
			 ui.prompt == P_FILTER ? "Filter" :
			 ui.prompt == P_USER ? "User" :
			 "Sort by (rate checks allowed denied deny% would name uid)",
			 ui.input);
	} else if (ui.msg[0]) {
		snprintf(line, outsz, "%s", ui.msg);
	} else {
		status_line(line, outsz);
	}
}

static void prompt_done(struct tt_app *a)
{
	uid_t uid;
	int s;

	ui.msg[0] = 0;
	switch (ui.prompt) {
	case P_FILTER:
		snprintf(a->filter, sizeof(a->filter), "%s", ui.input);
		tt_shown_rebuild(a);
		break;
	case P_USER:
		if (!ui.input[0])
			a->uid = -1;
		else if (!tf_parse_user(ui.input, &uid))
			a->uid = uid;
		else
			snprintf(ui.msg, sizeof(ui.msg), "no such user '%.64s': give a name or a uid", ui.input);
		tt_shown_rebuild(a);
		break;
	case P_SORT:
		s = tt_sort_parse(ui.input);
		if (s < 0)
			snprintf(ui.msg, sizeof(ui.msg), "unknown sort key '%.64s': rate checks allowed denied deny%% would name uid", ui.input);
		else
			a->sort = s;
		break;
	default:
		break;
	}
	ui.prompt = P_NONE;
}

static void start_prompt(enum prompt p)
{
	ui.prompt = p;
	ui.input[0] = 0;
	ui.len = 0;
	ui.msg[0] = 0;
}

/* Do what @k is bound to; false: quit. */
static bool act(struct tt_app *a, const struct key_binding *k, int key)
{
	bool *flag;

	switch (k->act) {
	case A_QUIT:
		return false;
	case A_TOGGLE:
		flag = (bool *)((char *)a + k->field);
		*flag = !*flag;
		break;
	case A_SORT_STEP:
		a->sort = (a->sort + (key == '<' ? TT_SORT_COUNT - 1 : 1)) %
			  TT_SORT_COUNT;
		break;
	case A_PROMPT:
		start_prompt(k->prompt);
		break;
	case A_API:
		a->api = (a->api + 1) % 3;
		tt_shown_rebuild(a);
		break;
	case A_HELP:
		ui.help = true;
		break;
	case A_REDRAW:
		clearok(curscr, TRUE);
		break;
	}
	return true;
}

bool tt_ui_input(struct tt_app *a)
{
	int ch;
	bool redraw = false;

	while ((ch = getch()) != ERR) {
		redraw = true;
		if (ch == KEY_RESIZE)
			continue; /* ncurses resized stdscr: just redraw */
		if (ui.help) {
			ui.help = false;
			continue;
		}
		if (ui.prompt == P_NONE)
			ui.msg[0] = 0; /* a message lasts until the next key */
		if (ui.prompt != P_NONE) {
			if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
				prompt_done(a);
			} else if (ch == 27) {
				ui.prompt = P_NONE;
			} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
				if (ui.len)
					ui.input[--ui.len] = 0;
			} else if (ch >= 32 && ch < 127 && ui.len + 1 < sizeof(ui.input)) {
				ui.input[ui.len++] = (char)ch;
				ui.input[ui.len] = 0;
			}
			continue;
		}
		redraw = false;
		for (size_t i = 0; i < NBINDINGS && !redraw; i++)
			if (ch && (ch == bindings[i].keys[0] ||
				   ch == bindings[i].keys[1])) {
				if (!act(a, &bindings[i], ch))
					return false;
				redraw = true;
			}
	}
	/* A key always redraws, even paused (the pause freezes the data). */
	if (redraw)
		tt_ui_draw(a);
	return true;
}
