/* SPDX-License-Identifier: MIT */
/*
 * `sluice check`: the policy verdict for one command (or a JSON Lines batch)
 * without running anything; --explain shows the command model.
 * Not for: running commands (cmd-run.c), or the rules themselves: the verdict
 * is decided in check_decide(), the one place the policy chain plugs in.
 */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker-config.h"
#include "cleanup.h"
#include "command-model.h"
#include "display.h"
#include "error-kind.h"
#include "log.h"
#include "model-explain.h"
#include "policy-chain.h"
#include "request.h"
#include "strbuf.h"
#include "verb-options.h"
#include "verbs.h"
#include "verdict.h"

enum { OPT_EXPLAIN, OPT_FORMAT, OPT_BATCH, OPT_CONFIG };

static const struct verb_option check_options[] = {
	[OPT_EXPLAIN] = { "explain", NULL, "also show how the command was understood" },
	[OPT_FORMAT] = { "format", "text|json", "output format (default: text)" },
	[OPT_BATCH] = { "batch", NULL,
	                "read JSON Lines requests on stdin, print one JSON result per line" },
	[OPT_CONFIG] = { "config", "FILE", "read this configuration file after the others" },
};

static const char check_usage[] =
        "check [--explain] [--format text|json] [--config FILE] [--] COMMAND\n"
        "       sluice check --batch [--config FILE] < requests.jsonl\n\n"
        "Prints the verdict (allow, ask or deny) and the reasons. Exit status: 0 allow,\n"
        "1 deny, 2 ask, 125 error; with --batch: 0, or 125 when any line got an error.";

struct check_settings {
	bool explain;
	bool json;
	const char *cwd;            /* for the display form */
	struct policy_chain *chain; /* the configured plugins */
	struct command_model_parser *parser;
};

/* The verdict for a parsed command: the model's own concerns (limits,
 * partial parse, dynamic names) and every configured plugin, run in the
 * policy chain's child. *rewrite gets a plugin's rewrite of the command. */
static int check_decide(const struct check_settings *s, const struct command_model *m,
                        struct verdict *v, char **rewrite)
{
	int r = policy_chain_decide(s->chain, s->parser, m, v, rewrite);
	return r < 0 ? r : 0;
}

/* The result object: {"verdict", "reasons", "display"} (+ "rewrite",
 * "model"). */
static json_t *result_json(const struct command_model *m, const struct verdict *v,
                           const char *display, const char *rewrite, bool explain)
{
	json_t *o = verdict_to_json(v);
	if (!o)
		return NULL;
	json_object_set_new(o, "display", explain_json_string(display));
	if (rewrite)
		json_object_set_new(o, "rewrite", explain_json_string(rewrite));
	if (explain)
		json_object_set_new(o, "model", model_explain_json(m));
	return o;
}

static int print_json(json_t *o)
{
	/* rendered in one piece, then written once (a batch prints many) */
	char small[4096];
	size_t need = o ? json_dumpb(o, small, sizeof(small), JSON_COMPACT) : 0;
	if (need == 0)
		return -EIO;
	_cleanup_free_ char *big = NULL;
	const char *text = small;
	if (need > sizeof(small)) {
		big = malloc(need);
		if (!big || json_dumpb(o, big, need, JSON_COMPACT) != need)
			return -ENOMEM;
		text = big;
	}
	if (fwrite(text, 1, need, stdout) != need || fputc('\n', stdout) == EOF)
		return -EIO;
	return 0;
}

/* Parse, decide and print one command. Returns the verdict's exit status. */
static int check_one(struct command_model_parser *parser, const char *command, size_t len,
                     const struct check_settings *s)
{
	struct sluice_error err = { 0 };
	_cleanup_(command_model_freep) struct command_model *m = NULL;
	int r = command_model_parse(parser, command, len, NULL, &m, &err);
	if (r < 0) {
		log_sluice_error(&err, "check");
		return EXIT_SLUICE_ERROR;
	}
	struct verdict v;
	verdict_init(&v);
	_cleanup_free_ char *display = NULL, *rewrite = NULL;
	r = check_decide(s, m, &v, &rewrite);
	if (r >= 0)
		r = display_form(m, s->cwd, &display);
	if (r < 0) {
		verdict_done(&v);
		log_error("check: %s", strerror(-r));
		return EXIT_SLUICE_ERROR;
	}
	if (s->json) {
		json_t *o = result_json(m, &v, display, rewrite, s->explain);
		r = print_json(o);
		json_decref(o);
	} else {
		if (s->explain) {
			r = model_explain_text(m, stdout);
			printf("\ndisplay: %s\nverdict: ", display);
		}
		if (r >= 0)
			r = verdict_print_text(&v, stdout);
		if (r >= 0 && rewrite && printf("rewritten to: %s\n", rewrite) < 0)
			r = -EIO;
	}
	int status = verdict_exit_status(&v);
	verdict_done(&v);
	if (r < 0) {
		log_error("check: writing the result: %s", strerror(-r));
		return EXIT_SLUICE_ERROR;
	}
	return status;
}

/* ---------------------------------------------------------------- batch */

/* Read one line (without its newline) into sb, whatever its length up to the
 * cap. Returns 1 for a line, 0 at the end, -E2BIG for a line past the cap
 * (consumed to its end), -ENOMEM. */
static int read_line(FILE *in, struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
	int c, r = 0;
	bool any = false;
	char chunk[512];
	size_t n = 0;
	while ((c = getc_unlocked(in)) != EOF) {
		any = true;
		if (c == '\n')
			break;
		chunk[n++] = (char)c;
		if (n == sizeof(chunk)) {
			if (r == 0)
				r = strbuf_append(sb, chunk, n);
			if (r == -ENOMEM)
				return r;
			n = 0;
		}
	}
	if (n > 0 && r == 0)
		r = strbuf_append(sb, chunk, n);
	if (r == -ENOMEM)
		return r;
	if (!any)
		return 0;
	return r < 0 ? r : 1;
}

static int print_error_line(const char *message)
{
	json_t *o = json_pack("{s:{s:s, s:o}}", "error", "kind",
	                      error_kind_name(ERROR_KIND_INVALID_REQUEST), "message",
	                      explain_json_string(message));
	int r = print_json(o);
	json_decref(o);
	return r;
}

/* One request line: its result line. Returns 1 when the line was refused,
 * 0 when checked, -errno on sluice's own failure. */
static int batch_line(struct command_model_parser *parser, const char *line, size_t len,
                      const struct check_settings *s)
{
	struct sluice_error err = { 0 };
	_cleanup_(run_request_done) struct run_request req = { 0 };
	int r = request_parse(line, len, COMMAND_MODEL_DEFAULT_MAX_COMMAND_BYTES, &req, &err);
	if (r == -EINVAL || r == -E2BIG) {
		r = print_error_line(err.detail);
		return r < 0 ? r : 1;
	}
	if (r < 0)
		return r;
	_cleanup_(command_model_freep) struct command_model *m = NULL;
	r = command_model_parse(parser, req.command, req.command_len, NULL, &m, &err);
	if (r == -EINVAL) {
		r = print_error_line(err.detail);
		return r < 0 ? r : 1;
	}
	if (r < 0)
		return r;
	_cleanup_free_ char *cwd = NULL;
	if (req.directory && s->cwd && asprintf(&cwd, "%s/%s", s->cwd, req.directory) < 0)
		return -ENOMEM;
	struct verdict v;
	verdict_init(&v);
	_cleanup_free_ char *display = NULL, *rewrite = NULL;
	r = check_decide(s, m, &v, &rewrite);
	if (r >= 0)
		r = display_form(m, cwd ? cwd : s->cwd, &display);
	if (r >= 0) {
		json_t *o = result_json(m, &v, display, rewrite, s->explain);
		r = print_json(o);
		json_decref(o);
	}
	verdict_done(&v);
	return r < 0 ? r : 0;
}

static int check_batch(struct command_model_parser *parser, const struct check_settings *s)
{
	struct strbuf line = strbuf_init(REQUEST_DOCUMENT_MAX);
	int status = 0, r;
	while ((r = read_line(stdin, &line)) != 0) {
		if (r == -E2BIG) {
			r = print_error_line("the request line is too long");
			status = EXIT_SLUICE_ERROR;
		} else if (r > 0) {
			r = batch_line(parser, strbuf_str(&line), line.len, s);
			if (r > 0)
				status = EXIT_SLUICE_ERROR;
		}
		if (r < 0)
			break;
		(void)fflush(stdout);
	}
	strbuf_done(&line);
	if (r < 0) {
		log_error("check --batch: %s", strerror(-r));
		return EXIT_SLUICE_ERROR;
	}
	return status;
}

int cmd_check(int argc, char **argv)
{
	struct sluice_error err = { 0 };
	struct verb_args args;
	if (verb_options_parse(check_options, ELEMENTSOF(check_options), argc, argv, &args, &err) <
	    0) {
		log_sluice_error(&err, "check");
		return EXIT_SLUICE_ERROR;
	}
	int status = EXIT_SLUICE_ERROR;
	_cleanup_free_ char *cwd = getcwd(NULL, 0);
	struct check_settings s = {
		.explain = args.values[OPT_EXPLAIN] != NULL,
		.cwd = cwd,
	};
	const char *format = args.values[OPT_FORMAT];
	bool batch = args.values[OPT_BATCH] != NULL;
	struct command_model_parser *parser = NULL;
	_cleanup_(config_freep) struct broker_config *cfg = NULL;
	_cleanup_(policy_chain_freep) struct policy_chain *chain = NULL;
	if (args.help) {
		verb_options_help(stdout, check_usage, check_options, ELEMENTSOF(check_options));
		status = 0;
	} else if (config_load_or_log(args.values[OPT_CONFIG], &cfg) < 0) {
		/* every error was logged, with FILE:LINE */
	} else if (policy_chain_new(cfg, &chain, &err) < 0) {
		log_sluice_error(&err, "check: policy");
	} else if (format && strcmp(format, "json") != 0 && strcmp(format, "text") != 0) {
		log_error("check: unknown format '%s' (text or json)", format);
	} else if (batch && args.n_positionals > 0) {
		log_error("check: --batch reads its commands from stdin, not the command line");
	} else if (!batch && args.n_positionals != 1) {
		log_error("check: expected one COMMAND (quote it as one argument); see 'sluice "
		          "check --help'");
	} else if (command_model_parser_new(&parser) < 0) {
		log_error("check: cannot create the shell parser");
	} else if (batch) {
		s.chain = chain;
		s.parser = parser;
		s.json = true;
		status = check_batch(parser, &s);
	} else {
		s.chain = chain;
		s.parser = parser;
		s.json = format && strcmp(format, "json") == 0;
		status = check_one(parser, args.positionals[0], strlen(args.positionals[0]), &s);
	}
	command_model_parser_free(parser);
	verb_args_done(&args);
	return status;
}
