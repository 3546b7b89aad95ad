/* SPDX-License-Identifier: MIT */
/*
 * The sandbox modes' table: each mode's name and what it forbids.
 * Not for: choosing a run's mode (run-settings.c) or building the sandbox.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "cleanup.h"
#include "core/sandbox-mode.h"

static const struct {
	const char *name;    /* LAUNCH_PROFILE_* */
	const char *forbids; /* as told to the model; NULL: nothing */
} sandbox_modes[SANDBOX_MODE_COUNT] = {
	[SANDBOX_MODE_UNRESTRICTED] = { LAUNCH_PROFILE_UNRESTRICTED, NULL },
	[SANDBOX_MODE_WORKSPACE_WRITE] = { LAUNCH_PROFILE_WORKSPACE_WRITE,
	                                   "writing outside the workspace, writing its repository's hooks and config, the index "
	                                   "and HEAD of its other worktrees, and the files other programs run later (such as "
	                                   ".claude/, .vscode/, lefthook.yml), reading credential files (such as ~/.ssh), and "
	                                   "network access" },
	[SANDBOX_MODE_RESTRICTED] = { LAUNCH_PROFILE_RESTRICTED,
	                              "writing anywhere, the workspace included, reading credential files (such as "
	                              "~/.ssh), and network access" },
};

const char *sandbox_mode_name(enum sandbox_mode mode)
{
	return (unsigned)mode < SANDBOX_MODE_COUNT ? sandbox_modes[mode].name : "(none)";
}

const char *sandbox_mode_forbids(enum sandbox_mode mode)
{
	return (unsigned)mode < SANDBOX_MODE_COUNT ? sandbox_modes[mode].forbids : NULL;
}

_Static_assert(SANDBOX_MODE_COUNT == 3, "the refusal below names every mode");

int sandbox_mode_from_name(const char *name, enum sandbox_mode *ret, struct sluice_error *reterr)
{
	for (size_t i = 0; i < ELEMENTSOF(sandbox_modes); i++)
		if (strcmp(sandbox_modes[i].name, name) == 0) {
			*ret = (enum sandbox_mode)i;
			return 0;
		}
	return sluice_error_set(
	        reterr, -EINVAL, "the sandbox mode must be one of %s, %s, %s, not '%s'",
	        sandbox_modes[0].name, sandbox_modes[1].name, sandbox_modes[2].name, name);
}
