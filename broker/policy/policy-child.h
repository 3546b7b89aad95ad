/* SPDX-License-Identifier: MIT */
/*
 * The policy child (policy-child.c): what runs in the process a request's
 * plugins run in, for the chain (policy-chain.c) and for the child forked
 * ahead (policy-proc.c).
 * Not for: anyone outside the chain.
 */
#ifndef SLUICE_POLICY_CHILD_H
#define SLUICE_POLICY_CHILD_H

#include <stddef.h>
#include <sys/types.h>

#include "model/command-model.h"
#include "policy/policy-chain-state.h"
#include "policy/policy-host.h"

/* A plugin's open: its settings (borrowed by the plugin until close), its
 * state and what open returned. */
struct opened {
	struct sluice_settings settings;
	void *state;
	int r;
};

/* Open plugin p with its settings into o (o->r: what open returned). */
void policy_child_open(const struct sluice_host *host, const struct loaded_plugin *p,
                       struct opened *o);

/* In the child: a lazy chain's plugins are loaded here, never in the
 * parent, once; each failure is reported in its place in the messages. */
void policy_child_load(struct policy_chain *c);

/* In a child, before any plugin code runs: a crash must end the child with
 * its signal, so that the parent can say so. */
void policy_child_crash_by_signal(void);

/* A child's models, each in turn, its messages on fd 3; ahead: each loaded
 * plugin already opened (the child forked ahead), else NULL. Its
 * descriptors are isolated and its plugins loaded already. Never returns. */
_Noreturn void policy_child_check(struct policy_chain *c, const struct command_model *const *models,
                                  size_t n, struct opened *ahead);

/* The child forked for models[0..n), its messages on fd: isolates its
 * descriptors, loads and checks. Never returns. */
_Noreturn void policy_child_run(struct policy_chain *c, const struct command_model *const *models,
                                size_t n, int fd);

/* One model's pass through every plugin, as a child makes it: each opened,
 * checked and closed in order, the progress word moved before its code,
 * the messages written to fd; m is the model-th of the child's list.
 * Returns 0, or -errno when the messages could not be written. The
 * built-in plugins' pass in the broker itself is this one too
 * (policy-inproc.c). */
int policy_child_pass(struct policy_chain *c, const struct command_model *m, size_t model, int fd);

/* waitpid() for pid, through EINTR. 0 or -errno. */
int policy_child_wait(pid_t pid, int *status);

/* A policy child leads a process group of its own (it and its parent both
 * set it, whichever runs first), so that what a plugin starts and leaves
 * running (a forked helper) is ended with it: SIGKILL to the group of pid,
 * and to pid. Call it before pid is reaped. Nothing for pid <= 0. */
void policy_child_end_group(pid_t pid);

#endif
