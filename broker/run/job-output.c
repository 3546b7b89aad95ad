/* SPDX-License-Identifier: MIT */
/*
 * A background job's output, read from its pipe by a thread of the job's
 * monitor and appended to its file up to the cap (job-output.h). The
 * thread only reads, writes and polls: it takes no lock and allocates
 * nothing, so the monitor's other work (and a spawn) goes on beside it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "errors.h"
#include "fd-util.h"
#include "monotonic.h"
#include "parse-number.h"
#include "run/job-output.h"

int job_output_pipe(int ret[2])
{
	if (pipe2(ret, O_CLOEXEC) < 0)
		return neg_errno();
	/* a failure leaves the default size */
	(void)fcntl(ret[1], F_SETPIPE_SZ, PUMP_PIPE_SIZE);
	return 0;
}

/* len bytes read from the pipe: appended while the cap has room and no
 * append failed, else counted and dropped. */
static void take(struct job_output *o, const char *data, size_t len)
{
	o->produced += len;
	if (o->error || o->written >= o->cap)
		return;
	size_t n = o->cap - o->written < len ? (size_t)(o->cap - o->written) : len;
	int r = write_full(o->file_fd, data, n);
	if (r < 0) {
		o->error = r;
		return;
	}
	o->written += n;
}

/* The thread: read until end of file; once the end is told (end_fd),
 * read what is there and what comes for drain_ms more, then stop. */
static void *output_thread(void *userdata)
{
	struct job_output *o = userdata;
	bool ended = false;
	uint64_t deadline = 0;
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = o->pipe_fd, .events = POLLIN },
			{ .fd = o->end_fd, .events = POLLIN },
		};
		int timeout = -1;
		if (ended) {
			uint64_t now = monotonic_ms();
			uint64_t left = deadline > now ? deadline - now : 0;
			timeout = left > INT_MAX ? INT_MAX : (int)left;
		}
		int n = poll(p, ended ? 1 : 2, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (n == 0) {
			/* every process of the job is gone, and something else
			 * still holds the write end: what it writes is not kept */
			o->held_open = true;
			break;
		}
		if (!ended && p[1].revents) {
			ended = true;
			deadline = monotonic_ms() + o->drain_ms;
			continue;
		}
		if (!p[0].revents)
			continue;
		/* past the drain window, a writer outside that never stops
		 * would keep the thread reading: left as above. Without
		 * POLLHUP there is a writer; with it, what is left is read. */
		if (ended && !(p[0].revents & POLLHUP) && monotonic_ms() >= deadline) {
			o->held_open = true;
			break;
		}
		ssize_t got = read(o->pipe_fd, o->buf, sizeof(o->buf));
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0)
			break; /* end of file: no writer left */
		take(o, o->buf, (size_t)got);
	}
	return NULL;
}

int job_output_start(struct job_output *o, int pipe_fd, int file_fd, uint64_t cap,
                     uint64_t drain_ms)
{
	o->pipe_fd = pipe_fd;
	o->file_fd = file_fd;
	o->cap = cap;
	o->drain_ms = drain_ms;
	o->produced = o->written = 0;
	o->error = 0;
	o->held_open = false;
	o->end_fd = eventfd(0, EFD_CLOEXEC);
	int r = o->end_fd < 0 ? neg_errno() : -pthread_create(&o->thread, NULL, output_thread, o);
	if (r < 0) {
		o->pipe_fd = safe_close(o->pipe_fd);
		o->end_fd = safe_close(o->end_fd);
		return r;
	}
	o->running = true;
	return 0;
}

void job_output_finish(struct job_output *o)
{
	if (!o->running)
		return;
	uint64_t one = 1;
	/* an eventfd's counter takes it (it is far from its maximum) */
	(void)write_full(o->end_fd, &one, sizeof(one));
	(void)pthread_join(o->thread, NULL);
	o->running = false;
	o->pipe_fd = safe_close(o->pipe_fd);
	o->end_fd = safe_close(o->end_fd);
}

bool job_output_truncated(const struct job_output *o)
{
	return o->produced > o->written || o->held_open;
}

void job_output_write_note(const struct job_output *o, FILE *f)
{
	char cap[32];
	unsigned long long dropped = (unsigned long long)(o->produced - o->written);
	if (o->error)
		fprintf(f,
		        "[sluice: output cut after %llu bytes: appending to the output file "
		        "failed (%s); the job wrote %llu bytes, the other %llu were read and "
		        "dropped]\n",
		        (unsigned long long)o->written, strerror(-o->error),
		        (unsigned long long)o->produced, dropped);
	else if (dropped)
		fprintf(f,
		        "[sluice: output cut at %s, the [broker] output_file_cap: the job wrote "
		        "%llu bytes, the %llu past the cap were read and dropped]\n",
		        format_size(o->cap, cap, sizeof(cap)), (unsigned long long)o->produced,
		        dropped);
	if (o->held_open)
		fprintf(f,
		        "[sluice: a process outside the job still held its output open after its "
		        "last process was gone: what it wrote after that is not kept]\n");
}
