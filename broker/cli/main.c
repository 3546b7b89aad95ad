/* SPDX-License-Identifier: MIT */
/*
 * sluice: dispatch to the verb named on the command line (broker/cli/verbs.c),
 * once the standard descriptors are open. No logic of its own.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/error-kind.h"
#include "fd-util.h"
#include "log.h"
#include "cli/verbs.h"

int main(int argc, char **argv)
{
	if (fd_open_standard() < 0)
		return EXIT_SLUICE_ERROR; /* not even /dev/null: nowhere to say why */
	if (argc < 2) {
		verbs_print_usage(stderr);
		return EXIT_SLUICE_ERROR;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
		name = "help";
	else if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
		name = "version";

	const struct verb *verb = verb_find(name);
	if (!verb) {
		const char *meant = verb_suggest(name);
		if (meant)
			log_error("unknown verb '%s'; did you mean '%s'? (see 'sluice --help')",
			          argv[1], meant);
		else
			log_error("unknown verb '%s' (see 'sluice --help')", argv[1]);
		return EXIT_SLUICE_ERROR;
	}
	return verb->run(argc - 1, argv + 1);
}
