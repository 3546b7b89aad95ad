/* SPDX-License-Identifier: MIT */
/*
 * hook_check(): the agent's check chosen by name, and what the checks
 * share: is a hook's command sluice's, does its matcher cover the shell.
 * Not for: any one agent's rules (hook-check-codex.c, hook-check-gemini.c).
 */
#include "config.h"

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/hook-check.h"
#include "cleanup.h"

int hook_check(const struct hook_check_request *req, FILE *out, struct sluice_error *reterr)
{
	if (strcmp(req->agent, "codex") == 0)
		return hook_check_codex(req, out, reterr);
	if (strcmp(req->agent, "gemini") == 0)
		return hook_check_gemini(req, out, reterr);
	return sluice_error_set(reterr, -EOPNOTSUPP, "--check knows %s, not %s",
	                        hook_check_agents(), req->agent);
}

const char *hook_check_agents(void)
{
	return "codex|gemini";
}

/* The next word of a command line at *p (blanks skipped; '…' and "…"
 * taken whole, as a shell would for the plain words of a hook command),
 * copied into buf; false at the end or when it does not fit. */
static bool next_word(const char **p, char *buf, size_t size)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return false;
	size_t n = 0;
	while (*s && *s != ' ' && *s != '\t') {
		char quote = *s == '\'' || *s == '"' ? *s : 0;
		if (quote) {
			const char *end = strchr(s + 1, quote);
			if (!end)
				return false;
			for (s++; s < end; s++)
				if (n + 1 < size)
					buf[n++] = *s;
				else
					return false;
			s++;
			continue;
		}
		if (n + 1 >= size)
			return false;
		buf[n++] = *s++;
	}
	buf[n] = '\0';
	*p = s;
	return true;
}

bool hook_check_runs_sluice(const char *command, const char *agent)
{
	if (!command)
		return false;
	char word[4096];
	const char *p = command;
	/* sluice is the command word: after `env` and its assignments at most
	 * (`echo sluice hook codex` is not sluice's hook) */
	bool first = true;
	while (next_word(&p, word, sizeof(word))) {
		bool env = first && strcmp(word, "env") == 0;
		first = false;
		if (env || (word[0] != '=' && strchr(word, '=')))
			continue;
		const char *base = strrchr(word, '/');
		if (strcmp(base ? base + 1 : word, "sluice") != 0)
			return false;
		char verb[16], name[32];
		return next_word(&p, verb, sizeof(verb)) && strcmp(verb, "hook") == 0 &&
		       next_word(&p, name, sizeof(name)) && strcmp(name, agent) == 0;
	}
	return false;
}

bool hook_check_matcher_covers(const char *matcher, const char *tool)
{
	if (!matcher || !*matcher || strcmp(matcher, "*") == 0)
		return true;
	_cleanup_free_ char *whole = NULL;
	if (asprintf(&whole, "^(%s)$", matcher) < 0)
		return false;
	regex_t re;
	if (regcomp(&re, whole, REG_EXTENDED | REG_NOSUB) != 0)
		return false;
	bool covers = regexec(&re, tool, 0, NULL, 0) == 0;
	regfree(&re);
	return covers;
}
