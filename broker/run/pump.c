/* SPDX-License-Identifier: MIT */
/*
 * The poll loop of `sluice run`. States: running; killing (SIGTERM sent,
 * the grace period runs, output is still read); over. The shell's exit
 * alone does not end a run while its pipes are open, but it starts the
 * drain window, so a backgrounded child holding the pipe costs at most that.
 */
#include "config.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "monotonic.h"
#include "run/pump.h"
#include "run/spawner.h"

/* How often the killing state looks for survivors. */
#define PUMP_TICK_MS 20
/* The SIGKILL rounds give up after this (unkillable processes). */
#define PUMP_KILL_MS 2000

int pump_block_signals(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return neg_errno();
	signal(SIGPIPE, SIG_IGN);
	int fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return fd < 0 ? neg_errno() : fd;
}

static void spill_write(struct pump *p, const char *data, size_t len)
{
	if (p->spill_fd < 0)
		return;
	if (p->spill_written + len > p->spill_cap) {
		len = (size_t)(p->spill_cap - p->spill_written);
		p->spill_cut = true;
	}
	int r = write_full(p->spill_fd, data, len);
	p->spill_written += len;
	if (r < 0) {
		p->spill_error = r;
		p->spill_cut = true;
	}
	if (p->spill_cut)
		p->spill_fd = safe_close(p->spill_fd);
}

/* The combined stream goes to the file once it passes the cap; what the
 * buffer already holds (all of it so far, since it was not cut before)
 * goes first. */
static void combined_append(struct pump *p, const char *data, size_t len)
{
	uint64_t before = outbuf_total(p->combined);
	(void)outbuf_append(p->combined, data, len);
	if (p->spill_fd >= 0) {
		spill_write(p, data, len);
		return;
	}
	if (p->spill_path || p->spill_error || !p->spill_open || !outbuf_truncated(p->combined))
		return;
	int fd = p->spill_open(p->spill_userdata, &p->spill_path);
	if (fd < 0) {
		p->spill_error = fd;
		return;
	}
	p->spill_fd = fd;
	size_t kept;
	const char *head = outbuf_data(p->combined, &kept);
	spill_write(p, head, kept < before ? kept : (size_t)before);
	spill_write(p, data, len);
}

enum pump_state {
	PUMP_RUNNING,
	PUMP_KILLING, /* SIGTERM sent; SIGKILL at kill_deadline */
	PUMP_OVER,
};

struct pump_loop {
	enum pump_state state;
	uint64_t deadline;       /* the timeout, or 0 */
	uint64_t drain_deadline; /* set when the shell exits with pipes open */
	uint64_t kill_deadline;
	uint64_t progress_deadline; /* the next progress call, or 0 */
	bool killed;                /* the tree was killed, so every writer is gone */
};

/* Read once from *fd into own and the combined stream; EOF or an error
 * closes it. */
static bool read_stream(struct pump *p, int *fd, struct outbuf *own, char *buf)
{
	ssize_t n = read(*fd, buf, PUMP_CHUNK);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return false;
	if (n <= 0) {
		*fd = safe_close(*fd);
		return false;
	}
	(void)outbuf_append(own, buf, (size_t)n);
	combined_append(p, buf, (size_t)n);
	return true;
}

/* The launcher's word on end_fd: the shell's wait status, once every
 * process of the run is gone (nothing can hold a pipe any more), written
 * whole by one write of 4 bytes; anything else is ignored, and the
 * launcher's exit tells instead. */
static void read_end(struct pump *p)
{
	int32_t word;
	ssize_t n = read(p->end_fd, &word, sizeof(word));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n == (ssize_t)sizeof(word) && !p->reaped) {
		p->status = word;
		p->reaped = true;
		p->end_announced = true;
	}
	p->end_fd = safe_close(p->end_fd);
}

/* The launcher's report: one line, written before its exec into a pipe that
 * holds it whole. It is read once the run is over, not polled while the
 * command starts, so that writing it wakes nothing on the way to the exec.
 * The writer is gone by then (it became the shell, which was reaped); a
 * launcher that is not (unkillable) leaves what it wrote so far. */
static void read_report(struct pump *p, char *buf)
{
	if (p->report_fd < 0)
		return;
	(void)fcntl(p->report_fd, F_SETFL, O_NONBLOCK);
	for (;;) {
		size_t room = sizeof(p->report) - 1 - p->report_len;
		char *dst = room > 0 ? p->report + p->report_len : buf;
		ssize_t n = read(p->report_fd, dst, room > 0 ? room : PUMP_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (room > 0) {
			p->report_len += (size_t)n;
			p->report[p->report_len] = '\0';
		}
	}
	p->report_fd = safe_close(p->report_fd);
	p->end_fd = safe_close(p->end_fd);
	if (p->end_announced && p->pid > 0)
		(void)waitpid(p->pid, NULL, WNOHANG);
}

/* What of the tree is still running, into p->survivors; their count. */
static size_t list_survivors(struct pump *p)
{
	int n = spawn_tree_list(getpid(), p->survivors, ELEMENTSOF(p->survivors));
	p->n_survivors = n <= 0                                 ? 0
	                 : (size_t)n < ELEMENTSOF(p->survivors) ? (size_t)n
	                                                        : ELEMENTSOF(p->survivors);
	return p->n_survivors;
}

static void start_kill(struct pump *p, struct pump_loop *l)
{
	p->ended_before_kill = p->reaped;
	(void)spawn_tree_signal(getpid(), p->pid, SIGTERM);
	l->state = PUMP_KILLING;
	l->kill_deadline = monotonic_ms() + p->kill_grace_ms;
}

static void finish_kill(struct pump *p, struct pump_loop *l)
{
	if (spawn_tree_kill(getpid(), p->pid, p->pid, &p->status, &p->reaped, PUMP_KILL_MS) ==
	    -ETIMEDOUT) {
		(void)list_survivors(p);
		p->kill_failed = true;
	}
	l->killed = true;
	l->state = PUMP_OVER;
}

static void handle_signals(struct pump *p, struct pump_loop *l)
{
	struct signalfd_siginfo si;
	while (read(p->signal_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			(void)spawn_reap(p->pid, &p->status, &p->reaped);
			continue;
		}
		if (p->interrupted_by == 0)
			p->interrupted_by = (int)si.ssi_signo;
		if (l->state == PUMP_RUNNING)
			start_kill(p, l);
	}
}

static void cancel(struct pump *p, struct pump_loop *l)
{
	p->cancelled = true;
	if (l->state == PUMP_RUNNING)
		start_kill(p, l);
}

/* Decide on time and exit; returns the poll timeout (-1: none). */
static int step(struct pump *p, struct pump_loop *l)
{
	uint64_t now = monotonic_ms();
	if (l->state == PUMP_RUNNING && l->deadline && now >= l->deadline) {
		if (p->reaped) {
			/* The shell ended in time: the deadline only ends its drain
			 * window, and what it left running is a survivor. */
			l->state = PUMP_OVER;
		} else {
			p->timed_out = true;
			start_kill(p, l);
		}
	}
	if (l->state == PUMP_KILLING) {
		bool left = spawn_reap(p->pid, &p->status, &p->reaped);
		if (now >= l->kill_deadline)
			finish_kill(p, l);
		else if (!left) {
			l->killed = true;
			l->state = PUMP_OVER;
		}
	}
	if (l->state == PUMP_RUNNING && l->progress_deadline && now >= l->progress_deadline) {
		p->progress(p->progress_userdata, now - p->start_ms, outbuf_total(p->combined));
		l->progress_deadline = now + p->progress_interval_ms;
	}
	if (l->state == PUMP_RUNNING && p->reaped) {
		if (p->out_fd < 0 && p->err_fd < 0)
			l->state = PUMP_OVER;
		else if (!l->drain_deadline)
			l->drain_deadline = now + p->drain_window_ms;
		else if (now >= l->drain_deadline)
			l->state = PUMP_OVER;
	}
	if (l->state == PUMP_OVER)
		return 0;

	uint64_t until = UINT64_MAX;
	if (l->state == PUMP_RUNNING && l->deadline)
		until = l->deadline;
	if (l->state == PUMP_RUNNING && l->drain_deadline && l->drain_deadline < until)
		until = l->drain_deadline;
	if (l->state == PUMP_RUNNING && l->progress_deadline && l->progress_deadline < until)
		until = l->progress_deadline;
	if (l->state == PUMP_KILLING)
		until = l->kill_deadline < now + PUMP_TICK_MS ? l->kill_deadline
		                                              : now + PUMP_TICK_MS;
	if (until == UINT64_MAX)
		return -1;
	return until <= now ? 0 : (int)(until - now > 60000 ? 60000 : until - now);
}

/* After a kill every writer is gone: what is still in the pipes is read to
 * the end. */
static void drain_rest(struct pump *p, char *buf)
{
	/* Non-blocking, in case an unkillable process still holds a pipe. */
	if (p->out_fd >= 0)
		(void)fcntl(p->out_fd, F_SETFL, O_NONBLOCK);
	if (p->err_fd >= 0)
		(void)fcntl(p->err_fd, F_SETFL, O_NONBLOCK);
	while (p->out_fd >= 0 && read_stream(p, &p->out_fd, p->out, buf))
		;
	while (p->err_fd >= 0 && read_stream(p, &p->err_fd, p->err, buf))
		;
}

static void collect_survivors(struct pump *p, struct pump_loop *l)
{
	/* The launcher announces the end only once its PID namespace is
	 * empty: the run left nothing, whatever of the launcher is still
	 * exiting. */
	if (p->end_announced)
		return;
	/* The common case costs one waitpid: nothing is left. */
	if (!spawn_reap(p->pid, &p->status, &p->reaped))
		return;
	if (list_survivors(p) == 0)
		return;
	if (p->kill_survivors) {
		start_kill(p, l);
		while (l->state == PUMP_KILLING) {
			int t = step(p, l);
			if (t > 0)
				(void)poll(NULL, 0, t);
		}
	}
}

int pump_run(struct pump *p)
{
	_cleanup_free_ char *buf = malloc(PUMP_CHUNK);
	if (!buf) {
		(void)spawn_tree_kill(getpid(), p->pid, p->pid, &p->status, &p->reaped,
		                      PUMP_KILL_MS);
		return -ENOMEM;
	}
	struct pump_loop l = {
		.state = PUMP_RUNNING,
		.deadline = p->timeout_ms ? p->start_ms + p->timeout_ms : 0,
		.progress_deadline = p->progress && p->progress_interval_ms
		                             ? p->start_ms + p->progress_interval_ms
		                             : 0,
	};
	p->spill_fd = -1;
	/* Room for the writer to go on while this process reads (best effort). */
	if (p->out_fd >= 0)
		(void)fcntl(p->out_fd, F_SETPIPE_SZ, PUMP_PIPE_SIZE);
	if (p->err_fd >= 0)
		(void)fcntl(p->err_fd, F_SETPIPE_SZ, PUMP_PIPE_SIZE);

	for (;;) {
		int timeout = step(p, &l);
		if (l.state == PUMP_OVER)
			break;
		struct pollfd fds[5 + PUMP_WATCH_MAX];
		int which[5 + PUMP_WATCH_MAX];
		nfds_t n = 0;
		/* The cancel descriptor counts until it fires once. */
		int cancel_fd = p->cancelled ? -1 : p->cancel_fd;
		const int *streams[] = { &p->out_fd, &p->err_fd, &p->signal_fd, &cancel_fd,
			                 &p->end_fd };
		for (int i = 0; i < 5; i++) {
			if (*streams[i] < 0)
				continue;
			fds[n] = (struct pollfd){ .fd = *streams[i], .events = POLLIN };
			which[n++] = i;
		}
		int watched[PUMP_WATCH_MAX];
		size_t n_watched = p->watch_fds && l.state == PUMP_RUNNING
		                           ? p->watch_fds(p->watch_userdata, watched)
		                           : 0;
		for (size_t i = 0; i < n_watched && i < PUMP_WATCH_MAX; i++) {
			fds[n] = (struct pollfd){ .fd = watched[i], .events = POLLIN };
			which[n++] = 5;
		}
		if (poll(fds, n, timeout) < 0 && errno != EINTR) {
			int r = neg_errno();
			finish_kill(p, &l);
			return r;
		}
		for (nfds_t i = 0; i < n; i++) {
			if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (which[i] == 0)
				(void)read_stream(p, &p->out_fd, p->out, buf);
			else if (which[i] == 1)
				(void)read_stream(p, &p->err_fd, p->err, buf);
			else if (which[i] == 2)
				handle_signals(p, &l);
			else if (which[i] == 3)
				cancel(p, &l);
			else if (which[i] == 4)
				read_end(p);
			else
				p->watch_ready(p->watch_userdata, fds[i].fd);
		}
	}
	if (p->watch_end)
		p->watch_end(p->watch_userdata);
	if (l.killed)
		drain_rest(p, buf);
	else
		collect_survivors(p, &l);
	p->duration_ms = monotonic_ms() - p->start_ms;
	read_report(p, buf);
	p->out_fd = safe_close(p->out_fd);
	p->err_fd = safe_close(p->err_fd);
	p->end_fd = safe_close(p->end_fd);
	p->spill_fd = safe_close(p->spill_fd);
	return 0;
}

void pump_done(struct pump *p)
{
	free(p->spill_path);
	p->spill_path = NULL;
	p->spill_fd = safe_close(p->spill_fd);
	p->out_fd = safe_close(p->out_fd);
	p->err_fd = safe_close(p->err_fd);
	p->report_fd = safe_close(p->report_fd);
	p->end_fd = safe_close(p->end_fd);
	if (p->end_announced && p->pid > 0)
		(void)waitpid(p->pid, NULL, WNOHANG);
}
