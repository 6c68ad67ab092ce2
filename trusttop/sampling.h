/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trusttop: the BPF side seen from user space. Loading one set of programs
 * (backend.h), the ring buffer of denials, reading the counting maps into
 * the row tables, and the self-profile (trusttop's CPU and the programs'
 * sampled run time).
 */
#ifndef TRUSTTOP_SAMPLING_H
#define TRUSTTOP_SAMPLING_H

#include <stdbool.h>
#include <stddef.h>
#include "app.h"

struct tt_sampler;

/* Open, load and attach the programs @progs (TT_P_*) for @a; NULL with a
 * message in @err on failure.
 */
struct tt_sampler *tt_sampler_open(struct tt_app *a, unsigned int progs,
				   bool per_process, char *err, size_t errsz);
/* Set up the ring buffer and the self-profile's start. 0, or -1 with a
 * message in @err.
 */
int tt_sampler_start(struct tt_sampler *s, char *err, size_t errsz);
/* The ring buffer's epoll fd (readable when events wait). */
int tt_sampler_fd(struct tt_sampler *s);
/* Wait up to @timeout_ms for events and take them: ring_buffer__poll(). */
int tt_sampler_poll(struct tt_sampler *s, int timeout_ms);
/* Take the waiting events without waiting. */
void tt_sampler_consume(struct tt_sampler *s);
/* An update: events, maps, rates, totals, overhead. 0, or a negative errno
 * with a message in @err.
 */
int tt_sampler_tick(struct tt_sampler *s, char *err, size_t errsz);
void tt_sampler_close(struct tt_sampler *s);

/* CLOCK_MONOTONIC / CLOCK_REALTIME in seconds. */
double tt_mono_now(void);
double tt_wall_now(void);

#endif /* TRUSTTOP_SAMPLING_H */
