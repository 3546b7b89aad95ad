/* SPDX-License-Identifier: MIT */
/*
 * The built-in policy plugins: compiled into sluice, each one's descriptor
 * under a name of its own (a plugin built as its own .so exports it as
 * sluice_policy_plugin). plugin_load() takes the one named NAME for a
 * [plugin NAME] section without a path; the plugins use nothing but the
 * public ABI (sluice/policy.h), as a plugin in a .so does, and their code
 * runs only in the policy child, as a loaded plugin's does.
 * Not for: the defaults (which are on: broker-config.c).
 */
#ifndef SLUICE_PLUGINS_BUILTIN_H
#define SLUICE_PLUGINS_BUILTIN_H

#include "sluice/policy.h"

extern const struct sluice_policy_plugin sluice_builtin_commands;
extern const struct sluice_policy_plugin sluice_builtin_devices;
extern const struct sluice_policy_plugin sluice_builtin_git_discard;
extern const struct sluice_policy_plugin sluice_builtin_git_add;
extern const struct sluice_policy_plugin sluice_builtin_git_push;
extern const struct sluice_policy_plugin sluice_builtin_git_trailer;
extern const struct sluice_policy_plugin sluice_builtin_regex;
extern const struct sluice_policy_plugin sluice_builtin_rm_targets;
extern const struct sluice_policy_plugin sluice_builtin_substitution;
extern const struct sluice_policy_plugin sluice_builtin_system_trees;

#endif
