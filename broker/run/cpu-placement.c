/* SPDX-License-Identifier: MIT */
/*
 * The early launcher's CPUs: moved off this process's CPU when it starts,
 * given back before its options are sent (cpu-placement.h).
 */
#include "config.h"

#include <errno.h>

#include "run/cpu-placement.h"

void cpu_placement_prepare(struct cpu_placement *p)
{
	p->apart = p->moved = false;
	if (sched_getaffinity(0, sizeof(p->cpus), &p->cpus) < 0)
		return; /* more CPUs than a cpu_set_t holds: left where it is */
	int here = sched_getcpu();
	p->others = p->cpus;
	if (here < 0 || here >= CPU_SETSIZE || !CPU_ISSET(here, &p->others))
		return;
	CPU_CLR(here, &p->others);
	p->apart = CPU_COUNT(&p->others) > 0;
}

void cpu_placement_apart(pid_t pid, struct cpu_placement *p)
{
	if (p->apart && !p->moved)
		p->moved = sched_setaffinity(pid, sizeof(p->others), &p->others) == 0;
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
