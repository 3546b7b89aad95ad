/* SPDX-License-Identifier: MIT */
/*
 * One connection to the egress proxy (egress-proxy.h): the request read
 * (HTTP CONNECT host:port, or a plain-HTTP request with an absolute
 * http:// URI), the host checked against the allowlist before anything is
 * resolved, the name resolved and its addresses judged, the connection made
 * in the host's network, then the bytes relayed both ways until both sides
 * are done; a plain-HTTP request is one request for the host judged
 * (egress-http.h). A refusal is an HTTP answer that names the host and the key
 * ([network] allow), sent at once, or once the broker's approver said no
 * (--egress-ask-fd). Each connection leaves one record on the
 * audit channel (egress-record.h).
 * Not for: the proxy's process, its lock-down or its listening socket.
 */
#ifndef SLUICE_LAUNCHER_EGRESS_CONNECT_H
#define SLUICE_LAUNCHER_EGRESS_CONNECT_H

#include <stddef.h>

#include "egress-address.h"
#include "egress-allow.h"
#include "egress-question.h"
#include "egress-record.h"

/* The most bytes of a request's head (request line and headers). */
#define EGRESS_HEAD_MAX 16384

/* The user name of the proxy's credentials, and the length of the run's
 * token (hex) that is their password. The runs and jobs of a workspace
 * share its network namespace, so each run's proxy is reachable from the
 * others' processes: a request without the credentials its own command's
 * environment names (egress_proxy_env()) is refused, so that no process
 * reaches what only another run may, nor is recorded (or asked about) as
 * that run's. */
#define EGRESS_PROXY_USER "sluice"
#define EGRESS_TOKEN_HEX 32

/* The lists a request is judged by (borrowed: the launch spec's). */
struct egress_lists {
	const struct egress_rule *allow; /* --egress-allow */
	size_t n_allow;
	/* --egress-allow-internal: the names of allow's that may also lead to
	 * an internal address, but a NEVER one (egress_address_judge()) */
	const struct egress_rule *internal;
	size_t n_internal;
};

/* Serve the client connected on fd under lists->allow (a name never
 * leading to local's addresses, nor to the other internal ones unless it
 * is in lists->internal), then close fd. A host:port not in the allowlist
 * is put to asker (egress-question.h) when it has a channel, and served
 * as if listed (never as if in lists->internal) when the answer is yes;
 * else refused at once, and so is an IP literal of one of
 * egress_address_is_internal()'s addresses unless asker may ask about
 * those (asker->internal). The connection's record goes to rec
 * (egress-record.h): once it is through, and when it ends, allowed,
 * approved or refused. A request without Basic credentials of
 * EGRESS_PROXY_USER and token is refused first (407). Blocks; the caller
 * runs one per process. */
void egress_connect_serve(int fd, const struct egress_lists *lists,
                          const struct egress_local_addresses *local,
                          const struct egress_asker *asker, const char *token,
                          struct egress_recorder *rec);

#endif
