/* SPDX-License-Identifier: MIT */
/*
 * The repository's index and refs read from the files, without git
 * (git-later-refs.c), for git-later.c.
 * Not for: anyone but git-later.c; git-later.h is the check's interface.
 */
#ifndef SLUICE_GIT_LATER_REFS_H
#define SLUICE_GIT_LATER_REFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "run/git-later.h"

/* Whether two stat(2)s of one file (e1, e2: 0 or their -errno) say it did
 * not change: the same inode, size, mtime and ctime (which the command
 * cannot set back), or the same failure. */
bool git_later_same_file(int e1, const struct stat *a, int e2, const struct stat *b);

/* name in dir written with text as git writes a file it owns: NAME.lock
 * made (never over one that is there), then renamed onto it. 0, or
 * -errno (-EEXIST: a lock is there). */
int git_later_write_file(int dir, const char *name, const char *text, size_t len);

/* The whole of the regular file fd, read from its start with pread(2)
 * (its offset untouched), into *text (NUL-terminated; free()) and *len,
 * its fstat(2) into *st. -EINVAL where it is not a regular file, -E2BIG
 * where it is larger than max, else 0 or -errno. */
int git_later_read_small(int fd, size_t max, struct stat *st, char **text, size_t *len);

/* Each NUL of text[0..len) made a '\n': a line git's reading skips as
 * malformed must not end the reading of the lines after it. */
void git_later_nul_to_newline(char *text, size_t len);

/* Whether the string vector l holds s. */
bool git_later_listed(char **l, const char *s);

/* Whether two stats of one file say it did not change. */
bool git_later_same_stat(const struct git_later_stat *a, const struct git_later_stat *b);

/* Whether s holds n hex digits. */
bool git_later_is_hex(const char *s, size_t n);

/* The gitdir and the common directory, opened to read in (-errno). */
int git_later_open_dirs(const struct git_later *g, int *gfd, int *cfd);

/* The stats of the index, HEAD, packed-refs and the branch ref (NULL or
 * "": none) into st. */
void git_later_take_stats(int gfd, int cfd, struct git_later_stat st[GIT_LATER_FILES],
                          const char *ref);

/* What HEAD names now, read as git writes it, into *h; -errno when it
 * cannot be read. */
int git_later_read_head(struct git_later *g, int gfd, int cfd, struct git_later_head *h);

/* The pre-run branch's commit now (HEAD's, where HEAD was detached). */
void git_later_read_branch_now(struct git_later *g, const struct git_later_head *head_now,
                               struct git_later_head *h);

/* git_later_read_head() from the paths. */
void git_later_read_head_now(struct git_later *g, struct git_later_head *h);

#endif
