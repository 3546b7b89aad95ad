/* SPDX-License-Identifier: MIT */
/*
 * Bounded capture of one output stream: everything up to a cap, and past it
 * the first `head` and the last `tail` bytes with a count of all bytes seen.
 * Memory is fixed at creation (cap + tail at most), whatever flows through.
 * Not for: keeping the whole output (the run's output file does that) or
 * deciding what the truncation marker says (the result does).
 */
#ifndef SLUICE_OUTBUF_H
#define SLUICE_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct outbuf;

/*
 * A new buffer keeping up to cap bytes whole; past cap, the first head and
 * last tail bytes. Requires head + tail <= cap and tail > 0. Returns NULL on
 * allocation failure or bad sizes. Storage grows with use up to cap + tail.
 */
struct outbuf *outbuf_new(size_t cap, size_t head, size_t tail);

/* Release; accepts NULL; returns NULL. */
struct outbuf *outbuf_free(struct outbuf *ob);
static inline void outbuf_freep(struct outbuf **ob)
{
	(void)outbuf_free(*ob);
}

/* Take data[0..len); never fails past creation (0, or -ENOMEM if growing
 * the linear part failed, in which case the bytes still count and the
 * buffer behaves as truncated). */
int outbuf_append(struct outbuf *ob, const void *data, size_t len);

/* All bytes appended so far. */
uint64_t outbuf_total(const struct outbuf *ob);

/* Whether anything was or will be cut: the total passed the cap. */
bool outbuf_truncated(const struct outbuf *ob);

/* The bytes kept whole (the first min(total, cap)); borrowed, valid until
 * the next append. */
const char *outbuf_data(const struct outbuf *ob, size_t *ret_len);

/*
 * The text to show, as a new NUL-terminated valid UTF-8 string: all of it
 * when not truncated; otherwise the head, then marker (a line of its own,
 * given without newlines), then the tail. Characters are never split at the
 * cut points and invalid bytes become U+FFFD. NULL on allocation failure.
 */
char *outbuf_render(const struct outbuf *ob, const char *marker, size_t *ret_len);

/* Copy the last min(n, total, tail) bytes into buf; returns the count. */
size_t outbuf_last(const struct outbuf *ob, char *buf, size_t n);

#endif
