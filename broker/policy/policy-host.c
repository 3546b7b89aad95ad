/* SPDX-License-Identifier: MIT */
/*
 * struct sluice_host over the command model: forwarding accessors, the
 * helpers for common questions (subcommand after global options, short-flag
 * clusters, --long[=value]), settings and the verdict, which copies what the
 * plugin hands it into typed messages at once (the plugin keeps its memory).
 * Not for: deciding anything; the plugins do.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "policy/policy-host.h"
#include "policy/policy-msg.h"

#define MODEL(cmd) ((const struct command_model *)(cmd))
#define SC(sc) ((const struct simple_command *)(sc))

static const char *h_command_source(const struct sluice_command *cmd)
{
	return command_model_source(MODEL(cmd));
}

static uint32_t h_command_flags(const struct sluice_command *cmd)
{
	return (command_model_is_partial(MODEL(cmd)) ? SLUICE_COMMAND_PARTIAL : 0) |
	       (command_model_limits_reached(MODEL(cmd)) ? SLUICE_COMMAND_LIMITED : 0);
}

static size_t h_command_count(const struct sluice_command *cmd)
{
	return command_model_count(MODEL(cmd));
}

static const struct sluice_simple_command *h_command_get(const struct sluice_command *cmd, size_t i)
{
	return (const struct sluice_simple_command *)command_model_get(MODEL(cmd), i);
}

static size_t h_argc(const struct sluice_simple_command *sc)
{
	return simple_command_argc(SC(sc));
}

static const char *h_arg(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_arg(SC(sc), i);
}

static uint32_t h_arg_flags(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_arg_flags(SC(sc), i);
}

static const char *h_name(const struct sluice_simple_command *sc)
{
	return simple_command_name(SC(sc));
}

static uint32_t h_flags(const struct sluice_simple_command *sc)
{
	return simple_command_flags(SC(sc));
}

static size_t h_depth(const struct sluice_simple_command *sc)
{
	return simple_command_depth(SC(sc));
}

static int32_t h_frame(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_frame(SC(sc), i);
}

static int64_t h_pipeline(const struct sluice_simple_command *sc)
{
	return simple_command_pipeline(SC(sc));
}

static size_t h_pipeline_position(const struct sluice_simple_command *sc)
{
	return simple_command_pipeline_position(SC(sc));
}

static size_t h_pipeline_length(const struct sluice_simple_command *sc)
{
	return simple_command_pipeline_length(SC(sc));
}

static int64_t h_parent(const struct sluice_simple_command *sc)
{
	return simple_command_parent(SC(sc));
}

static const char *h_function(const struct sluice_simple_command *sc)
{
	return simple_command_function(SC(sc));
}

static size_t h_wrapper_count(const struct sluice_simple_command *sc)
{
	return simple_command_wrapper_count(SC(sc));
}

static const char *h_wrapper_name(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_wrapper_name(SC(sc), i);
}

static size_t h_wrapper_argc(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_wrapper_argc(SC(sc), i);
}

static const char *h_wrapper_arg(const struct sluice_simple_command *sc, size_t i, size_t j)
{
	return simple_command_wrapper_arg(SC(sc), i, j);
}

static size_t h_assign_count(const struct sluice_simple_command *sc)
{
	return simple_command_assign_count(SC(sc));
}

static const char *h_assign_name(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_assign_name(SC(sc), i);
}

static const char *h_assign_value(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_assign_value(SC(sc), i);
}

static uint32_t h_assign_flags(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_assign_flags(SC(sc), i);
}

static size_t h_redirect_count(const struct sluice_simple_command *sc)
{
	return simple_command_redirect_count(SC(sc));
}

static const char *h_redirect_op(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_redirect_op(SC(sc), i);
}

static int32_t h_redirect_fd(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_redirect_fd(SC(sc), i);
}

static const char *h_redirect_target(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_redirect_target(SC(sc), i);
}

static uint32_t h_redirect_flags(const struct sluice_simple_command *sc, size_t i)
{
	return simple_command_redirect_target_flags(SC(sc), i);
}

static const char *h_cwd(const struct sluice_simple_command *sc)
{
	return simple_command_cwd(SC(sc));
}

static void h_span(const struct sluice_simple_command *sc, size_t *start, size_t *end)
{
	simple_command_span(SC(sc), start, end);
}

static const char *h_text(const struct sluice_simple_command *sc)
{
	return simple_command_text(SC(sc));
}

static const char *h_normalized(const struct sluice_simple_command *sc)
{
	return simple_command_normalized(SC(sc));
}

/* ------------------------------------------------------------ helpers */

/* Does word arg consume the next word as its value? Attached values
 * ("-Cdir", "--git-dir=x") do not. */
static bool takes_separate_value(const char *arg, const char *const *options)
{
	for (const char *const *o = options; o && *o; o++)
		if (strcmp(arg, *o) == 0)
			return true;
	return false;
}

static size_t h_subcommand(const struct sluice_simple_command *sc, const char *const *options)
{
	size_t argc = simple_command_argc(SC(sc));
	for (size_t i = 1; i < argc; i++) {
		const char *a = simple_command_arg(SC(sc), i);
		if (strcmp(a, "--") == 0)
			return i + 1 < argc ? i + 1 : 0;
		if (a[0] != '-' || a[1] == '\0')
			return i;
		if (takes_separate_value(a, options))
			i++;
	}
	return 0;
}

static int32_t h_has_short_flag(const struct sluice_simple_command *sc, size_t from, char letter)
{
	size_t argc = simple_command_argc(SC(sc));
	for (size_t i = from ? from : 1; i < argc; i++) {
		const char *a = simple_command_arg(SC(sc), i);
		if (strcmp(a, "--") == 0)
			break;
		if (a[0] == '-' && a[1] != '-' && a[1] != '\0' && strchr(a + 1, letter))
			return 1;
	}
	return 0;
}

static const char *h_long_option(const struct sluice_simple_command *sc, size_t from,
                                 const char *name)
{
	size_t argc = simple_command_argc(SC(sc)), n = strlen(name);
	for (size_t i = from ? from : 1; i < argc; i++) {
		const char *a = simple_command_arg(SC(sc), i);
		if (strcmp(a, "--") == 0)
			break;
		if (strncmp(a, name, n) == 0 && (a[n] == '\0' || a[n] == '='))
			return a[n] ? a + n + 1 : a + n;
	}
	return NULL;
}

/* ------------------------------------------------------------ settings */

static size_t h_settings_count(const struct sluice_settings *s)
{
	return s->conf->n_settings;
}

static const char *h_settings_key(const struct sluice_settings *s, size_t i)
{
	return i < s->conf->n_settings ? s->conf->settings[i].key : NULL;
}

static const char *h_settings_value(const struct sluice_settings *s, size_t i)
{
	return i < s->conf->n_settings ? s->conf->settings[i].value : NULL;
}

static const char *h_settings_get(const struct sluice_settings *s, const char *key)
{
	for (size_t i = s->conf->n_settings; i-- > 0;)
		if (strcmp(s->conf->settings[i].key, key) == 0)
			return s->conf->settings[i].value;
	return NULL;
}

static void h_settings_error(const struct sluice_settings *cs, size_t i, const char *message)
{
	struct sluice_settings *s =
	        (struct sluice_settings *)cs; /* ours: the plugin sees it const */
	if (s->error[0])
		return; /* the first error is the one reported */
	if (i < s->conf->n_settings)
		snprintf(s->error, sizeof(s->error), "%s:%u: %s", s->conf->settings[i].file,
		         s->conf->settings[i].line, message ? message : "bad value");
	else
		snprintf(s->error, sizeof(s->error), "%s: %s", s->where,
		         message ? message : "bad settings");
}

/* ------------------------------------------------------------ verdict */

static int h_verdict_add(struct sluice_verdict *v, int32_t verdict, const char *message,
                         const char *suggestion)
{
	if (verdict < SLUICE_ALLOW || verdict > SLUICE_DENY)
		return -EINVAL;
	if (verdict > v->max)
		v->max = verdict;
	if (v->n_reasons++ >= POLICY_HOST_MAX_REASONS)
		return verdict; /* counted in max; the chain reports the cut */
	char msg[POLICY_MSG_MAX_TEXT], sug[POLICY_MSG_MAX_TEXT];
	/* Copy now, cut visibly: the plugin's strings are its own. */
	int n = snprintf(msg, sizeof(msg), "%s", message ? message : "");
	if (n >= (int)sizeof(msg))
		memcpy(msg + sizeof(msg) - 4, "...", 4);
	n = snprintf(sug, sizeof(sug), "%s", suggestion ? suggestion : "");
	if (n >= (int)sizeof(sug))
		memcpy(sug + sizeof(sug) - 4, "...", 4);
	const char *strings[] = { msg, sug };
	int r = policy_msg_add(v->out, POLICY_MSG_REASON, v->plugin, verdict, strings, 2);
	if (r < 0 && !v->send_error)
		v->send_error = r;
	return verdict;
}

static int h_verdict_rewrite(struct sluice_verdict *v, const char *command)
{
	if (v->rewritten)
		return -EEXIST;
	if (!command || strlen(command) > POLICY_HOST_MAX_REWRITE)
		return -E2BIG;
	v->rewritten = true;
	const char *strings[] = { command };
	int r = policy_msg_add(v->out, POLICY_MSG_REWRITE, v->plugin, 0, strings, 1);
	if (r < 0 && !v->send_error)
		v->send_error = r;
	return r;
}

static const struct sluice_host host_table = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_host),
	.command_source = h_command_source,
	.command_flags = h_command_flags,
	.command_count = h_command_count,
	.command_get = h_command_get,
	.argc = h_argc,
	.arg = h_arg,
	.arg_flags = h_arg_flags,
	.name = h_name,
	.flags = h_flags,
	.depth = h_depth,
	.frame = h_frame,
	.parent = h_parent,
	.function = h_function,
	.wrapper_count = h_wrapper_count,
	.wrapper_name = h_wrapper_name,
	.wrapper_argc = h_wrapper_argc,
	.wrapper_arg = h_wrapper_arg,
	.assign_count = h_assign_count,
	.assign_name = h_assign_name,
	.assign_value = h_assign_value,
	.assign_flags = h_assign_flags,
	.redirect_count = h_redirect_count,
	.redirect_op = h_redirect_op,
	.redirect_fd = h_redirect_fd,
	.redirect_target = h_redirect_target,
	.redirect_flags = h_redirect_flags,
	.cwd = h_cwd,
	.span = h_span,
	.text = h_text,
	.normalized = h_normalized,
	.subcommand = h_subcommand,
	.has_short_flag = h_has_short_flag,
	.long_option = h_long_option,
	.settings_count = h_settings_count,
	.settings_key = h_settings_key,
	.settings_value = h_settings_value,
	.settings_get = h_settings_get,
	.settings_error = h_settings_error,
	.verdict_add = h_verdict_add,
	.verdict_rewrite = h_verdict_rewrite,
	.pipeline = h_pipeline,
	.pipeline_position = h_pipeline_position,
	.pipeline_length = h_pipeline_length,
};

const struct sluice_host *policy_host(void)
{
	return &host_table;
}
