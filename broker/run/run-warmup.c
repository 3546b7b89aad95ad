/* SPDX-License-Identifier: MIT */
/*
 * Warming up a run, so that the request waits for as little as possible:
 * the launcher started early (exec'd before even the configuration is
 * read, waiting for its options; told to enter its namespaces once the
 * mode is known; building its sandbox while the plugins check; or before
 * the request is known, waiting for its command), and the stack prefault
 * of a server between requests. runner.c says when. Every part is best
 * effort: what fails here is met again, and reported, by the run itself.
 * Not for: whether a command runs (runner.c decides; a launcher started
 * early gets its command only once the plugins allowed it).
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>

#include "run/launcher-proc.h"
#include "run/run-spawn.h"
#include "run/spawner.h"
#include "run/run-warmup.h"

int run_warmup_start_unconfigured(struct run_outcome *o)
{
	if (!o->launcher && spawn_find_launcher(&o->launcher) < 0)
		return -1;
	struct spawn_request sr = { .launcher = o->launcher };
	return launcher_proc_start_unconfigured(&o->launcher_proc, &sr) < 0 ? -1 : 0;
}

int run_warmup_start_launcher(struct run_outcome *o)
{
	struct launcher_proc *lp = &o->launcher_proc;
	bool unconfigured = launcher_proc_state(lp) == LAUNCHER_PROC_AWAITING_OPTIONS;
	struct spawn_request sr;
	int r = run_spawn_prepare(o, &sr);
	if (r >= 0)
		r = unconfigured ? launcher_proc_configure(lp, &sr)
		                 : launcher_proc_start_waiting(lp, &sr);
	if (r < 0) {
		if (unconfigured) /* the run starts its own, and reports why not */
			launcher_proc_withdraw(lp);
		run_outcome_forget_failure(o);
		return -1;
	}
	return 0;
}

void run_warmup_namespace_ahead(struct run_outcome *o)
{
	/* the word ahead makes the network namespace too: not when the
	 * network is allowed, nor when the run joins its workspace's, nor
	 * with an egress proxy, which must be forked outside it (the
	 * namespaces are then made in their step) */
	if (spawn_plans_namespace(&o->settings) && !o->settings.network &&
	    o->settings.workspace_network_idle == 0 && o->settings.n_egress_allow == 0)
		launcher_proc_namespace_ahead(&o->launcher_proc);
}

void run_warmup_before_decision(struct run_outcome *o)
{
	/* a server may have started it before the request, configured or not */
	enum launcher_proc_state state = launcher_proc_state(&o->launcher_proc);
	if (state == LAUNCHER_PROC_NONE || state == LAUNCHER_PROC_AWAITING_OPTIONS)
		(void)run_warmup_start_launcher(o);
}

void run_warmup_prefault_stack(void)
{
	volatile char pages[128 * 1024];
	for (size_t i = 0; i < sizeof(pages); i += 4096)
		pages[i] = 0;
}
