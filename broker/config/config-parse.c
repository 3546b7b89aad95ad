/* SPDX-License-Identifier: MIT */
/*
 * The INI reader's callbacks for one configuration load: sections, core
 * keys checked against the layer's locks and set, indented continuation
 * lines, and every error recorded with file:line while parsing goes on
 * (config_load() then refuses the whole configuration).
 * Not for: which files are read (config-layers.c), [plugin NAME] keys
 * (config-plugins.c), the value of a key (config-value.c).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "config/config-parse.h"
#include "config/config-plugins.h"
#include "config/config-value.h"
#include "strv.h"
#include "suggest.h"

/* ------------------------------------------------------------ errors */

/* An error at where ("file:line", or a file's name). */
static void add_error_v(struct config_parse *p, const char *where, const char *fmt, va_list ap)
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

void config_parse_error(struct config_parse *p, unsigned line, const char *fmt, ...)
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

void config_parse_error_at(struct config_parse *p, const char *where, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_error_v(p, where ? where : "built-in defaults", fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ state */

void config_parse_begin_file(struct config_parse *p, const char *display)
{
	p->file = display;
	p->section = NULL;
	p->plugin = NULL;
	p->section_bad = false;
	p->cont_kind = CONT_NONE;
	p->file_plugins = strv_free(p->file_plugins);
	for (size_t i = 0; i < CONFIG_N_KEYS; i++)
		p->keys[i].line_in_file = 0;
}

const char *config_parse_set_at(const struct config_parse *p, const char *section, const char *key)
{
	const struct config_key *k = config_key_find(section, key);
	return k ? p->keys[config_key_index(k)].set_at : NULL;
}

void config_parse_done(struct config_parse *p)
{
	for (size_t i = 0; i < CONFIG_N_KEYS; i++) {
		free(p->keys[i].file);
		free(p->keys[i].set_at);
	}
	p->file_plugins = strv_free(p->file_plugins);
	p->writable_at = strv_free(p->writable_at);
}

/* ------------------------------------------------------------ sections */

static void on_section(void *user, const char *name, unsigned line)
{
	struct config_parse *p = user;
	p->section = NULL;
	p->plugin = NULL;
	p->section_bad = true;
	p->cont_kind = CONT_NONE;
	if (!name)
		return;
	const char *core = config_section_find(name);
	if (core) {
		p->section = core;
		p->section_bad = false;
		return;
	}
	if (strncmp(name, "plugin ", 7) == 0) {
		config_plugins_open_section(p, name, name + 7, line);
		return;
	}
	size_t n_sections;
	const char *const *sections = config_sections(&n_sections);
	struct suggestion s;
	suggestion_init(&s, name);
	for (size_t i = 0; i < n_sections; i++)
		suggestion_consider(&s, sections[i]);
	const char *meant = suggestion_best(&s);
	char known[128] = "";
	for (size_t i = 0, o = 0; i < n_sections && o < sizeof(known); i++)
		o += (size_t)snprintf(known + o, sizeof(known) - o, "[%s], ", sections[i]);
	if (meant)
		config_parse_error(p, line, "unknown section [%s]; did you mean [%s]?", name,
		                   meant);
	else
		config_parse_error(p, line,
		                   "unknown section [%s] (the sections are %s[plugin NAME])", name,
		                   known);
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
 * came from, for config-checks.c's errors; an empty value cleared them. */
static void note_writable(struct config_parse *p, const struct config_key *k, size_t before,
                          unsigned line)
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
			config_parse_error(p, line, "out of memory");
}

static void continue_value(struct config_parse *p, const char *key, const char *value,
                           unsigned line)
{
	if (p->cont_kind == CONT_NONE || strcmp(p->cont_key, key) != 0) {
		config_parse_error(p, line, "indented line continues nothing");
		return;
	}
	size_t keylike = keylike_len(value);
	if (keylike && p->cont_kind != CONT_SETTING) {
		char word[INI_SOURCE_MAX_NAME + 1];
		snprintf(word, sizeof(word), "%.*s", (int)keylike, value);
		if (config_key_find(p->section, word)) {
			config_parse_error(
			        p, line,
			        "indented '%s' is joined onto '%s' above it as a "
			        "continuation; start the line at its beginning to set '%s'",
			        word, key, word);
			return;
		}
	}
	if (p->cont_kind == CONT_SCALAR) {
		config_parse_error(
		        p, line,
		        "'%s' takes one line: only indent lines that continue a long value", key);
		return;
	}
	if (p->cont_kind == CONT_WORDS) {
		char ***words = config_value_field(p->cfg, p->cont_core);
		size_t before = strv_length(*words);
		if (config_value_append_words(words, value) < 0)
			config_parse_error(p, line, "too many words for '%s'", key);
		note_writable(p, p->cont_core, before, line);
		return;
	}
	config_plugins_continue(p, value, keylike, line);
}

/* "unknown key" in a core section, with what was perhaps meant: a key of
 * that section spelt alike, or the same key in the section it belongs to. */
static void report_unknown_key(struct config_parse *p, const char *key, unsigned line)
{
	size_t n_keys;
	const struct config_key *keys = config_keys(&n_keys);
	struct suggestion s;
	suggestion_init(&s, key);
	const char *elsewhere = NULL;
	for (size_t i = 0; i < n_keys; i++) {
		if (strcmp(keys[i].section, p->section) == 0)
			suggestion_consider(&s, keys[i].key);
		else if (strcmp(keys[i].key, key) == 0)
			elsewhere = keys[i].section;
	}
	const char *meant = suggestion_best(&s);
	if (meant)
		config_parse_error(p, line, "unknown key '%s' in [%s]; did you mean '%s'?", key,
		                   p->section, meant);
	else if (elsewhere)
		config_parse_error(p, line, "unknown key '%s' in [%s]; it belongs in [%s]", key,
		                   p->section, elsewhere);
	else
		config_parse_error(p, line, "unknown key '%s' in [%s]", key, p->section);
}

/* The key of the system layer that keeps a user layer from setting k, when
 * the system layer set it; else NULL. */
static const struct config_key *locked_by(const struct config_parse *p, const struct config_key *k)
{
	size_t n;
	const struct config_lock_by *locks = config_locks_by(&n);
	for (size_t i = 0; i < n; i++) {
		const struct config_lock_by *l = &locks[i];
		if (strcmp(l->section, k->section) != 0 || strcmp(l->key, k->key) != 0)
			continue;
		const struct config_key *by = config_key_find(l->by_section, l->by_key);
		if (by && p->keys[config_key_index(by)].layer == CONFIG_LAYER_SYSTEM)
			return by;
	}
	return NULL;
}

/* Whether the current layer may set k to value, given the system layer's
 * locks; when not, the error is recorded. */
static bool layer_may_set(struct config_parse *p, const struct config_key *k, const char *value,
                          unsigned line)
{
	if (p->layer < CONFIG_LAYER_USER)
		return true;
	const struct config_key_state *ks = &p->keys[config_key_index(k)];
	if (k->lock == CONFIG_LOCK_ONLY) {
		/* what a user could use to step around the administrator's
		 * policies (the shell, the approver) is the administrator's alone */
		const struct config_unlock *u = config_key_unlock(k);
		if (!u || !*(bool *)((char *)p->cfg + u->unlock)) {
			config_parse_error(
			        p, line,
			        "'%s' in [%s] is read only from the system configuration%s%s%s",
			        k->key, p->section, u ? " (unless it sets " : "",
			        u ? u->unlock_name : "", u ? " = yes)" : "");
			return false;
		}
	}
	const struct config_key *by = locked_by(p, k);
	if (by) {
		config_parse_error(p, line,
		                   "'%s' in [%s] cannot be set here: the system configuration (%s) "
		                   "sets [%s] %s",
		                   k->key, p->section, p->keys[config_key_index(by)].file,
		                   by->section, by->key);
		return false;
	}
	if (ks->layer != CONFIG_LAYER_SYSTEM)
		return true;
	if (k->lock == CONFIG_LOCK_SYSTEM) {
		config_parse_error(
		        p, line,
		        "'%s' in [%s] is set by the system configuration (%s) and cannot "
		        "be changed here",
		        k->key, p->section, ks->file);
		return false;
	}
	if (k->lock == CONFIG_LOCK_APPEND && !*value) {
		config_parse_error(
		        p, line,
		        "'%s' in [%s] is set by the system configuration (%s): words can "
		        "be added, not cleared",
		        k->key, p->section, ks->file);
		return false;
	}
	return true;
}

/* After k was set at line: where, and by which layer (a system setting
 * stays the system's, for the locks). */
static void note_set(struct config_parse *p, const struct config_key *k, unsigned line)
{
	struct config_key_state *ks = &p->keys[config_key_index(k)];
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

static void core_entry(struct config_parse *p, const char *key, const char *value, unsigned line)
{
	const struct config_key *k = config_key_find(p->section, key);
	if (!k) {
		report_unknown_key(p, key, line);
		return;
	}
	p->cont_kind = k->type == CONFIG_WORDS ? CONT_WORDS : CONT_SCALAR;
	p->cont_key = k->key;
	p->cont_core = k;
	struct config_key_state *ks = &p->keys[config_key_index(k)];
	bool list = k->type == CONFIG_WORDS || k->type == CONFIG_ASSIGN;
	if (ks->line_in_file && !list) {
		config_parse_error(p, line, "duplicate key '%s' in [%s] (first at line %u)", key,
		                   p->section, ks->line_in_file);
		return;
	}
	ks->line_in_file = line;
	if (!layer_may_set(p, k, value, line))
		return;
	const char *why = "";
	char ***words = config_value_field(p->cfg, k);
	size_t before = k->type == CONFIG_WORDS ? strv_length(*words) : 0;
	int r = config_value_set(p->cfg, k, value, &why);
	if (r >= 0 && k->type == CONFIG_WORDS)
		note_writable(p, k, *value ? before : SIZE_MAX, line);
	if (r == -ENOMEM) {
		config_parse_error(p, line, "out of memory");
		return;
	}
	if (r < 0) {
		config_parse_error(p, line, "bad value '%s' for '%s' in [%s]: expected %s", value,
		                   key, p->section, why);
		return;
	}
	note_set(p, k, line);
}

static void on_entry(void *user, const char *section, const char *key, const char *value,
                     unsigned line, bool continuation)
{
	struct config_parse *p = user;
	(void)section;
	if (p->section_bad)
		return; /* the section's own error was reported */
	if (!p->section && !p->plugin) {
		config_parse_error(p, line, "key '%s' outside any section", key);
		return;
	}
	if (continuation) {
		continue_value(p, key, value, line);
		return;
	}
	if (p->plugin)
		config_plugins_entry(p, key, value, line);
	else
		core_entry(p, key, value, line);
}

static void on_error(void *user, unsigned line, const char *message)
{
	config_parse_error(user, line, "%s", message);
}

const struct ini_source_ops config_parse_ops = {
	.on_section = on_section,
	.on_entry = on_entry,
	.on_error = on_error,
};
