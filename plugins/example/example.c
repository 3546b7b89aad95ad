/* SPDX-License-Identifier: MIT */
/*
 * example: a complete small sluice policy plugin, built outside the sluice
 * tree against the installed <sluice/policy.h> (see Makefile and
 * docs/writing-plugins.md). It refuses the commands named by its `forbid`
 * key, wherever they appear (under sudo, in pipelines, in bash -c '...'),
 * and asks for approval before anything runs under sudo unless
 * `allow_sudo = yes`.
 * Not for: production use as is; copy it and make it yours.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sluice/policy.h>

struct state {
	const struct sluice_settings *settings; /* valid until close() */
	int allow_sudo;
};

static int ex_open(const struct sluice_host *host, const struct sluice_settings *settings,
                   void **ret_state)
{
	/* Every sluice_*() wrapper goes through the host table: set it first. */
	sluice_init(host);
	if (SLUICE_ABI_MAJOR_OF(host->abi_version) != SLUICE_POLICY_ABI_MAJOR)
		return -EPROTO;
	struct state *st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->settings = settings;
	for (size_t i = 0; i < sluice_settings_count(settings); i++) {
		if (strcmp(sluice_settings_key(settings, i), "allow_sudo") != 0)
			continue;
		const char *v = sluice_settings_value(settings, i);
		if (strcmp(v, "yes") == 0) {
			st->allow_sudo = 1;
		} else if (strcmp(v, "no") == 0) {
			st->allow_sudo = 0;
		} else {
			/* sluice prefixes FILE:LINE and refuses commands until fixed */
			sluice_settings_error(settings, i, "allow_sudo must be yes or no");
			free(st);
			return -EINVAL;
		}
	}
	*ret_state = st;
	return 0;
}

static int forbidden(const struct state *st, const char *name)
{
	for (size_t i = 0; i < sluice_settings_count(st->settings); i++)
		if (strcmp(sluice_settings_key(st->settings, i), "forbid") == 0 &&
		    strcmp(sluice_settings_value(st->settings, i), name) == 0)
			return 1;
	return 0;
}

static int ex_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	const struct state *st = state;
	int verdict = SLUICE_ALLOW;
	/* Every simple command at any depth: `a | b`, `x && (y)`, `$(z)`, ... */
	for (size_t i = 0; i < sluice_command_count(cmd); i++) {
		const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
		/* The real command name, after sudo/env/nice/... were taken off. */
		const char *name = sluice_name(sc);
		if (forbidden(st, name)) {
			char msg[256];
			snprintf(msg, sizeof(msg), "'%s' is not allowed in this project", name);
			/* The strings are copied by sluice: stack buffers are fine. */
			verdict = sluice_verdict_add(v, SLUICE_DENY, msg,
			                             "ask the user to run it themselves");
			continue;
		}
		for (size_t w = 0; w < sluice_wrapper_count(sc) && !st->allow_sudo; w++)
			if (strcmp(sluice_wrapper_name(sc, w), "sudo") == 0) {
				int r = sluice_verdict_add(v, SLUICE_ASK,
				                           "commands under sudo need approval",
				                           "run it without sudo if you can");
				if (r > verdict)
					verdict = r;
			}
	}
	return verdict;
}

static void ex_close(void *state)
{
	free(state);
}

static const struct sluice_key keys[] = {
	{ "forbid", SLUICE_KEY_REPEATABLE }, /* one command name per line */
	{ "allow_sudo", 0 },
	{ NULL, 0 },
};

/* The one symbol sluice looks for. */
SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin sluice_policy_plugin = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "example",
	.description = "refuses the commands it is told to, asks before sudo",
	.keys = keys,
	.open = ex_open,
	.check = ex_check,
	.close = ex_close,
};
