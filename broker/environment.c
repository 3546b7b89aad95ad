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

#include "cleanup.h"
#include "environment.h"
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

bool environment_is_dropped(const char *name, const char *const *drop, size_t n_drop)
{
	for (size_t i = 0; i < n_drop; i++)
		if (fnmatch(drop[i], name, 0) == 0)
			return true;
	return false;
}

/* Replace the entry named like assignment, or append it. */
static int put(char ***env, const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	if (!eq || eq == assignment)
		return -EINVAL;
	size_t name_len = (size_t)(eq - assignment) + 1;
	STRV_FOREACH (e, *env) {
		if (strncmp(*e, assignment, name_len) == 0) {
			char *copy = strdup(assignment);
			if (!copy)
				return -ENOMEM;
			free(*e);
			*e = copy;
			return 0;
		}
	}
	return strv_extend(env, assignment);
}

int environment_build(char *const *parent, const char *const *drop, size_t n_drop,
                      const char *const *set, size_t n_set, char ***ret)
{
	_cleanup_strv_free_ char **env = NULL;
	size_t count = 0;
	for (char *const *e = parent; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq || eq == *e)
			continue;
		if (++count > ENVIRONMENT_MAX)
			return -E2BIG;
		_cleanup_free_ char *name = strndup(*e, (size_t)(eq - *e));
		if (!name)
			return -ENOMEM;
		if (environment_is_dropped(name, drop, n_drop))
			continue;
		int r = strv_extend(&env, *e);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < ELEMENTSOF(non_interactive); i++) {
		int r = put(&env, non_interactive[i]);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < n_set; i++) {
		int r = put(&env, set[i]);
		if (r < 0)
			return r;
	}
	int r = put(&env, ENVIRONMENT_MARKER "=1");
	if (r < 0)
		return r;
	*ret = TAKE_PTR(env);
	return 0;
}
