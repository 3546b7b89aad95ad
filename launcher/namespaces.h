/* SPDX-License-Identifier: MIT */
/*
 * Step "namespaces": a private mount, IPC and PID namespace (and, unless
 * the network is allowed, a network namespace) where one can be had
 * without setuid: directly with CAP_SYS_ADMIN, else inside a new user
 * namespace that maps the caller's uid and gid to themselves. Where neither
 * is allowed, nothing changes and the namespace layer is reported missing.
 * Not for: the mounts made inside it (mounts.c), the PID namespace's init
 * (monitor.c), the network namespace's set-up (net-namespace.c).
 */
#ifndef SLUICE_LAUNCHER_NAMESPACES_H
#define SLUICE_LAUNCHER_NAMESPACES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errors.h"

struct launch_spec;
struct launch_state;

/* How this process got its namespaces (or why it did not). */
enum namespace_kind {
	NAMESPACE_NONE,       /* not asked for, or not possible */
	NAMESPACE_PRIVILEGED, /* CAP_SYS_ADMIN: unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID) */
	NAMESPACE_USER,       /* the same inside a new user namespace, ids mapped to themselves */
};

/* Enter a new mount, IPC and PID namespace (the PID namespace is for this
 * process's children), then with net a network namespace with its
 * loopback up. Returns the kind (>= 0), with NAMESPACE_NONE and
 * *ret_reason naming the refused call when the system allows neither way;
 * *ret_net says whether the network namespace was had (its unshare may be
 * refused alone: max_net_namespaces). -errno (detail in err) when a user
 * namespace was made but could not be set up, or the loopback could not
 * be brought up, which is fatal: the process is then in a namespace
 * without its ids or its loopback. */
int namespaces_enter(bool net, const char **ret_reason, bool *ret_net, struct sluice_error *err);

/* A network namespace alone, its loopback up, for the workspace's holder
 * (net-holder.h): made directly with CAP_SYS_ADMIN, else inside a new user
 * namespace mapping the caller's ids to themselves, as namespaces_enter()
 * does. 0, or -errno with a detail (and *ret_reason naming the refused
 * call when user namespaces are not allowed). */
int namespaces_enter_network(const char **ret_reason, struct sluice_error *err);

/* The same (with the network namespace), tried in a child process so that
 * this one is unchanged (for --print-features): the kind, *ret_net, and
 * the reason in buf when it is NAMESPACE_NONE. */
enum namespace_kind namespaces_probe(char *buf, size_t size, bool *ret_net);

/* What namespaces_ahead() did, for step "namespaces". */
struct namespace_ahead {
	bool entered;            /* namespaces_enter() ran, with the network namespace */
	int result;              /* what it returned */
	bool net;                /* the network namespace was had */
	struct sluice_error err; /* its detail, when result < 0 */
	uint32_t us;             /* how long it took (the report's steps_us) */
};

/* --spec-fd's LAUNCH_SPEC_NAMESPACE_AHEAD (userdata: a struct
 * namespace_ahead): namespaces_enter() now, the network namespace
 * included, its outcome kept for step "namespaces". */
void namespaces_ahead(void *userdata);

/* Step "namespaces": in the sandboxed profiles, unless --namespace off,
 * namespaces_enter() (the network namespace unless --network allow), or
 * what namespaces_ahead() got (state->ahead); sets PROT_MOUNT_NAMESPACE's
 * and PROT_PID_NAMESPACE's precondition (state->namespace),
 * PROT_IPC_NAMESPACE and PROT_NET_NAMESPACE. -EINVAL when the namespaces
 * were entered ahead but the options plan none, or allow the network. */
int apply_namespaces(const struct launch_spec *spec, struct launch_state *state,
                     struct sluice_error *err);

#endif
