// SPDX-License-Identifier: GPL-2.0-or-later
/* The report's --input: audit logs or stdin fed to an aggregator; see report_input.h. */
#include "report_input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "feed.h"
#include "report_split.h"

#define PROG "audisp-trusted-for report"

static int feed_fd(struct ap_feed *feed, int fd, const char *name)
{
	char buf[65536];

	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r == 0)
			return 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno; /* before the messages' calls */

			fprintf(stderr, PROG ": cannot read ");
			tf_fputs_escaped(name, stderr);
			fprintf(stderr, ": %s\n", strerror(e));
			return -1;
		}
		ap_feed_bytes(feed, buf, (size_t)r);
	}
}

int ap_report_read_inputs(struct ap_agg *agg, const struct ap_filter *flt, char **files,
			  int nfiles, unsigned int jobs)
{
	struct ap_feed feed;
	int *fds = calloc(nfiles ? (size_t)nfiles : 1, sizeof(int));
	int rc = 0;

	if (!fds) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	/* Open everything first: a typo must not yield a partial report. */
	for (int i = 0; i < nfiles; i++) {
		fds[i] = strcmp(files[i], "-") ? open(files[i], O_RDONLY | O_CLOEXEC) : 0;
		if (fds[i] < 0) {
			int e = errno; /* before the messages' calls */

			fprintf(stderr, PROG ": cannot open ");
			tf_fputs_escaped(files[i], stderr);
			fprintf(stderr, ": %s (check the --input file names)\n", strerror(e));
			while (i-- > 0)
				if (fds[i] > 0)
					close(fds[i]);
			free(fds);
			return -1;
		}
	}
	/* Regular files, big enough or --jobs: split among processes. */
	rc = ap_report_read_split(agg, flt, fds, files, nfiles, jobs);
	if (rc <= 0)
		goto out;
	rc = 0;
	if (ap_feed_init(&feed, agg, flt, 0)) {
		fprintf(stderr, PROG ": cannot start libauparse: %s\n", strerror(errno));
		rc = -1;
		goto out;
	}
	ap_feed_offline(&feed); /* finished logs: only the records counted, at once */
	if (nfiles == 0)
		rc = feed_fd(&feed, 0, "stdin");
	for (int i = 0; i < nfiles && !rc; i++)
		rc = feed_fd(&feed, fds[i], files[i]);
	ap_feed_flush(&feed);
	ap_feed_free(&feed);
out:
	for (int i = 0; i < nfiles; i++)
		if (fds[i] > 0)
			close(fds[i]);
	free(fds);
	return rc;
}
