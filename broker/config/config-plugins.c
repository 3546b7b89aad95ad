/* SPDX-License-Identifier: MIT */
/*
 * The [plugin NAME] sections into cfg->plugins: a section names a plugin
 * (a new one is enabled), sluice's own keys there (path, enabled,
 * user_override) are checked against their rule and the system layer's
 * locks, and every other key is kept, with its file and line, for the
 * plugin loader to check against what the plugin declares.
 * Not for: loading plugins (plugin-loader.c).
 */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "config/config-plugins.h"
#include "config/config-value.h"
#include "strv.h"

/* Caps: plugins, settings per plugin, a plugin's name. */
#define CONFIG_MAX_PLUGINS 64
#define CONFIG_MAX_SETTINGS 512
#define CONFIG_MAX_PLUGIN_NAME 40

static struct config_plugin *plugin_find(struct broker_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->n_plugins; i++)
		if (strcmp(cfg->plugins[i].name, name) == 0)
			return &cfg->plugins[i];
	return NULL;
}

const struct config_plugin *config_find_plugin(const struct broker_config *cfg, const char *name)
{
	return plugin_find((struct broker_config *)cfg, name);
}

struct config_plugin *config_plugins_add(struct broker_config *cfg, const char *name)
{
	if (cfg->n_plugins >= CONFIG_MAX_PLUGINS)
		return NULL;
	struct config_plugin *a =
	        realloc(cfg->plugins, (cfg->n_plugins + 1) * sizeof(struct config_plugin));
	if (!a)
		return NULL;
	cfg->plugins = a;
	struct config_plugin *pl = &a[cfg->n_plugins];
	*pl = (struct config_plugin){ .name = strdup(name) };
	if (!pl->name)
		return NULL;
	cfg->n_plugins++;
	return pl;
}

static bool valid_plugin_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > CONFIG_MAX_PLUGIN_NAME)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

void config_plugins_open_section(struct config_parse *p, const char *section_name, const char *name,
                                 unsigned line)
{
	if (!valid_plugin_name(name)) {
		config_parse_error(
		        p, line,
		        "bad plugin name '%s' in [%s] (lowercase letters, digits and '_', at most %d)",
		        name, section_name, CONFIG_MAX_PLUGIN_NAME);
		return;
	}
	STRV_FOREACH (s, p->file_plugins) {
		const char *colon = strchr(*s, ':');
		if (strcmp(colon + 1, name) == 0) {
			config_parse_error(p, line,
			                   "duplicate section [plugin %s] (first at line %.*s)",
			                   name, (int)(colon - *s), *s);
			return;
		}
	}
	char tag[128];
	snprintf(tag, sizeof(tag), "%u:%s", line, name);
	(void)strv_extend(&p->file_plugins, tag);
	struct config_plugin *pl = plugin_find(p->cfg, name);
	if (!pl) {
		pl = config_plugins_add(p->cfg, name);
		if (!pl) {
			config_parse_error(p, line,
			                   "too many plugins (at most %d) or out of memory",
			                   CONFIG_MAX_PLUGINS);
			return;
		}
		pl->enabled = true; /* configuring a plugin that is not built in enables it */
	}
	if (!pl->file) {
		pl->file = strdup(p->file);
		pl->line = line;
	}
	if (p->layer == CONFIG_LAYER_SYSTEM)
		pl->in_system = true;
	p->plugin = pl;
	p->section_bad = false;
}

/* The keys of [plugin NAME] sections that sluice reads itself. */
enum plugin_key_type { PLUGIN_KEY_BOOL, PLUGIN_KEY_ABS_PATH };
enum plugin_key_rule { PLUGIN_RULE_LOCKED, PLUGIN_RULE_NO_DISABLE, PLUGIN_RULE_SYSTEM_ONLY };

struct plugin_key {
	const char *key;
	enum plugin_key_type type;
	enum plugin_key_rule rule;
	size_t offset; /* of the field in struct config_plugin */
};

static const struct plugin_key plugin_keys[] = {
#define PLUGIN_KEY_ROW(k, type, rule, doc) \
	{ #k, PLUGIN_KEY_##type, PLUGIN_RULE_##rule, offsetof(struct config_plugin, k) },
	CONFIG_PLUGIN_KEYS(PLUGIN_KEY_ROW)
#undef PLUGIN_KEY_ROW
};

/* One of plugin_keys in pl: checked against its rule, parsed by its type.
 * Errors are recorded; nothing is set then. */
static void plugin_key_entry(struct config_parse *p, struct config_plugin *pl,
                             const struct plugin_key *k, const char *value, unsigned line)
{
	bool user_layer = p->layer >= CONFIG_LAYER_USER;
	void *f = (char *)pl + k->offset;
	if (k->rule == PLUGIN_RULE_SYSTEM_ONLY && user_layer) {
		config_parse_error(p, line, "'%s' is read only from the system configuration",
		                   k->key);
		return;
	}
	if (k->rule == PLUGIN_RULE_LOCKED && pl->locked && user_layer) {
		config_parse_error(
		        p, line,
		        "plugin '%s' is set up by the system configuration (%s:%u); its %s "
		        "cannot be changed here",
		        pl->name, pl->file, pl->line, k->key);
		return;
	}
	if (k->type == PLUGIN_KEY_BOOL) {
		bool b;
		if (config_value_parse_bool(value, &b) < 0) {
			config_parse_error(
			        p, line,
			        "bad value '%s' for '%s' in [plugin %s]: expected yes or no", value,
			        k->key, pl->name);
			return;
		}
		if (k->rule == PLUGIN_RULE_NO_DISABLE && !b && pl->locked && user_layer) {
			config_parse_error(
			        p, line,
			        "plugin '%s' is enabled by the system configuration (%s:%u) and "
			        "cannot be disabled here",
			        pl->name, pl->file, pl->line);
			return;
		}
		*(bool *)f = b;
		return;
	}
	if (*value != '/') {
		config_parse_error(
		        p, line,
		        "bad value '%s' for '%s' in [plugin %s]: expected an absolute path", value,
		        k->key, pl->name);
		return;
	}
	char **s = f;
	free(*s);
	*s = strdup(value);
	if (!*s)
		config_parse_error(p, line, "out of memory");
}

void config_plugins_entry(struct config_parse *p, const char *key, const char *value, unsigned line)
{
	struct config_plugin *pl = p->plugin;
	for (size_t i = 0; i < ELEMENTSOF(plugin_keys); i++)
		if (strcmp(key, plugin_keys[i].key) == 0) {
			plugin_key_entry(p, pl, &plugin_keys[i], value, line);
			return;
		}
	if (pl->n_settings >= CONFIG_MAX_SETTINGS) {
		config_parse_error(p, line, "too many keys in [plugin %s] (at most %d)", pl->name,
		                   CONFIG_MAX_SETTINGS);
		return;
	}
	struct config_setting *a =
	        realloc(pl->settings, (pl->n_settings + 1) * sizeof(struct config_setting));
	if (!a) {
		config_parse_error(p, line, "out of memory");
		return;
	}
	pl->settings = a;
	struct config_setting *s = &a[pl->n_settings++];
	*s = (struct config_setting){ .key = strdup(key),
		                      .value = strdup(value),
		                      .file = strdup(p->file),
		                      .line = line,
		                      .layer = p->layer };
	if (!s->key || !s->value || !s->file) {
		free(s->key);
		free(s->value);
		free(s->file);
		pl->n_settings--;
		config_parse_error(p, line, "out of memory");
		return;
	}
	p->cont_kind = CONT_SETTING;
	p->cont_key = s->key;
}

void config_plugins_continue(struct config_parse *p, const char *value, size_t keylike,
                             unsigned line)
{
	/* the plugin loader refuses it unless the plugin declared the key
	 * joinable; the pieces are joined with nothing between */
	struct config_setting *s = &p->plugin->settings[p->plugin->n_settings - 1];
	if (!s->continued)
		s->continued = line;
	if (keylike) {
		char tag[80];
		snprintf(tag, sizeof(tag), "%u:%.*s", line, (int)(keylike < 60 ? keylike : 60),
		         value);
		if (strv_extend(&s->key_lines, tag) < 0)
			config_parse_error(p, line, "out of memory");
	}
	size_t a = strlen(s->value), b = strlen(value);
	char *joined = realloc(s->value, a + b + 1);
	if (!joined) {
		config_parse_error(p, line, "out of memory");
		return;
	}
	memcpy(joined + a, value, b + 1);
	s->value = joined;
}

void config_plugins_lock_system(struct broker_config *cfg)
{
	for (size_t i = 0; i < cfg->n_plugins; i++) {
		struct config_plugin *pl = &cfg->plugins[i];
		pl->locked = pl->in_system && pl->enabled && !pl->user_override;
	}
}

void config_plugins_free(struct broker_config *cfg)
{
	for (size_t i = 0; i < cfg->n_plugins; i++) {
		struct config_plugin *pl = &cfg->plugins[i];
		for (size_t j = 0; j < pl->n_settings; j++) {
			free(pl->settings[j].key);
			free(pl->settings[j].value);
			free(pl->settings[j].file);
			strv_free(pl->settings[j].key_lines);
		}
		free(pl->settings);
		free(pl->name);
		free(pl->path);
		free(pl->file);
	}
	free(cfg->plugins);
	cfg->plugins = NULL;
	cfg->n_plugins = 0;
}
