/* SPDX-License-Identifier: MIT */
/*
 * Warming up a run, so that the request waits for as little as possible:
 * the launcher started early (exec'd before even the configuration is
 * read, waiting for its options; told to enter its namespaces once the
 * mode is known; building its sandbox while the plugins check; or before
 * the request is known, waiting for its command),
 * the overlap callback that starts it before the command is parsed, and
 * the stack prefault of a server between requests. Every part is best
 * effort: what fails here is met again, and reported, by the run itself.
 * Not for: whether a command runs (runner.c decides; a launcher started
 * early gets its command only once the plugins allowed it).
 */
#include "config.h"

#include <stddef.h>

#include "run/run-spawn.h"
#include "run/spawner.h"
#include "run/run-warmup.h"

int run_warmup_start_unconfigured(struct run_outcome *o)
{
	if (!o->launcher && spawn_find_launcher(&o->launcher) < 0)
		return -1;
	struct spawn_request sr = { .launcher = o->launcher };
	return run_spawn_launch(o, &sr, RUN_SPAWN_UNCONFIGURED) < 0 ? -1 : 0;
}

int run_warmup_start_launcher(struct run_outcome *o)
{
	struct spawn_request sr;
	int r = run_spawn_prepare(o, &sr);
	if (r >= 0)
		r = o->spec_fd >= 0 ? run_spawn_configure(o, &sr)
		                    : run_spawn_launch(o, &sr, RUN_SPAWN_COMMAND);
	if (r < 0) {
		if (o->spec_fd >= 0) /* the run starts its own, and reports why not */
			run_outcome_withdraw_launcher(o);
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
	if (o->spec_fd >= 0 && spawn_plans_namespace(&o->settings) && !o->settings.network &&
	    o->settings.workspace_network_idle == 0 && o->settings.n_egress_allow == 0)
		(void)spawn_send_namespace_ahead(o->spec_fd);
}

/* The launcher is exec'd and builds its sandbox while the command is
 * parsed and the plugins check (called before both, and before their
 * child is forked, so that the three overlap): only a command they allow
 * is then sent to it. When this fails, the launcher
 * starts after the decision as usual, and reports the failure then. */
static void launch_early(void *userdata)
{
	struct run_outcome *o = userdata;
	/* runner_prepare() may have started it, configured or not */
	if (o->early_pid <= 0 || o->spec_fd >= 0)
		(void)run_warmup_start_launcher(o);
}

struct decide_overlap run_warmup_overlap(struct run_outcome *o)
{
	return (struct decide_overlap){ .fn = launch_early, .userdata = o };
}

void run_warmup_prefault_stack(void)
{
	volatile char pages[128 * 1024];
	for (size_t i = 0; i < sizeof(pages); i += 4096)
		pages[i] = 0;
}
