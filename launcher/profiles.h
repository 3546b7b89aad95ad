/* SPDX-License-Identifier: MIT */
/*
 * The three sandbox profiles as data: what each one restricts. The steps
 * read these fields; no step compares profile names.
 * Not for: kernel probing (protections.c) or applying anything.
 */
#ifndef SLUICE_LAUNCHER_PROFILES_H
#define SLUICE_LAUNCHER_PROFILES_H

#include <stdbool.h>

enum workspace_access {
	WORKSPACE_AS_USER,   /* no filesystem rules at all */
	WORKSPACE_READ_ONLY, /* the workspace is as read-only as the rest */
	WORKSPACE_WRITABLE,  /* the workspace (minus a protected .git) is writable */
};

struct profile {
	const char *name; /* LAUNCH_PROFILE_* */
	bool sandboxed;   /* Landlock + seccomp; false: session/fds/rlimits/caps only */
	enum workspace_access workspace; /* what the workspace may be */
	const char *summary;             /* one line for --help */
};

/* The profile called name, or NULL. The pointer is static. */
const struct profile *profile_find(const char *name);

/* The default profile (restricted). */
const struct profile *profile_default(void);

/* The table, for --help and --print-features: *ret_n entries. */
const struct profile *profile_table(unsigned *ret_n);

#endif
