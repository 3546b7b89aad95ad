/* SPDX-License-Identifier: MIT */
/*
 * The `bash` tool's description and schemas. The output schema follows
 * result_to_json() field by field; a change there is a change here.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cleanup.h"
#include "parse-number.h"
#include "run/result.h"
#include "agent/tool-schema.h"

char *tool_schema_description(const struct run_settings *s, const char *root,
                              enum tool_schema_jobs jobs)
{
	char t[32], slow[32];
	const char *forbids = result_sandbox_forbids(s->sandbox_mode);
	char *d = NULL;
	int n = asprintf(
	        &d,
	        "Run a shell command with bash -c in %s (the workspace; `directory` is relative to "
	        "it). There is no terminal and standard input is empty: pass answers on the "
	        "command line, never wait for input; editors and pagers are disabled. Timeouts: "
	        "%s by default, %s in slow mode; background mode returns at once with a job %s. "
	        "Output over %llu bytes is cut to its start and end, and the whole of it is kept "
	        "in a file whose path the result gives.%s%s%s%s",
	        root, format_duration_ms(s->timeout_ms, t, sizeof(t)),
	        format_duration_ms(s->slow_timeout_ms, slow, sizeof(slow)),
	        jobs == TOOL_SCHEMA_JOBS_TOOLS
	                ? "to follow with the job_output tool and stop with the job_kill tool (the "
	                  "jobs tool lists them)"
	                : "to follow with `sluice logs JOB`",
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

/* One property: {"type": t (or [t, "null"]), "description": d}. */
static json_t *prop(const char *type, bool nullable, const char *description)
{
	json_t *t = nullable ? json_pack("[s,s]", type, "null") : json_string(type);
	return json_pack("{s:o, s:s}", "type", t, "description", description);
}

/* The fields every result carries, in result_to_json()'s order. */
static const char *const output_required[] = {
	"ran",         "exitCode", "signal",     "truncated", "outputBytes",    "stdoutBytes",
	"stderrBytes", "timedOut", "durationMs", "pid",       "backgroundPids", "outputFile",
	"display",     "policy",   "sandbox",    "error",
};

json_t *tool_schema_output(void)
{
	json_t *props = json_object();
	json_t *pids = prop("array", false,
	                    "processes the command left running when its shell "
	                    "exited");
	if (pids)
		json_object_set_new(pids, "items", json_pack("{s:s}", "type", "integer"));
	struct {
		const char *name;
		json_t *schema;
	} fields[] = {
		{ "ran", prop("boolean", false,
		              "the command was started and ran to its end, whatever its exit code "
		              "(isError is also true for a non-zero exit, a signal or a timeout); "
		              "false when it was refused, timed out, cancelled or could not start "
		              "(then error says why)") },
		{ "exitCode", prop("integer", true,
		                   "its exit code; null when a signal ended it or "
		                   "it never ran") },
		{ "signal", prop("integer", true, "the signal that ended it, or null") },
		{ "stdout", prop("string", false,
		                 "standard output alone, capped; only when the call "
		                 "set streams (the text content has the output)") },
		{ "stderr", prop("string", false,
		                 "standard error alone, capped; only when the call "
		                 "set streams") },
		{ "truncated", prop("boolean", false, "the output was cut to its start and end") },
		{ "outputBytes", prop("integer", false,
		                      "bytes of output produced, stdout and "
		                      "stderr together") },
		{ "stdoutBytes", prop("integer", false, "bytes written to standard output") },
		{ "stderrBytes", prop("integer", false, "bytes written to standard error") },
		{ "timedOut", prop("boolean", false, "the timeout ended it") },
		{ "durationMs", prop("integer", false, "wall time in milliseconds") },
		{ "pid", prop("integer", true, "the shell's pid, also its process group") },
		{ "backgroundPids", pids },
		{ "outputFile", prop("string", true,
		                     "the whole output of a cut run, or a "
		                     "background job's output") },
		{ "display", prop("string", true, "the command simplified for display") },
		{ "policy", prop("object", true,
		                 "the verdict (allow, ask, deny) and its reasons "
		                 "(plugin, message, suggestion)") },
		{ "sandbox", prop("object", true, "the sandbox mode and what was enforced") },
		{ "error", prop("object", true,
		                "null, or {kind, message}: why it did not run or "
		                "end normally") },
		{ "jobId", prop("string", false,
		                "background mode: the job, for the job_output and "
		                "job_kill tools") },
	};
	bool failed = !props;
	for (size_t i = 0; i < ELEMENTSOF(fields); i++)
		failed |= !fields[i].schema ||
		          json_object_set_new(props, fields[i].name, fields[i].schema) < 0;
	json_t *required = json_array();
	for (size_t i = 0; required && i < ELEMENTSOF(output_required); i++)
		failed |= json_array_append_new(required, json_string(output_required[i])) < 0;
	if (failed || !required) {
		json_decref(props);
		json_decref(required);
		return NULL;
	}
	return json_pack("{s:s, s:o, s:o}", "type", "object", "properties", props, "required",
	                 required);
}
