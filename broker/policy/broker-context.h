/* SPDX-License-Identifier: MIT */
/*
 * What stands between a request and its spawn, shared by run, mcp and hook:
 * the layered configuration (and the run settings drawn from it), then, on
 * the first decision only, the policy chain, the shell parser and the audit
 * log. Verbs that only need settings (jobs, logs, schema) never pay for
 * loading plugins.
 * Not for: running the command (runner.c) or printing (each verb does).
 */
#ifndef SLUICE_BROKER_CONTEXT_H
#define SLUICE_BROKER_CONTEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/broker-config.h"
#include "errors.h"
#include "policy/approval.h"
#include "policy/policy-chain.h"
#include "core/request.h"
#include "core/run-settings.h"
#include "policy/verdict.h"

struct broker_context;

/*
 * Load the configuration layers (cli_config, the --config FILE, may be NULL)
 * and fill *settings from them; the settings borrow strings from the
 * context, which must outlive them. A configuration error has already been
 * logged with its FILE:LINE; returns -EINVAL then (the interface's
 * config_error), with reterr saying so.
 */
int broker_context_open(const char *cli_config, struct run_settings *settings,
                        struct broker_context **ret, struct sluice_error *reterr);

/* broker_context_open() for a verb: a failure is logged as
 * "sluice: VERB: config_error: ..." and returns -1 (the verb exits 125). */
int broker_context_open_or_log(const char *cli_config, struct run_settings *settings,
                               struct broker_context **ret, const char *verb);

/* Accepts NULL; returns NULL. */
struct broker_context *broker_context_free(struct broker_context *ctx);

/* Whether a configuration file was written, replaced, created or removed
 * since ctx was opened (config-stamp.h): a long-running server opens a new
 * context then. A few stat calls. */
bool broker_context_files_changed(const struct broker_context *ctx);
static inline void broker_context_freep(struct broker_context **ctx)
{
	broker_context_free(*ctx);
}

/* Let the built-in plugins be checked in this process, where they are all
 * a one-shot request's chain has (policy_chain_allow_in_process() says for
 * whom: `sluice run`). Before the first decision. */
void broker_context_allow_policy_in_process(struct broker_context *ctx);

/* Load the plugins and the parser and open the audit log now rather than
 * on the first decision (a server does this once, before it forks workers),
 * opening every plugin once in a child so that one that cannot start is
 * reported here. Returns 0, or -errno with reterr: nothing can be decided
 * then. */
int broker_context_arm(struct broker_context *ctx, struct sluice_error *reterr);

/* In a process that closed the descriptors it inherited (an MCP worker):
 * open the audit log again (audit_reopen()); a log that cannot be opened
 * is reported with every request's result, as when the context armed. */
void broker_context_reopen_audit(struct broker_context *ctx);

/* The configuration (borrowed). */
const struct broker_config *broker_context_config(const struct broker_context *ctx);

/* The loaded plugin chain, or NULL before broker_context_arm() (borrowed). */
const struct policy_chain *broker_context_chain(const struct broker_context *ctx);

/* Between requests (a server): fork the next decision's policy child ahead
 * (policy_chain_prepare()). Only once the context is armed; best effort. */
void broker_context_prepare(struct broker_context *ctx);

/* Wait for the last decision's policy child to finish exiting (see
 * policy_chain_reap()): before watching a command's process tree. */
void broker_context_reap(struct broker_context *ctx);

/* What the policies decided about one request. */
struct policy_decision {
	struct verdict verdict;  /* every reason, deny over ask over allow */
	char *command;           /* owned: the command to run (a plugin may rewrite it) */
	char *display;           /* owned: the display form */
	const char *approval;    /* static: "not needed", "approved", "refused", "not asked" */
	char *approval_note;     /* owned, or NULL: who answered an ask, and how */
	const char *approval_by; /* static, or NULL: who answered ("mcp-client", "program", ...) */
	bool allowed;            /* allow, or ask and approved */
};

void policy_decision_done(struct policy_decision *d);

/* How broker_context_decide() treats an ask verdict. */
enum ask_handling {
	ASK_APPROVER,  /* put it to the configured approver ([approval]) */
	ASK_TO_CALLER, /* leave it to the caller (an agent's hook asks its user) */
};

/*
 * Parse req->command, run the model's checks and the plugin chain, form the
 * display (relative to workdir), and answer an ask as told (ASK_APPROVER:
 * first, when not NULL, then the configured approver). The first call
 * loads the plugins and opens the audit log. Returns 0 when a decision was
 * made, whatever it is; -ENOEXEC for a configuration error (config_error):
 * a plugin that cannot be loaded, or cannot start (reterr: "plugin 'X'
 * could not start: FILE:LINE: ..."); another -errno when no decision could
 * be made (an audit log that is required but cannot be opened), with reterr
 * naming the cause. Either way the caller must refuse (fail closed). The
 * first call loads the plugins without opening them first (one child per
 * request). *ret is always initialised; release it with
 * policy_decision_done().
 */
int broker_context_decide(struct broker_context *ctx, const struct run_request *req,
                          const char *workdir, enum ask_handling ask,
                          const struct approval_asker *first, struct policy_decision *ret,
                          struct sluice_error *reterr);

/* One audit line for a request (d may be NULL when no decision was made).
 * Nothing happens when no audit log is configured. Returns -errno when the
 * line could not be written, or the configured log could not be opened. */
struct audit_outcome {
	const char *start_id;   /* broker_context_audit_start()'s id, or NULL */
	const char *error_kind; /* the interface's error kind, or NULL */
	int exit_code;          /* -1: none */
	int signal;             /* 0: none */
	uint64_t duration_ms;
	const char *via;        /* audit_record.via, or NULL */
	size_t swept;           /* things the post-run sweep disabled */
	const char *quarantine; /* where their copies are, or NULL */
	json_t *network;        /* audit_record.network (borrowed), or NULL */
};
int broker_context_audit(struct broker_context *ctx, const struct run_request *req,
                         const char *workdir, const struct policy_decision *d,
                         const struct audit_outcome *outcome, struct sluice_error *reterr);

/* With [audit] required = yes, or for a background job (whose monitor
 * writes the end when the job's last process is gone): the start line of
 * an allowed request, just before its command runs, with a new id (into
 * id, size bytes) that broker_context_audit() then ends
 * (audit_outcome.start_id). Returns 0 (id empty when neither, or when
 * there is no log), or -errno with reterr when the line could not be
 * written (id empty): the command must not run then if
 * broker_context_audit_required(). */
int broker_context_audit_start(struct broker_context *ctx, const struct run_request *req,
                               const char *workdir, const struct policy_decision *d,
                               bool background, char *id, size_t size, struct sluice_error *reterr);

/* Whether [audit] required = yes. */
bool broker_context_audit_required(const struct broker_context *ctx);

#endif
