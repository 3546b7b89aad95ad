/* SPDX-License-Identifier: MIT */
/*
 * broker/core/sandbox-mode.c: each mode's name is the launcher's profile
 * name and reads back as the same mode; an unknown name is refused naming
 * the modes there are; only unrestricted forbids nothing.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "core/sandbox-mode.h"

Test(sandbox_mode, names_are_the_launchers_profiles_and_read_back)
{
	static const char *const profiles[SANDBOX_MODE_COUNT] = {
		[SANDBOX_MODE_UNRESTRICTED] = LAUNCH_PROFILE_UNRESTRICTED,
		[SANDBOX_MODE_WORKSPACE_WRITE] = LAUNCH_PROFILE_WORKSPACE_WRITE,
		[SANDBOX_MODE_RESTRICTED] = LAUNCH_PROFILE_RESTRICTED,
	};
	for (int m = 0; m < SANDBOX_MODE_COUNT; m++) {
		cr_assert_str_eq(sandbox_mode_name((enum sandbox_mode)m), profiles[m]);
		enum sandbox_mode back = SANDBOX_MODE_COUNT;
		cr_assert_eq(sandbox_mode_from_name(profiles[m], &back, NULL), 0);
		cr_assert_eq(back, m);
	}
}

Test(sandbox_mode, stricter_is_greater)
{
	cr_assert_lt(SANDBOX_MODE_UNRESTRICTED, SANDBOX_MODE_WORKSPACE_WRITE);
	cr_assert_lt(SANDBOX_MODE_WORKSPACE_WRITE, SANDBOX_MODE_RESTRICTED);
}

Test(sandbox_mode, an_unknown_name_is_refused_naming_the_modes)
{
	struct sluice_error err = { 0 };
	enum sandbox_mode m = SANDBOX_MODE_RESTRICTED;
	cr_assert_eq(sandbox_mode_from_name("workspace_write", &m, &err), -EINVAL);
	cr_assert_str_eq(err.detail, "the sandbox mode must be one of unrestricted, "
	                             "workspace-write, restricted, not 'workspace_write'");
	cr_assert_eq(m, SANDBOX_MODE_RESTRICTED, "left alone on error");
}

Test(sandbox_mode, only_unrestricted_forbids_nothing)
{
	cr_assert_null(sandbox_mode_forbids(SANDBOX_MODE_UNRESTRICTED));
	cr_assert(strstr(sandbox_mode_forbids(SANDBOX_MODE_WORKSPACE_WRITE),
	                 "writing outside the workspace"));
	cr_assert(strstr(sandbox_mode_forbids(SANDBOX_MODE_RESTRICTED), "writing anywhere"));
}
