/* SPDX-License-Identifier: MIT */
/*
 * The `bash` tool as a model is shown it, shared by `sluice schema` and the
 * MCP server: the description (working directory, limits, what the sandbox
 * forbids, how background jobs are followed), the request's JSON schema, the
 * result's and the MCP result's, from the files installed (schema/).
 * Not for: validating requests (request.c) or building results (result.c).
 */
#ifndef SLUICE_TOOL_SCHEMA_H
#define SLUICE_TOOL_SCHEMA_H

#include <jansson.h>
#include <stdbool.h>

#include "core/run-settings.h"

/* How the model follows a background job where the tool is shown. */
enum tool_schema_jobs {
	TOOL_SCHEMA_JOBS_VERBS, /* `sluice logs JOB`, `sluice kill JOB` */
	TOOL_SCHEMA_JOBS_TOOLS, /* the MCP server's job_output and job_kill tools */
};

/* The tool's description for workspace root (owned), or NULL on allocation
 * failure. */
char *tool_schema_description(const struct run_settings *s, const char *root,
                              enum tool_schema_jobs jobs);

/* The JSON schema of a request (a new reference), or NULL: the installed
 * file's, with timeout_ms's maximum the configured one. */
json_t *tool_schema_input(const struct run_settings *s);

/* The JSON schema of the interface's result, the object result_to_json(r,
 * 0) builds (`sluice run --format json`; a new reference), or NULL. */
json_t *tool_schema_result(void);

/* The JSON schema of an MCP bash result's _meta["sluice/result"], the
 * object result_to_json(RESULT_JSON_BESIDE_TEXT) builds (a new reference),
 * or NULL. */
json_t *tool_schema_output(void);

#endif
