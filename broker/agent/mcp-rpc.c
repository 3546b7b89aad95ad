/* SPDX-License-Identifier: MIT */
/*
 * JSON-RPC 2.0 framing and classification for the MCP stdio transport. The
 * checks follow the specification's order: parse, then shape (object,
 * version, id type), then method; each failure gets its standard code.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "fd-util.h"
#include "util/json-locate.h"
#include "agent/mcp-rpc.h"

/* The buffer grows in steps of at least this. */
#define RPC_LINES_STEP 65536

int rpc_lines_feed(struct rpc_lines *l, const char *data, size_t len, rpc_line_fn fn,
                   void *userdata)
{
	size_t max = l->max ? l->max : RPC_LINE_MAX;
	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t take = nl ? (size_t)(nl - data) : len;
		if (!l->overlong && take > max - l->len) {
			l->overlong = true;
			l->len = 0;
		}
		if (!l->overlong) {
			if (l->len + take + 1 > l->cap) {
				size_t want =
				        l->cap * 2 > RPC_LINES_STEP ? l->cap * 2 : RPC_LINES_STEP;
				while (want < l->len + take + 1)
					want *= 2;
				char *p = realloc(l->buf, want);
				if (!p)
					return -ENOMEM;
				l->buf = p;
				l->cap = want;
			}
			memcpy(l->buf + l->len, data, take);
			l->len += take;
		}
		if (!nl)
			return 0;
		/* A line of only white space (a CR from a CRLF, a blank line) is skipped. */
		size_t end = l->len;
		while (end > 0 && (l->buf[end - 1] == '\r' || l->buf[end - 1] == ' '))
			end--;
		if (l->overlong || end > 0)
			fn(userdata, l->overlong ? "" : l->buf, l->overlong ? 0 : end, l->overlong);
		l->len = 0;
		l->overlong = false;
		data = nl + 1;
		len -= take + 1;
	}
	return 0;
}

void rpc_lines_done(struct rpc_lines *l)
{
	free(l->buf);
	*l = (struct rpc_lines){ .max = l->max };
}

/* Mark m as an error to answer with code; returns 0 for classify(). */
__attribute__((format(printf, 3, 4))) static int invalid(struct rpc_message *m, int code,
                                                         const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	m->kind = RPC_ERROR;
	m->error_code = code;
	vsnprintf(m->error_message, sizeof(m->error_message), fmt, ap);
	va_end(ap);
	return 0;
}

static int classify(const char *text, size_t len, struct rpc_message *m)
{
	json_error_t jerr;
	m->doc = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	if (!m->doc) {
		char what[192];
		if (json_utf8_error_text(text, len, &jerr, what, sizeof(what)))
			return invalid(m, RPC_PARSE_ERROR, "parse error at column %d: %s (%s)",
			               jerr.column, what, jerr.text);
		return invalid(m, RPC_PARSE_ERROR, "parse error at column %d: %s", jerr.column,
		               jerr.text);
	}
	if (json_is_array(m->doc))
		return invalid(m, RPC_INVALID_REQUEST, "batches are not supported");
	if (!json_is_object(m->doc))
		return invalid(m, RPC_INVALID_REQUEST, "a message must be a JSON object");
	json_t *id = json_object_get(m->doc, "id");
	if (id && !json_is_string(id) && !json_is_integer(id))
		return invalid(m, RPC_INVALID_REQUEST, "'id' must be a string or an integer");
	m->id = id;
	const char *version = json_string_value(json_object_get(m->doc, "jsonrpc"));
	if (!version || strcmp(version, "2.0") != 0)
		return invalid(m, RPC_INVALID_REQUEST, "'jsonrpc' must be \"2.0\"");
	json_t *method = json_object_get(m->doc, "method");
	if (!method) {
		if (id && (json_object_get(m->doc, "result") || json_object_get(m->doc, "error"))) {
			m->kind = RPC_RESPONSE;
			return 0;
		}
		return invalid(m, RPC_INVALID_REQUEST, "'method' is missing");
	}
	if (!json_is_string(method))
		return invalid(m, RPC_INVALID_REQUEST, "'method' must be a string");
	m->method = json_string_value(method);
	json_t *params = json_object_get(m->doc, "params");
	if (params && !json_is_object(params) && !json_is_array(params))
		return invalid(m, RPC_INVALID_REQUEST, "'params' must be an object or an array");
	m->params = params;
	m->kind = id ? RPC_REQUEST : RPC_NOTIFICATION;
	return 0;
}

void rpc_parse(const char *text, size_t len, struct rpc_message *m)
{
	*m = (struct rpc_message){ 0 };
	(void)classify(text, len, m);
}

void rpc_message_done(struct rpc_message *msg)
{
	json_decref(msg->doc);
	msg->doc = NULL;
}

json_t *rpc_result(const json_t *id, json_t *result)
{
	if (!result)
		return NULL;
	return json_pack("{s:s, s:o, s:o}", "jsonrpc", "2.0", "id", json_deep_copy(id), "result",
	                 result);
}

json_t *rpc_error(const json_t *id, int code, const char *message)
{
	json_t *idv = id ? json_deep_copy(id) : json_null();
	return json_pack("{s:s, s:o, s:{s:i, s:s}}", "jsonrpc", "2.0", "id", idv, "error", "code",
	                 code, "message", message);
}

json_t *rpc_notification(const char *method, json_t *params)
{
	if (!params)
		return NULL;
	return json_pack("{s:s, s:s, s:o}", "jsonrpc", "2.0", "method", method, "params", params);
}

int rpc_send(int fd, json_t *msg)
{
	if (!msg)
		return -ENOMEM;
	char *text = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (!text)
		return -ENOMEM;
	size_t len = strlen(text);
	_cleanup_free_ char *line = realloc(text, len + 2);
	if (!line) {
		free(text);
		return -ENOMEM;
	}
	line[len] = '\n';
	return write_full(fd, line, len + 1);
}
