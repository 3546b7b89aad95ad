/* SPDX-License-Identifier: MIT */
/*
 * The name of a workspace's own things among sluice's files (its network
 * holder's socket, its tool caches' folder): a 64-bit hash of its absolute
 * root, which anyone can compute, and so two roots can be made to share.
 * Each name is therefore claimed, by a file beside the thing it names
 * holding the root it was first used for; a root that finds its name
 * claimed by another takes the next of its probes.
 * Not for: what is named (tool-caches.h, workspace-network.h).
 */
#ifndef SLUICE_WORKSPACE_KEY_H
#define SLUICE_WORKSPACE_KEY_H

#include <stdint.h>

#include "errors.h"

/* How many names a root tries before its run gives up on the thing. */
#define WORKSPACE_KEY_PROBES 8
/* The claim file of the thing at PATH is PATH WORKSPACE_CLAIM_SUFFIX. */
#define WORKSPACE_CLAIM_SUFFIX ".workspace"

/* The probe-th name of root (0: the first): FNV-1a of root, the later
 * probes the same hash carried on over the probe's number and the root
 * again. */
uint64_t workspace_key(const char *root, unsigned probe);

/* The probe-th name of root as a path in dir, DIR/PREFIX<key>SUFFIX, in
 * *ret_path, and its claim's, DIR/PREFIX<key>WORKSPACE_CLAIM_SUFFIX, in
 * *ret_claim (both owned). 0, or -ENOMEM (nothing returned). */
int workspace_key_paths(const char *dir, const char *prefix, const char *suffix, const char *root,
                        unsigned probe, char **ret_path, char **ret_claim);

/* Whether the claim at claim_path is root's: 0 when it names root, or did
 * not exist and now does (written whole, 0600, never changed after);
 * -EEXIST with reterr naming both roots when it is another's; -errno. */
int workspace_claim(const char *claim_path, const char *root, struct sluice_error *reterr);

#ifdef SLUICE_TEST_HOOKS
/* When set, the hash of root's bytes carried on from h (FNV-1a's offset
 * basis for the first name) in place of FNV-1a: a test forces roots to
 * share names as crafted roots would. */
extern uint64_t (*workspace_key_hash_hook)(uint64_t h, const char *root);
#endif

#endif
