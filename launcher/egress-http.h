/* SPDX-License-Identifier: MIT */
/*
 * The HTTP a proxied connection speaks before its bytes are relayed: a
 * request's head read within one deadline, and a plain-HTTP request made
 * into exactly one request to the host the proxy judged. Its Host header
 * is replaced by the judged authority (no fronting: a request line naming
 * an allowed host cannot carry another host's name), the headers that
 * would keep the connection open are dropped and "Connection: close"
 * added, and its body is framed (Content-Length or chunked) so that the
 * connection's end is known: a byte after it is a second request, which is
 * never forwarded (the connection is closed instead).
 * Not for: the request line, the allowlist, the connection upstream and
 * the relay (egress-connect.c).
 */
#ifndef SLUICE_LAUNCHER_EGRESS_HTTP_H
#define SLUICE_LAUNCHER_EGRESS_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "errors.h"

/* Read from fd until the end of a head ("\r\n\r\n"), within timeout_ms for
 * the whole head (a client sending a byte at a time holds a connection no
 * longer). Returns the head's length, with what followed it also in buf
 * and *ret_len all bytes read; -E2BIG past size - 1 bytes, -ETIMEDOUT,
 * -ECONNRESET at an end before the head's, or -errno. */
ssize_t egress_http_read_head(int fd, char *buf, size_t size, unsigned timeout_ms, size_t *ret_len);

/* How a request's body ends. */
enum egress_body_kind {
	EGRESS_BODY_NONE,    /* no body: the head is the whole request */
	EGRESS_BODY_LENGTH,  /* Content-Length bytes */
	EGRESS_BODY_CHUNKED, /* Transfer-Encoding: chunked, to its last chunk and trailers */
};

/* A body being read (egress_http_body_take()). */
struct egress_http_body {
	enum egress_body_kind kind;
	uint64_t remaining; /* LENGTH: bytes left; CHUNKED: of the current chunk */
	int state;          /* CHUNKED: where in the chunk syntax */
	bool done;          /* the body (so the request) is complete */
};

/* The head of a plain-HTTP request for its upstream: "METHOD PATH" then
 * rest (from the request line's " HTTP/1.x\r\n" to the head's end) with
 * "Host: authority", its headers but Host, Connection, Proxy-Connection,
 * Keep-Alive, Proxy-Authorization and Upgrade, and "Connection: close".
 * Written into out (NUL-terminated); *body says how the body is framed.
 * Returns the head's length, or -EINVAL with a detail naming what is wrong
 * (a header line that is not "Name: value" ending in CRLF, an unreadable
 * or repeated framing, both framings), -E2BIG when out is too small. */
ssize_t egress_http_request_head(const char *method, const char *path, size_t path_len,
                                 const char *rest, size_t rest_len, const char *authority,
                                 char *out, size_t out_size, struct egress_http_body *body,
                                 struct sluice_error *err);

/* Of the n bytes at data, the client's next, how many still belong to the
 * request's body; body->done once it is complete (the bytes after it
 * belong to a second request). -EINVAL when a chunked body breaks its
 * syntax. */
ssize_t egress_http_body_take(struct egress_http_body *body, const char *data, size_t n);

#endif
