/* SPDX-License-Identifier: MIT */
/*
 * The [plugin NAME] sections: the plugins of struct broker_config, the keys
 * sluice reads itself in their sections (CONFIG_PLUGIN_KEYS: path, enabled,
 * user_override) with the system layer's locks on them, and every other
 * key kept as a setting for the plugin (config_find_plugin() is declared
 * in broker-config.h).
 * Not for: whether a plugin knows a setting (plugin-loader.c does).
 */
#ifndef SLUICE_CONFIG_PLUGINS_H
#define SLUICE_CONFIG_PLUGINS_H

#include <stddef.h>

#include "config/broker-config.h"
#include "config/config-parse.h"

/* Append a plugin called name to cfg->plugins, its fields zero: the new
 * entry (borrowed from cfg), or NULL past the cap or out of memory. */
struct config_plugin *config_plugins_add(struct broker_config *cfg, const char *name);

/* The section [plugin NAME] (section_name, at line) begins: p->plugin is
 * the plugin, added (and enabled) when new; on an error (a bad or
 * duplicate name, too many plugins) it is recorded and the section is
 * ignored. */
void config_plugins_open_section(struct config_parse *p, const char *section_name, const char *name,
                                 unsigned line);

/* "key = value" at line in p->plugin's section. */
void config_plugins_entry(struct config_parse *p, const char *key, const char *value,
                          unsigned line);

/* An indented line (value, of which the first keylike bytes read as a
 * key, or 0) that continues p->plugin's last setting. */
void config_plugins_continue(struct config_parse *p, const char *value, size_t keylike,
                             unsigned line);

/* Once the system layer is read: what it turned on stays on, unless it
 * said otherwise (user_override). */
void config_plugins_lock_system(struct broker_config *cfg);

/* Free cfg->plugins and their settings. */
void config_plugins_free(struct broker_config *cfg);

#endif
