/* SPDX-License-Identifier: MIT */
/*
 * `sluice display -- COMMAND`: prints the display form of a command for the
 * current directory (a leading `cd` into it left out; see display.h).
 * Not for: verdicts (`sluice check`).
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "command-model.h"
#include "display.h"
#include "error-kind.h"
#include "log.h"
#include "verb-options.h"
#include "verbs.h"

int cmd_display(int argc, char **argv)
{
	struct sluice_error err = { 0 };
	struct verb_args args;
	if (verb_options_parse(NULL, 0, argc, argv, &args, &err) < 0) {
		log_sluice_error(&err, "display");
		return EXIT_SLUICE_ERROR;
	}
	int status = EXIT_SLUICE_ERROR;
	_cleanup_(command_model_freep) struct command_model *m = NULL;
	_cleanup_free_ char *cwd = getcwd(NULL, 0);
	_cleanup_free_ char *display = NULL;
	if (args.help) {
		verb_options_help(stdout, "display [--] COMMAND", NULL, 0);
		status = 0;
	} else if (args.n_positionals != 1) {
		log_error("display: expected one COMMAND (quote it as one argument)");
	} else if (command_model_parse(NULL, args.positionals[0], strlen(args.positionals[0]), NULL,
	                               &m, &err) < 0) {
		log_sluice_error(&err, "display");
	} else if (display_form(m, cwd, &display) < 0) {
		log_error("display: out of memory");
	} else {
		printf("%s\n", display);
		status = 0;
	}
	verb_args_done(&args);
	return status;
}
