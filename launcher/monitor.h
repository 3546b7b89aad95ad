/* SPDX-License-Identifier: MIT */
/*
 * Steps "monitor" and "proc", and the exec that follows the steps: what
 * makes every process of a run end with it.
 *
 * With a PID namespace (step "namespaces" unshared CLONE_NEWPID), the
 * launcher forks: the child is the namespace's init, goes on with the
 * steps, mounts a new /proc ("proc"), and in the end starts the program
 * in a child (clone(CLONE_VM | CLONE_VFORK), not a fork) instead of
 * exec'ing it, then reaps, forwards signals to the program, and
 * exits once the program has: the kernel then kills everything left in the
 * namespace, and the init's exit waits for it. The launcher itself stays
 * outside as the monitor, the process its caller started and waits for: it
 * forwards signals to the init, exits with the program's status (as the
 * init saw it) once the namespace is empty, and kills the init (and with it
 * the namespace) when the --die-with-parent parent ends.
 *
 * Without a PID namespace (the unrestricted profile, --namespace off, no
 * namespace to be had) and with --die-with-parent, the launcher starts a
 * child with clone(CLONE_VM | CLONE_VFORK) instead of a fork: the child
 * goes on with the steps (state->resume_steps) on a stack of its own and
 * becomes the program, the launcher held until its exec (or its end);
 * the monitor is then the child subreaper of its tree: when the parent ends, it kills every process of
 * the tree, those that left the process group (setsid, double forks)
 * included. When the program ends, the monitor exits with its status, and
 * what the program left running is its caller's (sluice kills it).
 *
 * Not for: entering the namespaces (namespaces.c).
 */
#ifndef SLUICE_LAUNCHER_MONITOR_H
#define SLUICE_LAUNCHER_MONITOR_H

#include "errors.h"

struct launch_spec;
struct launch_state;

/* Step "monitor": fork (or clone) as above, or nothing (no PID namespace
 * and no --die-with-parent). Returns in the PID namespace's init (0, with
 * state->monitor_fd, state->init and state->status_fd set), or -errno when
 * the fork or clone fails; the subreaper's child goes on with the steps
 * from inside (state->resume_steps), with state->monitor_fd and
 * PROT_REAPER set; the monitor never returns. */
int apply_monitor(const struct launch_spec *spec, struct launch_state *state,
                  struct sluice_error *err);

/* Step "proc": in the PID namespace's init, a new procfs on /proc (nosuid,
 * nodev, noexec), which shows the namespace's processes only; sets
 * PROT_PID_NAMESPACE. Nothing elsewhere. After "mounts" (in the mount
 * namespace; the read-only remount of everything does not reach it, and
 * procfs checks its own files' rights) and before "landlock", which
 * refuses every mount. */
int apply_proc(const struct launch_spec *spec, struct launch_state *state,
               struct sluice_error *err);

/* Exec program, with the signal mask the launcher started with. In the
 * PID namespace's init, in a child started with clone(CLONE_VM |
 * CLONE_VFORK): the init waits until the child's exec, then stays as above
 * and never returns; a child whose exec failed reports it (the report
 * line, the message) and ends with LAUNCH_EXIT_FAILURE. Returns only on
 * failure: -errno (detail in err) where the exec or the clone failed. */
int monitor_exec(const struct launch_spec *spec, struct launch_state *state, char **program,
                 struct sluice_error *err);

#endif
