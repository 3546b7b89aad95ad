/* SPDX-License-Identifier: MIT */
/*
 * The tables config-keys.h and builtin.h make, with their lookups: every
 * core key with its field's offset, the core sections, the sizes another
 * program bounds more tightly, the keys a system key unlocks or locks, and
 * the built-in plugins (config_keys() and config_builtins(), declared in
 * broker-config.h).
 * Not for: what a value means (config-value.c) or where it is read from
 * (config-layers.c, config-parse.c).
 */
#ifndef SLUICE_CONFIG_KEY_TABLE_H
#define SLUICE_CONFIG_KEY_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "config/broker-config.h"

/* The number of core keys, as a constant (struct config_parse keeps one
 * state per key). */
#define CONFIG_COUNT_KEY(sec, key, type, def, lock, choices, doc) +1
#define CONFIG_N_KEYS (0 CONFIG_KEYS(CONFIG_COUNT_KEY))

/* A size another program bounds more tightly than its type does: a value
 * past max would be accepted here and fail there, later. */
struct config_key_bound {
	size_t offset; /* of the key's field in struct broker_config */
	uint64_t max;
	const char *why; /* what is expected, for the error */
};

/* An ONLY key that a system BOOL key, when yes, opens to the user layers. */
struct config_unlock {
	size_t key;    /* offset of the ONLY key's field */
	size_t unlock; /* offset of the bool that opens it */
	const char *unlock_name;
};

/* A key a user layer may not set once the system layer set another. */
struct config_lock_by {
	const char *section, *key;       /* the key locked */
	const char *by_section, *by_key; /* by the system layer setting this one */
};

/* The key key of [section], or NULL (borrowed from the static table). */
const struct config_key *config_key_find(const char *section, const char *key);

/* k's index in config_keys(), below CONFIG_N_KEYS. */
size_t config_key_index(const struct config_key *k);

/* k's tighter bound, or NULL. */
const struct config_key_bound *config_key_bound(const struct config_key *k);

/* The unlock of the ONLY key k, or NULL. */
const struct config_unlock *config_key_unlock(const struct config_key *k);

/* The table of keys locked by another system key, and its length. */
const struct config_lock_by *config_locks_by(size_t *ret_n);

/* The core section called name (a static string), or NULL. */
const char *config_section_find(const char *name);

/* The core sections, in the order an error lists them. */
const char *const *config_sections(size_t *ret_n);

#endif
