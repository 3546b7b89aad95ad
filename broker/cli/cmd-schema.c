/* SPDX-License-Identifier: MIT */
/*
 * `sluice schema`: the tool definition a model is given: the request's JSON
 * schema, and a description naming the working directory, the limits and,
 * in a sandboxed mode, what the sandbox forbids.
 * Not for: validating requests (request.c is the one door for that).
 */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/broker-context.h"
#include "cleanup.h"
#include "run/runner.h"
#include "core/error-kind.h"
#include "log.h"
#include "parse-number.h"
#include "run/result.h"
#include "core/run-settings.h"
#include "cli/run-verbs.h"
#include "cli/verb-options.h"
#include "agent/tool-schema.h"
#include "run/workdir.h"

enum { OPT_DIRECTORY, OPT_SANDBOX, OPT_CONFIG, OPT_REQUEST, OPT_RESULT };
static const struct verb_option schema_options[] = {
	[OPT_DIRECTORY] = VERB_OPTION_DIRECTORY,
	[OPT_SANDBOX] = VERB_OPTION_SANDBOX,
	[OPT_CONFIG] = VERB_OPTION_CONFIG,
	[OPT_REQUEST] = { "request", 0, NULL,
	                  "print only the request's JSON schema (with the configured maximum "
	                  "timeout)" },
	[OPT_RESULT] = { "result", 0, NULL, "print only the result's JSON schema" },
};

const struct verb_spec schema_spec = {
	.name = "schema",
	.summary = "print the tool definition",
	.args = "",
	.description = "The request's and the result's schemas are also installed as files, in\n"
	               "the schema folder of sluice's data directory (sluice(1), FILES).",
	.options = schema_options,
	.n_options = ELEMENTSOF(schema_options),
	.flags = VERB_OPTIONS_FIRST | VERB_OPTIONS_ABBREVIATE,
};

/* Print j (taken; NULL: out of memory) indented; the exit status. */
static int print_json(json_t *j)
{
	if (!j) {
		log_error("schema: out of memory");
		return EXIT_SLUICE_ERROR;
	}
	int r = json_dumpf(j, stdout, JSON_INDENT(2));
	fputc('\n', stdout);
	json_decref(j);
	return r < 0 || fflush(stdout) != 0 ? EXIT_SLUICE_ERROR : 0;
}

int cmd_schema(int argc, char **argv)
{
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	int r = verb_options_parse_or_help(&schema_spec, argc, argv, &args);
	if (r != 0)
		return r < 0 ? EXIT_SLUICE_ERROR : 0;
	if (args.n_positionals > 0) {
		log_error("schema: unexpected argument '%s'", args.positionals[0]);
		return EXIT_SLUICE_ERROR;
	}
	if (args.values[OPT_REQUEST] && args.values[OPT_RESULT]) {
		log_error("schema: --request and --result exclude each other");
		return EXIT_SLUICE_ERROR;
	}
	const char *root = args.values[OPT_DIRECTORY] ? args.values[OPT_DIRECTORY] : ".";
	const char *sandbox = args.values[OPT_SANDBOX], *config = args.values[OPT_CONFIG];
	struct sluice_error err = { 0 };
	enum sandbox_mode mode;
	if (sandbox && sandbox_mode_from_name(sandbox, &mode, &err) < 0) {
		log_sluice_error(&err, "schema: option '--sandbox'");
		return EXIT_SLUICE_ERROR;
	}
	struct run_settings s;
	_cleanup_(broker_context_freep) struct broker_context *ctx = NULL;
	if (broker_context_open_or_log(config, &s, &ctx, "schema") < 0)
		return EXIT_SLUICE_ERROR;
	if (sandbox && run_settings_choose_sandbox(&s, mode, &err) < 0) {
		log_sluice_error(&err, "schema: option '--sandbox'");
		return EXIT_SLUICE_ERROR;
	}
	if (args.values[OPT_REQUEST])
		return print_json(tool_schema_input(&s));
	if (args.values[OPT_RESULT])
		return print_json(tool_schema_result());
	_cleanup_free_ char *abs_root = NULL, *dir = NULL;
	if (workdir_resolve(root, NULL, &abs_root, &dir, &err) < 0) {
		log_sluice_error(&err, "schema");
		return EXIT_SLUICE_ERROR;
	}
	_cleanup_free_ char *desc = tool_schema_description(&s, abs_root, TOOL_SCHEMA_JOBS_VERBS);
	json_t *tool = desc ? json_pack("{s:s, s:s, s:o}", "name", "bash", "description", desc,
	                                "input_schema", tool_schema_input(&s))
	                    : NULL;
	return print_json(tool);
}
