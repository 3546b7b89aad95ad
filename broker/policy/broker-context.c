/* SPDX-License-Identifier: MIT */
/*
 * The broker's per-process context: configuration first, the costly parts
 * (plugins, parser, audit log) on the first decision. The order inside
 * broker_context_decide() is the policy argument: the decision pipeline
 * (policy-judge.c: parse, model checks and plugins, display), then
 * approval; nothing here spawns the command.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "policy/audit.h"
#include "policy/approval.h"
#include "policy/broker-context.h"
#include "cleanup.h"
#include "config/config-run.h"
#include "config/config-stamp.h"
#include "log.h"
#include "policy/policy-chain.h"
#include "policy/policy-judge.h"

struct broker_context {
	struct broker_config *cfg;
	struct config_run_text text; /* backs strings the run settings borrow */
	bool armed;                  /* chain, parser and audit are open */
	struct policy_chain *chain;
	struct command_model_parser *parser;
	struct audit *audit;
	int audit_error;        /* -errno: the log is configured but could not be opened */
	char *cli_config;       /* --config FILE, or NULL: to look at the files again */
	uint64_t stamp;         /* the files as they were just before they were read */
	bool policy_in_process; /* broker_context_allow_policy_in_process() */
};

int broker_context_open(const char *cli_config, struct run_settings *settings,
                        struct broker_context **ret, struct sluice_error *reterr)
{
	_cleanup_(broker_context_freep) struct broker_context *ctx = calloc(1, sizeof(*ctx));
	if (!ctx || (cli_config && !(ctx->cli_config = strdup(cli_config))))
		return sluice_error_set(reterr, -ENOMEM, "the configuration");
	int r = config_stamp(cli_config, &ctx->stamp);
	if (r < 0)
		return sluice_error_set(reterr, r, "the configuration files");
	if (config_load_or_log(cli_config, &ctx->cfg) < 0)
		return sluice_error_set(reterr, -EINVAL,
		                        "the configuration has errors (each is listed above)");
	r = config_to_run_settings(ctx->cfg, settings, &ctx->text, reterr);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(ctx);
	return 0;
}

int broker_context_open_or_log(const char *cli_config, struct run_settings *settings,
                               struct broker_context **ret, const char *verb)
{
	struct sluice_error err = { 0 };
	if (broker_context_open(cli_config, settings, ret, &err) < 0) {
		log_error("%s: config_error: %s", verb, err.detail);
		return -1;
	}
	return 0;
}

struct broker_context *broker_context_free(struct broker_context *ctx)
{
	if (!ctx)
		return NULL;
	audit_close(ctx->audit);
	command_model_parser_free(ctx->parser);
	policy_chain_free(ctx->chain);
	config_free(ctx->cfg);
	free(ctx->cli_config);
	free(ctx);
	return NULL;
}

bool broker_context_files_changed(const struct broker_context *ctx)
{
	uint64_t now;
	/* a stamp that cannot be taken (no memory) is no reason to reload */
	return config_stamp(ctx->cli_config, &now) == 0 && now != ctx->stamp;
}

const struct broker_config *broker_context_config(const struct broker_context *ctx)
{
	return ctx->cfg;
}

const struct policy_chain *broker_context_chain(const struct broker_context *ctx)
{
	return ctx->armed ? ctx->chain : NULL;
}

void broker_context_prepare(struct broker_context *ctx)
{
	if (ctx && ctx->armed)
		(void)policy_chain_prepare(ctx->chain, ctx->parser);
}

void broker_context_reap(struct broker_context *ctx)
{
	if (ctx)
		policy_chain_reap(ctx->chain);
}

void policy_decision_done(struct policy_decision *d)
{
	verdict_done(&d->verdict);
	free(d->command);
	free(d->display);
	free(d->approval_note);
	*d = (struct policy_decision){ 0 };
}

/* Load what a decision needs, once. A required audit log that cannot be
 * opened refuses every command, as the administrator asked: -ENOEXEC, a
 * configuration error (sluice's own, not a policy's refusal). validating:
 * open every plugin now (a server); otherwise the first decision does (one
 * child per one-shot request), and a plugin that cannot start is -ENOEXEC
 * then. */
static int arm(struct broker_context *ctx, bool validating, struct sluice_error *reterr)
{
	if (ctx->armed)
		return 0;
	/* Each part once, even when an earlier attempt stopped half-way. */
	int r = 0;
	if (!ctx->chain)
		r = validating ? policy_chain_new(ctx->cfg, &ctx->chain, reterr)
		               : policy_chain_new_lazy(ctx->cfg, &ctx->chain, reterr);
	/* A plugin that cannot be loaded is the configuration's fault, like
	 * one that cannot start: -ENOEXEC, which callers report as config_error. */
	if (r < 0)
		return r == -ENOMEM ? r : -ENOEXEC;
	if (ctx->policy_in_process && !validating)
		policy_chain_allow_in_process(ctx->chain);
	if (!ctx->parser) {
		r = config_parser_new(ctx->cfg, &ctx->parser);
		if (r < 0)
			return sluice_error_set(reterr, r, "creating the shell parser");
	}
	struct sluice_error aerr = { 0 };
	r = audit_open(ctx->cfg, &ctx->audit, &aerr);
	if (r < 0 && ctx->cfg->audit_required)
		return sluice_error_set(reterr, -ENOEXEC,
		                        "the audit log is required and cannot be opened: %s",
		                        aerr.detail);
	/* Not required: commands run, and each result says its line is lost. */
	ctx->audit_error = r < 0 ? r : 0;
	ctx->armed = true;
	return 0;
}

bool broker_context_audit_required(const struct broker_context *ctx)
{
	return ctx->cfg->audit_required;
}

void broker_context_reopen_audit(struct broker_context *ctx)
{
	struct sluice_error err = { 0 };
	if (ctx && ctx->audit && audit_reopen(ctx->audit, &err) < 0)
		ctx->audit_error = err.code < 0 ? err.code : -EIO;
}

void broker_context_allow_policy_in_process(struct broker_context *ctx)
{
	ctx->policy_in_process = true;
}

int broker_context_arm(struct broker_context *ctx, struct sluice_error *reterr)
{
	return arm(ctx, true, reterr);
}

int broker_context_decide(struct broker_context *ctx, const struct run_request *req,
                          const char *workdir, enum ask_handling ask,
                          const struct approval_asker *first, struct policy_decision *ret,
                          struct sluice_error *reterr)
{
	*ret = (struct policy_decision){ .approval = "not needed" };
	verdict_init(&ret->verdict);
	int r = arm(ctx, false, reterr);
	if (r < 0)
		return r;
	if (ctx->audit_error < 0 && ctx->cfg->audit_required) /* lost on a reopen */
		return sluice_error_set(reterr, -ENOEXEC,
		                        "the audit log is required and cannot be opened: %s",
		                        strerror(-ctx->audit_error));

	/* a policy child forked ahead parses it meanwhile */
	policy_chain_send_ahead(ctx->chain, req->command, req->command_len);
	_cleanup_(policy_judgement_done) struct policy_judgement j = { .verdict = &ret->verdict };
	r = policy_judge(ctx->chain, ctx->parser, req->command, req->command_len, workdir, true, &j,
	                 reterr);
	if (r < 0)
		return r;
	ret->display = TAKE_PTR(j.display);
	ret->command = j.rewrite ? TAKE_PTR(j.rewrite) : strdup(req->command);
	if (!ret->command)
		return sluice_error_set(reterr, -ENOMEM, "copying the command");

	switch (ret->verdict.kind) {
	case VERDICT_ALLOW:
		ret->allowed = true;
		break;
	case VERDICT_DENY:
		ret->approval = "not asked";
		break;
	case VERDICT_ASK:
		if (ask == ASK_TO_CALLER) {
			ret->approval = "not asked";
			break;
		}
		struct approval_request areq = {
			.command = ret->command,
			.display = ret->display,
			.description = req->description,
			.cwd = workdir,
			.verdict = &ret->verdict,
		};
		/* Anything but a clear yes is a no (fail closed). */
		ret->allowed = approval_ask(ctx->cfg, &areq, first, &ret->approval_note,
		                            &ret->approval_by) == 1;
		ret->approval = ret->allowed ? "approved" : "refused";
		break;
	}
	return 0;
}

int broker_context_audit(struct broker_context *ctx, const struct run_request *req,
                         const char *workdir, const struct policy_decision *d,
                         const struct audit_outcome *outcome, struct sluice_error *reterr)
{
	if (ctx->audit_error < 0)
		return sluice_error_set(reterr, ctx->audit_error,
		                        "the audit log could not be opened");
	if (!ctx->audit)
		return 0;
	struct audit_record rec = {
		.phase = outcome->start_id ? "end" : NULL,
		.id = outcome->start_id,
		.command = d && d->command ? d->command : req->command,
		.description = req->description,
		.cwd = workdir,
		.verdict = d ? &d->verdict : NULL,
		.approval = d ? d->approval : NULL,
		.approval_by = d ? d->approval_by : NULL,
		.approval_note = d ? d->approval_note : NULL,
		.error_kind = outcome->error_kind,
		.exit_code = outcome->exit_code,
		.signal = outcome->signal,
		.duration_ms = outcome->duration_ms,
		.via = outcome->via,
		.swept = outcome->swept,
		.quarantine = outcome->quarantine,
		.network = outcome->network,
	};
	return audit_write(ctx->audit, &rec, reterr);
}

int broker_context_audit_start(struct broker_context *ctx, const struct run_request *req,
                               const char *workdir, const struct policy_decision *d,
                               bool background, char *id, size_t size, struct sluice_error *reterr)
{
	id[0] = '\0';
	if (!ctx->cfg->audit_required && !background)
		return 0;
	/* not required, a job of a broker with no log has no line */
	if (!ctx->cfg->audit_required && !ctx->audit && ctx->audit_error == 0)
		return 0;
	if (ctx->audit_error < 0 || !ctx->audit)
		return sluice_error_set(reterr, ctx->audit_error < 0 ? ctx->audit_error : -EIO,
		                        "the audit log could not be opened");
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(id, size, "%ld-%lld.%09ld", (long)getpid(), (long long)ts.tv_sec, ts.tv_nsec);
	struct audit_record rec = {
		.phase = "start",
		.id = id,
		.command = d->command,
		.description = req->description,
		.cwd = workdir,
		.verdict = &d->verdict,
		.approval = d->approval,
		.approval_by = d->approval_by,
		.approval_note = d->approval_note,
		.exit_code = -1,
	};
	int r = audit_write(ctx->audit, &rec, reterr);
	if (r < 0)
		id[0] = '\0';
	return r;
}
