/* SPDX-License-Identifier: MIT */
/*
 * The `bash` tool as a model is shown it, shared by `sluice schema` and the
 * MCP server: the description (working directory, limits, what the sandbox
 * forbids), the request's JSON schema and the result's JSON schema.
 * Not for: validating requests (request.c) or building results (result.c).
 */
#ifndef SLUICE_TOOL_SCHEMA_H
#define SLUICE_TOOL_SCHEMA_H

#include <jansson.h>

#include "core/run-settings.h"

/* The tool's description for workspace root (owned), or NULL on allocation
 * failure. */
char *tool_schema_description(const struct run_settings *s, const char *root);

/* The JSON schema of a request (a new reference), or NULL: the installed
 * file's, with timeout_ms's maximum the configured one. */
json_t *tool_schema_input(const struct run_settings *s);

/* The JSON schema of the result object result_to_json() builds (a new
 * reference), or NULL. */
json_t *tool_schema_output(void);

#endif
