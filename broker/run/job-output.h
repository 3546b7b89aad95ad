/* SPDX-License-Identifier: MIT */
/*
 * A background job's output on its way to its file: the command's stdout
 * and stderr are the write end of a pipe, never the file itself (which
 * lies outside the workspace: through /proc/self/fd/1 the command would
 * change its mode, times and extended attributes), and a thread of the
 * job's monitor reads the pipe and appends what comes to the file as it
 * comes, up to [broker] output_file_cap bytes. Past the cap, and after a
 * write that failed, it keeps reading the pipe, so that the command is
 * never blocked on it, and keeps nothing more. Memory is one fixed buffer.
 * Not for: the job's end lines and status (job-monitor.c).
 */
#ifndef SLUICE_JOB_OUTPUT_H
#define SLUICE_JOB_OUTPUT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "run/pump.h"

struct job_output {
	int pipe_fd;       /* the read end, the thread's while it runs */
	int file_fd;       /* ID.out (O_APPEND), borrowed */
	int end_fd;        /* an eventfd: the job's last process is gone */
	uint64_t cap;      /* bytes the file takes, at most */
	uint64_t drain_ms; /* how long the pipe is still read after the end */
	bool running;
	pthread_t thread;
	/* the thread's while it runs; final once job_output_finish() returns */
	uint64_t produced;    /* bytes read from the pipe */
	uint64_t written;     /* bytes appended to the file */
	int error;            /* an append failed (-errno): nothing more appended */
	bool held_open;       /* the pipe was still open drain_ms after the end */
	char buf[PUMP_CHUNK]; /* one read, as the foreground's */
};

/* The job's pipe: ret[0] to read (job_output_start()), ret[1] the
 * command's stdout and stderr, both close-on-exec (the spawn's dup2 gives
 * the launcher its own), widened to PUMP_PIPE_SIZE as the foreground's
 * are. 0 or -errno. */
int job_output_pipe(int ret[2]);

/* Start the thread that reads pipe_fd (taken: closed by
 * job_output_finish(), or here on a failure) and appends it to file_fd, up
 * to cap bytes; drain_ms: how long job_output_finish() still reads once
 * the job's last process is gone. o is not moved while it runs. Signals
 * stay as blocked as the caller's (the thread inherits its mask). 0 or
 * -errno (no thread then). */
int job_output_start(struct job_output *o, int pipe_fd, int file_fd, uint64_t cap,
                     uint64_t drain_ms);

/* The job's last process is gone (or its start failed): read the pipe to
 * its end, then stop the thread. A write end held elsewhere (passed out of
 * the job) is read drain_ms longer, then left (held_open). Nothing when
 * no thread runs; may be called again. */
void job_output_finish(struct job_output *o);

/* Whether the file lacks some of the output: cut at the cap, or an
 * append failed. Once job_output_finish() returned. */
bool job_output_truncated(const struct job_output *o);

/* The note the job's end writes after its output, when it was truncated:
 * "[sluice: output cut at 1MiB ([broker] output_file_cap): ...]". Nothing
 * otherwise. */
void job_output_write_note(const struct job_output *o, FILE *f);

#endif
