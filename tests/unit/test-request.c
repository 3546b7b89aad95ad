/* SPDX-License-Identifier: MIT */
/*
 * broker/core/request.c: what an agent's request may and may not say. Every
 * refusal must name the field, so the agent can fix its call.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "util/json-locate.h"
#include "core/request.h"

#define MAX_COMMAND 1024

static int parse(const char *json, struct run_request *req, struct sluice_error *err)
{
	return request_parse(json, strlen(json), MAX_COMMAND, req, err);
}

Test(request, reads_every_field)
{
	struct run_request req;
	struct sluice_error err = { 0 };
	cr_assert_eq(parse("{\"command\":\"make test\",\"mode\":\"slow\",\"directory\":\"sub/dir\","
	                   "\"description\":\"run the tests\",\"timeout_ms\":90000}",
	                   &req, &err),
	             0, "%s", err.detail);
	cr_assert_str_eq(req.command, "make test");
	cr_assert_eq(req.command_len, 9);
	cr_assert_eq(req.mode, RUN_MODE_SLOW);
	cr_assert_str_eq(req.directory, "sub/dir");
	cr_assert_str_eq(req.description, "run the tests");
	cr_assert(req.has_timeout);
	cr_assert_eq(req.timeout_ms, 90000);
	run_request_done(&req);
	cr_assert_null(req.command);
}

Test(request, defaults_to_default_mode_without_timeout)
{
	struct run_request req;
	cr_assert_eq(parse("{\"command\":\"ls\"}", &req, NULL), 0);
	cr_assert_eq(req.mode, RUN_MODE_DEFAULT);
	cr_assert_not(req.has_timeout);
	cr_assert_null(req.directory);
	run_request_done(&req);
}

Test(request, accepts_the_older_boolean_mode_aliases)
{
	struct run_request req;
	cr_assert_eq(parse("{\"command\":\"ls\",\"slow_ok\":true}", &req, NULL), 0);
	cr_assert_eq(req.mode, RUN_MODE_SLOW);
	run_request_done(&req);
	cr_assert_eq(
	        parse("{\"command\":\"ls\",\"background\":true,\"slow_ok\":false}", &req, NULL), 0);
	cr_assert_eq(req.mode, RUN_MODE_BACKGROUND);
	run_request_done(&req);
	cr_assert_eq(parse("{\"command\":\"ls\",\"mode\":\"background\",\"background\":true}", &req,
	                   NULL),
	             0);
	cr_assert_eq(req.mode, RUN_MODE_BACKGROUND);
	run_request_done(&req);
}

Test(request, keeps_newlines_and_unicode_in_commands)
{
	struct run_request req;
	cr_assert_eq(parse("{\"command\":\"echo h\\u00e9llo\\nls\"}", &req, NULL), 0);
	cr_assert_str_eq(req.command, "echo h\xc3\xa9llo\nls");
	run_request_done(&req);
}

/* Arrays, not pointers: Criterion hands parameters to the test's own
 * process by copying the struct, where a pointer would not be valid. */
struct refusal {
	char json[96];
	char detail[64]; /* a substring the message must hold */
};

static struct refusal refusals[] = {
	{ "[]", "must be a JSON object" },
	{ "\"ls\"", "must be a JSON object" },
	{ "{}", "field 'command' is required" },
	{ "{\"command\":42}", "field 'command' must be a string" },
	{ "{\"command\":null}", "field 'command' must be a string" },
	{ "{\"command\":\"\"}", "field 'command' is empty" },
	{ "{\"command\":\"  \\n\\t\"}", "field 'command' is empty" },
	{ "{\"command\":\"ls\\u0000rm\"}", "field 'command' contains a NUL byte" },
	{ "{\"command\":\"ls\",\"comand\":\"x\"}", "unknown field 'comand'" },
	{ "{\"command\":\"ls\",\"timeout\":5}", "unknown field 'timeout'" },
	{ "{\"command\":\"ls\",\"mode\":\"fast\"}", "field 'mode' must be one of" },
	{ "{\"command\":\"ls\",\"mode\":1}", "field 'mode' must be one of" },
	{ "{\"command\":\"ls\",\"timeout_ms\":\"5\"}", "field 'timeout_ms' must be a positive" },
	{ "{\"command\":\"ls\",\"timeout_ms\":0}", "field 'timeout_ms' must be a positive" },
	{ "{\"command\":\"ls\",\"timeout_ms\":-5}", "field 'timeout_ms' must be a positive" },
	{ "{\"command\":\"ls\",\"timeout_ms\":1.5}", "field 'timeout_ms' must be a positive" },
	{ "{\"command\":\"ls\",\"directory\":7}", "field 'directory' must be a string" },
	{ "{\"command\":\"ls\",\"directory\":\"\"}", "field 'directory' is empty" },
	{ "{\"command\":\"ls\",\"directory\":\"a\\u0000b\"}", "field 'directory' contains a NUL" },
	{ "{\"command\":\"ls\",\"description\":[]}", "field 'description' must be a string" },
	{ "{\"command\":\"ls\",\"slow_ok\":\"yes\"}", "field 'slow_ok' must be true or false" },
	{ "{\"command\":\"ls\",\"background\":1}", "field 'background' must be true or false" },
	{ "{\"command\":\"ls\",\"slow_ok\":true,\"background\":true}", "both true" },
	{ "{\"command\":\"ls\",\"mode\":\"slow\",\"background\":true}",
	  "field 'mode' is 'slow' but 'background' is true" },
	{ "{\"command\":\"ls\",\"command\":\"rm\"}", "duplicate" },
	{ "{\"command\":\"ls\"", "not valid JSON" },
	{ "{\"command\":\"\xff\"}",
	  "field 'command' is not valid UTF-8 (unable to decode byte 0xff" },
	{ "{\"command\":\"ls\",\"description\":\"caf\xc3\"}",
	  "field 'description' is not valid UTF-8" },
	{ "{\"comm\xe9nd\":\"ls\"}", "a field name is not valid UTF-8" },
	{ "", "not valid JSON" },
};

ParameterizedTestParameters(request, refuses_bad_requests_naming_the_problem)
{
	return cr_make_param_array(struct refusal, refusals,
	                           sizeof(refusals) / sizeof(refusals[0]));
}

ParameterizedTest(struct refusal *c, request, refuses_bad_requests_naming_the_problem)
{
	struct run_request req;
	struct sluice_error err = { 0 };
	cr_assert_eq(parse(c->json, &req, &err), -EINVAL, "accepted: %s", c->json);
	cr_assert_not_null(strstr(err.detail, c->detail), "for %s: got '%s', wanted '%s'", c->json,
	                   err.detail, c->detail);
	cr_assert_null(req.command, "a refused request must be left empty");
}

Test(request, refuses_commands_over_the_size_limit)
{
	char command[MAX_COMMAND + 2];
	memset(command, 'a', sizeof(command) - 1);
	command[sizeof(command) - 1] = '\0';
	struct run_request req;
	struct sluice_error err = { 0 };
	cr_assert_eq(request_from_command(command, MAX_COMMAND, &req, &err), -EINVAL);
	cr_assert_not_null(strstr(err.detail, "more than the maximum of 1024"), "%s", err.detail);
	command[MAX_COMMAND] = '\0';
	cr_assert_eq(request_from_command(command, MAX_COMMAND, &req, &err), 0);
	run_request_done(&req);
}

Test(request, refuses_invalid_utf8_on_the_command_line)
{
	struct run_request req;
	struct sluice_error err = { 0 };
	cr_assert_eq(request_from_command("echo \xc3\x28", MAX_COMMAND, &req, &err), -EINVAL);
	cr_assert_str_eq(err.detail, "field 'command' is not valid UTF-8");
	cr_assert_eq(request_from_command("echo \xed\xa0\x80", MAX_COMMAND, &req, &err), -EINVAL,
	             "a UTF-16 surrogate is not UTF-8");
}

/* json_locate_field: the keys around a byte, in the raw text. */
static void expect_field(const char *text, const char *at, const char *path, bool in_key)
{
	char got[64];
	bool key = false;
	const char *p = strstr(text, at);
	cr_assert_not_null(p, "'%s' not in '%s'", at, text);
	bool found =
	        json_locate_field(text, strlen(text), (size_t)(p - text), got, sizeof(got), &key);
	cr_assert_eq(found, path[0] != '\0' && !in_key, "%s at '%s': found %d ('%s')", text, at,
	             found, got);
	cr_assert_str_eq(got, path, "%s at '%s'", text, at);
	cr_assert_eq(key, in_key, "%s at '%s'", text, at);
}

Test(request, locates_the_field_of_a_byte)
{
	expect_field("{\"command\":\"echo X\"}", "X", "command", false);
	expect_field("{\"a\":1,\"command\":\"echo X\"}", "X", "command", false);
	expect_field("{\"params\":{\"arguments\":{\"command\":\"X\"}}}", "X",
	             "params.arguments.command", false);
	expect_field("{\"a\":[1,{\"b\":\"X\"}]}", "X", "a.b", false);
	expect_field("{\"a\":\"q\\\"}\",\"b\":\"X\"}", "X", "b", false);
	expect_field("{\"a\":{\"kX\":1}}", "X", "a", true);
	expect_field("{\"a\":1, \"cX\":2}", "X", "", true);
	expect_field("{\"a\":1} X", "X", "", false);
	expect_field("{\"a\":7X}", "X", "a", false);
}
