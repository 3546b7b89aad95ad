/* SPDX-License-Identifier: MIT */
/*
 * The built-in policy plugins: compiled into sluice, each one's descriptor
 * under a name of its own (a plugin built as its own .so exports it as
 * sluice_policy_plugin). plugin_load() takes the one named NAME for a
 * [plugin NAME] section without a path; the plugins use nothing but the
 * public ABI (sluice/policy.h), as a plugin in a .so does, and their code
 * runs only in the policy child, as a loaded plugin's does.
 * The list below is the only place that names them: the configuration's
 * defaults (config/broker-config.c) and the loader's table of descriptors
 * (policy/plugin-loader.c) are both made from it.
 * Not for: a plugin's settings (its own file and the configuration).
 */
#ifndef SLUICE_PLUGINS_BUILTIN_H
#define SLUICE_PLUGINS_BUILTIN_H

#include "sluice/policy.h"

/* Every built-in plugin, X(NAME, ON), in the order of the default chain; ON
 * is whether it is on without a [plugin NAME] section saying so. NAME is the
 * plugin's name (its descriptor's .name) and its descriptor's suffix. */
#define SLUICE_BUILTIN_PLUGINS(X) \
	X(git_add, true)          \
	X(git_push, true)         \
	X(git_discard, true)      \
	X(rm_targets, true)       \
	X(system_trees, true)     \
	X(devices, true)          \
	X(regex, true)            \
	X(commands, false)        \
	X(substitution, false)    \
	X(git_trailer, false)

#define SLUICE_BUILTIN_DECLARE(name, on) \
	extern const struct sluice_policy_plugin sluice_builtin_##name;
SLUICE_BUILTIN_PLUGINS(SLUICE_BUILTIN_DECLARE)
#undef SLUICE_BUILTIN_DECLARE

#endif
