/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A walker thread's io_uring: requests tagged with an index into the
 * caller's result array, submitted and waited for together; closes ride
 * along with the next submission. NULL from pc_ring_new() (old kernel,
 * seccomp, io_uring_disabled) means plain system calls.
 */
#ifndef PC_RING_H
#define PC_RING_H

#include <liburing.h>
#include <limits.h>
#include <stdint.h>

/* A ring sized for a batch of BATCH opens plus the last batch's closes. */
#define PC_RING_BATCH 32

/* A result not received (the ring failed first). */
#define PC_RING_NO_RESULT INT_MIN

struct pc_ring {
	struct io_uring ring;
	unsigned int queued; /* requests awaiting their results */
};

struct pc_ring *pc_ring_new(void);

/* Submit the closes still queued, then free @r (NULL is fine). */
void pc_ring_free(struct pc_ring *r);

/* A request of @r whose result goes to res[@idx]; NULL when full. */
struct io_uring_sqe *pc_ring_sqe(struct pc_ring *r, uint64_t idx);

/* Close @fd with the ring's next submission, or now if the ring is full. */
void pc_ring_close(struct pc_ring *r, int fd);

/*
 * Submit what is queued and wait for all of it; each result goes to
 * res[idx] (closes: dropped). 0, or -1 when the ring failed (results not
 * received stay as they were; a file whose open was in flight then stays
 * open until the process exits).
 */
int pc_ring_run(struct pc_ring *r, int *res);

#endif /* PC_RING_H */
