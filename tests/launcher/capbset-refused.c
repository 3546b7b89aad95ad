/* SPDX-License-Identifier: MIT */
/*
 * capbset-refused PROGRAM [ARG...]: run PROGRAM where dropping a capability
 * from the bounding set fails with EINVAL from capability 20 on, as a
 * container's seccomp profile may make it, while reading the set still
 * works. The tests check with it that sluice-launch then refuses to run
 * anything, instead of taking the EINVAL for the end of the set.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: capbset-refused PROGRAM [ARG...]\n");
		return 2;
	}
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		fprintf(stderr, "capbset-refused: %s\n", strerror(errno));
		return 2;
	}
	int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EINVAL), SCMP_SYS(prctl), 2,
	                         SCMP_A0(SCMP_CMP_EQ, PR_CAPBSET_DROP), SCMP_A1(SCMP_CMP_GE, 20));
	if (r == 0)
		r = seccomp_load(ctx);
	seccomp_release(ctx);
	if (r < 0) {
		fprintf(stderr, "capbset-refused: seccomp: %s\n", strerror(-r));
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "capbset-refused: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
