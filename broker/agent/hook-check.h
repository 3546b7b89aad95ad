/* SPDX-License-Identifier: MIT */
/*
 * `sluice hook AGENT --check`: whether the agent, started in a given
 * directory with the environment of the caller, would run `sluice hook
 * AGENT` before its shell tool. An installed hook that does not take effect
 * fails open (the agent runs every command unchecked, and says nothing),
 * so each check follows the agent's own rules, not what its documentation
 * suggests:
 * - Codex: asked of Codex itself (`codex app-server`, the `hooks/list`
 *   request), which knows its layers and each hook's trust: a hook is
 *   skipped until the hash of its definition is recorded as trusted.
 * - Gemini CLI: its settings layers and folder trust, read as its code
 *   reads them: in a folder that is not trusted no hook runs at all.
 * Not for: answering a hook (cmd-hook.c, hook-adapter.c).
 */
#ifndef SLUICE_HOOK_CHECK_H
#define SLUICE_HOOK_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "errors.h"

struct hook_check_request {
	const char *agent;     /* "codex", "gemini" */
	const char *directory; /* where the agent would start (absolute) */
	const char *program;   /* the agent's program, or NULL: its usual name on PATH */
};

/* What a check found. */
enum hook_check_verdict {
	HOOK_CHECK_TAKES_EFFECT = 0, /* the agent runs the hook before its shell tool */
	HOOK_CHECK_NO_EFFECT = 1,    /* it does not: the report says why and what to do */
};

/*
 * Check, writing what was found (a line for each hook of sluice's that the
 * agent knows, then the verdict and, when the hook does not take effect,
 * what to do) to out. Returns the verdict, or -errno with reterr when it
 * could not be told (the agent's program missing, a settings file that is
 * not JSON: the agent would refuse to start on it too).
 */
int hook_check(const struct hook_check_request *req, FILE *out, struct sluice_error *reterr);

/* The agents hook_check() knows: "codex|gemini", for messages. */
const char *hook_check_agents(void);

/* For the agents' checks (hook-check-*.c): */

/* Whether command runs `sluice hook AGENT`: its command word (after
 * `env` and NAME=VALUE words, if any) has "sluice" as its last path
 * component, then come "hook" and agent. */
bool hook_check_runs_sluice(const char *command, const char *agent);

/* Whether a hook matcher covers tool: none, "" and "*" cover every tool;
 * otherwise it is a regular expression (ERE) the tool's name must match
 * in whole. */
bool hook_check_matcher_covers(const char *matcher, const char *tool);

int hook_check_codex(const struct hook_check_request *req, FILE *out, struct sluice_error *reterr);
int hook_check_gemini(const struct hook_check_request *req, FILE *out, struct sluice_error *reterr);

#endif
