/* SPDX-License-Identifier: MIT */
/*
 * Environment filtering. A deny list by pattern, not an allowlist: agents'
 * commands need PATH, locale, toolchain variables and project settings, and
 * what must not leak is the credentials, whose names follow conventions.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cleanup.h"
#include "run/environment.h"
#include "strv.h"

/* What a blocked editor or askpass prints before failing; programs that run
 * these through a shell show the line, the rest simply see a failure. */
#define NO_EDITOR                                                                       \
	"echo 'sluice: no interactive editor here (no terminal); pass the text on the " \
	"command line, e.g. git commit -m' >&2; false"
#define NO_SEQUENCE_EDITOR                                                                   \
	"echo 'sluice: git rebase -i needs an editor; use a non-interactive rebase, or run " \
	"it in background mode with GIT_SEQUENCE_EDITOR set to a script' >&2; false"

static const char *const non_interactive[] = {
	"EDITOR=" NO_EDITOR,
	"VISUAL=" NO_EDITOR,
	"GIT_EDITOR=" NO_EDITOR,
	"GIT_SEQUENCE_EDITOR=" NO_SEQUENCE_EDITOR,
	"PAGER=cat",
	"GIT_PAGER=cat",
	"MANPAGER=cat",
	"SYSTEMD_PAGER=cat",
	"GIT_TERMINAL_PROMPT=0",
	"GIT_ASKPASS=false",
	"SSH_ASKPASS=false",
	"SSH_ASKPASS_REQUIRE=never",
	"SUDO_ASKPASS=/bin/false",
	"DEBIAN_FRONTEND=noninteractive",
	"NPM_CONFIG_YES=true",
	"PIP_NO_INPUT=1",
	ENVIRONMENT_MARKER "=1",
};

/* npm (and npx, pnpm, which read npm's settings) retries a failed fetch
 * with back-off for over a minute; prefer-offline lets it install what
 * the workspace's cache holds without asking the registry first. */
static const char *const no_network[] = {
	"npm_config_fetch_retries=0",
	"npm_config_prefer_offline=true",
	"npm_config_update_notifier=false",
	"PIP_RETRIES=0",
	"CARGO_NET_RETRY=0",
	"GOPROXY=off",
};

const char *const *environment_no_network(size_t *n)
{
	*n = ELEMENTSOF(no_network);
	return no_network;
}

/* fnmatch(3) on the name's len bytes, ignoring case. */
static bool fnmatch_name(const char *pattern, const char *name, size_t len)
{
	char buf[256];
	char *copy = len < sizeof(buf) ? buf : malloc(len + 1);
	if (!copy)
		return true; /* out of memory: a secret must not leak */
	memcpy(copy, name, len);
	copy[len] = '\0';
	bool m = fnmatch(pattern, copy, FNM_CASEFOLD) == 0;
	if (copy != buf)
		free(copy);
	return m;
}

/* An ASCII letter in upper case, anything else as it is. */
static char fold(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* Whether the name's len bytes match the glob pattern as fnmatch(3) with
 * FNM_CASEFOLD matches them: '*' matches any run, '?' any one character,
 * anything else itself in either case (github_token is a *_TOKEN), and a
 * pattern that uses '[' or '\\' goes to fnmatch(3). A run tests every
 * variable against every pattern: no copy, no call out. */
static bool glob_matches(const char *pattern, const char *name, size_t len)
{
	const char *p = pattern, *star = NULL;
	size_t i = 0, after_star = 0;
	while (i < len) {
		if (*p == '*') {
			star = ++p; /* the run starts empty and grows on a mismatch */
			after_star = i;
		} else if (*p == '[' || *p == '\\') {
			return fnmatch_name(pattern, name, len);
		} else if (*p && (*p == '?' || fold(*p) == fold(name[i]))) {
			p++;
			i++;
		} else if (star) {
			p = star;
			i = ++after_star;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0'; /* what is left needs a character each */
}

static bool dropped(const char *name, size_t len, const char *const *drop, size_t n_drop)
{
	for (size_t i = 0; i < n_drop; i++)
		if (glob_matches(drop[i], name, len))
			return true;
	return false;
}

bool environment_is_dropped(const char *name, const char *const *drop, size_t n_drop)
{
	return dropped(name, strlen(name), drop, n_drop);
}

/* A user name with no password that is a token, not a login: a known
 * token's prefix, or 20 characters and more (git@, deploy@ stay). */
static bool user_is_token(const char *user, size_t len)
{
	static const char *const prefixes[] = { "ghp_",        "gho_",   "ghu_", "ghs_", "ghr_",
		                                "github_pat_", "glpat-", "xox",  "sk-" };
	for (size_t i = 0; i < ELEMENTSOF(prefixes); i++)
		if (len > strlen(prefixes[i]) &&
		    strncmp(user, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return len >= 20;
}

/* What of the URL userinfo that starts at p (just after "://") is a
 * secret: its password (from its first ':', to its last '@'), or all of
 * it and the '@' when it is a token alone; its start in *start and its
 * length, 0 when none. The authority ends at the first '/', '?', '#' or
 * white space. */
static size_t url_secret_len(char *p, char **start)
{
	size_t authority = strcspn(p, "/?# \t\n");
	char *at = NULL;
	for (char *c = p; c < p + authority; c++)
		if (*c == '@')
			at = c;
	if (!at)
		return 0;
	char *colon = memchr(p, ':', (size_t)(at - p));
	if (!colon && user_is_token(p, (size_t)(at - p))) {
		*start = p;
		return (size_t)(at - p) + 1;
	}
	if (!colon || colon + 1 == at)
		return 0;
	*start = colon;
	return (size_t)(at - colon);
}

/* Whether a query key (len bytes) names a secret: a password, a token, a
 * signature (an Azure SAS's sig, S3's X-Amz-Signature), a key. */
static bool query_key_is_secret(const char *key, size_t len)
{
	static const char *const keys[] = { "password",  "passwd",          "pwd",
		                            "pass",      "token",           "access_token",
		                            "secret",    "client_secret",   "sig",
		                            "signature", "x-amz-signature", "key",
		                            "apikey",    "api_key",         "auth" };
	for (size_t i = 0; i < ELEMENTSOF(keys); i++)
		if (len == strlen(keys[i]) && strncasecmp(key, keys[i], len) == 0)
			return true;
	return false;
}

/* The values of the secret keys of the query that starts at q (just after
 * '?') emptied, up to the URL's end (white space) or its fragment. */
static void without_query_secrets(char *q)
{
	while (*q && !strchr(" \t\n#", *q)) {
		size_t param = strcspn(q, "&; \t\n#");
		char *eq = memchr(q, '=', param);
		if (eq && query_key_is_secret(q, (size_t)(eq - q))) {
			memmove(eq + 1, q + param, strlen(q + param) + 1);
			param = (size_t)(eq + 1 - q);
		}
		q += param;
		if (*q == '&' || *q == ';')
			q++;
	}
}

/* A copy of entry ("NAME=VALUE") with the secrets of every URL in VALUE
 * removed: a password (postgres://u:pw@h/db becomes postgres://u@h/db), a
 * token given as the user (https://ghp_...@host/r becomes https://host/r),
 * a query's password, token or signature (?password=pw becomes
 * ?password=); or NULL with errno ENOMEM. */
static char *without_url_secrets(const char *entry)
{
	char *copy = strdup(entry);
	if (!copy)
		return NULL;
	char *scheme_end = strchr(copy, '=');
	while ((scheme_end = strstr(scheme_end, "://"))) {
		char *authority = scheme_end + 3;
		char *secret = NULL;
		size_t len = url_secret_len(authority, &secret);
		if (len > 0)
			memmove(secret, secret + len, strlen(secret + len) + 1);
		size_t url = strcspn(authority, " \t\n");
		char *query = memchr(authority, '?', url);
		if (query)
			without_query_secrets(query + 1);
		scheme_end = authority;
	}
	return copy;
}

/* Replace the entry of env[0..*n) named like assignment, or append it
 * (env has room for it). */
static int put(char **env, size_t *n, const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	if (!eq || eq == assignment)
		return -EINVAL;
	size_t name_len = (size_t)(eq - assignment) + 1;
	char *copy = strdup(assignment);
	if (!copy)
		return -ENOMEM;
	for (size_t i = 0; i < *n; i++) {
		if (env[i][0] == assignment[0] && strncmp(env[i], assignment, name_len) == 0) {
			free(env[i]);
			env[i] = copy;
			return 0;
		}
	}
	env[(*n)++] = copy;
	return 0;
}

int environment_build(char *const *parent, const char *const *drop, size_t n_drop,
                      const char *const *set, size_t n_set, char ***ret)
{
	size_t count = 0;
	for (char *const *e = parent; e && *e; e++)
		if (++count > ENVIRONMENT_MAX)
			return -E2BIG;
	/* One allocation: every entry the steps below can add, and the NULL. */
	_cleanup_strv_free_ char **env =
	        calloc(count + ELEMENTSOF(non_interactive) + n_set + 2, sizeof(char *));
	if (!env)
		return -ENOMEM;
	size_t n = 0;
	for (char *const *e = parent; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq || eq == *e || dropped(*e, (size_t)(eq - *e), drop, n_drop))
			continue;
		env[n] = strstr(eq, "://") ? without_url_secrets(*e) : strdup(*e);
		if (!env[n++])
			return -ENOMEM;
	}
	for (size_t i = 0; i < ELEMENTSOF(non_interactive); i++) {
		int r = put(env, &n, non_interactive[i]);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < n_set; i++) {
		int r = put(env, &n, set[i]);
		if (r < 0)
			return r;
	}
	int r = put(env, &n, ENVIRONMENT_MARKER "=1");
	if (r < 0)
		return r;
	*ret = TAKE_PTR(env);
	return 0;
}
