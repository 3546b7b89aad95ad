/* SPDX-License-Identifier: MIT */
/*
 * File-descriptor helpers shared by both programs: whole reads and writes
 * that survive EINTR and short transfers, and close-on-exec control.
 * All return >= 0 on success and -errno on failure.
 */
#ifndef SLUICE_FD_UTIL_H
#define SLUICE_FD_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Write all of buf; -EPIPE etc. on failure. */
int write_full(int fd, const void *buf, size_t len);

/* write_full() with SIGPIPE blocked for the call, so that a reader that is
 * gone yields -EPIPE instead of killing the process; a SIGPIPE raised by the
 * write is consumed unless it was already blocked by the caller. */
int write_full_nosigpipe(int fd, const void *buf, size_t len);

/* One write(2) (retried on EINTR) with SIGPIPE handled as above: the count
 * written, which may be short (a non-blocking descriptor takes what it has
 * room for), or -errno (-EAGAIN: no room at all). */
ssize_t write_some_nosigpipe(int fd, const void *buf, size_t len);

/* Read until len bytes or end of file; returns the count read. */
ssize_t read_full(int fd, void *buf, size_t len);

/* The first line of the small regular file path (relative to dir, as
 * openat(2) reads it), its line end cut, into buf (at most size - 1
 * bytes). Opened with O_NONBLOCK, so that a FIFO put there cannot hang the
 * reader, and anything but a regular file is -EINVAL; follow: whether a
 * symbolic link as the last component is followed (else -ELOOP). */
int read_first_line_at(int dir, const char *path, bool follow, char *buf, size_t size);

/* The folder of entry (relative to base, its last component a name or a
 * pattern: "a/b/NAME" opens base/a/b), opened O_PATH from base without
 * following a symlink on the way, so that a folder replaced by a link
 * cannot lead elsewhere; -errno. */
int open_entry_folder(const char *base, const char *entry);

/* Set or clear FD_CLOEXEC. */
int fd_set_cloexec(int fd, bool cloexec);

/* Close fd if >= 0, keeping errno; returns -1 for "p = safe_close(p)". */
int safe_close(int fd);

/* Open /dev/null on each of descriptors 0, 1 and 2 that is closed, so that
 * no descriptor this process opens later takes a standard number (a pipe
 * on fd 0 would then be read as the request). 0, or -errno. */
int fd_open_standard(void);

/* close_range(2) of first..last (no flags), by its number: not every C
 * library sluice is built against (docs/building.md) has a wrapper for it.
 * 0 or -errno. */
int fd_close_range(unsigned first, unsigned last);

/* Close every descriptor from first on but the n in keep (negative ones
 * ignored; keep is sorted in place), with a close_range(2) per gap. 0, or
 * -errno. */
int fd_close_from_except(unsigned first, int *keep, size_t n);

#endif
