/* SPDX-License-Identifier: MIT */
/*
 * JSON-RPC 2.0 as the MCP stdio transport carries it: one JSON message per
 * line. Splits a byte stream into bounded lines, classifies each message
 * (request, notification, response, or an error with its standard code),
 * and writes messages as single lines.
 * Not for: what the methods do (mcp-server.c, mcp-tools.c).
 */
#ifndef SLUICE_MCP_RPC_H
#define SLUICE_MCP_RPC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The standard error codes. */
#define RPC_PARSE_ERROR (-32700)
#define RPC_INVALID_REQUEST (-32600)
#define RPC_METHOD_NOT_FOUND (-32601)
#define RPC_INVALID_PARAMS (-32602)
#define RPC_INTERNAL_ERROR (-32603)

/* The longest message accepted from a client; a longer line is refused as a
 * parse error. */
#define RPC_LINE_MAX (16u << 20)
/* rpc_lines.max of a reader whose lines are bounded by their writer. */
#define RPC_LINES_NO_MAX SIZE_MAX

/* Bytes in, whole lines out. */
struct rpc_lines {
	char *buf;
	size_t len, cap;
	size_t max;    /* the longest line; 0: RPC_LINE_MAX; RPC_LINES_NO_MAX: none */
	bool overlong; /* the current line passed max: dropped up to its end */
};

/* Called with each complete line (without its newline); overlong says the
 * line was too long and text holds nothing useful. */
typedef void (*rpc_line_fn)(void *userdata, const char *text, size_t len, bool overlong);

/* Append data and call fn for every line it completes. -ENOMEM on failure. */
int rpc_lines_feed(struct rpc_lines *l, const char *data, size_t len, rpc_line_fn fn,
                   void *userdata);

/* Release the buffer (max is kept). */
void rpc_lines_done(struct rpc_lines *l);

enum rpc_kind {
	RPC_REQUEST,      /* method and id */
	RPC_NOTIFICATION, /* method, no id */
	RPC_RESPONSE,     /* result or error: the client answering; ignored */
	RPC_ERROR,        /* not a valid message: answer with error_code */
};

struct rpc_message {
	enum rpc_kind kind;
	json_t *doc;        /* owned: the parsed document, or NULL */
	const json_t *id;   /* borrowed from doc; NULL for none (answer with null) */
	const char *method; /* borrowed from doc */
	json_t *params;     /* borrowed from doc, or NULL */
	int error_code;     /* RPC_ERROR: the code to answer with */
	char error_message[256];
};

/* Parse and classify one line. Never fails: a bad line is RPC_ERROR. */
void rpc_parse(const char *text, size_t len, struct rpc_message *ret);

/* Release msg->doc. */
void rpc_message_done(struct rpc_message *msg);

/* {"jsonrpc":"2.0","id":id,"result":result}; steals result. NULL on failure. */
json_t *rpc_result(const json_t *id, json_t *result);

/* {"jsonrpc":"2.0","id":id|null,"error":{"code","message"}}. */
json_t *rpc_error(const json_t *id, int code, const char *message);

/* {"jsonrpc":"2.0","method":method,"params":params}; steals params. */
json_t *rpc_notification(const char *method, json_t *params);

/* Write msg as one line to fd and release it (NULL: -ENOMEM). */
int rpc_send(int fd, json_t *msg);

#endif
