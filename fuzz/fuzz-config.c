/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the configuration reader: arbitrary bytes as an INI
 * file through ini-source.c and broker-config.c. Either a config or a list
 * of errors must come back, with nothing leaked and nothing read out of
 * bounds. Built by fuzz/build-config.sh; run with `make fuzz-config-smoke`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "config/broker-config.h"
#include "strv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct broker_config *cfg = NULL;
	char **errors = NULL;
	int r = config_load_text((const char *)data, size, "fuzz.ini", &cfg, &errors);
	if (r == 0 && (!cfg || errors))
		abort(); /* success means a config and no errors */
	if (r == -22 && (cfg || !errors || !errors[0]))
		abort(); /* -EINVAL means errors and no config */
	config_free(cfg);
	strv_free(errors);
	return 0;
}
