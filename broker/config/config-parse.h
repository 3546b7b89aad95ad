/* SPDX-License-Identifier: MIT */
/*
 * The state of one configuration load and the INI reader's callbacks that
 * fill it: which file, layer and section are being read, where each core
 * key was set, what an indented line continues, and every error so far
 * ("report all, apply none": errors are recorded and parsing goes on).
 * Shared by the files of config/ only; the rest of the broker sees
 * broker-config.h.
 * Not for: finding the files (config-layers.c), the [plugin NAME]
 * sections' own keys (config-plugins.c), values (config-value.c).
 */
#ifndef SLUICE_CONFIG_PARSE_H
#define SLUICE_CONFIG_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "config/broker-config.h"
#include "config/config-key-table.h"
#include "config/ini-source.h"

/* Errors reported per load; one more says the rest are not shown. */
#define CONFIG_MAX_ERRORS 50

/* Where a core key was set. */
struct config_key_state {
	enum config_layer layer; /* layer that last set it */
	char *file;              /* "file:line" where the system layer set it */
	char *set_at;            /* "file:line" where any layer last set it, or NULL */
	unsigned line_in_file;   /* line in the current file, 0 when not set there */
};

/* What an indented continuation line continues. */
enum config_continued { CONT_NONE, CONT_SCALAR, CONT_WORDS, CONT_SETTING };

struct config_parse {
	struct broker_config *cfg;
	char **errors;
	size_t n_errors;
	const char *file;
	enum config_layer layer;
	/* the current section: a core section, a plugin, or ignored */
	const char *section;
	struct config_plugin *plugin;
	bool section_bad;
	struct config_key_state keys[CONFIG_N_KEYS];
	enum config_continued cont_kind;
	const char *cont_key;
	const struct config_key *cont_core;
	/* plugin sections seen in the current file, as "LINE:NAME" */
	char **file_plugins;
	/* "file:line" of each word of [sandbox] writable, in its order */
	char **writable_at;
};

/* The INI reader's callbacks; their user pointer is a struct config_parse. */
extern const struct ini_source_ops config_parse_ops;

/* Before reading the file display into p: no section, no key set in it. */
void config_parse_begin_file(struct config_parse *p, const char *display);

/* Record an error at line of the current file (0: the file itself). */
void config_parse_error(struct config_parse *p, unsigned line, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* Record an error at where ("file:line"; NULL: the built-in defaults). */
void config_parse_error_at(struct config_parse *p, const char *where, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* "file:line" where key of [section] was last set, or NULL: its default
 * (borrowed from p). */
const char *config_parse_set_at(const struct config_parse *p, const char *section, const char *key);

/* Release p's bookkeeping, not its errors nor its config. */
void config_parse_done(struct config_parse *p);

#endif
