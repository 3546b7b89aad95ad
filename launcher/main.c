/* SPDX-License-Identifier: MIT */
/*
 * sluice-launch: builds the sandbox around itself, then execs the command.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "log.h"

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("sluice-launch %s\n", PACKAGE_VERSION);
		return 0;
	}
	log_error("not implemented yet");
	return 125;
}
