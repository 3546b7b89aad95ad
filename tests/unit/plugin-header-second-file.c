/* SPDX-License-Identifier: MIT */
/*
 * The second source file of a plugin, for test-plugin-header: it includes
 * sluice/policy.h and calls a wrapper, but never calls sluice_init -- the
 * first file did.
 * Not for: anything else.
 */
#include "sluice/policy.h"

const char *second_file_name_of(const struct sluice_simple_command *sc);

const char *second_file_name_of(const struct sluice_simple_command *sc)
{
	return sluice_name(sc);
}
