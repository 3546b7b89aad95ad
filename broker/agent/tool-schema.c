/* SPDX-License-Identifier: MIT */
/*
 * The `bash` tool's description and schemas. The schemas are the files
 * schema/request.schema.json and schema/result.schema.json, compiled in
 * (agent/tool-schemas.h, made by the build) and installed as they are; the
 * result's follows result_to_json() field by field, so a change there is a
 * change in that file.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cleanup.h"
#include "parse-number.h"
#include "run/result.h"
#include "agent/tool-schema.h"
#include "agent/tool-schemas.h"

char *tool_schema_description(const struct run_settings *s, const char *root,
                              enum tool_schema_jobs jobs)
{
	char t[32], slow[32];
	const char *forbids = sandbox_mode_forbids(s->sandbox_mode);
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
	        forbids ? sandbox_mode_name(s->sandbox_mode) : "", forbids ? ") forbids " : "",
	        forbids ? forbids : "");
	return n < 0 ? NULL : d;
}

json_t *tool_schema_input(const struct run_settings *s)
{
	json_t *schema = json_loads(tool_schema_request_json, 0, NULL);
	json_t *timeout = json_object_get(json_object_get(schema, "properties"), "timeout_ms");
	/* the file leaves the maximum to the configuration */
	if (!timeout || json_object_set_new(timeout, "maximum",
	                                    json_integer((json_int_t)s->max_timeout_ms)) < 0) {
		json_decref(schema);
		return NULL;
	}
	return schema;
}

json_t *tool_schema_result(void)
{
	return json_loads(tool_schema_result_json, 0, NULL);
}

json_t *tool_schema_output(void)
{
	return json_loads(tool_schema_mcp_result_json, 0, NULL);
}
