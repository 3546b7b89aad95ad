/* SPDX-License-Identifier: MIT */
/*
 * The watch over one running command: its stdout and stderr read as they
 * arrive (into bounded buffers, and past the cap into a private file), the
 * timeout, the drain window after the shell exits, signals to sluice itself,
 * and the end of the whole tree.
 * Not for: starting the command (spawn.c) or presenting the result.
 */
#ifndef SLUICE_PUMP_H
#define SLUICE_PUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "outbuf.h"

/* The launcher's report line is kept up to this size. */
#define PUMP_REPORT_MAX 4096
/* The most survivors listed in backgroundPids. */
#define PUMP_SURVIVORS_MAX 64

/* Creates the full-output file when output passes the cap: an open
 * descriptor and its path (owned, in *ret_path), or -errno. */
typedef int (*pump_spill_open_fn)(void *userdata, char **ret_path);

struct pump {
	/* in: */
	int out_fd, err_fd, report_fd; /* read ends; owned and closed by the pump; -1 none */
	int signal_fd;                 /* from pump_block_signals() */
	pid_t pid;                     /* the launcher / shell, also its process group */
	uint64_t start_ms;             /* pump_now_ms() when it was started */
	uint64_t timeout_ms;           /* 0: none */
	uint64_t kill_grace_ms;
	uint64_t drain_window_ms;
	bool kill_survivors;
	struct outbuf *combined, *out, *err; /* borrowed */
	uint64_t spill_cap;                  /* the full-output file stops here */
	pump_spill_open_fn spill_open;
	void *spill_userdata;

	/* out: */
	bool reaped;
	int status; /* the shell's wait status when reaped */
	bool timed_out;
	int interrupted_by; /* a signal sluice itself received, or 0 */
	char report[PUMP_REPORT_MAX];
	size_t report_len;
	pid_t survivors[PUMP_SURVIVORS_MAX];
	size_t n_survivors; /* listed (the count alive may be larger) */
	uint64_t duration_ms;
	char *spill_path; /* owned: the full-output file, or NULL */
	bool spill_cut;   /* the file stopped at spill_cap or on a write error */
	int spill_error;  /* -errno if the file could not be made or written */

	/* private: */
	int spill_fd;
	uint64_t spill_written;
};

/* Monotonic milliseconds. */
uint64_t pump_now_ms(void);

/*
 * Block SIGCHLD, SIGINT, SIGTERM and SIGHUP and return a signalfd for them
 * (close-on-exec); ignore SIGPIPE. Call before spawning so that no child's
 * exit is missed.
 */
int pump_block_signals(void);

/* Run until the command is over; fills the out fields. Returns 0, or -errno
 * for a failure of the loop itself (the tree has been killed then). */
int pump_run(struct pump *p);

/* Release the owned fields. */
void pump_done(struct pump *p);

#endif
