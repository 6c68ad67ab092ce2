// SPDX-License-Identifier: GPL-2.0-or-later
/* A walker thread's io_uring; see ring.h. */
#include "ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RING_ENTRIES (2 * PC_RING_BATCH) /* a batch's opens + the last one's closes */
#define CLOSE_TAG UINT64_MAX

struct pc_ring *pc_ring_new(void)
{
	static const unsigned int flags[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, 0,
	};
	struct pc_ring *r = calloc(1, sizeof(*r));
	struct io_uring_params p;

	if (!r)
		return NULL;
	/* the first flags need Linux 6.1; older kernels refuse them */
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		memset(&p, 0, sizeof(p));
		p.flags = flags[i];
		if (io_uring_queue_init_params(RING_ENTRIES, &r->ring, &p) == 0)
			return r;
	}
	free(r);
	return NULL;
}

struct io_uring_sqe *pc_ring_sqe(struct pc_ring *r, uint64_t idx)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);

	if (sqe) {
		io_uring_sqe_set_data64(sqe, idx);
		r->queued++;
	}
	return sqe;
}

void pc_ring_close(struct pc_ring *r, int fd)
{
	struct io_uring_sqe *sqe = pc_ring_sqe(r, CLOSE_TAG);

	if (sqe)
		io_uring_prep_close(sqe, fd);
	else
		close(fd);
}

int pc_ring_run(struct pc_ring *r, int *res)
{
	unsigned int want = r->queued, got = 0;

	r->queued = 0;
	while (got < want) {
		struct io_uring_cqe *c;
		unsigned int head, n = 0;
		int ret;

		io_uring_for_each_cqe(&r->ring, head, c) {
			if (c->user_data != CLOSE_TAG)
				res[c->user_data] = c->res;
			n++;
		}
		io_uring_cq_advance(&r->ring, n);
		got += n;
		if (got >= want)
			break;
		ret = io_uring_submit_and_wait(&r->ring, want - got);
		/*
		 * EAGAIN/EBUSY (no memory for requests) or worse: give up on
		 * the ring; the plain path redoes what it had not done.
		 */
		if (ret < 0 && ret != -EINTR)
			return -1;
	}
	return 0;
}

void pc_ring_free(struct pc_ring *r)
{
	int none[1];

	if (!r)
		return;
	if (r->queued)
		pc_ring_run(r, none);
	io_uring_queue_exit(&r->ring);
	free(r);
}
