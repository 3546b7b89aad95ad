/* SPDX-License-Identifier: MIT */
/*
 * Step "namespaces": a private mount and IPC namespace where one can be had
 * without setuid: directly with CAP_SYS_ADMIN, else inside a new user
 * namespace that maps the caller's uid and gid to themselves. Where neither
 * is allowed, nothing changes and the namespace layer is reported missing.
 * Not for: the mounts made inside it (mounts.c).
 */
#ifndef SLUICE_LAUNCHER_NAMESPACES_H
#define SLUICE_LAUNCHER_NAMESPACES_H

#include <stdbool.h>
#include <stddef.h>

#include "errors.h"

struct launch_spec;
struct launch_state;

/* How this process got its namespaces (or why it did not). */
enum namespace_kind {
	NAMESPACE_NONE,       /* not asked for, or not possible */
	NAMESPACE_PRIVILEGED, /* CAP_SYS_ADMIN: unshare(CLONE_NEWNS | CLONE_NEWIPC) */
	NAMESPACE_USER,       /* the same inside a new user namespace, ids mapped to themselves */
};

/* Enter a new mount and IPC namespace. Returns the kind (>= 0), with
 * NAMESPACE_NONE and *ret_reason naming the refused call when the system
 * allows neither way; -errno (detail in err) when a user namespace was
 * made but could not be set up, which is fatal: the process is then in a
 * namespace without its ids. */
int namespaces_enter(const char **ret_reason, struct sluice_error *err);

/* The same, tried in a child process so that this one is unchanged (for
 * --print-features): the kind, and the reason in buf when it is
 * NAMESPACE_NONE. */
enum namespace_kind namespaces_probe(char *buf, size_t size);

/* What namespaces_ahead() did, for step "namespaces". */
struct namespace_ahead {
	bool entered;            /* namespaces_enter() ran */
	int result;              /* what it returned */
	struct sluice_error err; /* its detail, when result < 0 */
};

/* --spec-fd's LAUNCH_SPEC_NAMESPACE_AHEAD (userdata: a struct
 * namespace_ahead): namespaces_enter() now, its outcome kept for step
 * "namespaces". */
void namespaces_ahead(void *userdata);

/* Step "namespaces": in the sandboxed profiles, unless --namespace off,
 * namespaces_enter(), or what namespaces_ahead() got (state->ahead); sets
 * PROT_MOUNT_NAMESPACE's precondition (state->namespace) and
 * PROT_IPC_NAMESPACE. -EINVAL when the namespaces were entered ahead but
 * the options plan none. */
int apply_namespaces(const struct launch_spec *spec, struct launch_state *state,
                     struct sluice_error *err);

#endif
