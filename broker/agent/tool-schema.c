/* SPDX-License-Identifier: MIT */
/*
 * The `bash` tool's description and schemas. The output schema follows
 * result_to_json() field by field; a change there is a change here.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "parse-number.h"
#include "run/result.h"
#include "agent/tool-schema.h"

char *tool_schema_description(const struct run_settings *s, const char *root)
{
	char t[32], slow[32];
	const char *forbids = result_sandbox_forbids(s->sandbox_mode);
	char *d = NULL;
	int n = asprintf(
	        &d,
	        "Run a shell command with bash -c in %s (the workspace; `directory` is relative to "
	        "it). There is no terminal and standard input is empty: pass answers on the "
	        "command line, never wait for input; editors and pagers are disabled. Timeouts: "
	        "%s by default, %s in slow mode; background mode returns at once with a job to "
	        "follow with `sluice logs JOB`. Output over %llu bytes is cut to its start and end, "
	        "and the whole of it is kept in a file whose path the result gives.%s%s%s%s",
	        root, format_duration_ms(s->timeout_ms, t, sizeof(t)),
	        format_duration_ms(s->slow_timeout_ms, slow, sizeof(slow)),
	        (unsigned long long)s->output_cap, forbids ? " The sandbox (" : "",
	        forbids ? s->sandbox_mode : "", forbids ? ") forbids " : "",
	        forbids ? forbids : "");
	return n < 0 ? NULL : d;
}

json_t *tool_schema_input(const struct run_settings *s)
{
	return json_pack(
	        "{s:s, s:{s:{s:s, s:s}, s:{s:s, s:[s,s,s], s:s}, s:{s:s, s:s}, s:{s:s, s:s}, "
	        "s:{s:s, s:i, s:I, s:s}}, s:[s], s:b}",
	        "type", "object", "properties", "command", "type", "string", "description",
	        "the shell command, run as bash -c COMMAND", "mode", "type", "string", "enum",
	        "default", "slow", "background", "description",
	        "default: normal timeout; slow: long timeout; background: detached job",
	        "directory", "type", "string", "description",
	        "working directory relative to the workspace", "description", "type", "string",
	        "description", "what the command does, for a human approver and the audit log",
	        "timeout_ms", "type", "integer", "minimum", 1, "maximum",
	        (json_int_t)s->max_timeout_ms, "description", "overrides the mode's timeout",
	        "required", "command", "additionalProperties", 0);
}

/* {"type": [t, "null"]} */
static json_t *nullable(const char *type)
{
	return json_pack("{s:[s,s]}", "type", type, "null");
}

json_t *tool_schema_output(void)
{
	json_t *props = json_pack(
	        "{s:{s:s}, s:o, s:o, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, "
	        "s:{s:s}, s:o, s:{s:s, s:{s:s}}, s:o, s:o, s:o, s:o, s:o, s:{s:s}}",
	        "ok", "type", "boolean", "exitCode", nullable("integer"), "signal",
	        nullable("integer"), "output", "type", "string", "stdout", "type", "string",
	        "stderr", "type", "string", "truncated", "type", "boolean", "outputBytes", "type",
	        "integer", "timedOut", "type", "boolean", "durationMs", "type", "integer", "pid",
	        nullable("integer"), "backgroundPids", "type", "array", "items", "type", "integer",
	        "outputFile", nullable("string"), "display", nullable("string"), "policy",
	        nullable("object"), "sandbox", nullable("object"), "error", nullable("object"),
	        "jobId", "type", "string");
	return json_pack("{s:s, s:o*, s:[s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s]}", "type", "object",
	                 "properties", props, "required", "ok", "exitCode", "signal", "output",
	                 "stdout", "stderr", "truncated", "outputBytes", "timedOut", "durationMs",
	                 "pid", "backgroundPids", "outputFile", "display", "policy", "sandbox",
	                 "error");
}
