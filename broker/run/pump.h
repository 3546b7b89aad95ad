/* SPDX-License-Identifier: MIT */
/*
 * The watch over one running command: its stdout and stderr read as they
 * arrive (into bounded buffers, and past the cap into a private file), the
 * timeout, the drain window after the shell exits, signals to sluice itself,
 * and the end of the whole tree.
 * Not for: starting the command (spawner.c) or presenting the result.
 */
#ifndef SLUICE_PUMP_H
#define SLUICE_PUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "run/outbuf.h"

/* One read takes at most this much. A read holds the pipe's lock while it
 * copies, and a writer waiting for the lock spins: reads of 256 KiB from a
 * full pipe let `head -c 1G /dev/zero` through at a third of a plain
 * pipe's speed, reads of 64 KiB at two thirds (docs/running.md). A
 * background job's output is read so too (job-output.c). */
#define PUMP_CHUNK (64 * 1024)
/* The pipes are widened to this, so that a writer waits less for reads. */
#define PUMP_PIPE_SIZE (256 * 1024)

/* The launcher's report line is kept up to this size. */
#define PUMP_REPORT_MAX 4096
/* The most descriptors watch_fds() names. */
#define PUMP_WATCH_MAX 2
/* The most survivors listed in backgroundPids. */
#define PUMP_SURVIVORS_MAX 64

/* Creates the full-output file when output passes the cap: an open
 * descriptor and its path (owned, in *ret_path), or -errno. */
typedef int (*pump_spill_open_fn)(void *userdata, char **ret_path);

/* Told, every progress_interval_ms while the command runs, how long it has
 * run and how many output bytes it produced. */
typedef void (*pump_progress_fn)(void *userdata, uint64_t elapsed_ms, uint64_t output_bytes);

struct pump {
	/* in: */
	int out_fd, err_fd, report_fd; /* read ends; owned and closed by the pump; -1 none */
	/* The read end where the launcher's monitor writes the shell's wait
	 * status once every process of the run is gone (LAUNCH_OPT_END_FD),
	 * before its own exit; owned; -1 none, and nothing read there (end of
	 * file, a short word) counts for nothing: the launcher's exit does. */
	int end_fd;
	int signal_fd;       /* from pump_block_signals() */
	pid_t pid;           /* the launcher / shell, also its process group */
	uint64_t start_ms;   /* monotonic_ms() when it was started */
	uint64_t timeout_ms; /* 0: none */
	uint64_t kill_grace_ms;
	uint64_t drain_window_ms;
	bool kill_survivors;
	struct outbuf *combined, *out, *err; /* borrowed */
	uint64_t spill_cap;                  /* the full-output file stops here */
	pump_spill_open_fn spill_open;
	void *spill_userdata;
	/* Readable or hung up: the caller cancels; the tree is ended as on a
	 * timeout. Borrowed, not closed; -1 for none (set it: 0 is stdin). */
	int cancel_fd;
	/* More descriptors to read while the command runs (the egress
	 * proxy's questions, run/egress-asks.h): watch_fds() names up to
	 * PUMP_WATCH_MAX, watch_ready() is called for one readable or hung
	 * up, watch_end() once the command is over, before what it left
	 * running is looked for. NULL: none. */
	size_t (*watch_fds)(void *userdata, int fds[]);
	void (*watch_ready)(void *userdata, int fd);
	void (*watch_end)(void *userdata);
	void *watch_userdata;
	pump_progress_fn progress; /* NULL: none */
	uint64_t progress_interval_ms;
	void *progress_userdata;

	/* out: */
	bool reaped;
	int status; /* the shell's wait status when reaped */
	/* reaped is true because the launcher announced the end on end_fd:
	 * it may still be exiting (its namespaces' teardown, not waited
	 * for); pump_done() reaps it if it is gone by then, else the next
	 * wait for any child does (a CLI's exit leaves it to the system). */
	bool end_announced;
	/* The shell had ended when a signal or a cancel ended the tree (in
	 * the drain window): its status is the shell's own. */
	bool ended_before_kill;
	bool timed_out;
	bool cancelled;     /* ended because cancel_fd fired */
	int interrupted_by; /* a signal sluice itself received, or 0 */
	char report[PUMP_REPORT_MAX];
	size_t report_len;
	pid_t survivors[PUMP_SURVIVORS_MAX];
	size_t n_survivors; /* listed (the count alive may be larger) */
	/* The tree could not be ended within the kill's time (processes that
	 * fork and exit faster than they can be found): survivors lists what
	 * of it a scan still found when the kill gave up (maybe nothing). */
	bool kill_failed;
	uint64_t duration_ms;
	char *spill_path; /* owned: the full-output file, or NULL */
	bool spill_cut;   /* the file stopped at spill_cap or on a write error */
	int spill_error;  /* -errno if the file could not be made or written */

	/* private: */
	int spill_fd;
	uint64_t spill_written;
};

/*
 * Block SIGCHLD, SIGINT, SIGTERM and SIGHUP and return a signalfd for them
 * (close-on-exec); ignore SIGPIPE. Call before spawning so that no child's
 * exit is missed.
 */
int pump_block_signals(void);

/* Run until the command is over; fills the out fields. Returns 0, or -errno
 * for a failure of the loop itself (the tree has been killed then). */
int pump_run(struct pump *p);

/* Release the owned fields; reap a launcher that announced the end, if it
 * has exited. */
void pump_done(struct pump *p);

#endif
