/* SPDX-License-Identifier: MIT */
/*
 * The head is read strictly: every line ends in CRLF, no CR or LF stands
 * alone, no header continues on the next line, a name is followed by its
 * colon at once. A line an upstream could read otherwise than the proxy
 * (a second Host behind a bare LF, a framing the proxy did not see) is
 * refused, not guessed at.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cleanup.h"
#include "egress-http.h"
#include "monotonic.h"
#include "parse-number.h"

ssize_t egress_http_read_head(int fd, char *buf, size_t size, unsigned timeout_ms, size_t *ret_len)
{
	uint64_t deadline = monotonic_ms() + timeout_ms;
	size_t len = 0;
	for (;;) {
		uint64_t now = monotonic_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, (int)(deadline - now));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? neg_errno() : -ETIMEDOUT;
		ssize_t k = read(fd, buf + len, size - 1 - len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? neg_errno() : -ECONNRESET;
		len += (size_t)k;
		buf[len] = '\0';
		char *end = strstr(buf, "\r\n\r\n");
		if (end) {
			*ret_len = len;
			return end + 4 - buf;
		}
		if (len >= size - 1)
			return -E2BIG;
	}
}

/* Headers that hold the connection open or speak to the proxy: never
 * passed on. Host is written anew. */
static const char *const dropped_headers[] = {
	"host", "connection", "proxy-connection", "keep-alive", "proxy-authorization", "upgrade"
};

static bool is_token_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/* Whether the name of length len is name (case-insensitive). */
static bool name_is(const char *text, size_t len, const char *name)
{
	return strlen(name) == len && strncasecmp(text, name, len) == 0;
}

/* value (of length len) without its surrounding spaces and tabs. */
static void trim(const char **value, size_t *len)
{
	while (*len > 0 && (**value == ' ' || **value == '\t'))
		(*value)++, (*len)--;
	while (*len > 0 && ((*value)[*len - 1] == ' ' || (*value)[*len - 1] == '\t'))
		(*len)--;
}

/* Append len bytes of text to out at *at; -E2BIG when it does not fit. */
static int append(char *out, size_t out_size, size_t *at, const char *text, size_t len)
{
	if (len >= out_size - *at)
		return -E2BIG;
	memcpy(out + *at, text, len);
	*at += len;
	out[*at] = '\0';
	return 0;
}

/* One header's framing into *body (seen: which were met already). */
static int read_framing(const char *name, size_t name_len, const char *value, size_t value_len,
                        unsigned *seen, struct egress_http_body *body, struct sluice_error *err)
{
	enum { SEEN_LENGTH = 1, SEEN_CHUNKED = 2 };
	if (name_is(name, name_len, "content-length")) {
		if (value_len == 0 || value_len > 18 || strspn(value, "0123456789") < value_len)
			return sluice_error_set(err, -EINVAL,
			                        "the Content-Length is not a number of bytes");
		char digits[20];
		memcpy(digits, value, value_len);
		digits[value_len] = '\0';
		uint64_t length = strtoull(digits, NULL, 10);
		if ((*seen & SEEN_LENGTH) && length != body->remaining)
			return sluice_error_set(err, -EINVAL,
			                        "two different Content-Length headers");
		*seen |= SEEN_LENGTH;
		body->remaining = length;
	} else if (name_is(name, name_len, "transfer-encoding")) {
		if ((*seen & SEEN_CHUNKED) || !name_is(value, value_len, "chunked"))
			return sluice_error_set(err, -EINVAL,
			                        "a Transfer-Encoding other than one 'chunked'");
		*seen |= SEEN_CHUNKED;
	} else {
		return 0;
	}
	if (*seen == (SEEN_LENGTH | SEEN_CHUNKED))
		return sluice_error_set(err, -EINVAL,
		                        "both Content-Length and Transfer-Encoding: the body's "
		                        "end would be ambiguous");
	body->kind = (*seen & SEEN_CHUNKED) ? EGRESS_BODY_CHUNKED : EGRESS_BODY_LENGTH;
	return 0;
}

ssize_t egress_http_request_head(const char *method, const char *path, size_t path_len,
                                 const char *rest, size_t rest_len, const char *authority,
                                 char *out, size_t out_size, struct egress_http_body *body,
                                 struct sluice_error *err)
{
	memset(body, 0, sizeof(*body));
	const char *eol = memchr(rest, '\n', rest_len);
	if (!eol || eol == rest || eol[-1] != '\r' || memchr(rest, '\r', (size_t)(eol - rest) - 1))
		return sluice_error_set(err, -EINVAL, "the request line does not end in CRLF");
	size_t at = 0;
	int r = append(out, out_size, &at, method, strlen(method));
	if (r >= 0)
		r = append(out, out_size, &at, " ", 1);
	if (r >= 0)
		r = append(out, out_size, &at, path, path_len);
	if (r >= 0) /* " HTTP/1.x\r\n" */
		r = append(out, out_size, &at, rest, (size_t)(eol + 1 - rest));
	if (r >= 0)
		r = append(out, out_size, &at, "Host: ", 6);
	if (r >= 0)
		r = append(out, out_size, &at, authority, strlen(authority));
	if (r >= 0)
		r = append(out, out_size, &at, "\r\n", 2);
	unsigned seen = 0;
	const char *line = eol + 1, *end = rest + rest_len;
	while (r >= 0) {
		const char *lf = memchr(line, '\n', (size_t)(end - line));
		if (!lf || lf == line || lf[-1] != '\r')
			return sluice_error_set(err, -EINVAL, "a header line does not end in CRLF");
		size_t len = (size_t)(lf - 1 - line);
		if (len == 0)
			break; /* the empty line: the head's end */
		if (memchr(line, '\r', len) || memchr(line, '\0', len))
			return sluice_error_set(err, -EINVAL,
			                        "a header line holds a lone CR or a NUL");
		const char *colon = memchr(line, ':', len);
		size_t name_len = colon ? (size_t)(colon - line) : 0;
		for (size_t i = 0; i < name_len && colon; i++)
			if (!is_token_char(line[i]))
				colon = NULL;
		if (!colon || name_len == 0)
			return sluice_error_set(err, -EINVAL,
			                        "a header line is not 'Name: value' (a name of "
			                        "token characters, then its colon at once)");
		const char *value = colon + 1;
		size_t value_len = len - name_len - 1;
		trim(&value, &value_len);
		r = read_framing(line, name_len, value, value_len, &seen, body, err);
		if (r < 0)
			return r;
		bool dropped = false;
		for (size_t i = 0; i < ELEMENTSOF(dropped_headers); i++)
			dropped = dropped || name_is(line, name_len, dropped_headers[i]);
		if (!dropped)
			r = append(out, out_size, &at, line, len + 2);
		line = lf + 1;
	}
	if (r >= 0)
		r = append(out, out_size, &at, "Connection: close\r\n\r\n", 21);
	if (r < 0)
		return sluice_error_set(err, r, "the request's head, rewritten, is too long");
	if (body->kind == EGRESS_BODY_NONE ||
	    (body->kind == EGRESS_BODY_LENGTH && body->remaining == 0))
		body->done = true;
	return (ssize_t)at;
}

/* Where a chunked body's reader is: the chunk-size line, its data and
 * the CRLF after it, then the trailer lines up to the empty one. */
enum chunk_state {
	CHUNK_SIZE_FIRST, /* the size's first hex digit */
	CHUNK_SIZE,       /* more digits, ';' (an extension) or CR */
	CHUNK_EXTENSION,  /* up to CR */
	CHUNK_SIZE_LF,
	CHUNK_DATA,
	CHUNK_DATA_CR,
	CHUNK_DATA_LF,
	TRAILER_START, /* a trailer line's first byte, or the final CR */
	TRAILER_LINE,  /* up to CR */
	TRAILER_LINE_LF,
	TRAILER_END_LF,
};

/* One byte of chunk syntax (not data); -EINVAL when it breaks it. */
static int chunk_step(struct egress_http_body *body, char c)
{
	int h = hex_digit_value(c);
	switch (body->state) {
	case CHUNK_SIZE_FIRST:
	case CHUNK_SIZE:
		if (h >= 0) {
			if (body->remaining >> 56)
				return -EINVAL; /* a chunk no one sends: the count would overflow */
			body->remaining = body->remaining * 16 + (uint64_t)h;
			body->state = CHUNK_SIZE;
			return 0;
		}
		if (body->state == CHUNK_SIZE_FIRST)
			return -EINVAL;
		if (c == ';' || c == ' ' || c == '\t')
			body->state = CHUNK_EXTENSION;
		else if (c == '\r')
			body->state = CHUNK_SIZE_LF;
		else
			return -EINVAL;
		return 0;
	case CHUNK_EXTENSION:
		if (c == '\n')
			return -EINVAL;
		if (c == '\r')
			body->state = CHUNK_SIZE_LF;
		return 0;
	case CHUNK_SIZE_LF:
		if (c != '\n')
			return -EINVAL;
		body->state = body->remaining > 0 ? CHUNK_DATA : TRAILER_START;
		return 0;
	case CHUNK_DATA_CR:
		if (c != '\r')
			return -EINVAL;
		body->state = CHUNK_DATA_LF;
		return 0;
	case CHUNK_DATA_LF:
		if (c != '\n')
			return -EINVAL;
		body->state = CHUNK_SIZE_FIRST;
		return 0;
	case TRAILER_START:
		body->state = c == '\r' ? TRAILER_END_LF : TRAILER_LINE;
		return c == '\n' ? -EINVAL : 0;
	case TRAILER_LINE:
		if (c == '\n')
			return -EINVAL;
		if (c == '\r')
			body->state = TRAILER_LINE_LF;
		return 0;
	case TRAILER_LINE_LF:
		if (c != '\n')
			return -EINVAL;
		body->state = TRAILER_START;
		return 0;
	case TRAILER_END_LF:
		if (c != '\n')
			return -EINVAL;
		body->done = true;
		return 0;
	default:
		return -EINVAL;
	}
}

ssize_t egress_http_body_take(struct egress_http_body *body, const char *data, size_t n)
{
	size_t taken = 0;
	while (taken < n && !body->done) {
		if (body->kind == EGRESS_BODY_LENGTH || body->state == CHUNK_DATA) {
			uint64_t k = n - taken < body->remaining ? n - taken : body->remaining;
			taken += (size_t)k;
			body->remaining -= k;
			if (body->remaining == 0) {
				if (body->kind == EGRESS_BODY_LENGTH)
					body->done = true;
				else
					body->state = CHUNK_DATA_CR;
			}
			continue;
		}
		if (body->kind != EGRESS_BODY_CHUNKED || chunk_step(body, data[taken]) < 0)
			return -EINVAL;
		taken++;
	}
	return (ssize_t)taken;
}
