/* SPDX-License-Identifier: MIT */
/*
 * The policy plugins shipped with sluice, listed once. Each is built from
 * plugins/NAME.c against the public ABI alone (sluice/policy.h); all are
 * linked into one module, plugins/builtins.so, installed in the plugin
 * directory, in which each exports its own descriptor,
 * sluice_policy_plugin_NAME (plugin-util.h), so that a request maps one
 * file (a one-shot request with these alone maps it into sluice itself
 * and checks them there: broker/policy/policy-inproc.c). An administrator replaces one by pointing its
 * [plugin NAME] path at another file, or turns it off with enabled = no.
 * This list is all the build and sluice know of them: plugins/Makemodule.am
 * links one object per line into the module, and the configuration's
 * defaults (config/broker-config.c) are made from it.
 * Adding a plugin is plugins/NAME.c and one line below.
 * Not for: a plugin's settings (its own file and the configuration).
 */
#ifndef SLUICE_PLUGINS_BUILTIN_H
#define SLUICE_PLUGINS_BUILTIN_H

/* Every built-in plugin, X(NAME, ON), one per line (the build reads these
 * lines), in the order of the default chain; ON is whether it is on
 * without a [plugin NAME] section saying so. NAME is the plugin's name (its
 * descriptor's .name), its source's (plugins/NAME.c) and its descriptor's
 * symbol's, sluice_policy_plugin_NAME. */
#define SLUICE_BUILTIN_PLUGINS(X) \
	X(git_add, true)          \
	X(git_push, true)         \
	X(git_discard, true)      \
	X(rm_targets, true)       \
	X(system_trees, true)     \
	X(devices, true)          \
	X(destroyers, true)       \
	X(regex, true)            \
	X(commands, false)        \
	X(substitution, false)    \
	X(git_trailer, false)

#endif
