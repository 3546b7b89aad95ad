/* SPDX-License-Identifier: MIT */
/*
 * without-landlock PROGRAM [ARG...]: run PROGRAM on a kernel that seems to
 * have no Landlock. A seccomp filter makes the three Landlock system calls
 * fail with ENOSYS, as on a kernel built without it, for PROGRAM and all it
 * starts. The tests take the feature away with it to check what sluice and
 * sluice-launch do without it.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: without-landlock PROGRAM [ARG...]\n");
		return 2;
	}
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		fprintf(stderr, "without-landlock: %s\n", strerror(errno));
		return 2;
	}
	static const int calls[] = { __NR_landlock_create_ruleset, __NR_landlock_add_rule,
		                     __NR_landlock_restrict_self };
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), calls[i], 0);
		if (r < 0) {
			fprintf(stderr, "without-landlock: seccomp_rule_add: %s\n", strerror(-r));
			return 2;
		}
	}
	int r = seccomp_load(ctx);
	seccomp_release(ctx);
	if (r < 0) {
		fprintf(stderr, "without-landlock: seccomp_load: %s\n", strerror(-r));
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "without-landlock: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
