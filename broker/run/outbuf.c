/* SPDX-License-Identifier: MIT */
/*
 * outbuf: a linear part that grows up to the cap, and a ring with the last
 * `tail` bytes, always kept so that a cut can show the end. The ring copies
 * only the last `tail` bytes of each append, so large reads stay cheap.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "run/outbuf.h"
#include "utf8.h"

/* The linear part starts this small so that short outputs stay small. */
#define OUTBUF_INITIAL 4096

struct outbuf {
	size_t cap, head, tail;
	char *buf; /* the first min(total, cap) bytes */
	size_t len, allocated;
	bool lost;  /* growing failed: behave as truncated */
	char *ring; /* tail bytes; ring_pos is the next write */
	size_t ring_pos;
	uint64_t total;
};

struct outbuf *outbuf_new(size_t cap, size_t head, size_t tail)
{
	if (tail == 0 || head > cap || tail > cap - head)
		return NULL;
	struct outbuf *ob = calloc(1, sizeof(*ob));
	if (!ob)
		return NULL;
	ob->cap = cap;
	ob->head = head;
	ob->tail = tail;
	ob->ring = malloc(tail);
	if (!ob->ring)
		return outbuf_free(ob);
	return ob;
}

struct outbuf *outbuf_free(struct outbuf *ob)
{
	if (ob) {
		free(ob->buf);
		free(ob->ring);
		free(ob);
	}
	return NULL;
}

static void ring_append(struct outbuf *ob, const char *data, size_t len)
{
	if (len >= ob->tail) {
		memcpy(ob->ring, data + len - ob->tail, ob->tail);
		ob->ring_pos = 0;
		return;
	}
	size_t first = ob->tail - ob->ring_pos;
	if (first > len)
		first = len;
	memcpy(ob->ring + ob->ring_pos, data, first);
	memcpy(ob->ring, data + first, len - first);
	ob->ring_pos = (ob->ring_pos + len) % ob->tail;
}

static int linear_append(struct outbuf *ob, const char *data, size_t len)
{
	if (ob->len >= ob->cap || ob->lost)
		return 0;
	if (len > ob->cap - ob->len)
		len = ob->cap - ob->len;
	if (ob->len + len > ob->allocated) {
		size_t want = ob->allocated ? ob->allocated : OUTBUF_INITIAL;
		while (want < ob->len + len)
			want = want > ob->cap / 2 ? ob->cap : want * 2;
		if (want > ob->cap)
			want = ob->cap;
		char *p = realloc(ob->buf, want);
		if (!p) {
			ob->lost = true;
			return -ENOMEM;
		}
		ob->buf = p;
		ob->allocated = want;
	}
	memcpy(ob->buf + ob->len, data, len);
	ob->len += len;
	return 0;
}

int outbuf_append(struct outbuf *ob, const void *data, size_t len)
{
	if (len == 0)
		return 0;
	ob->total += len;
	ring_append(ob, data, len);
	return linear_append(ob, data, len);
}

uint64_t outbuf_total(const struct outbuf *ob)
{
	return ob->total;
}

bool outbuf_truncated(const struct outbuf *ob)
{
	return ob->total > ob->cap || ob->lost;
}

const char *outbuf_data(const struct outbuf *ob, size_t *ret_len)
{
	*ret_len = ob->len;
	return ob->buf ? ob->buf : "";
}

size_t outbuf_last(const struct outbuf *ob, char *buf, size_t n)
{
	size_t have = ob->total < ob->tail ? (size_t)ob->total : ob->tail;
	if (n > have)
		n = have;
	/* The ring holds `have` bytes ending just before ring_pos. */
	size_t end = ob->total < ob->tail ? (size_t)ob->total : ob->ring_pos + ob->tail;
	for (size_t i = 0; i < n; i++)
		buf[i] = ob->ring[(end - n + i) % ob->tail];
	return n;
}

char *outbuf_render(const struct outbuf *ob, const char *marker, size_t *ret_len)
{
	if (!outbuf_truncated(ob))
		return utf8_sanitize(ob->buf ? ob->buf : "", ob->len, ret_len);

	size_t head = ob->len < ob->head ? ob->len : ob->head;
	head -= utf8_incomplete_tail(ob->buf ? ob->buf : "", head);
	_cleanup_free_ char *tail = malloc(ob->tail);
	if (!tail)
		return NULL;
	size_t tail_len = outbuf_last(ob, tail, ob->tail);
	size_t skip = 0;
	/* Do not start inside a character: skip up to 3 continuation bytes. */
	while (skip < 3 && skip < tail_len && ((unsigned char)tail[skip] & 0xc0) == 0x80)
		skip++;

	size_t mlen = strlen(marker);
	size_t raw_len = head + 2 + mlen + 2 + (tail_len - skip);
	_cleanup_free_ char *raw = malloc(raw_len);
	if (!raw)
		return NULL;
	char *p = raw;
	if (head > 0)
		memcpy(p, ob->buf, head);
	p += head;
	if (head > 0 && ob->buf[head - 1] != '\n')
		*p++ = '\n';
	memcpy(p, marker, mlen);
	p += mlen;
	*p++ = '\n';
	memcpy(p, tail + skip, tail_len - skip);
	p += tail_len - skip;
	return utf8_sanitize(raw, (size_t)(p - raw), ret_len);
}
