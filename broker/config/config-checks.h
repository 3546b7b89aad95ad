/* SPDX-License-Identifier: MIT */
/*
 * The checks across keys, run once every layer of a load is read: what
 * the keys must be together and what the files they name must be.
 * Not for: one key's value (config-value.c).
 */
#ifndef SLUICE_CONFIG_CHECKS_H
#define SLUICE_CONFIG_CHECKS_H

#include "config/config-parse.h"

/* Check p->cfg whole; every fault is recorded in p, at the line that set
 * the key at fault (the built-in defaults when none did). */
void config_checks_run(struct config_parse *p);

#endif
