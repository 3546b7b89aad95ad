/* SPDX-License-Identifier: MIT */
/*
 * Loading policy plugins: dlopen(RTLD_NOW | RTLD_LOCAL) of the configured
 * path, or of NAME.so in the plugin directory, or for a built-in plugin
 * (plugins/builtin.h) of their one module there, PLUGIN_BUILTINS_FILE; then
 * the descriptor's checks (ABI major, struct_size
 * and the zero tail, required members, the [plugin NAME] keys against what
 * the plugin declares). Every error names the plugin and where it was
 * configured (FILE:LINE). No plugin code runs here except the library's own
 * constructors: open()/check() run in policy-chain.c's child, or for the
 * built-ins alone in the broker (policy-inproc.c).
 * Not for: running checks (policy-chain.c).
 */
#ifndef SLUICE_PLUGIN_LOADER_H
#define SLUICE_PLUGIN_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "config/broker-config.h"
#include "errors.h"
#include "sluice/policy.h"

/* The module of every built-in plugin, in the plugin directory: each
 * exports its descriptor as sluice_policy_plugin_NAME. */
#define PLUGIN_BUILTINS_FILE "builtins.so"

struct loaded_plugin {
	const struct config_plugin *conf; /* borrowed from the config */
	char *file;                       /* the .so that was opened */
	char *where;                      /* "FILE:LINE" of its section, or "built-in default" */
	void *dl;                         /* dlopen handle */
	struct sluice_policy_plugin desc; /* the descriptor, zero-extended to our size */
};

/* The directory a plugin is taken from when no path is configured: env
 * SLUICE_PLUGIN_DIR (only while no system configuration is installed, see
 * config_env_overrides_allowed), else plugins/ of the build tree when the
 * running program is the build tree's (its directory holds config.status),
 * else SLUICE_PLUGINDIR. Returns a new string. */
char *plugin_loader_dir(void);

/* Whether conf is taken from the built-ins' module (a built-in plugin's
 * name, no path configured): the project's own code. */
bool plugin_from_builtins(const struct config_plugin *conf);

/* Whether plugin_load() filled p in (its required members are set). */
static inline bool plugin_is_loaded(const struct loaded_plugin *p)
{
	return p->desc.check != NULL;
}

/* The file p came from, for messages. */
const char *plugin_origin(const struct loaded_plugin *p);

/*
 * Load the plugin configured as conf into *ret (a stack object; release with
 * plugin_unload()): conf's path, or NAME.so in dir. Returns 0; -ENOENT (no
 * file), -EPERM (the file, or a directory above it, can be changed by
 * someone other than root or the user: path-trust.h), -ENOEXEC (dlopen
 * failed or no descriptor), -EPROTO (another ABI, bad size or missing
 * members), -EINVAL
 * (a key the plugin does not accept, a repeated key, a continuation line it
 * cannot join, a change to a key locked by the system layer), each with
 * reterr saying "plugin 'NAME' (WHERE): ...".
 */
int plugin_load(const struct config_plugin *conf, const char *dir, struct loaded_plugin *ret,
                struct sluice_error *reterr);

/* Release what plugin_load() filled in (dlclose); safe on a zeroed struct. */
void plugin_unload(struct loaded_plugin *p);

#endif
