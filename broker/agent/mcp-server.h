/* SPDX-License-Identifier: MIT */
/*
 * The MCP server: `sluice mcp`'s loop on standard input and output, its
 * methods, and the workers its tools/call run in (mcp-server.c).
 * Not for: the command line that starts it (cli/cmd-mcp.c).
 */
#ifndef SLUICE_MCP_SERVER_H
#define SLUICE_MCP_SERVER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/sandbox-mode.h"
#include "errors.h"

/* What the command line chose; the strings are borrowed for the server's
 * life. */
struct mcp_server_options {
	const char *root;        /* the workspace, as given (relative to the cwd) */
	const char *config_file; /* --config FILE, or NULL: the layers */
	bool has_sandbox;        /* --sandbox MODE was given */
	enum sandbox_mode sandbox;
	uint64_t progress_interval_ms; /* how often a running call reports progress */
};

struct mcp_server;

/* A server ready to serve: the configuration read, its plugins loaded and
 * armed (before any worker is forked), --sandbox applied, the workspace
 * resolved. Returns 0 with *ret owned; or -errno with reterr, and *ret_what
 * naming what could not be used ("config_error", "the workspace") for
 * mcp_server_refuse(). */
int mcp_server_new(const struct mcp_server_options *opt, struct mcp_server **ret,
                   const char **ret_what, struct sluice_error *reterr);

/* Serve until the input ends and every worker is gone (a broken output
 * ends it too). Returns 0, or -errno when polling fails. SIGPIPE must be
 * ignored: a client that goes away is an end of output, not a signal. */
int mcp_server_serve(struct mcp_server *srv);

/* Accepts NULL; returns NULL. Withdraws a worker forked ahead. */
struct mcp_server *mcp_server_free(struct mcp_server *srv);
static inline void mcp_server_freep(struct mcp_server **srv)
{
	*srv = mcp_server_free(*srv);
}

/*
 * A server that could not start still answers: every request, initialize
 * first, gets an error "sluice mcp could not start: WHAT: DETAIL" until the
 * input ends. A client that starts servers with a filtered environment and
 * does not show their stderr (Codex) then shows the reason instead of
 * nothing.
 */
void mcp_server_refuse(const char *what, const struct sluice_error *err);

#endif
