/* SPDX-License-Identifier: MIT */
/*
 * without-landlock PROGRAM [ARG...]: run PROGRAM on a kernel that seems to
 * have no Landlock. A seccomp filter makes the three Landlock system calls
 * fail with ENOSYS, as on a kernel built without it, for PROGRAM and all it
 * starts. The tests take the feature away with it to check what sluice and
 * sluice-launch do without it.
 */
#include <errno.h>
#include <sys/syscall.h>

#include "seccomp-wrapper.h"

/* The three Landlock system calls fail as on a kernel without them. */
static int refuse_landlock(scmp_filter_ctx ctx)
{
	static const int calls[] = { __NR_landlock_create_ruleset, __NR_landlock_add_rule,
		                     __NR_landlock_restrict_self };
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), calls[i], 0);
		if (r < 0)
			return r;
	}
	return 0;
}

int main(int argc, char **argv)
{
	return seccomp_wrapper_run("without-landlock", argc, argv, refuse_landlock);
}
