/* SPDX-License-Identifier: MIT */
/*
 * The seam between `sluice run` and the command model + policy chain: one
 * call that decides a request before anything is spawned, and one that
 * gives the display form. Until the chain is wired in, every command is
 * allowed and displayed as written.
 * Not for: the policies themselves (plugins) or approval.
 */
#ifndef SLUICE_RUN_POLICY_H
#define SLUICE_RUN_POLICY_H

#include <stddef.h>

#include "errors.h"
#include "request.h"
#include "run-settings.h"

enum run_verdict {
	RUN_VERDICT_ALLOW = 0,
	RUN_VERDICT_ASK,
	RUN_VERDICT_DENY,
};

#define RUN_REASONS_MAX 16

/* One plugin's reason; fixed buffers, cut with "..." when longer. */
struct run_reason {
	char plugin[64];
	char message[512];
	char suggestion[512];
};

struct run_policy {
	enum run_verdict verdict;
	struct run_reason reasons[RUN_REASONS_MAX];
	size_t n_reasons;
};

/* "allow", "ask", "deny". */
const char *run_verdict_name(enum run_verdict v);

/*
 * Decide req (to run in the absolute directory workdir) under the policy
 * chain. Fills *ret; returns 0, or -errno when the decision could not be
 * made (the caller refuses then: fail closed), with reterr naming why.
 */
int run_check_policy(const struct run_request *req, const struct run_settings *settings,
                     const char *workdir, struct run_policy *ret, struct sluice_error *reterr);

/* The command's display form (owned), or NULL on allocation failure. */
char *run_display(const struct run_request *req, const char *workdir);

#endif
