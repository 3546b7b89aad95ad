/* SPDX-License-Identifier: MIT */
/*
 * The policy plugins shipped with sluice, listed once. Each is its own
 * module, plugins/NAME.so built from plugins/NAME.c against the public ABI
 * alone (sluice/policy.h), installed in the plugin directory and loaded by
 * name like any other plugin: an administrator can replace or remove one as
 * a file. This list is all the build and sluice know of them:
 * plugins/Makemodule.am builds, installs and ships one module per line, and
 * the configuration's defaults (config/broker-config.c) are made from it.
 * Adding a plugin is plugins/NAME.c and one line below.
 * Not for: a plugin's settings (its own file and the configuration).
 */
#ifndef SLUICE_PLUGINS_BUILTIN_H
#define SLUICE_PLUGINS_BUILTIN_H

/* Every built-in plugin, X(NAME, ON), one per line (the build reads these
 * lines), in the order of the default chain; ON is whether it is on
 * without a [plugin NAME] section saying so. NAME is the plugin's name (its
 * descriptor's .name) and its file's, NAME.so. */
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
