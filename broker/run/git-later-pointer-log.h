/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: which lines of a worktree's HEAD reflog the run
 * added (git-later-pointer-log.c), for git-later-pointers.c. Before the
 * run: the log's last 256 bytes and its last 16 KiB of whole lines (and,
 * where those hold no checkout line, the newest in the 1 MiB before them,
 * so that a rewrite's copy of the user's own is known). After: where the
 * log only grew (the same file, the old last bytes at the old size), the
 * lines after them; where it was rewritten (git gc, git reflog expire, or
 * the command's own text, which can put a copy of the old last bytes
 * anywhere: red team 49, 13), the newest POINTER_LOG_WINDOW lines, and
 * any after the place the old last bytes first stand, and the newest
 * "checkout: moving from" line wherever it stands, less the lines that
 * stood among the newest before the run (which git gc keeps byte for
 * byte: the user's, not the run's).
 * Not for: anyone but git-later-pointers.c.
 */
#ifndef SLUICE_GIT_LATER_POINTER_LOG_H
#define SLUICE_GIT_LATER_POINTER_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* The newest lines read where a log was rewritten: the ones `HEAD@{N}`
 * and `git checkout -` use. */
#define POINTER_LOG_WINDOW 64

struct git_later_log_before {
	char tail[256]; /* the last bytes */
	size_t tail_len;
	char *lines; /* malloc'd: its newest whole lines, each ending in '\n' */
	size_t lines_len;
	/* malloc'd: where those hold no checkout line, the newest one in
	 * the 1 MiB before them (no '\n'), or NULL */
	char *checkout;
};

/* Of the log fd (its stat st), before the run: 0 or -ENOMEM. */
int git_later_log_take(struct git_later_log_before *b, int fd, const struct stat *st);

void git_later_log_done(struct git_later_log_before *b);

/* Where the lines the run added begin in text (the log now, its stat now;
 * was: its stat before the run, not known where known is false), and
 * whether the log was rewritten (its lines then to be passed through
 * git_later_log_was_there()). */
size_t git_later_log_new_from(const struct git_later_log_before *b, bool known,
                              const struct stat *was, const char *text, size_t len,
                              const struct stat *now, bool *rewritten);

/* Where the newest line of text (a log, len bytes) whose message begins
 * "checkout: moving from " begins, or len where none does: in a rewritten
 * log the run can put it past the newest POINTER_LOG_WINDOW lines, which
 * then hold none (red team 50, 3), and `git checkout -` (@{-1}) takes it
 * all the same. (@{-2} and older are not read: a user who asks for them
 * names a branch switch by its number, not as git suggests.) */
size_t git_later_log_newest_checkout(const char *text, size_t len);

/* Whether line (len bytes, no '\n') stood among the newest before the run,
 * or was the newest checkout line then. */
bool git_later_log_was_there(const struct git_later_log_before *b, const char *line, size_t len);

/* In text (a log, len bytes), each line's old id that is listed in
 * planting made the id the line before went to (the null id for the
 * first): git's HEAD@{N} is the old id of the Nth newest line, so a line
 * the command wrote with its commit there and an ordinary new id takes
 * `git reset --hard HEAD@{1}` to it (red team 50, 4). Returns how many. */
size_t git_later_log_unname_old(char *text, size_t len, char **planting, size_t hex_len);

#endif
