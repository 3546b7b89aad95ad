/* SPDX-License-Identifier: MIT */
/*
 * The policy seam's placeholder: allow everything, display as written. The
 * lead replaces the bodies with the command model and the policy chain.
 */
#include "config.h"

#include <string.h>

#include "run-policy.h"

const char *run_verdict_name(enum run_verdict v)
{
	static const char *const names[] = {
		[RUN_VERDICT_ALLOW] = "allow",
		[RUN_VERDICT_ASK] = "ask",
		[RUN_VERDICT_DENY] = "deny",
	};
	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "deny";
}

int run_check_policy(const struct run_request *req, const struct run_settings *settings,
                     const char *workdir, struct run_policy *ret, struct sluice_error *reterr)
{
	(void)req;
	(void)settings;
	(void)workdir;
	(void)reterr;
	*ret = (struct run_policy){ .verdict = RUN_VERDICT_ALLOW };
	return 0;
}

char *run_display(const struct run_request *req, const char *workdir)
{
	(void)workdir;
	return strdup(req->command);
}
