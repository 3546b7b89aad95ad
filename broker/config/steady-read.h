/* SPDX-License-Identifier: MIT */
/*
 * Reading a configuration file whole, once, and only when it held still:
 * a file rewritten in place (truncated, then written, as `cat > FILE`,
 * editors and configuration management do) read between the two would be
 * empty, which is valid and means "the defaults". So the file is read on
 * one descriptor, under a read lease where one can be had (the file's
 * owner, or root: the lease is refused while another program has the file
 * open for writing), stat'ed before and after, its name stat'ed again, and
 * its last change must be a moment old; otherwise it is read again, a
 * bounded number of times, and then refused.
 * Not for: what the text means (ini-source.c, config-parse.c).
 */
#ifndef SLUICE_STEADY_READ_H
#define SLUICE_STEADY_READ_H

#include <stddef.h>
#include <sys/stat.h>

#include "errors.h"

/* Attempts at a steady read before the file is refused. */
#define STEADY_READ_ATTEMPTS 5
/* How old (ms) a file's last change must be for its read to count. A
 * rewrite's truncate and write are apart by as long as the writer takes
 * to start writing (`cat > FILE`: cat's start, tens of milliseconds on a
 * loaded machine); a writer slower than this can still be caught between
 * them. The file's times are stamped from the kernel's coarse clock, a
 * tick behind: that is within the margin. */
#define STEADY_READ_SETTLE_MS 200
/* How old (ms) the last change of a text that does not look whole must be
 * for its read to count: an empty file, one of comments and section
 * headers only, or one whose last line has no newline. That is what a
 * rewrite in place leaves between its truncate and its write, or in a
 * pause of its writer, and a writer may take long: a shell's `>` truncates
 * first, then waits for whatever produces the text (a template rendered, a
 * download, a program that prints only when it is done, as stdio's
 * buffering does). Being valid, and meaning "the defaults", such a text
 * would lift every rule. So it must have held still this long; a
 * configuration emptied on purpose is waited for once, that long. */
#define STEADY_READ_PARTIAL_SETTLE_MS 2000
/* How long (ms) to wait for a writer that has the file open before the
 * next attempt (seen only where a read lease can be taken). */
#define STEADY_READ_WRITER_WAIT_MS 300

/*
 * Read path (relative to dirfd, as openat(2)) into a new NUL-terminated
 * buffer *ret of *ret_len bytes (at most INI_SOURCE_MAX_FILE), with its
 * stat in *ret_st.
 * Returns 0; -ENOENT (no such file: the caller decides whether that is
 * fine); -EINVAL for a file that is not regular; -EFBIG when
 * larger; -EAGAIN when it changed under every attempt; -ENOMEM;
 * another -errno. reterr says what happened.
 */
int steady_read(int dirfd, const char *path, char **ret, size_t *ret_len, struct stat *ret_st,
                struct sluice_error *reterr);

#endif
