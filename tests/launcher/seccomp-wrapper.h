/* SPDX-License-Identifier: MIT */
/*
 * The body of the test wrappers that run a program under a seccomp filter
 * of theirs (without-landlock, capbset-refused): the filter is made by
 * add_rules (libseccomp, every other call allowed), loaded with
 * no_new_privs, and kept across the exec of argv[1] and all it starts.
 * Returns what main() should: 2 for a bad call or a filter that cannot be
 * loaded, 127 when argv[1] cannot be executed.
 */
#ifndef SLUICE_TESTS_SECCOMP_WRAPPER_H
#define SLUICE_TESTS_SECCOMP_WRAPPER_H

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static inline int seccomp_wrapper_run(const char *name, int argc, char **argv,
                                      int (*add_rules)(scmp_filter_ctx ctx))
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s PROGRAM [ARG...]\n", name);
		return 2;
	}
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		fprintf(stderr, "%s: %s\n", name, strerror(errno));
		return 2;
	}
	int r = add_rules(ctx);
	if (r == 0)
		r = seccomp_load(ctx);
	seccomp_release(ctx);
	if (r < 0) {
		fprintf(stderr, "%s: seccomp: %s\n", name, strerror(-r));
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "%s: %s: %s\n", name, argv[1], strerror(errno));
	return 127;
}

#endif
