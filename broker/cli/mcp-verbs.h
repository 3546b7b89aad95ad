/* SPDX-License-Identifier: MIT */
/*
 * The entry points of the agent-facing verbs, for the verb table: the MCP
 * server and the agents' hook adapters. Each returns the exit status.
 */
#ifndef SLUICE_MCP_VERBS_H
#define SLUICE_MCP_VERBS_H

int cmd_mcp(int argc, char **argv);
int cmd_hook(int argc, char **argv);

/* Their command lines (cli/verb-options.h). */
struct verb_spec;
extern const struct verb_spec mcp_spec, hook_spec;

#endif
