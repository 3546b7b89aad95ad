/* SPDX-License-Identifier: MIT */
/*
 * The order is the security argument: the host named in the request is
 * read and matched before any name is resolved (a name not on the list
 * costs no DNS query and leaks nothing), and an allowed name must resolve
 * to an address outside the machine and its local networks (a public name
 * pointed at 127.0.0.1 or 169.254.169.254 reaches nothing); only an IP
 * literal the administrator wrote may name such an address, and a name the
 * administrator said may lead inside (--egress-allow-internal: a registry
 * on a private network) leads to one but a link-local or metadata address
 * (egress_address_judge()'s NEVER), where no registry lives. A literal off
 * the list that names one is not even asked about (a hurried "yes" to
 * "169.254.169.254" would hand over a cloud's credentials), unless the
 * administrator said it may be (--egress-ask-internal). TLS is not looked
 * into: after CONNECT's "200" the bytes pass as they are.
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cleanup.h"
#include "egress-address.h"
#include "egress-connect.h"
#include "egress-http.h"
#include "egress-record.h"
#include "fd-util.h"

/* How long a client has to send its request's whole head, and a
 * connection to be made. */
#define EGRESS_HEAD_TIMEOUT_MS 30000
#define EGRESS_CONNECT_TIMEOUT_MS 15000
/* What one read of the relay takes, at most. Large, because the proxy is a
 * third process beside the server and the client, and on a machine with
 * two cores the three share them: each read and write costs a system call
 * and, on the socket, a window update or a push whatever its size, so a
 * large one moves the same bytes for less CPU (bench/egress.sh, 100 MiB on
 * loopback, 2 cores: 64 KiB 73-79 % of the direct throughput, 256 KiB
 * 81-85 %, 1 MiB 87-94 %). Only the pages a read fills are ever touched,
 * in the connection's own process: a small exchange costs a few pages, a
 * bulk one at most this much beside the socket buffers of several MiB the
 * kernel already holds for it. */
#define EGRESS_RELAY_BUFFER (1024 * 1024)

/* A request as read: where to connect and what to send there first. */
struct egress_request {
	bool connect;    /* CONNECT: answer "200" and relay */
	char method[16]; /* a plain-HTTP request's method */
	struct egress_host host;
	uint16_t port;
	const char *path; /* plain HTTP: the origin-form target, in the head */
	size_t path_len;
	const char *rest; /* from the request line's end: " HTTP/1.1\r\n..." */
	size_t rest_len;
};

/* The answer to a client refused: sent by egress_connect_serve() only
 * once the connection's record is written. A client that ends on reading
 * it (curl, and with it the command) ends the run, whose monitor then
 * kills the proxy: an answer sent first could leave no record. */
struct refusal {
	int status; /* 0: none */
	const char *reason;
	const char *header; /* one more header line, ending in CRLF, or NULL */
	char body[1024];
	int body_len;
};

static void refuse(struct refusal *out, int status, const char *reason, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
static void refuse(struct refusal *out, int status, const char *reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out->body, sizeof(out->body), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(out->body))
		n = sizeof(out->body) - 1;
	out->status = status;
	out->reason = reason;
	out->body_len = n;
}

/* Send the refusal, a text body, the connection to be closed after it. */
static void refusal_send(int fd, const struct refusal *r)
{
	char head[512];
	int h = snprintf(head, sizeof(head),
	                 "HTTP/1.1 %d %s\r\n%sContent-Type: text/plain\r\nContent-Length: %d\r\n"
	                 "Connection: close\r\n\r\n",
	                 r->status, r->reason, r->header ? r->header : "", r->body_len);
	(void)write_full_nosigpipe(fd, head, (size_t)h);
	(void)write_full_nosigpipe(fd, r->body, (size_t)r->body_len);
}

/* Whether the head's header block (rest, from the request line's end)
 * holds "Proxy-Authorization: Basic B64" with B64 the base64 of
 * EGRESS_PROXY_USER ":" token; the scheme's name in any case, as HTTP's
 * are. */
static bool has_credentials(const char *rest, size_t rest_len, const char *token)
{
	static const char digits[] =
	        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char plain[sizeof(EGRESS_PROXY_USER) + EGRESS_TOKEN_HEX + 1];
	int n = snprintf(plain, sizeof(plain), "%s:%s", EGRESS_PROXY_USER, token);
	char want[2 * sizeof(plain) + 4];
	size_t w = 0;
	for (int i = 0; i < n; i += 3) {
		unsigned v = (unsigned char)plain[i] << 16;
		v |= i + 1 < n ? (unsigned char)plain[i + 1] << 8 : 0;
		v |= i + 2 < n ? (unsigned char)plain[i + 2] : 0;
		want[w++] = digits[(v >> 18) & 63];
		want[w++] = digits[(v >> 12) & 63];
		want[w++] = i + 1 < n ? digits[(v >> 6) & 63] : '=';
		want[w++] = i + 2 < n ? digits[v & 63] : '=';
	}
	want[w] = '\0';
	static const char name[] = "\r\nproxy-authorization:";
	for (const char *p = rest, *end = rest + rest_len; p + sizeof(name) - 1 < end; p++) {
		if (strncasecmp(p, name, sizeof(name) - 1) != 0)
			continue;
		const char *v = p + sizeof(name) - 1;
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		if ((size_t)(end - v) < 6 || strncasecmp(v, "basic ", 6) != 0)
			return false;
		v += 6;
		while (v < end && *v == ' ')
			v++;
		return (size_t)(end - v) > w && memcmp(v, want, w) == 0 &&
		       (v[w] == '\r' || v[w] == ' ' || v[w] == '\t');
	}
	return false;
}

/* Split "HOST:PORT" (CONNECT's target) or an http:// URI's authority. */
static int parse_authority(const char *text, size_t len, uint16_t default_port,
                           struct egress_request *req, struct sluice_error *err)
{
	const char *colon = NULL;
	for (size_t i = len; i-- > 0;) {
		if (text[i] == ':') {
			colon = text + i;
			break;
		}
		if (text[i] == ']')
			break;
	}
	size_t host_len = colon ? (size_t)(colon - text) : len;
	unsigned long port = default_port;
	if (colon) {
		size_t digits = len - host_len - 1;
		char buf[8];
		if (digits == 0 || digits > 5 || strspn(colon + 1, "0123456789") < digits)
			return sluice_error_set(err, -EINVAL, "the port is not a number");
		memcpy(buf, colon + 1, digits);
		buf[digits] = '\0';
		port = strtoul(buf, NULL, 10);
	}
	if (port < 1 || port > 65535)
		return sluice_error_set(err, -EINVAL, "the port is missing or out of range");
	req->port = (uint16_t)port;
	return egress_host_parse(text, host_len, &req->host, err);
}

/* Whether the n bytes at s are all visible ASCII (no space, no control
 * byte, no DEL, no 8-bit byte), as a request target must be: a server
 * that splits its request line on other white space, or its lines on a
 * bare LF, would read what follows as headers the proxy never judged. */
static bool visible_ascii(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

/* Whether the n bytes at s are an HTTP token (RFC 9110's tchar), as a
 * method must be. */
static bool is_token(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) &&
		    (s[i] == '\0' || !strchr("!#$%&'*+-.^_`|~", s[i])))
			return false;
	return n > 0;
}

/* The request line of head: CONNECT host:port, or METHOD http://... */
static int parse_request(const char *head, size_t head_len, struct egress_request *req,
                         struct sluice_error *err)
{
	memset(req, 0, sizeof(*req));
	const char *eol = memchr(head, '\r', head_len);
	const char *sp1 = memchr(head, ' ', eol - head);
	const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', eol - sp1 - 1) : NULL;
	if (!sp1 || !sp2 || strncmp(sp2, " HTTP/1.", 8) != 0)
		return sluice_error_set(err, -EINVAL,
		                        "the request line is not 'METHOD TARGET HTTP/1.x'");
	size_t method_len = (size_t)(sp1 - head), target_len = (size_t)(sp2 - sp1 - 1);
	if (method_len == 0 || method_len >= sizeof(req->method))
		return sluice_error_set(err, -EINVAL, "the method is empty or too long");
	if (!is_token(head, method_len))
		return sluice_error_set(err, -EINVAL, "the method holds a byte a token cannot");
	if (!visible_ascii(sp1 + 1, target_len))
		return sluice_error_set(err, -EINVAL,
		                        "the request target holds white space, a control byte or a "
		                        "byte past ASCII");
	memcpy(req->method, head, method_len);
	const char *target = sp1 + 1;
	req->rest = sp2;
	req->rest_len = head_len - (size_t)(sp2 - head);
	if (strcmp(req->method, "CONNECT") == 0) {
		req->connect = true;
		return parse_authority(target, target_len, 0, req, err);
	}
	static const char scheme[] = "http://";
	if (target_len < sizeof(scheme) || strncasecmp(target, scheme, sizeof(scheme) - 1) != 0)
		return sluice_error_set(err, -EPROTONOSUPPORT,
		                        "only CONNECT host:port and absolute http:// requests go "
		                        "through this proxy");
	const char *authority = target + sizeof(scheme) - 1;
	const char *end = target + target_len;
	const char *slash = memchr(authority, '/', (size_t)(end - authority));
	const char *auth_end = slash ? slash : end;
	if (memchr(authority, '@', (size_t)(auth_end - authority)) ||
	    memchr(authority, '?', (size_t)(auth_end - authority)) ||
	    memchr(authority, '#', (size_t)(auth_end - authority)))
		return sluice_error_set(err, -EINVAL, "the URI's authority holds '@', '?' or '#'");
	req->path = slash ? slash : "/";
	req->path_len = slash ? (size_t)(end - slash) : 1;
	return parse_authority(authority, (size_t)(auth_end - authority), 80, req, err);
}

/* Connect to addr within the timeout; the socket, or -errno. */
static int connect_to(const struct sockaddr *addr, socklen_t len)
{
	_cleanup_close_ int fd =
	        socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return neg_errno();
	if (connect(fd, addr, len) < 0) {
		if (errno != EINPROGRESS)
			return neg_errno();
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		int r;
		do
			r = poll(&p, 1, EGRESS_CONNECT_TIMEOUT_MS);
		while (r < 0 && errno == EINTR);
		if (r == 0)
			return -ETIMEDOUT;
		int soerr = 0;
		socklen_t l = sizeof(soerr);
		if (r < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &l) < 0)
			return neg_errno();
		if (soerr != 0)
			return -soerr;
	}
	int flags = 0; /* blocking again: the relay polls */
	if (fcntl(fd, F_SETFL, flags) < 0)
		return neg_errno();
	return TAKE_FD(fd);
}

/* The connection to the request's host: an allowed IP literal as it is; a
 * name resolved as an absolute name, its internal addresses skipped (with
 * internal_ok, a name of --egress-allow-internal's: only those no name
 * leads to). The socket, or -errno with why saying what the client is told
 * (-EACCES: refused) and *reason the audit's word for it. */
static int open_upstream(const struct egress_request *req,
                         const struct egress_local_addresses *local, bool internal_ok, char *why,
                         size_t why_size, enum egress_audit_reason *reason)
{
	*reason = EGRESS_REASON_UPSTREAM_FAILED;
	struct sockaddr_storage ss;
	memset(&ss, 0, sizeof(ss));
	if (req->host.family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
		sin->sin_family = AF_INET;
		sin->sin_port = htons(req->port);
		memcpy(&sin->sin_addr, &req->host.addr, 4);
		int fd = connect_to((struct sockaddr *)sin, sizeof(*sin));
		if (fd < 0)
			snprintf(why, why_size, "%s", strerror(-fd));
		return fd;
	}
	if (req->host.family == AF_INET6) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(req->port);
		sin6->sin6_addr = req->host.addr;
		int fd = connect_to((struct sockaddr *)sin6, sizeof(*sin6));
		if (fd < 0)
			snprintf(why, why_size, "%s", strerror(-fd));
		return fd;
	}
	static struct egress_resolved resolved;
	int r = egress_resolve(req->host.name, req->port, &resolved, why, why_size);
	if (r < 0) {
		*reason = EGRESS_REASON_LOOKUP_FAILED;
		return r;
	}
	r = -EACCES;
	*reason = EGRESS_REASON_RESOLVES_LOCAL;
	int internal = 0;
	snprintf(why, why_size, "it resolves to no address");
	for (size_t i = 0; i < resolved.n; i++) {
		const struct sockaddr *sa = (const struct sockaddr *)&resolved.addr[i];
		const void *a =
		        sa->sa_family == AF_INET
		                ? (const void *)&((const struct sockaddr_in *)sa)->sin_addr
		                : (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr;
		const char *what = NULL;
		enum egress_address_kind kind =
		        egress_address_judge(sa->sa_family, a, local, &what);
		if (kind == EGRESS_ADDRESS_NEVER ||
		    (kind == EGRESS_ADDRESS_INTERNAL && !internal_ok)) {
			char text[INET6_ADDRSTRLEN] = "";
			(void)inet_ntop(sa->sa_family, a, text, sizeof(text));
			if (internal++ == 0)
				snprintf(
				        why, why_size, "it resolves to %s (%s), %s", text, what,
				        kind == EGRESS_ADDRESS_NEVER
				                ? "where no name leads, not even one in [network] "
				                  "allow_internal: only an IP address written in "
				                  "[network] allow may lead there"
				                : "an address of this machine or its local networks: "
				                  "only an IP address written in [network] allow, or "
				                  "a name in [network] allow_internal, may lead there");
			continue;
		}
		r = connect_to(sa, resolved.len[i]);
		*reason = EGRESS_REASON_UPSTREAM_FAILED;
		if (r >= 0)
			break;
		snprintf(why, why_size, "%s", strerror(-r));
	}
	return r;
}

/* Copy both ways until both sides have ended (a half-close is passed on),
 * the record brought up to date at least once a second (also while both
 * sides are silent).
 * With body (plain HTTP), the client's bytes pass only up to the end of
 * its request's body, and the connection ends with the upstream's answer:
 * a second request is never sent, the client sees the connection close
 * after its first answer. The bytes passed are counted in rec's record.
 * One buffer serves both directions: what is read is written whole before
 * the next read. */
static void relay(int client, int up, struct egress_http_body *body, struct egress_recorder *rec)
{
	static char buf[EGRESS_RELAY_BUFFER];
	int fds[2] = { client, up };
	bool open_in[2] = { !(body && body->done), true };
	while (open_in[0] || open_in[1]) {
		struct pollfd p[2] = { { .fd = open_in[0] ? client : -1, .events = POLLIN },
			               { .fd = open_in[1] ? up : -1, .events = POLLIN } };
		if (poll(p, 2, EGRESS_RECORD_PROGRESS_MS) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		for (int i = 0; i < 2; i++) {
			if (!open_in[i] || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t k = read(fds[i], buf, sizeof(buf));
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				open_in[i] = false;
				(void)shutdown(fds[1 - i], SHUT_WR);
				if (k < 0 || (body && i == 1))
					return;
				continue;
			}
			if (body && i == 0) {
				k = egress_http_body_take(body, buf, (size_t)k);
				if (k < 0)
					return; /* a chunked body out of syntax */
				if (body->done)
					open_in[0] = false; /* the rest: a second request */
			}
			if (write_full_nosigpipe(fds[1 - i], buf, (size_t)k) < 0)
				return;
			*(i == 0 ? &rec->rec.bytes_up : &rec->rec.bytes_down) += (uint64_t)k;
		}
		egress_recorder_progress(rec);
	}
}

/* What the client of a host not on the list is told after its question. */
static const char *ask_outcome(enum egress_audit_reason reason)
{
	switch (reason) {
	case EGRESS_REASON_ASKED_NO:
		return "; asked to allow it for this session, the approver said no";
	case EGRESS_REASON_ASK_TIMEOUT:
		return "; asked to allow it for this session, nobody answered in time";
	case EGRESS_REASON_ASK_LIMIT:
		return "; this run asked about too many hosts, so it was not asked about";
	case EGRESS_REASON_ASK_FAILED:
		return "; the question about it got no answer (the broker's channel failed)";
	default:
		return "";
	}
}

/* Whether the host off the list, which asker would put to the approver,
 * is an IP literal of an internal address it must not ask about: then
 * *out says the client why, and *reason says it. */
static bool refuse_internal_literal(struct refusal *out, const struct egress_host *host,
                                    const char *where, const struct egress_local_addresses *local,
                                    const struct egress_asker *asker,
                                    enum egress_audit_reason *reason)
{
	const char *what = NULL;
	if (asker->fd < 0 || asker->internal || host->family == 0 ||
	    !egress_address_is_internal(host->family, &host->addr, local, &what))
		return false;
	*reason = EGRESS_REASON_INTERNAL_ADDRESS;
	refuse(out, 403, "Forbidden",
	       "sluice: the sandbox's network refused %s: it is not in [network] allow, and "
	       "it is an internal address (%s), which is never put to the approver: only an "
	       "administrator can open it, by writing it in [network] allow\n",
	       where, what);
	return true;
}

/* Read the request's head from fd into head (len: all that was read) and
 * judge its request line against the rules (a host not in them put to
 * asker, but an internal address's literal), host:port in where, what is
 * known of it in *rec. 0, with *ret_head_len and req; or -1, *out the
 * client's answer (none when it is gone) and rec's reason saying why. */
static int receive_judged(int fd, struct refusal *out, const struct egress_rule *rules,
                          size_t n_rules, const struct egress_local_addresses *local,
                          const struct egress_asker *asker, const char *token, char *head,
                          size_t size, ssize_t *ret_head_len, size_t *len,
                          struct egress_request *req, char *where, size_t where_size,
                          struct egress_audit_record *rec)
{
	ssize_t head_len = egress_http_read_head(fd, head, size, EGRESS_HEAD_TIMEOUT_MS, len);
	rec->reason = head_len == -ETIMEDOUT ? EGRESS_REASON_HEAD_TIMEOUT
	              : head_len == -E2BIG   ? EGRESS_REASON_BAD_REQUEST
	                                     : EGRESS_REASON_CLIENT_GONE;
	if (head_len == -E2BIG)
		refuse(out, 431, "Request Header Fields Too Large",
		       "sluice: the request's head is longer than %d bytes\n", EGRESS_HEAD_MAX);
	else if (head_len == -ETIMEDOUT)
		refuse(out, 408, "Request Timeout",
		       "sluice: the request's head did not arrive within %d s\n",
		       EGRESS_HEAD_TIMEOUT_MS / 1000);
	if (head_len < 0)
		return -1;
	struct sluice_error err = { 0 };
	int r = parse_request(head, (size_t)head_len, req, &err);
	rec->reason = EGRESS_REASON_BAD_REQUEST;
	if (r < 0) {
		refuse(out, r == -EPROTONOSUPPORT ? 405 : 400,
		       r == -EPROTONOSUPPORT ? "Method Not Allowed" : "Bad Request",
		       "sluice: the proxy cannot read this request: %s\n", err.detail);
		return -1;
	}
	if (!has_credentials(req->rest, req->rest_len, token)) {
		refuse(out, 407, "Proxy Authentication Required",
		       "sluice: this proxy serves one run; use the proxy its HTTPS_PROXY and "
		       "HTTP_PROXY name, whole\n");
		out->header = "Proxy-Authenticate: Basic realm=\"sluice\"\r\n";
		rec->reason = EGRESS_REASON_NOT_THIS_RUN;
		return -1;
	}
	snprintf(where, where_size, "%s%s%s:%u", req->host.family == AF_INET6 ? "[" : "",
	         req->host.name, req->host.family == AF_INET6 ? "]" : "", (unsigned)req->port);
	memcpy(rec->host, req->host.name, sizeof(rec->host));
	rec->port = req->port;
	rec->kind = req->connect ? EGRESS_AUDIT_TUNNEL : EGRESS_AUDIT_HTTP;
	rec->reason = EGRESS_REASON_NOT_LISTED;
	if (!egress_rules_match(rules, n_rules, &req->host, req->port, req->connect)) {
		if (refuse_internal_literal(out, &req->host, where, local, asker, &rec->reason))
			return -1;
		/* asked as if it were to be added to the list for the run: an
		 * approved name is still resolved and judged like a listed one */
		if (asker->fd >= 0)
			rec->reason = egress_asker_ask(asker, &req->host, req->port, rec->kind);
		if (rec->reason == EGRESS_REASON_ASKED_YES) {
			rec->approved = true;
		} else {
			refuse(out, 403, "Forbidden",
			       "sluice: the sandbox's network refused %s: it is not in [network] "
			       "allow (an administrator can add it there)%s\n",
			       where, ask_outcome(rec->reason));
			return -1;
		}
	}
	*ret_head_len = head_len;
	return 0;
}

/* Serve the client on fd (left open: the caller closes it), its record
 * in rec as far as it gets; a client refused is not answered here but in
 * *out. */
static void egress_connect_relay(int fd, struct refusal *out, const struct egress_lists *lists,
                                 const struct egress_local_addresses *local,
                                 const struct egress_asker *asker, const char *token,
                                 struct egress_recorder *rec)
{
	static char head[EGRESS_HEAD_MAX];
	size_t len = 0;
	ssize_t head_len = 0;
	struct egress_request req;
	char where[EGRESS_HOST_MAX + 16];
	if (receive_judged(fd, out, lists->allow, lists->n_allow, local, asker, token, head,
	                   sizeof(head), &head_len, &len, &req, where, sizeof(where),
	                   &rec->rec) < 0)
		return;
	/* listed, not approved: an approved host is served as a listed one,
	 * never as one the administrator said may lead inside */
	bool internal_ok =
	        !rec->rec.approved && egress_rules_match(lists->internal, lists->n_internal,
	                                                 &req.host, req.port, req.connect) != NULL;
	struct sluice_error err = { 0 };
	int r;
	/* plain HTTP: one request, for the host judged, before any lookup */
	static char upstream_head[EGRESS_HEAD_MAX + 2 * EGRESS_HOST_MAX];
	ssize_t upstream_len = 0;
	struct egress_http_body body = { 0 };
	if (!req.connect) {
		upstream_len = egress_http_request_head(
		        req.method, req.path, req.path_len, req.rest, req.rest_len, where,
		        upstream_head, sizeof(upstream_head), &body, &err);
		if (upstream_len < 0) {
			refuse(out, 400, "Bad Request",
			       "sluice: the proxy cannot read this request: %s\n", err.detail);
			rec->rec.reason = EGRESS_REASON_BAD_REQUEST;
			return;
		}
	}
	char why[512];
	_cleanup_close_ int up =
	        open_upstream(&req, local, internal_ok, why, sizeof(why), &rec->rec.reason);
	if (up < 0) {
		if (up == -EACCES)
			refuse(out, 403, "Forbidden",
			       "sluice: the sandbox's network refused %s: %s\n", where, why);
		else
			refuse(out, 502, "Bad Gateway",
			       "sluice: the proxy could not reach %s: %s\n", where, why);
		return;
	}
	/* through: written now, so that a connection the run's end cuts is
	 * still recorded (as unfinished) */
	rec->rec.allowed = true;
	rec->rec.reason = EGRESS_REASON_UNFINISHED;
	egress_recorder_write(rec);
	const char *after = head + head_len;
	size_t after_len = len - (size_t)head_len;
	if (req.connect) {
		static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
		r = write_full_nosigpipe(fd, ok, sizeof(ok) - 1);
	} else {
		r = write_full_nosigpipe(up, upstream_head, (size_t)upstream_len);
		rec->rec.bytes_up += r >= 0 ? (uint64_t)upstream_len : 0;
		/* what came with the head: the body's start, and no more */
		ssize_t taken = r >= 0 ? egress_http_body_take(&body, after, after_len) : 0;
		r = taken < 0 ? (int)taken : r;
		after_len = taken < 0 ? 0 : (size_t)taken;
	}
	if (r >= 0 && after_len > 0) {
		r = write_full_nosigpipe(up, after, after_len);
		rec->rec.bytes_up += r >= 0 ? after_len : 0;
	}
	if (r >= 0)
		relay(fd, up, req.connect ? NULL : &body, rec);
	rec->rec.reason = rec->rec.approved ? EGRESS_REASON_ASKED_YES : EGRESS_REASON_NONE;
}

void egress_connect_serve(int fd, const struct egress_lists *lists,
                          const struct egress_local_addresses *local,
                          const struct egress_asker *asker, const char *token,
                          struct egress_recorder *rec)
{
	/* refused until it is through: every return below leaves a record,
	 * written before the refused client hears why (struct refusal) */
	rec->rec.allowed = false;
	struct refusal refusal = { .status = 0 };
	egress_connect_relay(fd, &refusal, lists, local, asker, token, rec);
	egress_recorder_write(rec);
	if (refusal.status)
		refusal_send(fd, &refusal);
	(void)close(fd);
}
