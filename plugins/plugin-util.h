/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by the built-in plugins, compiled into each plugin's
 * object (static inline: every plugin stays one self-contained file that
 * defines nothing but its descriptor). Only the public ABI (sluice/policy.h)
 * is used here.
 * Not for: anything a third-party plugin could not write itself.
 */
#ifndef SLUICE_PLUGIN_UTIL_H
#define SLUICE_PLUGIN_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "builtin.h"
#include "sluice/policy.h"

/* git's global options that take the next word as their value. */
static const char *const git_global_options_with_value[] = {
	"-C",           "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
	"--config-env", NULL,
};

/* The index of git's subcommand word when sc runs git and its subcommand is
 * one of names (NULL-terminated); 0 otherwise. */
static inline size_t git_subcommand_is(const struct sluice_simple_command *sc,
                                       const char *const *names)
{
	if (strcmp(sluice_name(sc), "git") != 0)
		return 0;
	size_t i = sluice_subcommand(sc, git_global_options_with_value);
	if (!i)
		return 0;
	const char *sub = sluice_arg(sc, i);
	for (const char *const *n = names; *n; n++)
		if (strcmp(sub, *n) == 0)
			return i;
	return 0;
}

static inline bool str_in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

/* Parse "deny" / "ask" / "allow"; -1 for anything else. */
static inline int verdict_from_word(const char *w)
{
	static const char *const words[] = { "allow", "ask", "deny" };
	for (int i = 0; i < 3; i++)
		if (w && strcmp(w, words[i]) == 0)
			return i;
	return -1;
}

/* Read the verdict word setting key into *ret (def when not set; the last
 * one when repeated); a word below min is reported on its setting and gives
 * -EINVAL. */
static inline int read_choice(const struct sluice_settings *s, const char *key, int def, int min,
                              int *ret)
{
	*ret = def;
	for (size_t i = 0; i < sluice_settings_count(s); i++) {
		if (strcmp(sluice_settings_key(s, i), key) != 0)
			continue;
		int c = verdict_from_word(sluice_settings_value(s, i));
		if (c < min) {
			sluice_settings_error(s, i,
			                      min == SLUICE_ASK ? "expected ask or deny"
			                                        : "expected allow, ask or deny");
			return -EINVAL;
		}
		*ret = c;
	}
	return 0;
}

/* open() of a plugin whose only state is its settings: the state is the
 * settings handle itself (valid until close). */
static inline int open_keep_settings(const struct sluice_host *host,
                                     const struct sluice_settings *settings, void **ret_state)
{
	sluice_init(host);
	*ret_state = (void *)settings;
	return 0;
}

/* A check of one simple command; state is what open() made. */
typedef int (*check_one_fn)(const void *state, const struct sluice_simple_command *sc,
                            struct sluice_verdict *v);

/* The highest verdict of fn over every simple command of cmd. */
static inline int check_each(const void *state, const struct sluice_command *cmd,
                             struct sluice_verdict *v, check_one_fn fn)
{
	int verdict = SLUICE_ALLOW;
	for (size_t i = 0; i < sluice_command_count(cmd); i++) {
		int r = fn(state, sluice_command_get(cmd, i), v);
		if (r < 0)
			return r;
		if (r > verdict)
			verdict = r;
	}
	return verdict;
}

#endif
