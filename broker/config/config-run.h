/* SPDX-License-Identifier: MIT */
/*
 * The bridge from the configuration to `sluice run`'s settings: fills a
 * struct run_settings from a struct broker_config, so that run, jobs and
 * doctor work from what the administrator configured.
 * Not for: reading INI (broker-config.c and the files it names) or running anything.
 */
#ifndef SLUICE_CONFIG_RUN_H
#define SLUICE_CONFIG_RUN_H

#include "config/broker-config.h"
#include "model/command-model.h"
#include "errors.h"
#include "core/run-settings.h"

/* Text the settings borrow that the configuration does not hold as text
 * (rlimits as the launcher reads them); must outlive the settings. */
struct config_run_text {
	char rlimit[RUN_SETTINGS_RLIMITS_MAX][32];
};

/*
 * Fill *s from cfg (start from run_settings_init_defaults(), then every
 * [broker], [sandbox] and [env] key). Where no layer chose the sandbox mode
 * and this kernel has no Landlock, the built-in default falls back to
 * unrestricted, saying why in s->sandbox_fallback: this is the one place
 * it does. Strings are borrowed from cfg and text, which must outlive s. Returns 0, or -E2BIG when a list holds more
 * than run_settings can (reterr names the key).
 */
int config_to_run_settings(const struct broker_config *cfg, struct run_settings *s,
                           struct config_run_text *text, struct sluice_error *reterr);

/* The command model's limits under cfg: the defaults, with the size limit
 * raised to max_command_size when that is larger, so that every command a
 * request may hold is examined whole. */
void config_model_limits(const struct broker_config *cfg, struct command_model_limits *limits);

/* A new parser with those limits: 0, or -ENOMEM. */
int config_parser_new(const struct broker_config *cfg, struct command_model_parser **ret);

#endif
