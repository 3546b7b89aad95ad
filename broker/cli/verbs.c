/* SPDX-License-Identifier: MIT */
/*
 * sluice's verbs as one table. Adding a verb is one row here and one
 * cmd-<verb>.c file.
 */
#include "config.h"

#include <string.h>

#include "cleanup.h"
#include "core/error-kind.h"
#include "log.h"
#include "suggest.h"
#include "cli/mcp-verbs.h"
#include "cli/run-verbs.h"
#include "cli/verb-options.h"
#include "cli/verbs.h"

static int cmd_version(int argc, char **argv)
{
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	int r = verb_options_parse_or_help("version", "version", NULL, 0, argc, argv, &args);
	if (r != 0)
		return r < 0 ? EXIT_SLUICE_ERROR : 0;
	if (args.n_positionals > 0) {
		log_error("version: unexpected argument '%s'", args.positionals[0]);
		return EXIT_SLUICE_ERROR;
	}
	printf("%s\n", PACKAGE_STRING);
	return 0;
}

/* `sluice help [VERB]`: the list of verbs, or VERB's own --help. */
static int cmd_help(int argc, char **argv)
{
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	int r = verb_options_parse_or_help("help", "help [VERB]", NULL, 0, argc, argv, &args);
	if (r != 0)
		return r < 0 ? EXIT_SLUICE_ERROR : 0;
	if (args.n_positionals > 1) {
		log_error("help: unexpected argument '%s'", args.positionals[1]);
		return EXIT_SLUICE_ERROR;
	}
	if (args.n_positionals == 0) {
		verbs_print_usage(stdout);
		return 0;
	}
	const struct verb *verb = verb_find(args.positionals[0]);
	if (!verb) {
		const char *meant = verb_suggest(args.positionals[0]);
		log_error("help: unknown verb '%s'%s%s%s", args.positionals[0],
		          meant ? "; did you mean '" : "", meant ? meant : "", meant ? "'?" : "");
		return EXIT_SLUICE_ERROR;
	}
	char *help_argv[] = { (char *)verb->name, (char *)"--help", NULL };
	return verb->run(2, help_argv);
}

static const struct verb verbs[] = {
	{ "run", cmd_run, "run one command through the policies and the sandbox" },
	{ "check", cmd_check, "the policy verdict for a command, without running it" },
	{ "display", cmd_display, "print the display form of a command" },
	{ "jobs", cmd_jobs, "list background jobs" },
	{ "logs", cmd_logs, "print a background job's output" },
	{ "kill", cmd_kill, "end a background job's whole process tree" },
	{ "mcp", cmd_mcp, "serve the bash tool over MCP on standard input and output" },
	{ "hook", cmd_hook, "answer an agent's pre-tool hook (claude-code, gemini)" },
	{ "schema", cmd_schema, "print the tool definition a model is shown" },
	{ "doctor", cmd_doctor, "report the configuration read and what this machine supports" },
	{ "plugins", cmd_plugins, "list the plugins, where each came from, and its settings" },
	{ "help", cmd_help, "print this list, or a verb's options" },
	{ "version", cmd_version, "print the version" },
};

const struct verb *verb_find(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		if (strcmp(verbs[i].name, name) == 0)
			return &verbs[i];
	return NULL;
}

const char *verb_suggest(const char *name)
{
	struct suggestion s;
	suggestion_init(&s, name);
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		suggestion_consider(&s, verbs[i].name);
	return suggestion_best(&s);
}

void verbs_print_usage(FILE *out)
{
	fprintf(out, "Usage: sluice VERB [OPTIONS] [ARGS]\n"
	             "       sluice -h|--help|-V|--version\n\nVerbs:\n");
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		fprintf(out, "  %-9s %s\n", verbs[i].name, verbs[i].summary);
	fprintf(out,
	        "\nOptions:\n  -h, --help     print this list\n"
	        "  -V, --version  print the version\n"
	        "\nRun 'sluice VERB --help' for a verb's options; 'man sluice' for all of them.\n");
}
