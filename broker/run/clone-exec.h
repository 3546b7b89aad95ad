/* SPDX-License-Identifier: MIT */
/*
 * Starting a program in a child that shares this process's memory until
 * its exec, without waiting for the exec: no copy of this process's page
 * tables, no copy-on-write faults after it, and an exec that has no copy
 * to tear down. For the launcher started early (spawner.c).
 * Not for: anything run after the exec, or any child that runs code of
 * its own (the policy child forks).
 */
#ifndef SLUICE_CLONE_EXEC_H
#define SLUICE_CLONE_EXEC_H

#include <stddef.h>
#include <sys/types.h>

#include "run/cpu-placement.h"

/*
 * Start path with argv and this process's environment in such a child.
 * Before its exec the child resets every signal to its default action,
 * dup2s src[i] onto dst[i] for each src[i] >= 0 (no src[j] may equal an
 * earlier dst[i]), unblocks every signal; a failure there or of the exec
 * is written as its errno (an int) on exec_w, which should be
 * close-on-exec: end of file there means the exec succeeded. With
 * placement (prepared, apart), the child first moves itself to
 * placement->others, should it have taken this process's CPU, and gives
 * itself all of placement->cpus back there.
 *
 * The child runs on a mapping of its own, which holds a copy of path, argv
 * and the environment's array and is left mapped for this process's life:
 * one per call, for a one-shot process's one launcher. The environment's
 * strings must not be freed meanwhile (nothing in sluice changes it).
 * Only from a single-threaded process.
 *
 * On x86-64 and arm64 the child shares this process's memory; elsewhere it
 * has a copy, as after a fork (the system calls without errno are written
 * for those two). Returns 0 and *ret_pid, or -errno.
 */
int clone_exec(const char *path, char *const argv[], const int src[], const int dst[], size_t n,
               int exec_w, const struct cpu_placement *placement, pid_t *ret_pid);

#endif
