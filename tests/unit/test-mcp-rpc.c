/* SPDX-License-Identifier: MIT */
/*
 * broker/agent/mcp-rpc.c: lines cut from a byte stream in any chunking, blank and
 * CRLF lines, the length cap (a reader's own, or none), the classification
 * of JSON-RPC messages with the standard error codes, and messages sent as
 * single lines.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "agent/mcp-rpc.h"

struct seen {
	char lines[8][64];
	size_t len[8];
	bool overlong[8];
	int n;
};

static void collect(void *userdata, const char *text, size_t len, bool overlong)
{
	struct seen *s = userdata;
	cr_assert_lt(s->n, 8);
	snprintf(s->lines[s->n], sizeof(s->lines[0]), "%.*s", (int)len, text);
	s->len[s->n] = len;
	s->overlong[s->n++] = overlong;
}

Test(mcp_rpc, lines_in_any_chunking)
{
	static const char stream[] = "{\"a\":1}\r\n\n  \n{\"b\":2}\n{\"c\"";
	for (size_t step = 1; step <= sizeof(stream); step++) {
		struct rpc_lines l = { 0 };
		struct seen s = { 0 };
		for (size_t i = 0; i < sizeof(stream) - 1; i += step) {
			size_t n = sizeof(stream) - 1 - i < step ? sizeof(stream) - 1 - i : step;
			cr_assert_eq(rpc_lines_feed(&l, stream + i, n, collect, &s), 0);
		}
		cr_assert_eq(s.n, 2, "step %zu: %d lines", step, s.n);
		cr_assert_str_eq(s.lines[0], "{\"a\":1}");
		cr_assert_str_eq(s.lines[1], "{\"b\":2}");
		cr_assert_eq(l.len, 4, "the unfinished line is kept");
		rpc_lines_done(&l);
	}
}

Test(mcp_rpc, an_overlong_line_is_flagged_and_the_next_one_read)
{
	struct rpc_lines l = { 0 };
	struct seen s = { 0 };
	static char chunk[1 << 20];
	memset(chunk, 'x', sizeof(chunk));
	for (size_t i = 0; i < (RPC_LINE_MAX / sizeof(chunk)) + 1; i++)
		cr_assert_eq(rpc_lines_feed(&l, chunk, sizeof(chunk), collect, &s), 0);
	cr_assert_eq(s.n, 0);
	cr_assert_eq(rpc_lines_feed(&l, "\n{}\n", 4, collect, &s), 0);
	cr_assert_eq(s.n, 2);
	cr_assert(s.overlong[0]);
	cr_assert(!s.overlong[1]);
	cr_assert_str_eq(s.lines[1], "{}");
	rpc_lines_done(&l);
}

Test(mcp_rpc, a_reader_has_its_own_max)
{
	struct rpc_lines l = { .max = 8 };
	struct seen s = { 0 };
	cr_assert_eq(rpc_lines_feed(&l, "12345678\n123456789\n", 19, collect, &s), 0);
	cr_assert_eq(s.n, 2);
	cr_assert(!s.overlong[0]);
	cr_assert_str_eq(s.lines[0], "12345678");
	cr_assert(s.overlong[1], "a line of 9 bytes passes a max of 8");
	rpc_lines_done(&l);
	cr_assert_eq(l.max, 8, "the reader keeps its max");
}

Test(mcp_rpc, a_reader_with_no_max_takes_a_line_longer_than_RPC_LINE_MAX)
{
	struct rpc_lines l = { .max = RPC_LINES_NO_MAX };
	struct seen s = { 0 };
	static char chunk[1 << 20];
	memset(chunk, 'x', sizeof(chunk));
	size_t fed = 0;
	for (; fed <= RPC_LINE_MAX; fed += sizeof(chunk))
		cr_assert_eq(rpc_lines_feed(&l, chunk, sizeof(chunk), collect, &s), 0);
	cr_assert_eq(rpc_lines_feed(&l, "\n", 1, collect, &s), 0);
	cr_assert_eq(s.n, 1);
	cr_assert(!s.overlong[0]);
	cr_assert_eq(s.len[0], fed);
	cr_assert_gt(s.len[0], RPC_LINE_MAX);
	rpc_lines_done(&l);
}

static struct rpc_message parse(const char *text)
{
	struct rpc_message m;
	rpc_parse(text, strlen(text), &m);
	return m;
}

Test(mcp_rpc, classification_and_codes)
{
	static const struct {
		const char *text;
		enum rpc_kind kind;
		int code;
		bool has_id;
	} cases[] = {
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", RPC_REQUEST, 0, true },
		{ "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"x\",\"params\":{}}", RPC_REQUEST,
		  0, true },
		{ "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
		  RPC_NOTIFICATION, 0, false },
		{ "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}", RPC_RESPONSE, 0, true },
		{ "nope", RPC_ERROR, RPC_PARSE_ERROR, false },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"x\"}", RPC_ERROR,
		  RPC_PARSE_ERROR, false },
		{ "[]", RPC_ERROR, RPC_INVALID_REQUEST, false },
		{ "42", RPC_ERROR, RPC_INVALID_REQUEST, false },
		{ "{\"id\":1,\"method\":\"x\"}", RPC_ERROR, RPC_INVALID_REQUEST, true },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"x\"}", RPC_ERROR,
		  RPC_INVALID_REQUEST, false },
		{ "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"x\"}", RPC_ERROR,
		  RPC_INVALID_REQUEST, false },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1}", RPC_ERROR, RPC_INVALID_REQUEST, true },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":3}", RPC_ERROR,
		  RPC_INVALID_REQUEST, true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rpc_message m = parse(cases[i].text);
		cr_assert_eq(m.kind, cases[i].kind, "%s: kind %d", cases[i].text, m.kind);
		if (cases[i].kind == RPC_ERROR) {
			cr_assert_eq(m.error_code, cases[i].code, "%s", cases[i].text);
			cr_assert(m.error_message[0]);
		}
		cr_assert_eq(m.id != NULL, cases[i].has_id, "%s", cases[i].text);
		rpc_message_done(&m);
	}
}

Test(mcp_rpc, a_byte_that_is_not_utf8_is_named_by_its_field)
{
	struct rpc_message m = parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
	                             "\"params\":{\"arguments\":{\"command\":\"echo \xff\"}}}");
	cr_assert_eq(m.kind, RPC_ERROR);
	cr_assert_eq(m.error_code, RPC_PARSE_ERROR);
	cr_assert(strstr(m.error_message, "field 'params.arguments.command' is not valid UTF-8"),
	          "%s", m.error_message);
	rpc_message_done(&m);
}

Test(mcp_rpc, answers_are_single_lines_with_the_id)
{
	json_t *id = json_string("x\ny");
	int p[2];
	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(rpc_send(p[1], rpc_result(id, json_pack("{s:s}", "text", "a\nb"))), 0);
	close(p[1]);
	char buf[4096];
	ssize_t n = read(p[0], buf, sizeof(buf));
	close(p[0]);
	cr_assert_gt(n, 0);
	cr_assert_lt(n, (ssize_t)sizeof(buf), "the whole message in one read");
	const char *nl = memchr(buf, '\n', (size_t)n);
	cr_assert_eq(nl, buf + n - 1, "exactly one newline, the last byte: %.*s", (int)n, buf);
	json_t *r = json_loadb(buf, (size_t)n - 1, 0, NULL);
	cr_assert_not_null(r, "the line parses: %.*s", (int)n, buf);
	cr_assert_str_eq(json_string_value(json_object_get(r, "id")), "x\ny");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(r, "result"), "text")),
	                 "a\nb");
	json_decref(r);
	json_t *e = rpc_error(NULL, RPC_METHOD_NOT_FOUND, "Method not found");
	cr_assert(json_is_null(json_object_get(e, "id")));
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(e, "error"), "code")),
	             -32601);
	json_decref(e);
	json_decref(id);
}
