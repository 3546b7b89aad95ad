/* SPDX-License-Identifier: MIT */
/*
 * The profiles table: unrestricted, workspace-write, restricted.
 * Adding a profile is one row here; the steps only read its fields.
 */
#include "config.h"

#include <string.h>

#include "cleanup.h"
#include "launch-spec.h"
#include "profiles.h"

static const struct profile profiles[] = {
	{
	        .name = LAUNCH_PROFILE_UNRESTRICTED,
	        .sandboxed = false,
	        .workspace = WORKSPACE_AS_USER,
	        .summary = "no filesystem or network rules; session, descriptors, "
	                   "rlimits and capabilities only",
	},
	{
	        .name = LAUNCH_PROFILE_WORKSPACE_WRITE,
	        .sandboxed = true,
	        .workspace = WORKSPACE_WRITABLE,
	        .summary = "read everywhere; write the workspace (not its .git), "
	                   "--rw paths, --tmpdir",
	},
	{
	        .name = LAUNCH_PROFILE_RESTRICTED,
	        .sandboxed = true,
	        .workspace = WORKSPACE_READ_ONLY,
	        .summary = "read everywhere; write only --rw paths and --tmpdir",
	},
};

const struct profile *profile_find(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(profiles); i++)
		if (strcmp(profiles[i].name, name) == 0)
			return &profiles[i];
	return NULL;
}

const struct profile *profile_default(void)
{
	return profile_find(LAUNCH_PROFILE_RESTRICTED);
}

const struct profile *profile_table(unsigned *ret_n)
{
	*ret_n = ELEMENTSOF(profiles);
	return profiles;
}
