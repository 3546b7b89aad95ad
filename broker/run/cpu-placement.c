/* SPDX-License-Identifier: MIT */
/*
 * The early launcher's CPUs: moved off this process's CPU after the fork,
 * given back before its options are sent (cpu-placement.h).
 */
#include "config.h"

#include <errno.h>

#include "run/cpu-placement.h"

void cpu_placement_apart(pid_t pid, struct cpu_placement *p)
{
	p->moved = false;
	if (sched_getaffinity(0, sizeof(p->cpus), &p->cpus) < 0)
		return; /* more CPUs than a cpu_set_t holds: left where it is */
	int here = sched_getcpu();
	cpu_set_t others = p->cpus;
	if (here < 0 || here >= CPU_SETSIZE || !CPU_ISSET(here, &others))
		return;
	CPU_CLR(here, &others);
	if (CPU_COUNT(&others) == 0)
		return;
	p->moved = sched_setaffinity(pid, sizeof(others), &others) == 0;
}

int cpu_placement_restore(pid_t pid, struct cpu_placement *p)
{
	if (!p->moved)
		return 0;
	if (sched_setaffinity(pid, sizeof(p->cpus), &p->cpus) < 0 && errno != ESRCH)
		return -errno;
	p->moved = false;
	return 0;
}
