/* SPDX-License-Identifier: MIT */
/*
 * A core key's value: read from its INI text by the key's type into its
 * field of struct broker_config, and spelt back as the INI would
 * (config_format_value() and config_choice_name(), declared in
 * broker-config.h).
 * Not for: whether a layer may set the key (config-parse.c) or what the
 * keys must be together (config-checks.c).
 */
#ifndef SLUICE_CONFIG_VALUE_H
#define SLUICE_CONFIG_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/broker-config.h"

/* Words a WORDS key holds at most. */
#define CONFIG_MAX_WORDS 1024

/* k's field in cfg (borrowed). */
void *config_value_field(struct broker_config *cfg, const struct config_key *k);

/* yes/true/on/1 or no/false/off/0, any case: 0, else -EINVAL. */
int config_value_parse_bool(const char *v, bool *ret);

/* Append the whitespace-separated words of v to *l: 0, -E2BIG past
 * CONFIG_MAX_WORDS (the words before stay), -ENOMEM. */
int config_value_append_words(char ***l, const char *v);

/* Set key k of cfg from its text v (a list key appends, an empty value
 * clears it). 0; -EINVAL for a bad value, with *why (static) saying what
 * was expected; -ENOMEM. */
int config_value_set(struct broker_config *cfg, const struct config_key *k, const char *v,
                     const char **why);

/* v bytes as the INI spells a size ("4096", "128KiB"), into buf. */
void config_value_format_size(uint64_t v, char *buf, size_t size);

#endif
