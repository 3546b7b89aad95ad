/* SPDX-License-Identifier: MIT */
/*
 * The MCP server's tools: `bash` (one request of the interface, run through
 * runner_execute()) and the background-job tools `jobs`, `job_output` and
 * `job_kill`. Builds the tools/list answer (titles, annotations, schemas)
 * and a tools/call result (the text for the model, which alone carries the
 * output; sluice's fields in _meta, and structuredContent only for `jobs`,
 * the one tool with an output schema; isError for a failed or refused
 * command).
 * Not for: the protocol (mcp-rpc.c) or where a call runs (mcp-worker.c).
 */
#ifndef SLUICE_MCP_TOOLS_H
#define SLUICE_MCP_TOOLS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "policy/broker-context.h"
#include "run/pump.h"
#include "core/run-settings.h"

/* What every tool call works from; fixed when the server starts. */
struct mcp_context {
	struct run_settings settings;
	struct broker_context *policies; /* borrowed: configuration, plugins, audit */
	const char *root;                /* the workspace root, absolute */
	bool structured;                 /* the negotiated version has titles and outputSchema */
	bool elicit; /* an ask is put to the client's user first (elicitation) */
};

/* The tools/list result (a new reference), or NULL on allocation failure. */
json_t *mcp_tools_list(const struct mcp_context *ctx);

/* Whether name is one of the tools. */
bool mcp_tools_known(const char *name);

/* How a running call reports: cancel_fd ends it (see runner_options),
 * progress is called while a command runs (NULL: never). */
struct mcp_call_io {
	int cancel_fd;
	pump_progress_fn progress;
	uint64_t progress_interval_ms;
	void *progress_userdata;
	/* From mcp_tools_prepare_bash(), or NULL; given only to a bash call
	 * (the server's slot takes no other): the bash tool runs on it and
	 * releases what it holds (the memory stays the caller's). */
	struct run_outcome *prepared;
};

/* Before a bash call is known: a run outcome whose launcher is already
 * waiting (runner_begin()), in memory the caller frees after the call or
 * after mcp_tools_discard_prepared(). NULL when out of memory. */
struct run_outcome *mcp_tools_prepare_bash(const struct mcp_context *ctx);

/* A preparation no call used: its launcher is withdrawn; frees it. */
void mcp_tools_discard_prepared(struct run_outcome *prepared);

/* Run tool name (one mcp_tools_known() accepts) with arguments (an object,
 * or NULL when the call gave none; the caller checks both) and return the
 * CallToolResult (a new reference), or NULL on allocation failure. Blocks
 * while a command runs; call it in a process of its own (mcp-worker.c). */
json_t *mcp_tools_call(const struct mcp_context *ctx, const char *name, json_t *arguments,
                       const struct mcp_call_io *io);

#endif
