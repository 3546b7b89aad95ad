/* SPDX-License-Identifier: MIT */
/*
 * A growable, NUL-terminated byte buffer with a cap given at creation: the
 * model's words and texts are built with it. Reaching the cap is reported
 * (-E2BIG) and remembered (sb->capped), and so is a failed allocation
 * (-ENOMEM, sb->failed): nothing is silently dropped.
 * Words each ended by a NUL byte fit too (append each with its NUL).
 * Not for: binary protocols or file I/O.
 */
#ifndef SLUICE_STRBUF_H
#define SLUICE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *buf; /* owned; NULL until the first append */
	size_t len;
	size_t alloc;
	size_t cap;  /* most bytes it may hold (not counting the NUL) */
	bool capped; /* an append was refused because of cap */
	bool failed; /* an allocation failed: the text misses a part */
};

/* A strbuf holding at most cap bytes; nothing is allocated yet. */
static inline struct strbuf strbuf_init(size_t cap)
{
	return (struct strbuf){ .cap = cap };
}

/* Make room for n bytes (a hint; the cap still applies). -ENOMEM (the text
 * stays whole: sb->failed is not set). */
int strbuf_reserve(struct strbuf *sb, size_t n);

/* Append n bytes; -E2BIG past the cap (nothing appended), -ENOMEM (nothing
 * appended; sb->failed is set). */
int strbuf_append(struct strbuf *sb, const char *s, size_t n);
int strbuf_append_char(struct strbuf *sb, char c);
int strbuf_append_str(struct strbuf *sb, const char *s);

/* The text (never NULL: "" when empty); borrowed. */
const char *strbuf_str(const struct strbuf *sb);

/* Hand the text out (owned) and reset the buffer. NULL when an allocation
 * failed, now or before (sb->failed): the text would miss a part. */
char *strbuf_take(struct strbuf *sb);

/* Release the contents. */
void strbuf_done(struct strbuf *sb);

#endif
