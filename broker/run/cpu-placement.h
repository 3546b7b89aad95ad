/* SPDX-License-Identifier: MIT */
/*
 * Where the launcher started early runs while this process goes on: on
 * another CPU than this one, then back on every CPU this process may use
 * before it learns its options.
 * Not for: starting it (spawner.c, clone-exec.c) or sending it anything
 * (launcher-proc.c).
 */
#ifndef SLUICE_CPU_PLACEMENT_H
#define SLUICE_CPU_PLACEMENT_H

#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

/* The CPUs a child is moved to, and those it is given back. */
struct cpu_placement {
	cpu_set_t cpus;   /* this process's own, which the child inherits */
	cpu_set_t others; /* cpus but the one this process was on */
	bool apart;       /* others is not empty: the child is to be moved */
	bool moved;       /* the child's were narrowed, and are not given back yet */
};

/*
 * Before a child is started: the CPUs this process may use, and those but
 * the one it is on. A forked child is queued on its parent's CPU, or takes
 * it from its parent, and here would run only when the parent blocks; on
 * the others the two run side by side. p->apart is false on a single CPU,
 * or when the kernel does not say.
 */
void cpu_placement_prepare(struct cpu_placement *p);

/*
 * Let child pid (just started, not yet running its own program) run only
 * on p->others (best effort: p->moved says whether it was narrowed). A
 * child that already runs there is left where it is; one that took this
 * process's CPU moves itself (clone-exec.h).
 */
void cpu_placement_apart(pid_t pid, struct cpu_placement *p);

/*
 * Give child pid back the CPUs it inherited, so that nothing it runs later
 * (the command) sees fewer. Returns 0 (also when nothing was narrowed, or
 * the child has already exited), or -errno: the child keeps fewer CPUs,
 * and must not be let go on.
 */
int cpu_placement_restore(pid_t pid, struct cpu_placement *p);

#endif
