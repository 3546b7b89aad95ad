/* SPDX-License-Identifier: MIT */
/*
 * `sluice display -- COMMAND`: prints the display form of a command for the
 * current directory (a leading `cd` into it left out; see display.h): as it
 * is into a pipe or file, made inert on a terminal (terminal-text.h).
 * Not for: verdicts (`sluice check`).
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "model/command-model.h"
#include "model/display.h"
#include "core/error-kind.h"
#include "log.h"
#include "util/terminal-text.h"
#include "cli/verb-options.h"
#include "cli/verbs.h"

const struct verb_spec display_spec = {
	.name = "display",
	.summary = "print the display form of a command",
	.args = "[--] COMMAND",
};

int cmd_display(int argc, char **argv)
{
	struct sluice_error err = { 0 };
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	int r = verb_options_parse_or_help(&display_spec, argc, argv, &args);
	if (r != 0)
		return r < 0 ? EXIT_SLUICE_ERROR : 0;
	int status = EXIT_SLUICE_ERROR;
	_cleanup_(command_model_freep) struct command_model *m = NULL;
	_cleanup_free_ char *cwd = getcwd(NULL, 0);
	_cleanup_free_ char *display = NULL;
	if (args.n_positionals != 1) {
		log_error("display: expected one COMMAND (quote it as one argument)");
	} else if (command_model_parse(NULL, args.positionals[0], strlen(args.positionals[0]), NULL,
	                               &m, &err) < 0) {
		log_sluice_error(&err, "display");
	} else if (display_form(m, cwd, &display) < 0) {
		log_error("display: out of memory");
	} else {
		if (isatty(STDOUT_FILENO))
			terminal_safe_write(stdout, display);
		else
			fputs(display, stdout);
		putchar('\n');
		status = fflush(stdout) == 0 ? 0 : EXIT_SLUICE_ERROR;
	}
	return status;
}
