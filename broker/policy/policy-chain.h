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

#include "config/broker-config.h"
#include "model/command-model.h"
#include "errors.h"
#include "policy/plugin-loader.h"
#include "policy/verdict.h"

struct policy_chain;

/*
 * Load every enabled plugin of cfg (cfg must outlive the chain), then open
 * and close each once in a child to validate the settings only the plugin
 * can judge (a bad regular expression...). Returns 0 and *ret, or the first
 * plugin_load() error (-ENOENT, -ENOEXEC, -EPROTO, -EINVAL), or -EINVAL when
 * a plugin cannot start (reterr: "plugin 'regex' could not start:
 * FILE:LINE: ..."), each naming the plugin; or -ENOMEM. All of these are
 * configuration errors (config_error, exit status 125).
 */
int policy_chain_new(const struct broker_config *cfg, struct policy_chain **ret,
                     struct sluice_error *reterr);

/*
 * As policy_chain_new(), without the validating child and without loading
 * any plugin into this process: for a one-shot verb, whose first check's
 * child loads and opens every plugin anyway -- or, when every plugin is a
 * built-in, whose first check loads them here and checks them in this
 * process (policy-inproc.h). A plugin that cannot be loaded
 * or started is then found by that first check, which returns -ENOEXEC (a
 * configuration error, exit status 125) with policy_chain_start_error()
 * saying the loader's error ("plugin 'X' (FILE:LINE): cannot find ...") or
 * "plugin 'X' could not start: FILE:LINE: ...". policy_chain_get() then
 * returns entries with only conf set.
 */
int policy_chain_new_lazy(const struct broker_config *cfg, struct policy_chain **ret,
                          struct sluice_error *reterr);

/*
 * Let a lazy chain whose plugins are all built-ins check them in this
 * process (policy-inproc.h) rather than in a child. Only for a caller for
 * whom the broker's death or hang is itself a refusal: `sluice run`, whose
 * command the launcher starts only when told. Not for a hook: an agent
 * reads a hook that died or said nothing in time as no objection.
 */
void policy_chain_allow_in_process(struct policy_chain *chain);

/* Why the last check returned -ENOEXEC (borrowed; "" when it did not). */
const char *policy_chain_start_error(const struct policy_chain *chain);

/*
 * Fork the next check's child now, before the command is known (a server
 * between requests): it
 * waits for a command, which the next check of one model sends it, parses
 * as parser parses, and checks as a child forked then would; a lazy chain's
 * child loads the plugins while it waits. It is still one fresh child per
 * request. With no plugins nothing happens. 0 or -errno (nothing prepared).
 */
int policy_chain_prepare(struct policy_chain *chain, struct command_model_parser *parser);

/* Send text, the command the next check will be of, to the child forked
 * ahead now, so that it parses while this process does; the check then
 * takes it only if its model's source is text. Nothing without such a
 * child. */
void policy_chain_send_ahead(struct policy_chain *chain, const char *text, size_t len);

/* A check returns at its child's last message, before the child has exited;
 * this waits for that exit. Call it before anything that takes every exited
 * child or lists this process's descendants (the pump does both); the next
 * check and policy_chain_free() call it too. Accepts NULL. */
void policy_chain_reap(struct policy_chain *chain);

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
 * Run every plugin on model in ONE forked child and combine what they say
 * into v (which may already hold reasons; it is never loosened). When a
 * plugin proposes a rewrite of the command, *ret_rewrite gets a copy (owned
 * by the caller; the first proposal wins) and *ret_rewrite_plugin its name
 * (either may be NULL when not wanted).
 * Returns the number of plugins that failed -- crashed, hung past [broker]
 * plugin_timeout, returned an error or an invalid verdict, sent garbage or
 * could not start; each is a deny reason in v naming the plugin. Returns
 * -errno only when the child could not be run at all (pipe, fork, -ENOMEM):
 * the caller must then refuse the command; or -ENOEXEC when a chain made by
 * policy_chain_new_lazy() is used for the first time and a plugin cannot
 * start (see policy_chain_start_error(): a configuration error).
 */
int policy_chain_check(struct policy_chain *chain, const struct command_model *model,
                       struct verdict *v, char **ret_rewrite, char **ret_rewrite_plugin);

/*
 * The whole decision for one command, as `sluice check` and `sluice run`
 * need it: the model's own concerns (verdict_from_model: limits, partial
 * parse, dynamic names) plus every plugin. When a plugin rewrites the
 * command, the rewrite is parsed and decided again from scratch (v is reset)
 * and *ret_command gets it (owned by the caller); otherwise *ret_command is
 * NULL and the command runs as given. A second, different rewrite is refused
 * (deny). Returns policy_chain_check()'s count of failed plugins, or -errno.
 */
int policy_chain_decide(struct policy_chain *chain, struct command_model_parser *parser,
                        const struct command_model *model, struct verdict *v, char **ret_command);

/* One model of a batch. */
struct policy_check {
	const struct command_model *model; /* in (borrowed) */
	struct verdict *v;                 /* in/out, as for policy_chain_check() */
	char *rewrite;                     /* out (owned): the rewrite, or NULL */
	const char *rewrite_plugin;        /* out: who proposed it (borrowed from the chain) */
	int failed;                        /* out: plugins that failed on this model */
};

/*
 * policy_chain_check() for many models in ONE child, which sends each
 * model's messages in turn; each model has its own [broker] plugin_timeout.
 * When the child crashes, hangs or sends garbage during model k, the models
 * before k keep their verdicts, model k is denied naming the plugin, and a
 * new child goes on from k + 1. Returns 0, or -errno / -ENOEXEC as
 * policy_chain_check() (then no item holds a rewrite).
 */
int policy_chain_check_many(struct policy_chain *chain, struct policy_check *items, size_t n);

/*
 * policy_chain_decide() for many models: verdict_from_model() for each, one
 * policy_chain_check_many(), and a second round (again in one child) for
 * the models a plugin rewrote; items[i].rewrite is then the command to run
 * (NULL: run as given). Returns 0 or -errno / -ENOEXEC.
 */
int policy_chain_decide_many(struct policy_chain *chain, struct command_model_parser *parser,
                             struct policy_check *items, size_t n);

#endif
