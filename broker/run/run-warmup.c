/* SPDX-License-Identifier: MIT */
/*
 * Warming up a run, so that the request waits for as little as possible:
 * the launcher started early (exec'd and building its sandbox while the
 * plugins check, or before the request is known, waiting for its command),
 * the overlap callback that starts it before the command is parsed, and
 * the stack prefault of a server between requests. Every part is best
 * effort: what fails here is met again, and reported, by the run itself.
 * Not for: whether a command runs (runner.c decides; a launcher started
 * early gets its command only once the plugins allowed it).
 */
#include "config.h"

#include <stddef.h>

#include "run/run-spawn.h"
#include "run/run-warmup.h"

int run_warmup_start_launcher(struct run_outcome *o)
{
	struct spawn_request sr;
	if (run_spawn_prepare(o, &sr) < 0 || run_spawn_launch(o, &sr, true) < 0) {
		run_outcome_forget_failure(o);
		return -1;
	}
	return 0;
}

/* The launcher is exec'd and builds its sandbox while the command is
 * parsed and the plugins check (called before both, and before their
 * child is forked, so that the three overlap): only a command they allow
 * is then sent to it. When this fails, the launcher
 * starts after the decision as usual, and reports the failure then. */
static void launch_early(void *userdata)
{
	struct run_outcome *o = userdata;
	if (o->early_pid <= 0) /* else runner_prepare() started it */
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
