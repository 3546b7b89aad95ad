/* SPDX-License-Identifier: MIT */
/*
 * The policy chain: the enabled plugins, loaded once, and run for a request
 * in ONE forked child (open, check, close for each plugin, in order), whose
 * typed messages the parent checks against a table. A crash, a hang past
 * [broker] plugin_timeout, an error or a garbage reply becomes a deny that
 * names the plugin: the chain fails closed. Verdicts combine deny > ask >
 * allow, and every reason is kept.
 * Not for: answering an ask (approval.c) or rendering (cmd-check.c).
 */
#ifndef SLUICE_POLICY_CHAIN_H
#define SLUICE_POLICY_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "broker-config.h"
#include "command-model.h"
#include "errors.h"
#include "plugin-loader.h"

/* Reasons kept per request; past it, one reason says how many were cut. */
#define POLICY_MAX_REASONS 64

struct policy_reason {
	int verdict;      /* SLUICE_ALLOW / SLUICE_ASK / SLUICE_DENY */
	char *plugin;     /* owned */
	char *message;    /* owned */
	char *suggestion; /* owned; "" when none */
};

/* What the chain decided for one request. */
struct policy_result {
	int verdict; /* SLUICE_*: the highest of all reasons */
	struct policy_reason reasons[POLICY_MAX_REASONS];
	size_t n_reasons;
	size_t n_cut;  /* reasons past the cap */
	char *rewrite; /* a plugin's proposed rewrite of the command, or NULL (owned) */
	char *rewrite_plugin;
	bool failed; /* a plugin failed (crash, timeout, error, garbage): a deny */
};

struct policy_chain;

/*
 * Load every enabled plugin of cfg (cfg must outlive the chain). Returns 0
 * and *ret, or the first plugin_load() error (-ENOENT, -ENOEXEC, -EPROTO,
 * -EINVAL) with reterr naming the plugin and FILE:LINE, or -ENOMEM.
 */
int policy_chain_new(const struct broker_config *cfg, struct policy_chain **ret,
                     struct sluice_error *reterr);

/* Accepts NULL; returns NULL. */
struct policy_chain *policy_chain_free(struct policy_chain *chain);
static inline void policy_chain_freep(struct policy_chain **c)
{
	policy_chain_free(*c);
}

/* The loaded plugins, in chain order (borrowed). */
size_t policy_chain_count(const struct policy_chain *chain);
const struct loaded_plugin *policy_chain_get(const struct policy_chain *chain, size_t i);

/*
 * Run every plugin on model in a forked child; fill *result (release with
 * policy_result_done()). Returns 0 when a decision was reached, which
 * includes a plugin that crashed, hung or misbehaved (then result->verdict
 * is SLUICE_DENY with a reason naming it, and result->failed is set).
 * Returns -errno only when the child could not be run at all (pipe, fork):
 * the caller must then refuse the command.
 */
int policy_chain_check(struct policy_chain *chain, const struct command_model *model,
                       struct policy_result *result);

/* Add a reason (strings copied); keeps result->verdict the highest.
 * Returns 0 or -ENOMEM. */
int policy_result_add(struct policy_result *result, int verdict, const char *plugin,
                      const char *message, const char *suggestion);

/* "allow", "ask" or "deny". */
const char *policy_verdict_name(int verdict);

/* Release a result's strings; the struct may be reused after. */
void policy_result_done(struct policy_result *result);

#endif
