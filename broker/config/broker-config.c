/* SPDX-License-Identifier: MIT */
/*
 * Configuration layering: defaults -> system file -> policies.d/NAME.ini
 * (name order) -> user file -> --config. Each file is parsed into the one
 * struct being built; every error is recorded with file:line and parsing goes
 * on, and the result is handed out only when there were none (report all,
 * apply none). Files are checked on the open descriptor (fstat).
 * Not for: plugin keys' meaning (plugin-loader.c and the plugins).
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "cleanup.h"
#include "config/broker-config.h"
#include "config/ini-source.h"
#include "config/steady-read.h"
#include "egress-allow.h"
#include "log.h"
#include "parse-number.h"
#include "path-trust.h"
#include "strv.h"
#include "suggest.h"

#include "launch-spec.h"

/* Caps: errors reported per load, plugins, settings per plugin, drop-ins. */
#define CONFIG_MAX_ERRORS 50
#define CONFIG_MAX_PLUGINS 64
#define CONFIG_MAX_SETTINGS 512
#define CONFIG_MAX_DROPINS 256
#define CONFIG_MAX_WORDS 1024
#define CONFIG_MAX_PLUGIN_NAME 40

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
#define N_KEYS ELEMENTSOF(key_table)

/* Sizes another program bounds more tightly than their type does: a value
 * past max would be accepted here and fail there, later. */
static const struct key_bound {
	size_t offset; /* of the key's field in struct broker_config */
	uint64_t max;
	const char *why;
} key_bounds[] = {
	{ offsetof(struct broker_config, broker_max_command_size), LAUNCH_COMMAND_MAX,
	  "a size of at most 131071 bytes (the longest command sluice-launch accepts)" },
};
_Static_assert(LAUNCH_COMMAND_MAX == 131071, "key_bounds names the launcher's limit");

static const struct key_bound *find_bound(const struct config_key *k)
{
	for (size_t i = 0; i < ELEMENTSOF(key_bounds); i++)
		if (key_bounds[i].offset == k->offset)
			return &key_bounds[i];
	return NULL;
}

/* ONLY keys that a system BOOL key, when yes, opens to the user layers. */
static const struct config_unlock {
	size_t key;    /* offset of the ONLY key's field */
	size_t unlock; /* offset of the bool that opens it */
	const char *unlock_name;
} config_unlocks[] = {
	{ offsetof(struct broker_config, approval_program),
	  offsetof(struct broker_config, approval_user_program), "[approval] user_program" },
};

/* Keys a user layer may not set once the system layer set another: what
 * the administrator decided about the network is not widened by a user's
 * allowlist. */
static const struct config_lock_by {
	const char *section, *key;       /* the key locked */
	const char *by_section, *by_key; /* by the system layer setting this one */
} config_locks_by[] = {
	{ "network", "allow", "sandbox", "network" },
};

/* The unlock of an ONLY key, or NULL. */
static const struct config_unlock *find_unlock(const struct config_key *k)
{
	for (size_t i = 0; i < ELEMENTSOF(config_unlocks); i++)
		if (config_unlocks[i].key == k->offset)
			return &config_unlocks[i];
	return NULL;
}

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
	*ret_n = N_KEYS;
	return key_table;
}

const struct config_builtin *config_builtins(size_t *ret_n)
{
	*ret_n = ELEMENTSOF(builtins);
	return builtins;
}

/* ------------------------------------------------------------ parse state */

struct key_state {
	enum config_layer layer; /* layer that last set it */
	char *file;              /* "file:line" where the system layer set it */
	char *set_at;            /* "file:line" where any layer last set it, or NULL */
	unsigned line_in_file;   /* line in the current file, 0 when not set there */
};

struct parse {
	struct broker_config *cfg;
	char **errors;
	size_t n_errors;
	const char *file;
	enum config_layer layer;
	/* the current section: a core section, a plugin, or ignored */
	const char *section;
	struct config_plugin *plugin;
	bool section_bad;
	struct key_state keys[N_KEYS];
	/* what an indented continuation line continues */
	enum { CONT_NONE, CONT_SCALAR, CONT_WORDS, CONT_SETTING } cont_kind;
	const char *cont_key;
	const struct config_key *cont_core;
	/* plugin sections seen in the current file */
	char **file_plugins;
	/* "file:line" of each word of [sandbox] writable, in its order */
	char **writable_at;
};

/* An error at where ("file:line", or a file's name). */
static void add_error_v(struct parse *p, const char *where, const char *fmt, va_list ap)
{
	p->n_errors++;
	if (p->n_errors > CONFIG_MAX_ERRORS + 1)
		return;
	char msg[600];
	if (p->n_errors == CONFIG_MAX_ERRORS + 1) {
		snprintf(msg, sizeof(msg), "%s: too many errors; the rest are not shown", where);
	} else {
		int n = snprintf(msg, sizeof(msg), "%s: ", where);
		(void)vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	}
	(void)strv_extend(&p->errors, msg); /* -ENOMEM still counts in n_errors */
}

static void add_error(struct parse *p, unsigned line, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static void add_error(struct parse *p, unsigned line, const char *fmt, ...)
{
	char where[600];
	if (line)
		snprintf(where, sizeof(where), "%s:%u", p->file, line);
	else
		snprintf(where, sizeof(where), "%s", p->file);
	va_list ap;
	va_start(ap, fmt);
	add_error_v(p, where, fmt, ap);
	va_end(ap);
}

/* An error at where ("file:line"; NULL: the built-in defaults). */
static void add_error_at(struct parse *p, const char *where, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static void add_error_at(struct parse *p, const char *where, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_error_v(p, where ? where : "built-in defaults", fmt, ap);
	va_end(ap);
}

static const struct config_key *find_key(const char *section, const char *key)
{
	for (size_t i = 0; i < N_KEYS; i++)
		if (strcmp(key_table[i].section, section) == 0 &&
		    strcmp(key_table[i].key, key) == 0)
			return &key_table[i];
	return NULL;
}

/* The key of the system layer that keeps a user layer from setting k, when
 * the system layer set it; else NULL. */
static const struct config_key *locked_by(const struct parse *p, const struct config_key *k)
{
	for (size_t i = 0; i < ELEMENTSOF(config_locks_by); i++) {
		const struct config_lock_by *l = &config_locks_by[i];
		if (strcmp(l->section, k->section) != 0 || strcmp(l->key, k->key) != 0)
			continue;
		const struct config_key *by = find_key(l->by_section, l->by_key);
		if (by && p->keys[by - key_table].layer == CONFIG_LAYER_SYSTEM)
			return by;
	}
	return NULL;
}

static void *field(struct broker_config *cfg, const struct config_key *k)
{
	return (char *)cfg + k->offset;
}

static int parse_bool(const char *v, bool *ret)
{
	static const struct {
		const char *word;
		bool value;
	} words[] = { { "yes", true }, { "true", true },   { "on", true },   { "1", true },
		      { "no", false }, { "false", false }, { "off", false }, { "0", false } };
	for (size_t i = 0; i < ELEMENTSOF(words); i++)
		if (strcasecmp(v, words[i].word) == 0) {
			*ret = words[i].value;
			return 0;
		}
	return -EINVAL;
}

/* The word at index i of "a|b|c" (*ret_len bytes, not NUL-terminated), or
 * NULL past the last. */
static const char *choice_at(const char *choices, int i, size_t *ret_len)
{
	const char *c = choices;
	for (; c && i > 0; i--) {
		c = strchr(c, '|');
		if (c)
			c++;
	}
	if (!c)
		return NULL;
	const char *bar = strchr(c, '|');
	*ret_len = bar ? (size_t)(bar - c) : strlen(c);
	return c;
}

static int choice_index(const char *choices, const char *v)
{
	size_t vlen = strlen(v), n;
	const char *c;
	for (int i = 0; (c = choice_at(choices, i, &n)); i++)
		if (n == vlen && strncmp(c, v, n) == 0)
			return i;
	return -EINVAL;
}

/* config_choice_name() for a key already found. */
static const char *key_choice_name(const struct config_key *k, int value)
{
	static char buf[64];
	size_t n;
	const char *c = k->choices && value >= 0 ? choice_at(k->choices, value, &n) : NULL;
	if (!c || n >= sizeof(buf))
		return NULL;
	memcpy(buf, c, n);
	buf[n] = '\0';
	return buf;
}

const char *config_choice_name(const char *section, const char *key, int value)
{
	const struct config_key *k = find_key(section, key);
	return k ? key_choice_name(k, value) : NULL;
}

static bool valid_env_name(const char *s, size_t n)
{
	if (n == 0 || isdigit((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static int append_words(char ***l, const char *v)
{
	_cleanup_free_ char *copy = strdup(v);
	if (!copy)
		return -ENOMEM;
	char *save = NULL;
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (strv_length(*l) >= CONFIG_MAX_WORDS)
			return -E2BIG;
		int r = strv_extend(l, w);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Set key k of cfg from text v; on a bad value return -EINVAL with why. */
static int set_value(struct broker_config *cfg, const struct config_key *k, const char *v,
                     const char **why)
{
	void *f = field(cfg, k);
	uint64_t n = 0;
	int r = 0;
	switch (k->type) {
	case CONFIG_PATH:
		if (*v && *v != '/') {
			*why = "an absolute path";
			return -EINVAL;
		}
		/* fallthrough */
	case CONFIG_STRING: {
		char *s = strdup(v);
		if (!s)
			return -ENOMEM;
		free(*(char **)f);
		*(char **)f = s;
		return 0;
	}
	case CONFIG_DURATION:
	case CONFIG_OPT_DURATION:
		if (k->type == CONFIG_OPT_DURATION && !*v) {
			*(uint64_t *)f = CONFIG_UNSET;
			return 0;
		}
		r = parse_duration_ms(v, UINT64_MAX / 2, &n);
		*why = "a duration such as 500ms, 30s, 15m or 24h";
		break;
	case CONFIG_SIZE:
	case CONFIG_OPT_SIZE: {
		if (k->type == CONFIG_OPT_SIZE && !*v) {
			*(uint64_t *)f = CONFIG_UNSET;
			return 0;
		}
		const struct key_bound *b = find_bound(k);
		r = parse_size(v, b ? b->max : UINT64_MAX / 2, &n);
		*why = b && r == -ERANGE ? b->why : "a size such as 4096, 128KiB or 64MiB";
		break;
	}
	case CONFIG_OPT_COUNT:
		if (!*v) {
			*(uint64_t *)f = CONFIG_UNSET;
			return 0;
		}
		r = parse_uint64(v, UINT64_MAX / 2, &n);
		*why = "a whole number";
		break;
	case CONFIG_BOOL:
		*why = "yes or no";
		return parse_bool(v, (bool *)f);
	case CONFIG_ENUM:
		r = choice_index(k->choices, v);
		if (r < 0) {
			*why = k->choices;
			return r;
		}
		*(int *)f = r;
		return 0;
	case CONFIG_WORDS:
		if (!*v) {
			*(char ***)f = strv_free(*(char ***)f);
			return 0;
		}
		r = append_words((char ***)f, v);
		*why = "at most 1024 words";
		return r == -E2BIG ? -EINVAL : r;
	case CONFIG_ASSIGN: {
		if (!*v) { /* an empty value clears the list */
			*(char ***)f = strv_free(*(char ***)f);
			return 0;
		}
		const char *eq = strchr(v, '=');
		if (!eq || !valid_env_name(v, (size_t)(eq - v))) {
			*why = "NAME=VALUE with a valid variable name";
			return -EINVAL;
		}
		return strv_extend((char ***)f, v);
	}
	}
	if (r < 0)
		return r == -ENOMEM ? r : -EINVAL;
	*(uint64_t *)f = n;
	return 0;
}

/* ------------------------------------------------------------ plugins */

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

static struct config_plugin *plugin_add(struct broker_config *cfg, const char *name)
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

static void on_section(void *user, const char *name, unsigned line)
{
	struct parse *p = user;
	p->section = NULL;
	p->plugin = NULL;
	p->section_bad = true;
	p->cont_kind = CONT_NONE;
	if (!name)
		return;
	for (size_t i = 0; i < ELEMENTSOF(sections); i++)
		if (strcmp(name, sections[i]) == 0) {
			p->section = sections[i];
			p->section_bad = false;
			return;
		}
	if (strncmp(name, "plugin ", 7) != 0) {
		struct suggestion s;
		suggestion_init(&s, name);
		for (size_t i = 0; i < ELEMENTSOF(sections); i++)
			suggestion_consider(&s, sections[i]);
		const char *meant = suggestion_best(&s);
		char known[128] = "";
		for (size_t i = 0, o = 0; i < ELEMENTSOF(sections) && o < sizeof(known); i++)
			o += (size_t)snprintf(known + o, sizeof(known) - o, "[%s], ", sections[i]);
		if (meant)
			add_error(p, line, "unknown section [%s]; did you mean [%s]?", name, meant);
		else
			add_error(p, line,
			          "unknown section [%s] (the sections are %s[plugin NAME])", name,
			          known);
		return;
	}
	const char *pname = name + 7;
	if (!valid_plugin_name(pname)) {
		add_error(
		        p, line,
		        "bad plugin name '%s' in [%s] (lowercase letters, digits and '_', at most %d)",
		        pname, name, CONFIG_MAX_PLUGIN_NAME);
		return;
	}
	STRV_FOREACH (s, p->file_plugins) {
		const char *colon = strchr(*s, ':');
		if (strcmp(colon + 1, pname) == 0) {
			add_error(p, line, "duplicate section [plugin %s] (first at line %.*s)",
			          pname, (int)(colon - *s), *s);
			return;
		}
	}
	char tag[128];
	snprintf(tag, sizeof(tag), "%u:%s", line, pname);
	(void)strv_extend(&p->file_plugins, tag);
	struct config_plugin *pl = plugin_find(p->cfg, pname);
	if (!pl) {
		pl = plugin_add(p->cfg, pname);
		if (!pl) {
			add_error(p, line, "too many plugins (at most %d) or out of memory",
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
static void plugin_key_entry(struct parse *p, struct config_plugin *pl, const struct plugin_key *k,
                             const char *value, unsigned line)
{
	bool user_layer = p->layer >= CONFIG_LAYER_USER;
	void *f = (char *)pl + k->offset;
	if (k->rule == PLUGIN_RULE_SYSTEM_ONLY && user_layer) {
		add_error(p, line, "'%s' is read only from the system configuration", k->key);
		return;
	}
	if (k->rule == PLUGIN_RULE_LOCKED && pl->locked && user_layer) {
		add_error(p, line,
		          "plugin '%s' is set up by the system configuration (%s:%u); its %s "
		          "cannot be changed here",
		          pl->name, pl->file, pl->line, k->key);
		return;
	}
	if (k->type == PLUGIN_KEY_BOOL) {
		bool b;
		if (parse_bool(value, &b) < 0) {
			add_error(p, line,
			          "bad value '%s' for '%s' in [plugin %s]: expected yes or no",
			          value, k->key, pl->name);
			return;
		}
		if (k->rule == PLUGIN_RULE_NO_DISABLE && !b && pl->locked && user_layer) {
			add_error(p, line,
			          "plugin '%s' is enabled by the system configuration (%s:%u) and "
			          "cannot be disabled here",
			          pl->name, pl->file, pl->line);
			return;
		}
		*(bool *)f = b;
		return;
	}
	if (*value != '/') {
		add_error(p, line,
		          "bad value '%s' for '%s' in [plugin %s]: expected an absolute path",
		          value, k->key, pl->name);
		return;
	}
	char **s = f;
	free(*s);
	*s = strdup(value);
	if (!*s)
		add_error(p, line, "out of memory");
}

static void plugin_entry(struct parse *p, struct config_plugin *pl, const char *key,
                         const char *value, unsigned line)
{
	for (size_t i = 0; i < ELEMENTSOF(plugin_keys); i++)
		if (strcmp(key, plugin_keys[i].key) == 0) {
			plugin_key_entry(p, pl, &plugin_keys[i], value, line);
			return;
		}
	if (pl->n_settings >= CONFIG_MAX_SETTINGS) {
		add_error(p, line, "too many keys in [plugin %s] (at most %d)", pl->name,
		          CONFIG_MAX_SETTINGS);
		return;
	}
	struct config_setting *a =
	        realloc(pl->settings, (pl->n_settings + 1) * sizeof(struct config_setting));
	if (!a) {
		add_error(p, line, "out of memory");
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
		add_error(p, line, "out of memory");
		return;
	}
	p->cont_kind = CONT_SETTING;
	p->cont_key = s->key;
}

/* ------------------------------------------------------------ entries */

/* The length of the key a continuation line's text starts with when it
 * reads as "KEY = VALUE" (or "KEY: VALUE", which the INI reader also
 * takes), else 0. */
static size_t keylike_len(const char *text)
{
	size_t n = 0;
	while (isalnum((unsigned char)text[n]) || text[n] == '_')
		n++;
	size_t k = n;
	while (text[k] == ' ' || text[k] == '\t')
		k++;
	return n > 0 && (text[k] == '=' || text[k] == ':') ? n : 0;
}

/* After a line of [sandbox] writable (k) set its words: where each new one
 * came from, for check_writable()'s errors; an empty value cleared them. */
static void note_writable(struct parse *p, const struct config_key *k, size_t before, unsigned line)
{
	if (k->offset != offsetof(struct broker_config, sandbox_writable))
		return;
	size_t after = strv_length(p->cfg->sandbox_writable);
	if (after < before)
		p->writable_at = strv_free(p->writable_at);
	char where[600];
	snprintf(where, sizeof(where), "%s:%u", p->file, line);
	for (size_t i = strv_length(p->writable_at); i < after; i++)
		if (strv_extend(&p->writable_at, where) < 0)
			add_error(p, line, "out of memory");
}

static void continue_value(struct parse *p, const char *key, const char *value, unsigned line)
{
	if (p->cont_kind == CONT_NONE || strcmp(p->cont_key, key) != 0) {
		add_error(p, line, "indented line continues nothing");
		return;
	}
	size_t keylike = keylike_len(value);
	if (keylike && p->cont_kind != CONT_SETTING) {
		char word[INI_SOURCE_MAX_NAME + 1];
		snprintf(word, sizeof(word), "%.*s", (int)keylike, value);
		if (find_key(p->section, word)) {
			add_error(p, line,
			          "indented '%s' is joined onto '%s' above it as a continuation; "
			          "start the line at its beginning to set '%s'",
			          word, key, word);
			return;
		}
	}
	if (p->cont_kind == CONT_SCALAR) {
		add_error(p, line,
		          "'%s' takes one line: only indent lines that continue a long value", key);
		return;
	}
	if (p->cont_kind == CONT_WORDS) {
		size_t before = strv_length(*(char ***)field(p->cfg, p->cont_core));
		if (append_words((char ***)field(p->cfg, p->cont_core), value) < 0)
			add_error(p, line, "too many words for '%s'", key);
		note_writable(p, p->cont_core, before, line);
		return;
	}
	/* a plugin setting: the plugin loader refuses it unless the plugin
	 * declared the key joinable; the pieces are joined with nothing between */
	struct config_setting *s = &p->plugin->settings[p->plugin->n_settings - 1];
	if (!s->continued)
		s->continued = line;
	if (keylike) {
		char tag[80];
		snprintf(tag, sizeof(tag), "%u:%.*s", line, (int)(keylike < 60 ? keylike : 60),
		         value);
		if (strv_extend(&s->key_lines, tag) < 0)
			add_error(p, line, "out of memory");
	}
	size_t a = strlen(s->value), b = strlen(value);
	char *joined = realloc(s->value, a + b + 1);
	if (!joined) {
		add_error(p, line, "out of memory");
		return;
	}
	memcpy(joined + a, value, b + 1);
	s->value = joined;
}

/* "unknown key" in a core section, with what was perhaps meant: a key of
 * that section spelt alike, or the same key in the section it belongs to. */
static void report_unknown_key(struct parse *p, const char *key, unsigned line)
{
	struct suggestion s;
	suggestion_init(&s, key);
	const char *elsewhere = NULL;
	for (size_t i = 0; i < N_KEYS; i++) {
		if (strcmp(key_table[i].section, p->section) == 0)
			suggestion_consider(&s, key_table[i].key);
		else if (strcmp(key_table[i].key, key) == 0)
			elsewhere = key_table[i].section;
	}
	const char *meant = suggestion_best(&s);
	if (meant)
		add_error(p, line, "unknown key '%s' in [%s]; did you mean '%s'?", key, p->section,
		          meant);
	else if (elsewhere)
		add_error(p, line, "unknown key '%s' in [%s]; it belongs in [%s]", key, p->section,
		          elsewhere);
	else
		add_error(p, line, "unknown key '%s' in [%s]", key, p->section);
}

static void core_entry(struct parse *p, const char *key, const char *value, unsigned line)
{
	const struct config_key *k = find_key(p->section, key);
	if (!k) {
		report_unknown_key(p, key, line);
		return;
	}
	p->cont_kind = k->type == CONFIG_WORDS ? CONT_WORDS : CONT_SCALAR;
	p->cont_key = k->key;
	p->cont_core = k;
	struct key_state *ks = &p->keys[k - key_table];
	bool list = k->type == CONFIG_WORDS || k->type == CONFIG_ASSIGN;
	if (ks->line_in_file && !list) {
		add_error(p, line, "duplicate key '%s' in [%s] (first at line %u)", key, p->section,
		          ks->line_in_file);
		return;
	}
	ks->line_in_file = line;
	if (p->layer >= CONFIG_LAYER_USER && k->lock == CONFIG_LOCK_ONLY) {
		/* what a user could use to step around the administrator's
		 * policies (the shell, the approver) is the administrator's alone */
		const struct config_unlock *u = find_unlock(k);
		if (!u || !*(bool *)((char *)p->cfg + u->unlock)) {
			add_error(p, line,
			          "'%s' in [%s] is read only from the system configuration%s%s%s",
			          key, p->section, u ? " (unless it sets " : "",
			          u ? u->unlock_name : "", u ? " = yes)" : "");
			return;
		}
	}
	const struct config_key *by = p->layer >= CONFIG_LAYER_USER ? locked_by(p, k) : NULL;
	if (by) {
		add_error(p, line,
		          "'%s' in [%s] cannot be set here: the system configuration (%s) sets "
		          "[%s] %s",
		          key, p->section, p->keys[by - key_table].file, by->section, by->key);
		return;
	}
	if (p->layer >= CONFIG_LAYER_USER && ks->layer == CONFIG_LAYER_SYSTEM) {
		if (k->lock == CONFIG_LOCK_SYSTEM) {
			add_error(
			        p, line,
			        "'%s' in [%s] is set by the system configuration (%s) and cannot be "
			        "changed here",
			        key, p->section, ks->file);
			return;
		}
		if (k->lock == CONFIG_LOCK_APPEND && !*value) {
			add_error(
			        p, line,
			        "'%s' in [%s] is set by the system configuration (%s): words can be "
			        "added, not cleared",
			        key, p->section, ks->file);
			return;
		}
	}
	const char *why = "";
	size_t before = k->type == CONFIG_WORDS ? strv_length(*(char ***)field(p->cfg, k)) : 0;
	int r = set_value(p->cfg, k, value, &why);
	if (r >= 0 && k->type == CONFIG_WORDS)
		note_writable(p, k, *value ? before : SIZE_MAX, line);
	if (r == -ENOMEM) {
		add_error(p, line, "out of memory");
		return;
	}
	if (r < 0) {
		add_error(p, line, "bad value '%s' for '%s' in [%s]: expected %s", value, key,
		          p->section, why);
		return;
	}
	char where[600];
	snprintf(where, sizeof(where), "%s:%u", p->file, line);
	free(ks->set_at);
	ks->set_at = strdup(where);
	if (p->layer == CONFIG_LAYER_SYSTEM) {
		free(ks->file);
		ks->file = strdup(where);
		ks->layer = CONFIG_LAYER_SYSTEM;
	} else if (ks->layer != CONFIG_LAYER_SYSTEM) {
		ks->layer = p->layer;
	}
}

static void on_entry(void *user, const char *section, const char *key, const char *value,
                     unsigned line, bool continuation)
{
	struct parse *p = user;
	(void)section;
	if (p->section_bad)
		return; /* the section's own error was reported */
	if (!p->section && !p->plugin) {
		add_error(p, line, "key '%s' outside any section", key);
		return;
	}
	if (continuation) {
		continue_value(p, key, value, line);
		return;
	}
	if (p->plugin)
		plugin_entry(p, p->plugin, key, value, line);
	else
		core_entry(p, key, value, line);
}

static void on_error(void *user, unsigned line, const char *message)
{
	add_error(user, line, "%s", message);
}

static const struct ini_source_ops ops = {
	.on_section = on_section,
	.on_entry = on_entry,
	.on_error = on_error,
};

/* ------------------------------------------------------------ files */

/* Read one file into p. A missing optional file is skipped (returns 0). */
static int load_file(struct parse *p, int dirfd, const char *path, const char *display,
                     bool optional)
{
	p->file = display;
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	struct stat st;
	struct sluice_error err = { 0 };
	int r = steady_read(dirfd, path, &text, &len, &st, &err);
	if (r == -ENOENT && optional)
		return 0;
	if (r < 0) {
		add_error(p, 0, "%s", err.detail);
		return r == -ENOMEM ? r : 0;
	}
	if (p->layer == CONFIG_LAYER_SYSTEM && (st.st_uid != 0 || (st.st_mode & 022))) {
		char w[600];
		snprintf(w, sizeof(w), "%s: not owned by root, or writable by group or others",
		         display);
		(void)strv_extend(&p->cfg->warnings, w);
	}
	(void)strv_extend(&p->cfg->files, display);
	p->section = NULL;
	p->plugin = NULL;
	p->section_bad = false;
	p->cont_kind = CONT_NONE;
	p->file_plugins = strv_free(p->file_plugins);
	for (size_t i = 0; i < N_KEYS; i++)
		p->keys[i].line_in_file = 0;
	return ini_source_parse(text, len, &ops, p);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* policies.d/NAME.ini in byte order of their names; a missing directory is fine. */
static int load_dropins(struct parse *p, const char *dir)
{
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	int dup_fd = fcntl(dfd, F_DUPFD_CLOEXEC, 3);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -ENOMEM;
	}
	_cleanup_strv_free_ char **names = NULL;
	size_t n = 0;
	for (struct dirent *de; (de = readdir(d));) {
		size_t len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 5 || strcmp(de->d_name + len - 4, ".ini") != 0)
			continue;
		if (n >= CONFIG_MAX_DROPINS) {
			/* which ones would be read would depend on readdir order */
			closedir(d);
			p->file = dir;
			add_error(p, 0, "more than %d drop-ins", CONFIG_MAX_DROPINS);
			return 0;
		}
		if (strv_extend(&names, de->d_name) < 0) {
			closedir(d);
			return -ENOMEM;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(char *), cmp_names);
	STRV_FOREACH (name, names) {
		_cleanup_free_ char *display = NULL;
		if (asprintf(&display, "%s/%s", dir, *name) < 0)
			return -ENOMEM;
		int r = load_file(p, dfd, *name, display, true);
		if (r < 0)
			return r;
	}
	return 0;
}

static int set_defaults(struct broker_config *cfg)
{
	for (size_t i = 0; i < N_KEYS; i++) {
		const char *why = "";
		int r = set_value(cfg, &key_table[i], key_table[i].def, &why);
		if (r < 0)
			return r; /* a bad default is a bug; the unit test catches it */
	}
	for (size_t i = 0; i < ELEMENTSOF(builtins); i++) {
		struct config_plugin *pl = plugin_add(cfg, builtins[i].name);
		if (!pl)
			return -ENOMEM;
		pl->builtin = true;
		pl->enabled = builtins[i].enabled;
	}
	return 0;
}

int config_new_defaults(struct broker_config **ret)
{
	struct broker_config *cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return -ENOMEM;
	int r = set_defaults(cfg);
	if (r < 0) {
		config_free(cfg);
		return r;
	}
	*ret = cfg;
	return 0;
}

static char *user_file_default(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	char *s = NULL;
	if (xdg && *xdg == '/') {
		if (asprintf(&s, "%s/sluice/sluice.ini", xdg) < 0)
			return NULL;
		return s;
	}
	const char *home = getenv("HOME");
	if (!home || *home != '/')
		return NULL;
	if (asprintf(&s, "%s/.config/sluice/sluice.ini", home) < 0)
		return NULL;
	return s;
}

bool config_env_overrides_allowed(void)
{
	/* The test overrides must not let a user step around the system
	 * layer's locks: once an administrator has installed a system
	 * configuration, they are ignored. */
	struct stat st;
	return stat(SLUICE_SYSCONFDIR "/sluice/sluice.ini", &st) < 0 &&
	       stat(SLUICE_SYSCONFDIR "/sluice/policies.d", &st) < 0;
}

/* Record the directory of the configuration file path in cfg->config_dirs. */
static int add_config_dir(struct broker_config *cfg, const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return 0;
	_cleanup_free_ char *dir = strndup(path, (size_t)(slash - path));
	return dir ? strv_extend(&cfg->config_dirs, dir) : -ENOMEM;
}

/* The system configuration directory: paths->sysconfdir, else env
 * SLUICE_SYSCONFDIR while no system configuration is installed (else
 * *ret_ignored is set), else SLUICE_SYSCONFDIR (borrowed). */
static const char *system_dir(const struct config_paths *paths, bool *ret_ignored)
{
	*ret_ignored = false;
	const char *sysconf = paths->sysconfdir;
	const char *env = getenv("SLUICE_SYSCONFDIR");
	if (!sysconf && env && *env) {
		if (config_env_overrides_allowed())
			sysconf = env;
		else
			*ret_ignored = true;
	}
	return sysconf && *sysconf ? sysconf : SLUICE_SYSCONFDIR;
}

int config_search(const struct config_paths *paths, struct config_place **ret, size_t *ret_n)
{
	static const struct config_paths none;
	if (!paths)
		paths = &none;
	bool ignored;
	const char *sysconf = system_dir(paths, &ignored);
	struct config_place *places = calloc(4, sizeof(*places));
	if (!places)
		return -ENOMEM;
	size_t n = 0;
	int r = 0;
	places[n] = (struct config_place){ .layer = CONFIG_LAYER_SYSTEM };
	if (asprintf(&places[n++].path, "%s/sluice/sluice.ini", sysconf) < 0)
		r = -ENOMEM;
	places[n] = (struct config_place){ .layer = CONFIG_LAYER_SYSTEM, .directory = true };
	if (r == 0 && asprintf(&places[n++].path, "%s/sluice/policies.d", sysconf) < 0)
		r = -ENOMEM;
	char *user = paths->user_file ? strdup(paths->user_file) : user_file_default();
	if (r == 0 && paths->user_file && !user)
		r = -ENOMEM;
	if (r == 0 && user)
		places[n++] = (struct config_place){ .layer = CONFIG_LAYER_USER, .path = user };
	if (r == 0 && paths->cli_file) {
		places[n] = (struct config_place){ .layer = CONFIG_LAYER_CLI,
			                           .path = strdup(paths->cli_file) };
		if (!places[n++].path)
			r = -ENOMEM;
	}
	if (r < 0) {
		config_places_free(places, n);
		return r;
	}
	*ret = places;
	*ret_n = n;
	return 0;
}

void config_places_free(struct config_place *places, size_t n)
{
	for (size_t i = 0; places && i < n; i++)
		free(places[i].path);
	free(places);
}

/* Once the system layer is read: what it turned on stays on, unless it
 * said otherwise (user_override). */
static void lock_system_plugins(struct broker_config *cfg)
{
	for (size_t i = 0; i < cfg->n_plugins; i++) {
		struct config_plugin *pl = &cfg->plugins[i];
		pl->locked = pl->in_system && pl->enabled && !pl->user_override;
	}
}

static int load_layers(struct parse *p, const struct config_paths *paths)
{
	bool ignored;
	(void)system_dir(paths, &ignored);
	if (ignored)
		(void)strv_extend(&p->cfg->warnings,
		                  "SLUICE_SYSCONFDIR ignored: a system configuration exists");
	struct config_place *places = NULL;
	size_t n = 0;
	int r = config_search(paths, &places, &n);
	if (r < 0)
		return r;
	/* the system's and the user's configuration folders, whether or not
	 * their files exist (cfg->config_dirs) */
	for (size_t i = 0; r >= 0 && i < n; i++)
		if (!places[i].directory && places[i].layer != CONFIG_LAYER_CLI)
			r = add_config_dir(p->cfg, places[i].path);
	bool locked = false;
	for (size_t i = 0; r >= 0 && i < n; i++) {
		const struct config_place *pl = &places[i];
		if (pl->layer > CONFIG_LAYER_SYSTEM && !locked) {
			lock_system_plugins(p->cfg);
			locked = true;
		}
		p->layer = pl->layer;
		if (pl->directory)
			r = load_dropins(p, pl->path);
		else /* every file but --config's may be missing */
			r = load_file(p, AT_FDCWD, pl->path, pl->path,
			              pl->layer != CONFIG_LAYER_CLI);
	}
	if (!locked)
		lock_system_plugins(p->cfg);
	config_places_free(places, n);
	return r;
}

/* The end of every load: release the parse's bookkeeping; with any error
 * recorded, refuse the whole configuration (its errors go to *ret_errors);
 * otherwise hand *cfg out. */
static void format_size(uint64_t v, char *buf, size_t size);

/* Where key of [section] was last set, or NULL (its default). */
static const char *set_at(const struct parse *p, const char *section, const char *key)
{
	const struct config_key *k = find_key(section, key);
	return k ? p->keys[k - key_table].set_at : NULL;
}

/* [approval] method = program needs a program that can be run: found
 * when the configuration is read, not when the first ask comes. */
static void check_approver(struct parse *p)
{
	const struct broker_config *c = p->cfg;
	if (c->approval_method != CONFIG_APPROVAL_PROGRAM)
		return;
	if (!c->approval_program || !c->approval_program[0]) {
		add_error_at(
		        p, set_at(p, "approval", "method"),
		        "[approval] method = program needs program = PATH, the approver to run");
		return;
	}
	if (access(c->approval_program, X_OK) < 0) {
		add_error_at(p, set_at(p, "approval", "program"),
		             "[approval] program '%s' cannot be run: %s", c->approval_program,
		             strerror(errno));
		return;
	}
	/* its yes is the administrator's: no one else may change it */
	struct sluice_error why = { 0 };
	if (path_trust_check(c->approval_program, getuid(), &why) < 0)
		add_error_at(p, set_at(p, "approval", "program"), "[approval] program: %s",
		             why.detail);
}

/* [broker] shell must be a bash: the command model reads COMMAND as bash
 * does, and the policies judge that reading; another shell (or a script
 * that rewrites the command) would run something they never saw. The
 * built-in /bin/bash is no one's choice and is not looked at. */
static void check_shell(struct parse *p)
{
	const char *where = set_at(p, "broker", "shell");
	if (!where)
		return;
	const char *shell = p->cfg->broker_shell;
	_cleanup_free_ char *real = realpath(shell, NULL);
	if (!real) {
		add_error_at(p, where, "[broker] shell '%s': %s", shell, strerror(errno));
		return;
	}
	const char *base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (strcmp(base, "bash") != 0)
		add_error_at(p, where,
		             "[broker] shell '%s' is not bash (it is '%s'): the policies judge "
		             "commands as bash reads them",
		             shell, real);
}

/* What the keys must be together, checked once every layer is read: the
 * output buffers need a tail and output_head + output_tail <= output_cap.
 * The error is at the line that set the key at fault (for the sum:
 * output_cap, else output_head, else output_tail). */
static void check_output_caps(struct parse *p)
{
	const struct broker_config *c = p->cfg;
	uint64_t cap = c->broker_output_cap, head = c->broker_output_head;
	uint64_t tail = c->broker_output_tail;
	if (tail == 0) {
		add_error_at(p, set_at(p, "broker", "output_tail"),
		             "[broker] output_tail must not be 0: the end of the output is kept");
		return;
	}
	if (head <= cap && tail <= cap - head)
		return;
	const char *where = set_at(p, "broker", "output_cap");
	if (!where)
		where = set_at(p, "broker", "output_head");
	if (!where)
		where = set_at(p, "broker", "output_tail");
	char a[32], b[32], d[32];
	format_size(head, a, sizeof(a));
	format_size(tail, b, sizeof(b));
	format_size(cap, d, sizeof(d));
	add_error_at(p, where,
	             "[broker] output_head (%s) + output_tail (%s) must fit in output_cap (%s)", a,
	             b, d);
}

/* The home a leading "~" of [sandbox] writable means: that of the user
 * the commands run as ([sandbox] user), else the caller's ($HOME, else its
 * entry in the user database), as in [sandbox] hide. NULL: none known. */
static const char *writable_home(const struct broker_config *c)
{
	const struct passwd *pw = NULL;
	if (c->sandbox_user && c->sandbox_user[0]) {
		pw = getpwnam(c->sandbox_user);
		return pw && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
	}
	const char *home = getenv("HOME");
	if (home && home[0] == '/')
		return home;
	pw = getpwuid(getuid());
	return pw && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
}

/* A writable path that holds /tmp would cover the sandbox's private /tmp
 * (the launcher refuses it): said here, at its line. */
static void check_writable_not_tmp(struct parse *p, const char *where, const char *path)
{
	_cleanup_free_ char *tmp = realpath("/tmp", NULL);
	_cleanup_free_ char *c = realpath(path, NULL);
	if (!tmp || !c)
		return;
	size_t n = strcmp(c, "/") == 0 ? 0 : strlen(c);
	if (strncmp(tmp, c, n) == 0 && (tmp[n] == '\0' || tmp[n] == '/'))
		add_error_at(p, where,
		             "[sandbox] writable: '%s' holds /tmp, which is the sandbox's "
		             "private /tmp: name a folder in it instead",
		             path);
}

/* [sandbox] writable: "~" and "~/..." expanded to the home, every path
 * absolute and there, so that a mistake is this error, at the line that
 * named the path, and not a launcher that fails every command. */
static void check_writable(struct parse *p)
{
	char **words = p->cfg->sandbox_writable;
	size_t n_at = strv_length(p->writable_at);
	for (size_t i = 0; words && words[i]; i++) {
		const char *where = i < n_at ? p->writable_at[i] : NULL;
		const char *w = words[i];
		if (w[0] == '~' && (w[1] == '\0' || w[1] == '/')) {
			const char *home = writable_home(p->cfg);
			char *full = NULL;
			if (!home) {
				add_error_at(p, where,
				             "[sandbox] writable: '%s' starts with ~, and no home "
				             "directory is known to expand it",
				             w);
				continue;
			}
			if (asprintf(&full, "%s%s", home, w + 1) < 0) {
				add_error_at(p, where, "out of memory");
				return;
			}
			free(words[i]);
			words[i] = full;
		} else if (w[0] != '/') {
			add_error_at(p, where,
			             "[sandbox] writable: '%s' is not an absolute path (nor starts "
			             "with ~/)",
			             w);
			continue;
		}
		struct stat st;
		if (stat(words[i], &st) == 0) {
			check_writable_not_tmp(p, where, words[i]);
			continue;
		}
		if (errno == ENOENT)
			add_error_at(p, where,
			             "[sandbox] writable: '%s' does not exist; create it, or leave "
			             "it out",
			             words[i]);
		else
			add_error_at(p, where, "[sandbox] writable: '%s': %s", words[i],
			             strerror(errno));
	}
}

/* [network] allow: each pattern read as the launcher's proxy reads it, so
 * that a mistake is this error and not a launcher that refuses every
 * command. */
static void check_network_allow(struct parse *p)
{
	char **words = p->cfg->network_allow;
	for (size_t i = 0; words && words[i]; i++) {
		struct egress_rule rule;
		struct sluice_error err = { 0 };
		if (egress_rule_parse(words[i], &rule, &err) < 0)
			add_error_at(p, set_at(p, "network", "allow"), "[network] allow: %s",
			             err.detail);
	}
	if (words && strv_length(words) > RUN_SETTINGS_EGRESS_MAX)
		add_error_at(p, set_at(p, "network", "allow"),
		             "[network] allow: more than %d patterns", RUN_SETTINGS_EGRESS_MAX);
}

static int finish_parse(struct parse *p, int r, struct broker_config **cfg,
                        struct broker_config **ret, char ***ret_errors)
{
	if (r >= 0 && p->n_errors == 0) {
		check_output_caps(p);
		check_approver(p);
		check_shell(p);
		check_writable(p);
		check_network_allow(p);
	}
	if (*cfg)
		(*cfg)->sandbox_mode_configured = set_at(p, "sandbox", "mode") != NULL;
	for (size_t i = 0; i < N_KEYS; i++) {
		free(p->keys[i].file);
		free(p->keys[i].set_at);
	}
	strv_free(p->file_plugins);
	strv_free(p->writable_at);
	if (r >= 0 && p->n_errors > 0)
		r = -EINVAL;
	if (r < 0) {
		if (ret_errors)
			*ret_errors = TAKE_PTR(p->errors);
		strv_free(p->errors);
		return r;
	}
	strv_free(p->errors);
	*ret = TAKE_PTR(*cfg);
	return 0;
}

int config_load(const struct config_paths *paths, struct broker_config **ret, char ***ret_errors)
{
	static const struct config_paths none;
	_cleanup_(config_freep) struct broker_config *cfg = NULL;
	int r = config_new_defaults(&cfg);
	if (r < 0)
		return r;
	struct parse p = { .cfg = cfg };
	r = load_layers(&p, paths ? paths : &none);
	return finish_parse(&p, r, &cfg, ret, ret_errors);
}

int config_load_text(const char *text, size_t len, const char *name, struct broker_config **ret,
                     char ***ret_errors)
{
	_cleanup_(config_freep) struct broker_config *cfg = NULL;
	int r = config_new_defaults(&cfg);
	if (r < 0)
		return r;
	struct parse p = { .cfg = cfg, .file = name, .layer = CONFIG_LAYER_CLI };
	r = ini_source_parse(text, len, &ops, &p);
	if (r == -EFBIG) {
		add_error(&p, 0, "larger than %d bytes", INI_SOURCE_MAX_FILE);
		r = 0;
	}
	return finish_parse(&p, r, &cfg, ret, ret_errors);
}

int config_load_or_log(const char *cli_file, struct broker_config **ret)
{
	struct config_paths paths = { .cli_file = cli_file };
	_cleanup_strv_free_ char **errors = NULL;
	int r = config_load(&paths, ret, &errors);
	if (r == -EINVAL) {
		STRV_FOREACH (e, errors)
			log_error("config: %s", *e);
		log_error("config: refusing the whole configuration (nothing was applied)");
	} else if (r < 0) {
		log_error("config: %s", strerror(-r));
	}
	return r;
}

struct broker_config *config_free(struct broker_config *cfg)
{
	if (!cfg)
		return NULL;
	for (size_t i = 0; i < N_KEYS; i++) {
		void *f = field(cfg, &key_table[i]);
		switch (key_table[i].type) {
		case CONFIG_STRING:
		case CONFIG_PATH:
			free(*(char **)f);
			break;
		case CONFIG_WORDS:
		case CONFIG_ASSIGN:
			strv_free(*(char ***)f);
			break;
		default:
			break;
		}
	}
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
	strv_free(cfg->files);
	strv_free(cfg->warnings);
	strv_free(cfg->config_dirs);
	free(cfg);
	return NULL;
}

static void format_size(uint64_t v, char *buf, size_t size)
{
	static const char *const units[] = { "", "KiB", "MiB", "GiB", "TiB" };
	size_t u = 0;
	while (u + 1 < ELEMENTSOF(units) && v && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, "%llu%s", (unsigned long long)v, units[u]);
}

char *config_format_value(const struct broker_config *cfg, const struct config_key *k, char *buf,
                          size_t size)
{
	const void *f = (const char *)cfg + k->offset;
	uint64_t v;
	buf[0] = '\0';
	switch (k->type) {
	case CONFIG_STRING:
	case CONFIG_PATH:
		snprintf(buf, size, "%s", *(char *const *)f ? *(char *const *)f : "");
		break;
	case CONFIG_DURATION:
	case CONFIG_OPT_DURATION:
		v = *(const uint64_t *)f;
		if (v != CONFIG_UNSET)
			format_duration_ms(v, buf, (unsigned)size);
		break;
	case CONFIG_SIZE:
	case CONFIG_OPT_SIZE:
		v = *(const uint64_t *)f;
		if (v != CONFIG_UNSET)
			format_size(v, buf, size);
		break;
	case CONFIG_OPT_COUNT:
		v = *(const uint64_t *)f;
		if (v != CONFIG_UNSET)
			snprintf(buf, size, "%llu", (unsigned long long)v);
		break;
	case CONFIG_BOOL:
		snprintf(buf, size, "%s", *(const bool *)f ? "yes" : "no");
		break;
	case CONFIG_ENUM: {
		const char *name = key_choice_name(k, *(const int *)f);
		snprintf(buf, size, "%s", name ? name : "?");
		break;
	}
	case CONFIG_WORDS:
	case CONFIG_ASSIGN: {
		size_t used = 0;
		STRV_FOREACH (w, *(char **const *)f) {
			int n = snprintf(buf + used, size - used, "%s%s", used ? " " : "", *w);
			if (n < 0 || (size_t)n >= size - used)
				break;
			used += (size_t)n;
		}
		break;
	}
	}
	return buf;
}
