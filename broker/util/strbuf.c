/* SPDX-License-Identifier: MIT */
/*
 * struct strbuf: append with a cap, geometric growth. See strbuf.h.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

int strbuf_reserve(struct strbuf *sb, size_t n)
{
	if (n + 1 <= sb->alloc)
		return 0;
	char *p = realloc(sb->buf, n + 1);
	if (!p)
		return -ENOMEM;
	if (!sb->buf)
		p[0] = '\0';
	sb->buf = p;
	sb->alloc = n + 1;
	return 0;
}

int strbuf_append(struct strbuf *sb, const char *s, size_t n)
{
	if (n > sb->cap - sb->len) {
		sb->capped = true;
		return -E2BIG;
	}
	if (sb->len + n + 1 > sb->alloc) {
		size_t want = sb->alloc ? sb->alloc : 32;
		while (want < sb->len + n + 1)
			want *= 2;
		char *p = realloc(sb->buf, want);
		if (!p) {
			sb->failed = true;
			return -ENOMEM;
		}
		sb->buf = p;
		sb->alloc = want;
	}
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf_append_char(struct strbuf *sb, char c)
{
	return strbuf_append(sb, &c, 1);
}

int strbuf_append_str(struct strbuf *sb, const char *s)
{
	return strbuf_append(sb, s, strlen(s));
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *strbuf_take(struct strbuf *sb)
{
	char *p = NULL;
	if (sb->failed)
		free(sb->buf);
	else
		p = sb->buf ? sb->buf : strdup("");
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	sb->capped = sb->failed = false;
	return p;
}

void strbuf_done(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	sb->failed = false;
}
