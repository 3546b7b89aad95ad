/* SPDX-License-Identifier: MIT */
/*
 * The seam between the hook adapters and the verdict: the one function
 * `sluice hook` asks, meant to be the same decision `sluice check` gives.
 * Not for: running anything.
 */
#ifndef SLUICE_HOOK_POLICY_H
#define SLUICE_HOOK_POLICY_H

#include "errors.h"
#include "request.h"
#include "run-policy.h"
#include "run-settings.h"

/* Decide req as `sluice check` would, in the absolute directory workdir.
 * 0 and *ret, or -errno (the hook then blocks: fail closed). */
int hook_check_policy(const struct run_request *req, const struct run_settings *settings,
                      const char *workdir, struct run_policy *ret, struct sluice_error *reterr);

#endif
