/* SPDX-License-Identifier: MIT */
/*
 * The one decision pipeline for a command: parsed into its model, the
 * model's own checks and every configured plugin run (the policy chain),
 * then its display form. broker_context_decide() (run, mcp, hook) answers
 * an ask after it; `sluice check` prints what it returns.
 * Not for: approval and audit (broker-context.c), printing (the verbs),
 * or a batch of many commands in one policy child (cmd-check.c calls
 * policy_chain_decide_many() for that).
 */
#ifndef SLUICE_POLICY_JUDGE_H
#define SLUICE_POLICY_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "errors.h"
#include "model/command-model.h"
#include "policy/policy-chain.h"
#include "policy/verdict.h"

/* What the pipeline made of one command. */
struct policy_judgement {
	struct verdict *verdict;     /* in: where the verdict goes (borrowed); out: it */
	struct command_model *model; /* out (owned): the command as understood, or NULL */
	char *rewrite;               /* out (owned): a plugin's rewrite of the command, or NULL */
	char *display;               /* out (owned): its display form, or NULL when not asked */
};

/*
 * Judge command (len bytes) with chain and parser: j->verdict is
 * initialised, then combines the model's concerns and every plugin's
 * verdict (deny over ask over allow); with want_display, j->display is the
 * display form of what runs, relative to workdir. Returns 0 when a verdict
 * was reached, whatever it is; -ENOEXEC when a plugin could not start
 * (reterr: "plugin 'X' could not start: FILE:LINE: ..."); another -errno
 * when no verdict could be reached: j->model is NULL when the command
 * could not be parsed. reterr names the cause. Release j with
 * policy_judgement_done() in any case.
 */
int policy_judge(struct policy_chain *chain, struct command_model_parser *parser,
                 const char *command, size_t len, const char *workdir, bool want_display,
                 struct policy_judgement *j, struct sluice_error *reterr);

/* Release what j owns (not its verdict, which is the caller's). */
void policy_judgement_done(struct policy_judgement *j);

#endif
