/* SPDX-License-Identifier: MIT */
/*
 * A configuration's life: the built-in defaults, a load of every layer
 * (config-layers.c) or of one text, the cross-key checks (config-checks.c)
 * and the verdict of the whole load: handed out only when no file had an
 * error (report all, apply none); and freeing it.
 * The files of config/, one seam each: config-key-table.c (the tables),
 * config-value.c (a key's value), config-parse.c (the INI callbacks and
 * the locks), config-plugins.c ([plugin NAME] sections), config-layers.c
 * (where the layers are, reading them), config-checks.c (keys together).
 * Not for: plugin keys' meaning (plugin-loader.c and the plugins).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "config/broker-config.h"
#include "config/config-checks.h"
#include "config/config-layers.h"
#include "config/config-parse.h"
#include "config/config-plugins.h"
#include "config/config-value.h"
#include "config/ini-source.h"
#include "log.h"
#include "strv.h"

static int set_defaults(struct broker_config *cfg)
{
	size_t n_keys, n_builtins;
	const struct config_key *keys = config_keys(&n_keys);
	const struct config_builtin *builtins = config_builtins(&n_builtins);
	for (size_t i = 0; i < n_keys; i++) {
		const char *why = "";
		int r = config_value_set(cfg, &keys[i], keys[i].def, &why);
		if (r < 0)
			return r; /* a bad default is a bug; the unit test catches it */
	}
	for (size_t i = 0; i < n_builtins; i++) {
		struct config_plugin *pl = config_plugins_add(cfg, builtins[i].name);
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

/* The end of every load: the cross-key checks when the files had no
 * error; release the parse's bookkeeping; with any error recorded, refuse
 * the whole configuration (its errors go to *ret_errors); otherwise hand
 * *cfg out. */
static int finish_parse(struct config_parse *p, int r, struct broker_config **cfg,
                        struct broker_config **ret, char ***ret_errors)
{
	if (r >= 0 && p->n_errors == 0)
		config_checks_run(p);
	if (*cfg)
		(*cfg)->sandbox_mode_configured = config_parse_set_at(p, "sandbox", "mode") != NULL;
	config_parse_done(p);
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
	struct config_parse p = { .cfg = cfg };
	r = config_layers_load(&p, paths ? paths : &none);
	return finish_parse(&p, r, &cfg, ret, ret_errors);
}

int config_load_text(const char *text, size_t len, const char *name, struct broker_config **ret,
                     char ***ret_errors)
{
	_cleanup_(config_freep) struct broker_config *cfg = NULL;
	int r = config_new_defaults(&cfg);
	if (r < 0)
		return r;
	struct config_parse p = { .cfg = cfg, .file = name, .layer = CONFIG_LAYER_CLI };
	r = ini_source_parse(text, len, &config_parse_ops, &p);
	if (r == -EFBIG) {
		config_parse_error(&p, 0, "larger than %d bytes", INI_SOURCE_MAX_FILE);
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
	size_t n_keys;
	const struct config_key *keys = config_keys(&n_keys);
	for (size_t i = 0; i < n_keys; i++) {
		void *f = config_value_field(cfg, &keys[i]);
		switch (keys[i].type) {
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
	config_plugins_free(cfg);
	strv_free(cfg->files);
	strv_free(cfg->warnings);
	strv_free(cfg->config_dirs);
	free(cfg);
	return NULL;
}
