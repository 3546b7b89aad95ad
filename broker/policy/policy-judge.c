/* SPDX-License-Identifier: MIT */
/*
 * The one decision pipeline for a command: parse, the model's checks and
 * the plugin chain, the display form. The order is the policy argument:
 * what runs is what was judged, and its display form is made from that.
 * Not for: approval, audit or printing.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "model/display.h"
#include "policy/policy-judge.h"

int policy_judge(struct policy_chain *chain, struct command_model_parser *parser,
                 const char *command, size_t len, const char *workdir, bool want_display,
                 struct policy_judgement *j, struct sluice_error *reterr)
{
	j->model = NULL;
	j->rewrite = NULL;
	j->display = NULL;
	verdict_init(j->verdict);
	int r = command_model_parse(parser, command, len, NULL, &j->model, reterr);
	if (r < 0)
		return r;
	/* the model's own concerns (limits, partial parse, dynamic names) and
	 * every configured plugin, run in the policy chain's child; > 0: how
	 * many plugins failed, which the verdict already says */
	r = policy_chain_decide(chain, parser, j->model, j->verdict, &j->rewrite);
	if (r == -ENOEXEC)
		return sluice_error_set(reterr, r, "%s", policy_chain_start_error(chain));
	if (r < 0)
		return sluice_error_set(reterr, r, "running the policy plugins");
	if (!want_display)
		return 0;
	return display_form_of_run(parser, j->model, j->rewrite, workdir, &j->display, reterr);
}

void policy_judgement_done(struct policy_judgement *j)
{
	j->model = command_model_free(j->model);
	free(j->rewrite);
	j->rewrite = NULL;
	free(j->display);
	j->display = NULL;
}
