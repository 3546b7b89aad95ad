/* SPDX-License-Identifier: MIT */
/*
 * Resource limits for the sandboxed program: parsing "NAME=VALUE" and the
 * two steps that apply them (all but the address space, then the address
 * space last, just before exec, because a sanitizer-instrumented launcher
 * cannot allocate under a small RLIMIT_AS).
 * Not for: the process-count problem as root (see privileges.c and
 * docs/launcher.md: the kernel exempts uid 0 from RLIMIT_NPROC).
 */
#ifndef SLUICE_LAUNCHER_RLIMITS_H
#define SLUICE_LAUNCHER_RLIMITS_H

#include <stdbool.h>
#include <stdint.h>

#include "errors.h"

/* Indexes into launch_spec's rlimit arrays, one per --rlimit NAME. */
enum rlimit_index {
	RLIMIT_INDEX_AS,
	RLIMIT_INDEX_CPU,
	RLIMIT_INDEX_NPROC,
	RLIMIT_INDEX_FSIZE,
	RLIMIT_INDEX_NOFILE,
	RLIMIT_INDEX_CORE,
	RLIMIT_INDEX_PIDS, /* not setrlimit(2)'s: the PID namespace's pid_max */
	RLIMIT_INDEX_N,
};

struct launch_spec;
struct launch_state;

/* Parse "NAME=VALUE" (NAME from launch-spec.h's LAUNCH_RLIMIT_*); -EINVAL
 * or -ERANGE with a detail naming the limit. */
int rlimits_parse(const char *text, enum rlimit_index *ret_index, uint64_t *ret_value,
                  struct sluice_error *err);

/* Step "rlimits": every requested limit except the address space, and core
 * size 0 unless --rlimit core= says otherwise. Limits are only lowered:
 * a value above the current hard limit becomes the hard limit. --rlimit
 * pids=N, in the PID namespace's init with its own /proc (state->init),
 * where rlimits_pids_possible(): that namespace's pid_max, N plus the 300
 * numbers the kernel keeps below (after the first wrap-around, new pids
 * come from 300 up), which sets PROT_PIDS_LIMIT; elsewhere it is missing. */
int apply_rlimits(const struct launch_spec *spec, struct launch_state *state,
                  struct sluice_error *err);

/* Whether this kernel gives each PID namespace a pid_max of its own
 * (Linux 6.14): on an older one the file is the whole system's, which root
 * would change for everyone. */
bool rlimits_pids_possible(void);

/* Step "address-space": RLIMIT_AS, when asked for; the last step before the
 * report and exec. */
int apply_rlimit_as(const struct launch_spec *spec, struct launch_state *state,
                    struct sluice_error *err);

#endif
