/* SPDX-License-Identifier: MIT */
/*
 * The broker's configuration: built-in defaults, then the system file and
 * its policies.d drop-ins, the user's file and --config, each layer checked
 * whole (every error with file:line, none applied) and the system layer's
 * locks enforced. The result is one struct broker_config, passed down.
 * Not for: loading plugins (plugin-loader.c checks [plugin NAME] keys
 * against what each plugin declares).
 */
#ifndef SLUICE_BROKER_CONFIG_H
#define SLUICE_BROKER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config-keys.h"

/* An OPT_* key left empty. */
#define CONFIG_UNSET UINT64_MAX

/* The ENUM keys' values, in the order of their choices in config-keys.h
 * ([sandbox] mode's is an enum sandbox_mode, its choices made from it). */
enum config_network { CONFIG_NETWORK_DEFAULT, CONFIG_NETWORK_ALLOW, CONFIG_NETWORK_DENY };
enum config_namespace { CONFIG_NAMESPACE_AUTO, CONFIG_NAMESPACE_OFF };
enum config_survivors { CONFIG_SURVIVORS_LEAVE, CONFIG_SURVIVORS_KILL };
enum config_approval { CONFIG_APPROVAL_DENY, CONFIG_APPROVAL_PROGRAM, CONFIG_APPROVAL_TERMINAL };

enum config_layer {
	CONFIG_LAYER_DEFAULT,
	CONFIG_LAYER_SYSTEM,
	CONFIG_LAYER_USER,
	CONFIG_LAYER_CLI
};

/* One "key = value" of a [plugin NAME] section other than path, enabled and
 * user_override; the plugin loader checks it against the plugin's keys. */
struct config_setting {
	char *key;
	char *value;        /* continuation lines joined, with nothing between */
	char *file;         /* the file it came from */
	unsigned line;      /* its first line */
	unsigned continued; /* line of its first continuation line, or 0 */
	/* "LINE:KEY" for each continuation line that reads as "KEY = VALUE":
	 * the plugin loader refuses one whose KEY the plugin has (an indented
	 * key joined onto the value above it, where a new key was meant) */
	char **key_lines;
	enum config_layer layer;
};

struct config_plugin {
	char *name;
	char *path;    /* configured path, or NULL: NAME.so in the plugin directory */
	char *file;    /* where the plugin was first configured, NULL for a built-in */
	unsigned line; /*   default that no file mentions */
	bool builtin;  /* one of the plugins shipped with sluice */
	bool enabled;
	bool user_override; /* the system layer lets user layers disable or re-point it */
	bool in_system;     /* the system layer has a [plugin NAME] section for it */
	bool locked;        /* in_system, enabled after the system layer, no user_override */
	struct config_setting *settings;
	size_t n_settings;
};

#define CONFIG_CTYPE_STRING char *
#define CONFIG_CTYPE_PATH char *
#define CONFIG_CTYPE_DURATION uint64_t
#define CONFIG_CTYPE_SIZE uint64_t
#define CONFIG_CTYPE_BOOL bool
#define CONFIG_CTYPE_ENUM int
#define CONFIG_CTYPE_WORDS char **
#define CONFIG_CTYPE_ASSIGN char **
#define CONFIG_CTYPE_OPT_SIZE uint64_t
#define CONFIG_CTYPE_OPT_DURATION uint64_t
#define CONFIG_CTYPE_OPT_COUNT uint64_t

struct broker_config {
	/* One field per key of config-keys.h, named SECTION_KEY, e.g.
	 * broker_timeout (ms), sandbox_mode (enum sandbox_mode), env_drop. */
#define CONFIG_FIELD(sec, key, type, def, lock, choices, doc) CONFIG_CTYPE_##type sec##_##key;
	CONFIG_KEYS(CONFIG_FIELD)
#undef CONFIG_FIELD

	/* The plugins in chain order: built-ins in their fixed order, then the
	 * others in the order they were first configured. */
	struct config_plugin *plugins;
	size_t n_plugins;

	char **files;    /* the files read, in order */
	char **warnings; /* unsafe ownership or modes of system files (for doctor) */
	/* The directories sluice's own configuration is read from (the system
	 * and the user layer's, whether or not a file is there yet): a
	 * sandboxed command may never write them, nor run in a workspace that
	 * holds them. */
	char **config_dirs;
	/* Whether a layer set [sandbox] mode: without, the built-in default
	 * may fall back where the kernel cannot enforce it. */
	bool sandbox_mode_configured;
};

/* The table behind CONFIG_KEYS, for documentation checks and listings. */
enum config_type {
	CONFIG_STRING,
	CONFIG_PATH,
	CONFIG_DURATION,
	CONFIG_SIZE,
	CONFIG_BOOL,
	CONFIG_ENUM,
	CONFIG_WORDS,
	CONFIG_ASSIGN,
	CONFIG_OPT_SIZE,
	CONFIG_OPT_DURATION,
	CONFIG_OPT_COUNT,
};
enum config_lock { CONFIG_LOCK_FREE, CONFIG_LOCK_SYSTEM, CONFIG_LOCK_APPEND, CONFIG_LOCK_ONLY };

struct config_key {
	const char *section;
	const char *key;
	enum config_type type;
	const char *def;
	enum config_lock lock;
	const char *choices; /* ENUM: "a|b|c"; else NULL */
	const char *doc;
	size_t offset; /* of the field in struct broker_config */
};

/* The key table (static) and its length. */
const struct config_key *config_keys(size_t *ret_n);

/* The built-in plugins: name and whether it is on by default, in chain order
 * (static strings). */
struct config_builtin {
	const char *name;
	bool enabled;
};
const struct config_builtin *config_builtins(size_t *ret_n);

/* Whether the test overrides SLUICE_SYSCONFDIR and SLUICE_PLUGIN_DIR may be
 * honoured: only while no system configuration is installed
 * ($(sysconfdir)/sluice/sluice.ini or policies.d), so that they can never
 * be used to step around the system layer's locks. */
bool config_env_overrides_allowed(void);

/* Where the layers come from; NULL members take the defaults below. */
struct config_paths {
	const char *sysconfdir; /* default: env SLUICE_SYSCONFDIR (see
	                         * config_env_overrides_allowed), else SLUICE_SYSCONFDIR */
	const char *user_file;  /* default: $XDG_CONFIG_HOME (else ~/.config)/sluice/sluice.ini */
	const char *cli_file;   /* --config FILE; must exist when given */
};

/* A place config_load() looks for a layer, in the order it reads them. */
struct config_place {
	char *path;              /* a file, or the drop-in directory */
	enum config_layer layer; /* SYSTEM (the file, then policies.d), USER or CLI */
	bool directory;          /* policies.d: each *.ini in it, in name order */
};

/* Every place config_load(paths) reads, in order, as a new array of *ret_n
 * (free with config_places_free()): the system file, the drop-in
 * directory, the user's file (when HOME or XDG_CONFIG_HOME says where) and
 * --config's. 0 or -ENOMEM. */
int config_search(const struct config_paths *paths, struct config_place **ret, size_t *ret_n);
void config_places_free(struct config_place *places, size_t n);

/*
 * Build the configuration from every layer. On success *ret is a new config
 * (free with config_free()) and 0 is returned. When any file has errors,
 * nothing is applied: -EINVAL is returned and *ret_errors (owned by the
 * caller) holds every error as "FILE:LINE: message", in file order (capped,
 * with a last line saying so). -ENOMEM on allocation failure.
 */
int config_load(const struct config_paths *paths, struct broker_config **ret, char ***ret_errors);

/* The defaults with text (len bytes, named name in errors) read over them
 * as one --config layer; no file is opened. Returns as config_load(). */
int config_load_text(const char *text, size_t len, const char *name, struct broker_config **ret,
                     char ***ret_errors);

/* The built-in defaults alone. */
int config_new_defaults(struct broker_config **ret);

/* For a verb: config_load() with --config FILE (or NULL); logs every error
 * as "sluice: config: FILE:LINE: message" and returns -EINVAL (the verb then
 * reports config_error / exits 125). */
int config_load_or_log(const char *cli_file, struct broker_config **ret);

/* Free a config; accepts NULL; returns NULL. */
struct broker_config *config_free(struct broker_config *cfg);
static inline void config_freep(struct broker_config **cfg)
{
	config_free(*cfg);
}

/* The plugin named name, or NULL (borrowed from cfg). */
const struct config_plugin *config_find_plugin(const struct broker_config *cfg, const char *name);

/* The value of a key as the INI would spell it, into buf ("30s", "128KiB",
 * "yes", "a b c"); returns buf. */
char *config_format_value(const struct broker_config *cfg, const struct config_key *k, char *buf,
                          size_t size);

/* The name of an ENUM value of key (static), or NULL. */
const char *config_choice_name(const char *section, const char *key, int value);

#endif
