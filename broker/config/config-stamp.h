/* SPDX-License-Identifier: MIT */
/*
 * What the configuration files look like now, in one number: the identity
 * and times of every place config_load() reads (the system file, each
 * *.ini of policies.d and the directory itself, the user's file, --config),
 * present or not. A long-running reader (sluice mcp) takes it before it
 * loads, and loads again when it differs: a file written, replaced,
 * created or removed changes it. Taken before the load, a change made
 * while loading shows as a difference on the next look, never as none.
 * Not for: reading the files (config-layers.c).
 */
#ifndef SLUICE_CONFIG_STAMP_H
#define SLUICE_CONFIG_STAMP_H

#include <stdint.h>

/* The stamp of the places config_load() reads with --config cli_file (or
 * NULL): 0, or -ENOMEM. */
int config_stamp(const char *cli_file, uint64_t *ret);

#endif
