/* SPDX-License-Identifier: MIT */
/*
 * The configuration's tables: every core key (from config-keys.h) with its
 * field's offset, the bounds and locks some keys carry beside their type,
 * the core sections and the built-in plugins (from builtin.h); and the
 * lookups in them. Data and lookups only: nothing here reads a value.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "builtin.h"
#include "cleanup.h"
#include "config/config-key-table.h"
#include "launch-spec.h"

static const struct config_key key_table[] = {
#define CONFIG_ROW(sec, k, type, def, lock, choices, doc) \
	{ #sec,                                           \
	  #k,                                             \
	  CONFIG_##type,                                  \
	  def,                                            \
	  CONFIG_LOCK_##lock,                             \
	  choices,                                        \
	  doc,                                            \
	  offsetof(struct broker_config, sec##_##k) },
	CONFIG_KEYS(CONFIG_ROW)
#undef CONFIG_ROW
};
_Static_assert(ELEMENTSOF(key_table) == CONFIG_N_KEYS, "CONFIG_N_KEYS counts config-keys.h");

static const struct config_key_bound key_bounds[] = {
	{ offsetof(struct broker_config, broker_max_command_size), LAUNCH_COMMAND_MAX,
	  "a size of at most 131071 bytes (the longest command sluice-launch accepts)" },
};
_Static_assert(LAUNCH_COMMAND_MAX == 131071, "key_bounds names the launcher's limit");

static const struct config_unlock config_unlocks[] = {
	{ offsetof(struct broker_config, approval_program),
	  offsetof(struct broker_config, approval_user_program), "[approval] user_program" },
};

/* What the administrator decided about the network is not widened by a
 * user's allowlist: neither [sandbox] network, nor which names may lead
 * inside, which is said of the administrator's allowlist (each of its
 * patterns must be within allow's). */
static const struct config_lock_by locks_by[] = {
	{ "network", "allow", "sandbox", "network" },
	{ "network", "allow", "network", "allow_internal" },
};

static const struct config_builtin builtins[] = {
#define BUILTIN_DEFAULT(name, on) { #name, on },
	SLUICE_BUILTIN_PLUGINS(BUILTIN_DEFAULT)
#undef BUILTIN_DEFAULT
};

static const char *const sections[] = {
	"broker", "sandbox", "network", "env", "approval", "audit"
};

const struct config_key *config_keys(size_t *ret_n)
{
	*ret_n = ELEMENTSOF(key_table);
	return key_table;
}

const struct config_builtin *config_builtins(size_t *ret_n)
{
	*ret_n = ELEMENTSOF(builtins);
	return builtins;
}

const struct config_key *config_key_find(const char *section, const char *key)
{
	for (size_t i = 0; i < ELEMENTSOF(key_table); i++)
		if (strcmp(key_table[i].section, section) == 0 &&
		    strcmp(key_table[i].key, key) == 0)
			return &key_table[i];
	return NULL;
}

size_t config_key_index(const struct config_key *k)
{
	return (size_t)(k - key_table);
}

const struct config_key_bound *config_key_bound(const struct config_key *k)
{
	for (size_t i = 0; i < ELEMENTSOF(key_bounds); i++)
		if (key_bounds[i].offset == k->offset)
			return &key_bounds[i];
	return NULL;
}

const struct config_unlock *config_key_unlock(const struct config_key *k)
{
	for (size_t i = 0; i < ELEMENTSOF(config_unlocks); i++)
		if (config_unlocks[i].key == k->offset)
			return &config_unlocks[i];
	return NULL;
}

const struct config_lock_by *config_locks_by(size_t *ret_n)
{
	*ret_n = ELEMENTSOF(locks_by);
	return locks_by;
}

const char *config_section_find(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(sections); i++)
		if (strcmp(name, sections[i]) == 0)
			return sections[i];
	return NULL;
}

const char *const *config_sections(size_t *ret_n)
{
	*ret_n = ELEMENTSOF(sections);
	return sections;
}
