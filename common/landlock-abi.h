/* SPDX-License-Identifier: MIT */
/*
 * The Landlock ABI this kernel offers: asked by the launcher before it
 * builds a ruleset, and by the broker before it settles the built-in
 * default sandbox mode (one system call, no ruleset made).
 */
#ifndef SLUICE_LANDLOCK_ABI_H
#define SLUICE_LANDLOCK_ABI_H

/* The ABI version (1 and up), or 0 when Landlock is missing or disabled. */
int landlock_abi_version(void);

#endif
