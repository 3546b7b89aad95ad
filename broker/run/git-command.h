/* SPDX-License-Identifier: MIT */
/*
 * git run by the broker on a repository a command may have planted things
 * in (git-command.c): an absolute git of a system folder, never the
 * PATH's; an environment of its own (no system or global configuration,
 * no replace objects, no optional locks, no pager, no prompt); the
 * repository's programs overridden on the command line (core.fsmonitor,
 * the hooks, automatic gc and maintenance, replace refs); its output
 * bounded, a timeout, and its process group killed past either.
 * Not for: what to ask git (git-later.c).
 */
#ifndef SLUICE_RUN_GIT_COMMAND_H
#define SLUICE_RUN_GIT_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

/* A git command's output read at most, and how long it may take. */
#define GIT_COMMAND_OUTPUT_MAX (8 * 1024 * 1024)
#define GIT_COMMAND_TIMEOUT_MS 20000

struct git_output {
	char *data; /* NUL-terminated */
	size_t len;
	char err[200]; /* the start of its stderr */
	int status;    /* the wait status */
	bool spawned;  /* git was started */
};

void git_output_done(struct git_output *o);

/* Run git ARGS (NULL-ended) with GIT_DIR=gitdir and GIT_WORK_TREE and the
 * working directory workspace, stdin from stdin_fd (-1: nothing), its
 * output into *o (status: its wait status). Returns 0 when it ran to its
 * end, or -errno (-ENOENT: no git in a system folder; -ETIMEDOUT, -E2BIG:
 * killed past the timeout or the cap, its process group ended). */
int git_command_run(const char *workspace, const char *gitdir, const char *const args[],
                    int stdin_fd, struct git_output *o);

/* A descriptor holding len bytes of data, read from its start (git's
 * stdin), or -errno. */
int git_command_memfd(const char *name, const void *data, size_t len);

#endif
