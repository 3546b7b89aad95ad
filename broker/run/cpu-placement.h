/* SPDX-License-Identifier: MIT */
/*
 * Where the launcher started early runs while this process goes on: on
 * another CPU than this one, then back on every CPU this process may use
 * before it learns its options.
 * Not for: starting it (spawner.c) or sending it anything (run-spawn.c).
 */
#ifndef SLUICE_CPU_PLACEMENT_H
#define SLUICE_CPU_PLACEMENT_H

#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

/* The CPUs a child was moved away from, to be given back. */
struct cpu_placement {
	cpu_set_t cpus; /* this process's own, which the child inherited */
	bool moved;     /* the child's were narrowed, and are not given back yet */
};

/*
 * Let child pid (just forked) run on any CPU this process may use but the
 * one it is on, so that the two run side by side: a forked child is
 * otherwise queued on its parent's CPU, and here it would wait there until
 * the parent blocks. Best effort: nothing is moved on a single CPU, or
 * when the kernel refuses (p->moved false).
 */
void cpu_placement_apart(pid_t pid, struct cpu_placement *p);

/*
 * Give child pid back the CPUs it inherited, so that nothing it runs later
 * (the command) sees fewer. Returns 0 (also when nothing was moved, or the
 * child has already exited), or -errno: the child keeps fewer CPUs, and
 * must not be let go on.
 */
int cpu_placement_restore(pid_t pid, struct cpu_placement *p);

#endif
