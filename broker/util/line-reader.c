/* SPDX-License-Identifier: MIT */
/*
 * Lines as they arrive on a descriptor (`sluice check --batch`): complete
 * lines come from the buffer; the descriptor is read only when none is held.
 * Not for: files read whole (read_full) or request parsing (request.c).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/line-reader.h"

#define LINE_READER_CHUNK (64 * 1024)

void line_reader_done(struct line_reader *lr)
{
	free(lr->buf);
	lr->buf = NULL;
	lr->start = lr->len = lr->cap = lr->scanned = 0;
}

int line_reader_next(struct line_reader *lr, char **ret_line, size_t *ret_len)
{
	if (!lr->buf) /* nothing read yet */
		return 0;
	char *p = lr->buf + lr->start;
	size_t held = lr->len - lr->start;
	char *nl = held > lr->scanned ? memchr(p + lr->scanned, '\n', held - lr->scanned) : NULL;
	size_t len = nl ? (size_t)(nl - p) : held;
	if (!nl && !(lr->eof && (held > 0 || lr->skipping))) {
		lr->scanned = held;
		if (held > lr->max_line) { /* past the cap: drop it as it comes */
			lr->skipping = true;
			lr->start = lr->len = lr->scanned = 0;
		}
		return 0;
	}
	p[len] = '\0'; /* the newline, or the spare byte past the last line */
	lr->start += nl ? len + 1 : len;
	lr->scanned = 0;
	if (lr->skipping || len > lr->max_line) {
		lr->skipping = false;
		return -E2BIG;
	}
	*ret_line = p;
	*ret_len = len;
	return 1;
}

int line_reader_fill(struct line_reader *lr)
{
	if (lr->eof)
		return 0;
	if (lr->start > 0) {
		memmove(lr->buf, lr->buf + lr->start, lr->len - lr->start);
		lr->len -= lr->start;
		lr->start = 0;
	}
	if (lr->cap - lr->len < LINE_READER_CHUNK + 1) {
		size_t cap = lr->cap ? lr->cap * 2 : 2 * LINE_READER_CHUNK;
		char *p = realloc(lr->buf, cap);
		if (!p)
			return -ENOMEM;
		lr->buf = p;
		lr->cap = cap;
	}
	for (;;) {
		/* one byte is kept for the NUL after a last line without newline */
		ssize_t n = read(lr->fd, lr->buf + lr->len, lr->cap - lr->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) {
			lr->eof = true;
			return 0;
		}
		lr->len += (size_t)n;
		return 1;
	}
}
