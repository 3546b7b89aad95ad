/* SPDX-License-Identifier: MIT */
/*
 * The hook's verdict: today the run pipeline's policy seam, which is where
 * the policy chain is wired; point this at `sluice check`'s function when
 * that one differs.
 */
#include "config.h"

#include "hook-policy.h"

int hook_check_policy(const struct run_request *req, const struct run_settings *settings,
                      const char *workdir, struct run_policy *ret, struct sluice_error *reterr)
{
	return run_check_policy(req, settings, workdir, ret, reterr);
}
