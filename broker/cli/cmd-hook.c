/* SPDX-License-Identifier: MIT */
/*
 * `sluice hook claude-code|gemini|codex [--route] [--sandbox MODE]`: an
 * agent's hook. Reads the payload on stdin; for the agent's shell tool,
 * answers with the policy's verdict; other tools pass. Fails closed: any
 * error exits 2, the one status every protocol reads as "block".
 * With --route an allowed command is replaced by a `sluice run` of the very
 * same text, passed as a JSON request in one single-quoted word that holds
 * no quote, so no quoting layer can change it.
 * Not for: the protocols' shapes (hook-adapter.c) or the verdict (broker-context.c).
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "agent/hook-adapter.h"
#include "agent/hook-check.h"
#include "policy/broker-context.h"
#include "log.h"
#include "cli/mcp-verbs.h"
#include "core/error-kind.h"
#include "core/request.h"
#include "core/run-settings.h"
#include "run/runner.h"
#include "cli/verb-options.h"
#include "run/workdir.h"

/* The only status that blocks in every protocol. */
#define EXIT_HOOK_BLOCK 2

struct hook_options {
	const struct hook_protocol *protocol;
	bool route;
	bool check;          /* --check: say whether the agent would run this hook */
	const char *program; /* --check: the agent's program */
	const char *sandbox; /* passed on to the routed `sluice run` */
	const char *config;  /* --config FILE, also passed on */
};

/* Block with a message for the model (stderr is shown as the reason). */
__attribute__((format(printf, 1, 2))) static int block(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "sluice hook: blocked, because ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return EXIT_HOOK_BLOCK;
}

enum { OPT_ROUTE, OPT_SANDBOX, OPT_CHECK, OPT_PROGRAM, OPT_CONFIG };
static const struct verb_option hook_option_table[] = {
	[OPT_ROUTE] = { "route", 0, NULL, "replace an allowed command by a `sluice run` of it" },
	[OPT_SANDBOX] = { "sandbox", 0, "MODE",
	                  "the routed run's sandbox: unrestricted, workspace-write, restricted" },
	[OPT_CHECK] = { "check", 0, NULL,
	                "say whether the agent, started here, would run this hook (exit 0) or "
	                "not (exit 1)" },
	[OPT_PROGRAM] = { "program", 0, "PATH", "--check codex: Codex's program (default: codex)" },
	[OPT_CONFIG] = VERB_OPTION_CONFIG,
};

const struct verb_spec hook_spec = {
	.name = "hook",
	.summary = "answer an agent's pre-tool hook",
	.args = "AGENT < payload.json",
	.options = hook_option_table,
	.n_options = ELEMENTSOF(hook_option_table),
};

/* The help, naming the agents (known only from the adapters' table). */
static void usage(FILE *f)
{
	char args[128];
	snprintf(args, sizeof(args), "%s < payload.json", hook_protocol_names());
	verb_options_help(f, &hook_spec, args);
}

/* A string of ours in single quotes; refused when it holds a quote (no
 * escaping layer at all, so nothing to get wrong). */
static int quoted(const char *s, char *buf, size_t size)
{
	if (strchr(s, '\'') || strchr(s, '\n'))
		return -EINVAL;
	int n = snprintf(buf, size, "'%s'", s);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* The longest routed command: one word of argv, and the whole of it one
 * argument of the agent's `bash -c`, must stay under the kernel's 128 KiB
 * per argument (MAX_ARG_STRLEN). */
#define ROUTE_MAX (96 * 1024)

/*
 * The request as one word for a shell: compact JSON, ASCII only, each '
 * written \u0027 (a quote can only be inside a JSON string, where that is
 * the same character), so it holds no quote and no newline, in single
 * quotes. A new string, or NULL.
 */
static char *request_word(json_t *req)
{
	_cleanup_free_ char *json = json_dumps(req, JSON_COMPACT | JSON_ENSURE_ASCII);
	if (!json)
		return NULL;
	size_t quotes = 0;
	for (const char *p = json; *p; p++)
		quotes += *p == '\'';
	char *word = malloc(strlen(json) + quotes * 5 + 3);
	if (!word)
		return NULL;
	char *w = word;
	*w++ = '\'';
	for (const char *p = json; *p; p++)
		w = *p == '\'' ? stpcpy(w, "\\u0027") : (*w = *p, w + 1);
	*w++ = '\'';
	*w = '\0';
	return word;
}

/*
 * The routed command: `sluice run --request REQUEST` with the request
 * (the original text, untouched) inline. No file, so nothing is left
 * behind when the agent never runs it, and no `rm`, which Codex refuses;
 * no `exec`, so an agent's wrapper around the command (Gemini CLI's
 * background-pid check) still runs after it, and the exit status is sluice
 * run's all the same. -errno with reterr saying which step failed.
 */
static int route(const struct hook_options *o, const struct hook_call *call,
                 const struct run_settings *s, char **ret, struct sluice_error *reterr)
{
	_cleanup_free_ char *self = realpath("/proc/self/exe", NULL);
	if (!self)
		return sluice_error_set(reterr, neg_errno(), "finding this program's path");
	json_t *req = hook_route_request(o->protocol, call, s->max_timeout_ms);
	_cleanup_free_ char *word = req ? request_word(req) : NULL;
	json_decref(req);
	if (!word)
		return sluice_error_set(reterr, -ENOMEM, "the routed request");
	char qself[PATH_MAX + 3], qmode[64] = "", qconfig[PATH_MAX + 3] = "";
	if (quoted(self, qself, sizeof(qself)) < 0 ||
	    (o->sandbox && quoted(o->sandbox, qmode, sizeof(qmode)) < 0) ||
	    (o->config && quoted(o->config, qconfig, sizeof(qconfig)) < 0))
		return sluice_error_set(reterr, -EINVAL,
		                        "a path or option to pass on is too long or holds a quote "
		                        "or a newline");
	if (asprintf(ret, "%s run%s%s%s%s --request %s", qself, o->sandbox ? " --sandbox " : "",
	             qmode, o->config ? " --config " : "", qconfig, word) < 0)
		return sluice_error_set(reterr, -ENOMEM, "the routed command");
	if (strlen(*ret) > ROUTE_MAX)
		return sluice_error_set(reterr, -E2BIG,
		                        "the command is too long to route (%zu bytes as a request, "
		                        "at most %d)",
		                        strlen(*ret), ROUTE_MAX);
	return 0;
}

/* The audit line of a hook's decision: "via" names the door (the hook, the
 * agent, the event); nothing ran here, so no exit code (a routed command's
 * run writes its own line). 0, or -errno with reterr. */
static int audit_decision(const struct hook_options *o, const struct hook_call *call,
                          struct broker_context *ctx, const struct run_request *req,
                          const char *workdir, const struct policy_decision *d,
                          const struct hook_outcome *outcome, bool route_failed,
                          struct sluice_error *reterr)
{
	char via[96];
	snprintf(via, sizeof(via), "hook %s %s%s", hook_protocol_name(o->protocol),
	         call->event == HOOK_EVENT_PRE_TOOL ? "pre-tool" : "permission-request",
	         outcome->routed ? " routed" : "");
	struct audit_outcome ao = {
		.error_kind = outcome->kind == HOOK_DENY
		                      ? error_kind_name(ERROR_KIND_PERMISSION_DENIED)
		              : route_failed ? error_kind_name(ERROR_KIND_COMMAND_FAILED)
		                             : NULL,
		.exit_code = -1,
		.via = via,
	};
	return broker_context_audit(ctx, req, workdir, d, &ao, reterr);
}

/* Print the protocol's answer; the exit status. */
static int answer(const struct hook_options *o, const struct hook_call *call,
                  const struct hook_outcome *outcome)
{
	bool silent;
	json_t *a = hook_answer(o->protocol, call, outcome, &silent);
	if (silent)
		return 0;
	if (!a)
		return block("out of memory");
	int r = json_dumpf(a, stdout, JSON_COMPACT);
	json_decref(a);
	if (r < 0 || fputc('\n', stdout) == EOF || fflush(stdout) != 0)
		return block("the answer could not be written");
	return 0;
}

/* --check: 0 when the agent started here would run the hook, 1 when it
 * would not (the report says why), 2 when it could not be told. */
static int check(const struct hook_options *o)
{
	_cleanup_free_ char *here = getcwd(NULL, 0);
	if (!here) {
		fprintf(stderr, "sluice hook --check: the current directory: %s\n",
		        strerror(errno));
		return 2;
	}
	struct hook_check_request req = {
		.agent = hook_protocol_name(o->protocol),
		.directory = here,
		.program = o->program,
	};
	struct sluice_error err = { 0 };
	int r = hook_check(&req, stdout, &err);
	if (fflush(stdout) != 0 && r >= 0) {
		fprintf(stderr, "sluice hook --check: writing the report: %s\n", strerror(errno));
		return 2;
	}
	if (r < 0) {
		fprintf(stderr, "sluice hook %s --check: could not tell: %s: %s\n", req.agent,
		        err.detail, strerror(-r));
		return 2;
	}
	return r;
}

/* 1 for --help; 0; -EINVAL with reterr saying what is wrong. The strings
 * in o borrow from argv. */
static int parse_options(int argc, char **argv, struct hook_options *o, struct sluice_error *reterr)
{
	_cleanup_(verb_args_done) struct verb_args args = { 0 };
	int r = verb_options_parse(&hook_spec, argc, argv, &args, reterr);
	if (r < 0)
		return r;
	if (args.help)
		return 1;
	o->route = args.values[OPT_ROUTE] != NULL;
	o->config = args.values[OPT_CONFIG];
	o->check = args.values[OPT_CHECK] != NULL;
	o->program = args.values[OPT_PROGRAM];
	if (o->program && !o->check)
		return sluice_error_set(reterr, -EINVAL, "--program goes with --check");
	const char *sandbox = args.values[OPT_SANDBOX];
	enum sandbox_mode mode;
	struct sluice_error err = { 0 };
	if (sandbox && sandbox_mode_from_name(sandbox, &mode, &err) < 0)
		return sluice_error_set(reterr, err.code, "option '--sandbox': %s", err.detail);
	o->sandbox = sandbox ? sandbox_mode_name(mode) : NULL;
	if (args.n_positionals != 1)
		return sluice_error_set(reterr, -EINVAL, "name one agent: %s",
		                        hook_protocol_names());
	o->protocol = hook_protocol_find(args.positionals[0]);
	if (!o->protocol)
		return sluice_error_set(reterr, -EINVAL, "unknown agent '%s' (%s)",
		                        args.positionals[0], hook_protocol_names());
	return 0;
}

int cmd_hook(int argc, char **argv)
{
	struct hook_options o = { 0 };
	struct sluice_error err = { 0 };
	int r = parse_options(argc, argv, &o, &err);
	if (r == 1) {
		usage(stdout);
		return 0;
	}
	if (r < 0) {
		usage(stderr);
		return block("the hook's options are wrong: %s", err.detail);
	}
	if (o.check)
		return check(&o);
	struct run_settings s;
	_cleanup_(broker_context_freep) struct broker_context *ctx = NULL;
	if (broker_context_open(o.config, &s, &ctx, &err) < 0)
		return block("config_error: %s", err.detail);

	size_t cap = REQUEST_DOCUMENT_MAX + 1;
	_cleanup_free_ char *buf = malloc(cap);
	ssize_t n = buf ? read_full(STDIN_FILENO, buf, cap) : -ENOMEM;
	if (n < 0)
		return block("the hook input could not be read: %s", strerror((int)-n));
	if ((size_t)n == cap)
		return block("the hook input is larger than %zu bytes", cap - 1);
	_cleanup_(hook_call_done) struct hook_call call = { 0 };
	if (hook_parse(o.protocol, buf, (size_t)n, &call, &err) < 0)
		return block("%s", err.detail);
	if (!call.command) { /* not a shell tool: no objection */
		struct hook_outcome none = { .kind = HOOK_ALLOW };
		return answer(&o, &call, &none);
	}

	_cleanup_(run_request_done) struct run_request req = { 0 };
	if (request_from_command(call.command, s.max_command_size, &req, &err) < 0)
		return block("invalid_request: %s", err.detail);
	_cleanup_free_ char *root = NULL, *workdir = NULL;
	const char *cwd = call.cwd ? call.cwd : ".";
	if (workdir_resolve(call.directory && call.directory[0] == '/' ? call.directory : cwd,
	                    call.directory && call.directory[0] != '/' ? call.directory : NULL,
	                    &root, &workdir, &err) < 0)
		return block("the working directory '%s%s%s': %s", cwd,
		             call.directory ? "', '" : "", call.directory ? call.directory : "",
		             err.detail);
	/* An ask is the agent's to put to its user where its protocol can;
	 * where it cannot, an approver program answers, or it is refused. */
	_cleanup_(policy_decision_done) struct policy_decision d = { 0 };
	enum ask_handling ask = hook_ask_handling(o.protocol, &call, broker_context_config(ctx));
	r = broker_context_decide(ctx, &req, workdir, ask, NULL, &d, &err);
	if (r == -ENOEXEC)
		return block("config_error: %s", err.detail);
	if (r < 0)
		return block("the policies could not decide: %s: %s", err.detail, strerror(-r));
	struct hook_outcome outcome = hook_outcome_of(&d);

	_cleanup_free_ char *routed = NULL;
	int route_r = 0;
	struct sluice_error route_err = { 0 };
	if (o.route && outcome.kind == HOOK_ALLOW && call.event == HOOK_EVENT_PRE_TOOL) {
		route_r = route(&o, &call, &s, &routed, &route_err);
		outcome.routed = routed;
	}
	/* Every decision is audited, whichever door it came in by; a log that
	 * is required and cannot be written blocks, as it refuses a run. */
	if (audit_decision(&o, &call, ctx, &req, workdir, &d, &outcome, route_r < 0, &err) < 0 &&
	    broker_context_config(ctx)->audit_required)
		return block("the audit log is required and its line could not be written: %s",
		             err.detail);
	if (route_r < 0)
		return block("routing the command through sluice run failed: %s: %s",
		             route_err.detail, strerror(-route_r));
	return answer(&o, &call, &outcome);
}
