/* SPDX-License-Identifier: MIT */
/*
 * capbset-refused PROGRAM [ARG...]: run PROGRAM where dropping a capability
 * from the bounding set fails with EINVAL from capability 20 on, as a
 * container's seccomp profile may make it, while reading the set still
 * works. The tests check with it that sluice-launch then refuses to run
 * anything, instead of taking the EINVAL for the end of the set.
 */
#include <errno.h>
#include <sys/prctl.h>

#include "seccomp-wrapper.h"

static int refuse_drops(scmp_filter_ctx ctx)
{
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EINVAL), SCMP_SYS(prctl), 2,
	                        SCMP_A0(SCMP_CMP_EQ, PR_CAPBSET_DROP), SCMP_A1(SCMP_CMP_GE, 20));
}

int main(int argc, char **argv)
{
	return seccomp_wrapper_run("capbset-refused", argc, argv, refuse_drops);
}
