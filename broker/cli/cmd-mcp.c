/* SPDX-License-Identifier: MIT */
/*
 * `sluice mcp`: the command line of the Model Context Protocol server,
 * checked, and the server started on standard input and output.
 * Not for: the server itself (agent/mcp-server.c).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "cleanup.h"
#include "core/error-kind.h"
#include "log.h"
#include "agent/mcp-server.h"
#include "cli/mcp-verbs.h"
#include "cli/verb-options.h"
#include "parse-number.h"

enum { OPT_DIRECTORY, OPT_SANDBOX, OPT_PROGRESS, OPT_CONFIG };
static const struct verb_option mcp_options[] = {
	[OPT_DIRECTORY] = VERB_OPTION_DIRECTORY,
	[OPT_SANDBOX] = VERB_OPTION_SANDBOX,
	[OPT_PROGRESS] = { "progress-interval", 0, "DURATION",
	                   "how often a running call reports progress (default: 1s)" },
	[OPT_CONFIG] = VERB_OPTION_CONFIG,
};

const struct verb_spec mcp_spec = {
	.name = "mcp",
	.summary = "serve the bash tool over MCP (stdio)",
	.args = "",
	.description = "A Model Context Protocol server on standard input and output.",
	.options = mcp_options,
	.n_options = ELEMENTSOF(mcp_options),
	.flags = VERB_OPTIONS_FIRST | VERB_OPTIONS_ABBREVIATE,
};

/* The options, checked, into *opt; 1 for --help; -EINVAL when they are
 * wrong (logged, and the usage shown). */
static int parse_options(int argc, char **argv, struct mcp_server_options *opt)
{
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	struct sluice_error err = { 0 };
	int r = verb_options_parse(&mcp_spec, argc, argv, &args, &err);
	if (r == 0 && args.help) {
		verb_options_help(stdout, &mcp_spec, NULL);
		return 1;
	}
	const char *progress = r == 0 ? args.values[OPT_PROGRESS] : NULL;
	const char *sandbox = r == 0 ? args.values[OPT_SANDBOX] : NULL;
	opt->has_sandbox = sandbox != NULL;
	struct sluice_error mode_err = { 0 };
	if (r == 0 && sandbox && sandbox_mode_from_name(sandbox, &opt->sandbox, &mode_err) < 0)
		r = sluice_error_set(&err, mode_err.code, "option '--sandbox': %s",
		                     mode_err.detail);
	if (r == 0 && progress &&
	    (parse_duration_ms(progress, UINT64_MAX / 2, &opt->progress_interval_ms) < 0 ||
	     opt->progress_interval_ms == 0))
		r = sluice_error_set(
		        &err, -EINVAL,
		        "option '--progress-interval' must be a duration such as 500ms "
		        "or 2s, not '%s'",
		        progress);
	if (r == 0 && args.n_positionals > 0)
		r = sluice_error_set(&err, -EINVAL, "unexpected argument '%s'",
		                     args.positionals[0]);
	if (r < 0) {
		log_error("mcp: %s", err.detail);
		verb_options_help(stderr, &mcp_spec, NULL);
		return r;
	}
	opt->root = args.values[OPT_DIRECTORY] ? args.values[OPT_DIRECTORY] : ".";
	opt->config_file = args.values[OPT_CONFIG];
	return 0;
}

int cmd_mcp(int argc, char **argv)
{
	struct mcp_server_options opt = { .progress_interval_ms = 1000 };
	int r = parse_options(argc, argv, &opt);
	if (r != 0)
		return r < 0 ? EXIT_SLUICE_ERROR : 0;
	_cleanup_(mcp_server_freep) struct mcp_server *srv = NULL;
	struct sluice_error err = { 0 };
	const char *what = NULL;
	if (mcp_server_new(&opt, &srv, &what, &err) < 0) {
		log_sluice_error(&err, "mcp: %s", what);
		mcp_server_refuse(what, &err);
		return EXIT_SLUICE_ERROR;
	}
	signal(SIGPIPE, SIG_IGN);
	r = mcp_server_serve(srv);
	if (r < 0) {
		log_error("mcp: %s", strerror(-r));
		return EXIT_SLUICE_ERROR;
	}
	return 0;
}
