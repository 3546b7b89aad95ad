/* SPDX-License-Identifier: MIT */
/*
 * `sluice schema`: the tool definition a model is given: the request's JSON
 * schema, and a description naming the working directory, the limits and,
 * in a sandboxed mode, what the sandbox forbids.
 * Not for: validating requests (request.c is the one door for that).
 */
#include "config.h"

#include <getopt.h>
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
#include "agent/tool-schema.h"
#include "run/workdir.h"

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
	static const struct option options[] = {
		{ "directory", required_argument, NULL, 'C' },
		{ "sandbox", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ "request", no_argument, NULL, 'q' },
		{ "result", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct run_settings s;
	const char *root = ".", *sandbox = NULL, *config = NULL;
	int only = 0; /* 'q': the request's schema alone, 'r': the result's */
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+hC:", options, NULL)) >= 0) {
		if (c == 'C')
			root = optarg;
		else if (c == 's')
			sandbox = optarg;
		else if (c == 'c')
			config = optarg;
		else if (c == 'q' || c == 'r')
			only = c;
		else {
			fprintf(c == 'h' ? stdout : stderr,
			        "Usage: sluice schema [-C DIR] [--sandbox MODE] [--config FILE]\n"
			        "       sluice schema --request|--result [--config FILE]\n");
			return c == 'h' ? 0 : EXIT_SLUICE_ERROR;
		}
	}
	if (optind < argc) {
		log_error("schema: unexpected argument '%s'", argv[optind]);
		return EXIT_SLUICE_ERROR;
	}
	_cleanup_(broker_context_freep) struct broker_context *ctx = NULL;
	if (broker_context_open_or_log(config, &s, &ctx, "schema") < 0)
		return EXIT_SLUICE_ERROR;
	struct sluice_error err = { 0 };
	if (sandbox && runner_choose_sandbox(&s, sandbox, &err) < 0) {
		log_sluice_error(&err, "schema: option '--sandbox'");
		return EXIT_SLUICE_ERROR;
	}
	if (only) {
		json_t *schema = only == 'q' ? tool_schema_input(&s) : tool_schema_output();
		return print_json(schema);
	}
	_cleanup_free_ char *abs_root = NULL, *dir = NULL;
	if (workdir_resolve(root, NULL, &abs_root, &dir, &err) < 0) {
		log_sluice_error(&err, "schema");
		return EXIT_SLUICE_ERROR;
	}
	_cleanup_free_ char *desc = tool_schema_description(&s, abs_root);
	json_t *tool = desc ? json_pack("{s:s, s:s, s:o}", "name", "bash", "description", desc,
	                                "input_schema", tool_schema_input(&s))
	                    : NULL;
	return print_json(tool);
}
