/* SPDX-License-Identifier: MIT */
/*
 * Lines from a descriptor, as many as have arrived: a reader hands out the
 * complete lines it holds without reading again, and reads (blocking) only
 * when it holds none, so a client that writes one line and waits for its
 * answer gets it. Each line has a cap; a longer one is consumed and reported.
 * Not for: parsing what a line says (request.c).
 */
#ifndef SLUICE_LINE_READER_H
#define SLUICE_LINE_READER_H

#include <stdbool.h>
#include <stddef.h>

struct line_reader {
	int fd;
	size_t max_line; /* longest line, without its newline */
	char *buf;       /* bytes read and not yet handed out */
	size_t start, len, cap;
	size_t scanned; /* bytes past start known to hold no newline */
	bool skipping;  /* inside a line past the cap: drop to its newline */
	bool eof;
};

/* A reader of fd (borrowed) for lines of at most max_line bytes. */
static inline struct line_reader line_reader_init(int fd, size_t max_line)
{
	return (struct line_reader){ .fd = fd, .max_line = max_line };
}

void line_reader_done(struct line_reader *lr);

/*
 * The next line without its newline, NUL-terminated in place (*ret_line
 * stays valid until line_reader_fill()). Returns 1 for a line, -E2BIG for a
 * line past the cap (consumed), 0 when no complete line is held (call
 * line_reader_fill(), or stop at the end of input).
 */
int line_reader_next(struct line_reader *lr, char **ret_line, size_t *ret_len);

/* Read once, blocking, invalidating the lines handed out. Returns 1 when
 * bytes arrived, 0 at the end of input, -errno (-ENOMEM). */
int line_reader_fill(struct line_reader *lr);

#endif
