/* SPDX-License-Identifier: MIT */
/*
 * commands: the administrator's lists of command names. `deny` names are
 * refused; when `allow` names are given, any other command is answered as
 * `unlisted` says (ask or deny); a command whose name is not static
 * (`$CMD args`, `"$(which rm)" x`) is answered as `dynamic` says. Names are
 * glob patterns, several to a line; wrappers (sudo, env, ...) are judged by
 * the same lists. With `allow_builtins` (default yes) an allowlist still lets
 * the harmless shell builtins through (cd, echo, printf, test, true, ...).
 * Not for: arguments (use regex, or a plugin of your own).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin-util.h"
#include "sluice/policy.h"

static const char *const harmless_builtins[] = {
	"cd",    "echo", "printf", "test",    "[",      "true", "false",
	":",     "pwd",  "export", "exit",    "return", "set",  "unset",
	"shift", "read", "local",  "declare", "pushd",  "popd", NULL,
};

struct state {
	const struct sluice_settings *settings;
	bool have_allow;
	int unlisted;
	int dynamic;
	bool builtins;
};

/* Is name on a list (every value of key, words split on blanks)? */
static bool listed(const struct state *st, const char *key, const char *name)
{
	for (size_t i = 0; i < sluice_settings_count(st->settings); i++) {
		if (strcmp(sluice_settings_key(st->settings, i), key) != 0)
			continue;
		const char *v = sluice_settings_value(st->settings, i);
		while (*v) {
			size_t skip = strspn(v, " \t"), len = strcspn(v + skip, " \t");
			char word[256];
			if (len > 0 && len < sizeof(word)) {
				memcpy(word, v + skip, len);
				word[len] = '\0';
				if (fnmatch(word, name, 0) == 0)
					return true;
			}
			v += skip + len;
		}
	}
	return false;
}

static int judge_name(const struct state *st, const char *name, struct sluice_verdict *v)
{
	char msg[512];
	if (listed(st, "deny", name)) {
		snprintf(msg, sizeof(msg),
		         "'%s' is on the administrator's list of refused commands", name);
		return sluice_verdict_add(v, SLUICE_DENY, msg,
		                          "do it another way, or ask the user");
	}
	if (!st->have_allow || listed(st, "allow", name))
		return SLUICE_ALLOW;
	if (st->builtins && str_in(name, harmless_builtins))
		return SLUICE_ALLOW;
	snprintf(msg, sizeof(msg), "'%s' is not on the administrator's list of allowed commands",
	         name);
	return sluice_verdict_add(v, st->unlisted, msg, "use one of the allowed commands");
}

static int check_one(const void *state, const struct sluice_simple_command *sc,
                     struct sluice_verdict *v)
{
	const struct state *st = state;
	int verdict = SLUICE_ALLOW, r;
	for (size_t w = 0; w < sluice_wrapper_count(sc); w++) {
		r = judge_name(st, sluice_wrapper_name(sc, w), v);
		if (r > verdict)
			verdict = r;
	}
	if (sluice_argc(sc) == 0)
		return verdict;
	if (sluice_flags(sc) & SLUICE_CMD_NAME_DYNAMIC) {
		if (st->dynamic == SLUICE_ALLOW)
			return verdict;
		char msg[512];
		snprintf(msg, sizeof(msg), "the command name '%s' is only known when it runs",
		         sluice_arg(sc, 0));
		r = sluice_verdict_add(v, st->dynamic, msg, "write the command's name literally");
	} else {
		r = judge_name(st, sluice_name(sc), v);
	}
	return r > verdict ? r : verdict;
}

static int cm_open(const struct sluice_host *host, const struct sluice_settings *settings,
                   void **ret_state)
{
	sluice_init(host);
	struct state *st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->settings = settings;
	st->have_allow = sluice_settings_get(settings, "allow") != NULL;
	int r = read_choice(settings, "unlisted", SLUICE_ASK, SLUICE_ASK, &st->unlisted);
	if (r >= 0)
		r = read_choice(settings, "dynamic", SLUICE_ASK, SLUICE_ALLOW, &st->dynamic);
	const char *b = sluice_settings_get(settings, "allow_builtins");
	st->builtins = !b || strcmp(b, "yes") == 0 || strcmp(b, "true") == 0;
	if (r >= 0 && b && !st->builtins && strcmp(b, "no") != 0 && strcmp(b, "false") != 0) {
		for (size_t i = 0; i < sluice_settings_count(settings); i++)
			if (strcmp(sluice_settings_key(settings, i), "allow_builtins") == 0)
				sluice_settings_error(settings, i, "expected yes or no");
		r = -EINVAL;
	}
	if (r < 0) {
		free(st);
		return r;
	}
	*ret_state = st;
	return 0;
}

static int cm_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	return check_each(state, cmd, v, check_one);
}

static void cm_close(void *state)
{
	free(state);
}

static const struct sluice_key keys[] = {
	{ "allow", SLUICE_KEY_REPEATABLE },
	{ "deny", SLUICE_KEY_REPEATABLE },
	{ "unlisted", 0 },
	{ "dynamic", 0 },
	{ "allow_builtins", 0 },
	{ NULL, 0 },
};

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "commands",
	.description = "allow and deny lists of command names",
	.keys = keys,
	.open = cm_open,
	.check = cm_check,
	.close = cm_close,
};
