/* SPDX-License-Identifier: MIT */
/*
 * The policy chain's state, shared by its three parts: the chain itself
 * and the parent's reading (policy-chain.c, with policy-reader.c), the
 * child process (policy-child.c) and the child forked ahead of its request
 * (policy-proc.c).
 * Not for: anyone outside the chain; policy-chain.h is its interface.
 */
#ifndef SLUICE_POLICY_CHAIN_STATE_H
#define SLUICE_POLICY_CHAIN_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "policy/policy-chain.h"
#include "policy/policy-msg.h"
#include "policy/policy-proc.h"

/* Whether a chain's plugins run in the broker's own process
 * (policy-inproc.c), decided at its first check. */
enum policy_inproc {
	POLICY_INPROC_UNDECIDED,
	POLICY_INPROC_NO,     /* a child checks (not only built-ins, or they did not load here) */
	POLICY_INPROC_LOADED, /* every plugin is a built-in, loaded here */
};

struct policy_chain {
	const struct broker_config *cfg;
	struct loaded_plugin *plugins;
	size_t n;
	uint64_t timeout_ms;
	bool validated;    /* every plugin opened once: a later failure is a deny */
	char *dir;         /* lazy chains only (the child loads the plugins; here
	                    * only conf is set, unless inproc is LOADED): the
	                    * plugin directory; else NULL */
	int exiting_pidfd; /* a child that sent its last DONE and is exiting, or -1 */
	pid_t exiting_pid; /* its pid: its process group, which a plugin's children share */
	/* A child forked ahead (policy_chain_prepare), touched only by
	 * policy-proc.c. */
	struct policy_proc ahead;
	/* Shared with every child (MAP_SHARED, mapped with the chain): where
	 * the child is, stored before plugin code runs (policy_progress_at()),
	 * so that the parent can name a plugin that crashed or hung without
	 * the child writing a message before each one. NULL: not mapped; the
	 * child then writes its messages before each plugin's code instead. */
	uint64_t *progress;
	/* Set while a model is checked again to name a plugin that sent
	 * garbage: the child writes its messages before each plugin's code. */
	bool strict;
	/* In a child of a lazy chain, once it loaded the plugins: why each
	 * that failed did (NULL: it loaded); NULL before. */
	char **child_load_errors;
	char start_error[1400]; /* why a plugin could not start (-ENOEXEC) */
	enum policy_inproc inproc;
	bool in_process_allowed; /* policy_chain_allow_in_process() */
};

static inline void policy_progress_store(struct policy_chain *c, uint64_t at)
{
	if (c->progress)
		__atomic_store_n(c->progress, at, __ATOMIC_RELAXED);
}

static inline uint64_t policy_progress_load(const struct policy_chain *c)
{
	return c->progress ? __atomic_load_n(c->progress, __ATOMIC_RELAXED) : 0;
}
#endif
