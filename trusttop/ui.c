// SPDX-License-Identifier: GPL-2.0-or-later
/* trusttop: the ncurses view: header, rows, latest denials (keys: keys.c). */
#include <curses.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "timefmt.h"
#include "app.h"
#include "ui.h"

#define MIN_COLS 40
#define MIN_LINES 8

enum { C_HEAD = 1, C_TITLE, C_DENY, C_WOULD, C_OK, C_STATUS };

static struct {
	bool color;
} ui;

int tt_ui_init(struct tt_app *a)
{
	if (!initscr())
		return -1;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	ui.color = a->color && has_colors();
	if (ui.color) {
		start_color();
		use_default_colors();
		init_pair(C_HEAD, COLOR_CYAN, -1);
		init_pair(C_TITLE, COLOR_BLACK, COLOR_CYAN);
		init_pair(C_DENY, COLOR_RED, -1);
		init_pair(C_WOULD, COLOR_YELLOW, -1);
		init_pair(C_OK, COLOR_GREEN, -1);
		init_pair(C_STATUS, COLOR_BLACK, COLOR_WHITE);
	}
	return 0;
}

void tt_ui_end(void)
{
	endwin();
}

static attr_t attr(int pair, attr_t mono)
{
	return ui.color ? COLOR_PAIR(pair) : mono;
}

void tt_ui_put(int y, int x, const char *s)
{
	int w = COLS - x;

	if (y >= LINES || w <= 0)
		return;
	mvaddnstr(y, x, s, w);
}

/* The end of @s in at most @w columns: "...tail" (file names end in the
 * part that matters).
 */
static const char *fit_tail(const char *s, int w, char *out, size_t outsz)
{
	size_t len = strlen(s);

	if (w <= 0) {
		out[0] = 0;
	} else if ((int)len <= w || w <= 3) {
		snprintf(out, outsz, "%.*s", w, s);
	} else {
		const char *t = s + len - (w - 3);

		/* Do not start inside a UTF-8 sequence. */
		while (*t && ((unsigned char)*t & 0xc0) == 0x80)
			t++;
		snprintf(out, outsz, "...%s", t);
	}
	return out;
}

/* The API column: "tf" (trusted_for), "check" (AT_EXECVE_CHECK). */
static const char *api_short(unsigned int api)
{
	return api == TT_SRC_TRUSTED_FOR ? "tf" :
	       api == TT_SRC_EXECVE_CHECK ? "check" : "?";
}

/* Column layout for the current width. */
struct cols {
	int interp, api, user, rate, allowed, denied, pct, reason, would, file;
};

static void layout(struct cols *c)
{
	int fixed;

	c->api = 5;
	c->user = 7;
	c->rate = 8;
	c->allowed = 7;
	c->denied = 6;
	c->pct = 5;
	c->reason = 12;
	c->would = 5;
	fixed = c->api + c->user + c->rate + c->allowed + c->denied + c->pct +
		c->reason + c->would + 9; /* separators */
	c->interp = COLS - fixed - 12;
	if (c->interp > 24)
		c->interp = 24;
	if (c->interp < 12)
		c->interp = 12;
	c->file = COLS - fixed - c->interp;
	if (c->file < 4)
		c->file = 0;
}

static const char *col_title(enum tt_sort s)
{
	switch (s) {
	case TT_SORT_RATE: return "CHECKS/s";
	case TT_SORT_CHECKS: return "CHECKS";
	case TT_SORT_ALLOWED: return "ALLOWED";
	case TT_SORT_DENIED: return "DENIED";
	case TT_SORT_DENYPCT: return "DENY%";
	case TT_SORT_WOULD: return "WOULD";
	case TT_SORT_NAME: return "INTERPRETER";
	case TT_SORT_UID: return "USER";
	default: return "?";
	}
}

void tt_ui_draw(struct tt_app *a)
{
	char line[1024], clock[16], policy[64], n1[16], n2[16], n3[16], n4[16];
	struct tt_row **rows;
	size_t nrows;
	struct cols c;
	int y = 0, pane, table_end;

	if (tt_ui_help_shown()) {
		tt_ui_draw_help();
		return;
	}
	erase();
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		snprintf(line, sizeof(line), "terminal too small: need %dx%d", MIN_COLS, MIN_LINES);
		tt_ui_put(0, 0, line);
		refresh();
		return;
	}
	tf_clock_hms((time_t)(a->now ? a->now : (double)time(NULL)), clock, sizeof(clock));
	if (a->policy >= 0)
		snprintf(policy, sizeof(policy), "%d", a->policy);
	else
		snprintf(policy, sizeof(policy), "%s", a->policy_note ? "n/a" : "?");
	snprintf(line, sizeof(line), "trusttop %s%s  kernel %s  policy %s  backend %s",
		 clock, a->paused ? " [PAUSED]" : "", a->kernel, policy,
		 a->backend_ui ? a->backend_ui : a->backend);
	attron(A_BOLD);
	tt_ui_put(y++, 0, line);
	attroff(A_BOLD);
	snprintf(line, sizeof(line), "Checks %s (%.1f/s)  allowed %s  denied %s (%.1f%%)  would-deny %s",
		 tt_fmt_count(a->total.checks, 9, n1, sizeof(n1)),
		 tt_rate(a->total_delta.checks, a->elapsed),
		 tt_fmt_count(a->total.allowed, 9, n2, sizeof(n2)),
		 tt_fmt_count(a->total.denied, 9, n3, sizeof(n3)),
		 tt_deny_pct(&a->total),
		 tt_fmt_count(a->total.would, 9, n4, sizeof(n4)));
	attron(attr(C_HEAD, A_NORMAL));
	tt_ui_put(y++, 0, line);
	snprintf(line, sizeof(line), "Drops ring %" PRIu64 " map %" PRIu64
		 "  overhead cpu %.1f%% bpf %.1f%%  sort %s%s%s%s",
		 a->rb_drops, a->map_full + (a->per_process ? a->pmap_full : 0),
		 a->self_cpu_pct, a->bpf_cpu_pct, tt_sort_name(a->sort),
		 a->reverse ? " (rev)" : "", a->filter[0] ? "  filter " : "",
		 a->filter);
	if (a->api)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "  api %s", tt_api_name(a->api));
	tt_ui_put(y++, 0, line);
	if (a->uid >= 0) {
		snprintf(line, sizeof(line), "  user %s", tt_user_name((uint32_t)a->uid));
		tt_ui_put(y - 1, COLS - (int)strlen(line) > 0 ? COLS - (int)strlen(line) : 0, line);
	}
	attroff(attr(C_HEAD, A_NORMAL));

	layout(&c);
	snprintf(line, sizeof(line), "%-*.*s %-*s %-*.*s %*s %*s %*s %*s %-*s %*s %-*.*s",
		 c.interp, c.interp, "INTERPRETER", c.api, "API",
		 c.user, c.user, a->per_process ? "PID" : "USER", c.rate, "CHECKS/s", c.allowed, "ALLOWED",
		 c.denied, "DENIED", c.pct, "DENY%", c.reason, "TOP REASON",
		 c.would, "WOULD", c.file, c.file, "LAST DENIED FILE");
	attron(attr(C_TITLE, A_REVERSE));
	mvhline(y, 0, ' ', COLS);
	tt_ui_put(y, 0, line);
	attroff(attr(C_TITLE, A_REVERSE));
	/* Mark the sort column. */
	{
		const char *t = col_title(a->sort);
		char *p = strstr(line, t);

		if (p && (int)(p - line) < COLS) {
			attron(attr(C_TITLE, A_REVERSE) | A_BOLD | A_UNDERLINE);
			tt_ui_put(y, (int)(p - line), t);
			attroff(attr(C_TITLE, A_REVERSE) | A_BOLD | A_UNDERLINE);
		}
	}
	y++;

	/* Latest-denials pane: a third of what is left, at least 2 lines. */
	pane = (LINES - y - 1) / 3;
	if (pane < 2)
		pane = LINES - y - 1 >= 5 ? 2 : 0;
	table_end = LINES - 1 - pane;

	rows = tt_visible_rows(a, &nrows);
	for (size_t i = 0; rows && i < nrows && y < table_end; i++, y++) {
		struct tt_row *r = rows[i];
		char name[160], file[4 * TT_PATH_MAX + 1], esc[4 * TT_PATH_MAX + 1], who[64];
		int top = tt_top_reason(&r->cur);

		tt_interp_name(&r->key, name, sizeof(name));
		if (a->per_process)
			snprintf(who, sizeof(who), "%u", r->key.tgid);
		else
			snprintf(who, sizeof(who), "%s", tt_user_name(r->key.uid));
		tt_escape(r->last_file[0] ? r->last_file : "-", esc, sizeof(esc));
		fit_tail(esc, c.file, file, sizeof(file));
		snprintf(line, sizeof(line), "%-*.*s %-*s %-*.*s %*.1f %*s %*s %*.1f %-*s %*s %-*.*s",
			 c.interp, c.interp, name, c.api, api_short(r->key.api),
			 c.user, c.user, who, c.rate, r->rate,
			 c.allowed, tt_fmt_count(r->cur.allowed, c.allowed, n1, sizeof(n1)),
			 c.denied, tt_fmt_count(r->cur.denied, c.denied, n2, sizeof(n2)),
			 c.pct, tt_deny_pct(&r->cur), c.reason, tt_reason_slot_name(top),
			 c.would, tt_fmt_count(r->cur.would, c.would, n3, sizeof(n3)),
			 c.file, c.file, file);
		if (r->cur.denied)
			attron(attr(C_DENY, A_BOLD));
		tt_ui_put(y, 0, line);
		if (r->cur.denied)
			attroff(attr(C_DENY, A_BOLD));
	}
	free(rows);

	if (pane) {
		uint64_t s = a->shown_seq;

		y = table_end;
		attron(A_BOLD);
		mvhline(y, 0, '-', COLS);
		tt_ui_put(y++, 1, " Latest denials ");
		attroff(A_BOLD);
		for (; y < LINES - 1 && s > 0 && a->shown_seq - s < TT_RECENT; s--) {
			struct tt_recent *r = &a->shown[(s - 1) % TT_RECENT];
			char name[160], file[4 * TT_PATH_MAX + 1], why[64];
			char esc[4 * TT_PATH_MAX + 1];
			struct tt_key k = { 0 };
			bool denied = r->ev.flags & TT_EV_DENIED;

			memcpy(k.exe, r->ev.exe, TT_EXE_LEN);
			memcpy(k.comm, r->ev.comm, TT_COMM_LEN);
			k.uid = r->ev.uid;
			tt_interp_name(&k, name, sizeof(name));
			tf_clock_hms((time_t)(r->wall), clock, sizeof(clock));
			tt_reason_bits_str(denied ? r->ev.reason : r->ev.would_deny,
					   denied, why, sizeof(why));
			tt_escape(r->path, esc, sizeof(esc));
			snprintf(line, sizeof(line), "%s %6u %-14.14s %-5s %-5s %-12.12s %s",
				 clock, r->ev.tgid, name, api_short(r->ev.source),
				 denied ? "DENY" : "would", why,
				 fit_tail(esc, COLS - 56, file, sizeof(file)));
			attron(denied ? attr(C_DENY, A_NORMAL) : attr(C_WOULD, A_DIM));
			tt_ui_put(y++, 0, line);
			attroff(denied ? attr(C_DENY, A_NORMAL) : attr(C_WOULD, A_DIM));
		}
	}

	/* Status / prompt line. */
	attron(attr(C_STATUS, A_REVERSE));
	mvhline(LINES - 1, 0, ' ', COLS);
	tt_ui_bottom_line(line, sizeof(line));
	tt_ui_put(LINES - 1, 0, line);
	attroff(attr(C_STATUS, A_REVERSE));
	refresh();
}
