/* SPDX-License-Identifier: MIT */
/*
 * Reading every layer of the configuration, in order, into one parse
 * (config_search(), config_places_free() and config_env_overrides_allowed()
 * are declared in broker-config.h).
 * Not for: what a file says (config-parse.c).
 */
#ifndef SLUICE_CONFIG_LAYERS_H
#define SLUICE_CONFIG_LAYERS_H

#include "config/broker-config.h"
#include "config/config-parse.h"

/* Read every place config_search(paths) names into p, the system layer's
 * plugins locked before the user layers. A missing file is skipped, but
 * for --config's; a file's faults are recorded in p. 0, or -ENOMEM. */
int config_layers_load(struct config_parse *p, const struct config_paths *paths);

#endif
