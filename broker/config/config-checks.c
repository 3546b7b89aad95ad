/* SPDX-License-Identifier: MIT */
/*
 * What the keys must be together, or against the machine, checked once
 * every layer is read and none had an error: the output buffers fit their
 * cap, the approver and the shell can be run and are what they must be,
 * [sandbox] writable and [network] allow say what the launcher will
 * accept. Each error is at the line that set the key at fault.
 * Not for: a key's value alone (config-value.c).
 */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "config/config-checks.h"
#include "config/config-value.h"
#include "core/run-settings.h"
#include "egress-allow.h"
#include "path-trust.h"
#include "strv.h"

/* [approval] method = program needs a program that can be run: found
 * when the configuration is read, not when the first ask comes. */
static void check_approver(struct config_parse *p)
{
	const struct broker_config *c = p->cfg;
	if (c->approval_method != CONFIG_APPROVAL_PROGRAM)
		return;
	if (!c->approval_program || !c->approval_program[0]) {
		config_parse_error_at(
		        p, config_parse_set_at(p, "approval", "method"),
		        "[approval] method = program needs program = PATH, the approver to run");
		return;
	}
	if (access(c->approval_program, X_OK) < 0) {
		config_parse_error_at(p, config_parse_set_at(p, "approval", "program"),
		                      "[approval] program '%s' cannot be run: %s",
		                      c->approval_program, strerror(errno));
		return;
	}
	/* its yes is the administrator's: no one else may change it */
	struct sluice_error why = { 0 };
	if (path_trust_check(c->approval_program, getuid(), &why) < 0)
		config_parse_error_at(p, config_parse_set_at(p, "approval", "program"),
		                      "[approval] program: %s", why.detail);
}

/* [broker] shell must be a bash: the command model reads COMMAND as bash
 * does, and the policies judge that reading; another shell (or a script
 * that rewrites the command) would run something they never saw. The
 * built-in /bin/bash is no one's choice and is not looked at. */
static void check_shell(struct config_parse *p)
{
	const char *where = config_parse_set_at(p, "broker", "shell");
	if (!where)
		return;
	const char *shell = p->cfg->broker_shell;
	_cleanup_free_ char *real = realpath(shell, NULL);
	if (!real) {
		config_parse_error_at(p, where, "[broker] shell '%s': %s", shell, strerror(errno));
		return;
	}
	const char *base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (strcmp(base, "bash") != 0)
		config_parse_error_at(
		        p, where,
		        "[broker] shell '%s' is not bash (it is '%s'): the policies judge "
		        "commands as bash reads them",
		        shell, real);
}

/* What the keys must be together, checked once every layer is read: the
 * output buffers need a tail and output_head + output_tail <= output_cap.
 * The error is at the line that set the key at fault (for the sum:
 * output_cap, else output_head, else output_tail). */
static void check_output_caps(struct config_parse *p)
{
	const struct broker_config *c = p->cfg;
	uint64_t cap = c->broker_output_cap, head = c->broker_output_head;
	uint64_t tail = c->broker_output_tail;
	if (tail == 0) {
		config_parse_error_at(
		        p, config_parse_set_at(p, "broker", "output_tail"),
		        "[broker] output_tail must not be 0: the end of the output is kept");
		return;
	}
	if (head <= cap && tail <= cap - head)
		return;
	const char *where = config_parse_set_at(p, "broker", "output_cap");
	if (!where)
		where = config_parse_set_at(p, "broker", "output_head");
	if (!where)
		where = config_parse_set_at(p, "broker", "output_tail");
	char a[32], b[32], d[32];
	config_value_format_size(head, a, sizeof(a));
	config_value_format_size(tail, b, sizeof(b));
	config_value_format_size(cap, d, sizeof(d));
	config_parse_error_at(
	        p, where,
	        "[broker] output_head (%s) + output_tail (%s) must fit in output_cap (%s)", a, b,
	        d);
}

/* The home a leading "~" of [sandbox] writable means: that of the user
 * the commands run as ([sandbox] user), else the caller's ($HOME, else its
 * entry in the user database), as in [sandbox] hide. NULL: none known. */
static const char *writable_home(const struct broker_config *c)
{
	const struct passwd *pw = NULL;
	if (c->sandbox_user && c->sandbox_user[0]) {
		pw = getpwnam(c->sandbox_user);
		return pw && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
	}
	const char *home = getenv("HOME");
	if (home && home[0] == '/')
		return home;
	pw = getpwuid(getuid());
	return pw && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
}

/* A writable path that holds /tmp would cover the sandbox's private /tmp
 * (the launcher refuses it): said here, at its line. */
static void check_writable_not_tmp(struct config_parse *p, const char *where, const char *path)
{
	_cleanup_free_ char *tmp = realpath("/tmp", NULL);
	_cleanup_free_ char *c = realpath(path, NULL);
	if (!tmp || !c)
		return;
	size_t n = strcmp(c, "/") == 0 ? 0 : strlen(c);
	if (strncmp(tmp, c, n) == 0 && (tmp[n] == '\0' || tmp[n] == '/'))
		config_parse_error_at(p, where,
		                      "[sandbox] writable: '%s' holds /tmp, which is the sandbox's "
		                      "private /tmp: name a folder in it instead",
		                      path);
}

/* [sandbox] writable: "~" and "~/..." expanded to the home, every path
 * absolute and there, so that a mistake is this error, at the line that
 * named the path, and not a launcher that fails every command. */
static void check_writable(struct config_parse *p)
{
	char **words = p->cfg->sandbox_writable;
	size_t n_at = strv_length(p->writable_at);
	for (size_t i = 0; words && words[i]; i++) {
		const char *where = i < n_at ? p->writable_at[i] : NULL;
		const char *w = words[i];
		if (w[0] == '~' && (w[1] == '\0' || w[1] == '/')) {
			const char *home = writable_home(p->cfg);
			char *full = NULL;
			if (!home) {
				config_parse_error_at(
				        p, where,
				        "[sandbox] writable: '%s' starts with ~, and no home "
				        "directory is known to expand it",
				        w);
				continue;
			}
			if (asprintf(&full, "%s%s", home, w + 1) < 0) {
				config_parse_error_at(p, where, "out of memory");
				return;
			}
			free(words[i]);
			words[i] = full;
		} else if (w[0] != '/') {
			config_parse_error_at(
			        p, where,
			        "[sandbox] writable: '%s' is not an absolute path (nor starts "
			        "with ~/)",
			        w);
			continue;
		}
		struct stat st;
		if (stat(words[i], &st) == 0) {
			check_writable_not_tmp(p, where, words[i]);
			continue;
		}
		if (errno == ENOENT)
			config_parse_error_at(
			        p, where,
			        "[sandbox] writable: '%s' does not exist; create it, or leave "
			        "it out",
			        words[i]);
		else
			config_parse_error_at(p, where, "[sandbox] writable: '%s': %s", words[i],
			                      strerror(errno));
	}
}

/* [network] allow: each pattern read as the launcher's proxy reads it, so
 * that a mistake is this error and not a launcher that refuses every
 * command. */
static void check_network_allow(struct config_parse *p)
{
	char **words = p->cfg->network_allow;
	for (size_t i = 0; words && words[i]; i++) {
		struct egress_rule rule;
		struct sluice_error err = { 0 };
		if (egress_rule_parse(words[i], &rule, &err) < 0)
			config_parse_error_at(p, config_parse_set_at(p, "network", "allow"),
			                      "[network] allow: %s", err.detail);
	}
	if (words && strv_length(words) > RUN_SETTINGS_EGRESS_MAX)
		config_parse_error_at(p, config_parse_set_at(p, "network", "allow"),
		                      "[network] allow: more than %d patterns",
		                      RUN_SETTINGS_EGRESS_MAX);
}

/* [network] allow_internal: each pattern a name (or suffix) that allow
 * covers, read as the launcher reads --egress-allow-internal against
 * --egress-allow, so that a mistake is this error, at the key's line. A
 * user layer cannot set allow once the system layer set this key, so
 * "covered" is by the administrator's allowlist. */
static void check_network_allow_internal(struct config_parse *p)
{
	char **words = p->cfg->network_allow_internal;
	if (!words || !words[0])
		return;
	const char *where = config_parse_set_at(p, "network", "allow_internal");
	size_t n_allow = strv_length(p->cfg->network_allow);
	if (strv_length(words) > RUN_SETTINGS_EGRESS_MAX) {
		config_parse_error_at(p, where, "[network] allow_internal: more than %d patterns",
		                      RUN_SETTINGS_EGRESS_MAX);
		return;
	}
	_cleanup_free_ struct egress_rule *allow = calloc(n_allow ? n_allow : 1, sizeof(*allow));
	if (!allow) {
		config_parse_error_at(p, where, "out of memory");
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < n_allow; i++) {
		struct sluice_error err = { 0 };
		/* a bad one is check_network_allow()'s error already */
		if (egress_rule_parse(p->cfg->network_allow[i], &allow[n], &err) >= 0)
			n++;
	}
	for (size_t i = 0; words[i]; i++) {
		struct egress_rule rule;
		struct sluice_error err = { 0 };
		if (egress_internal_rule_parse(words[i], allow, n, "[network] allow", &rule, &err) <
		    0)
			config_parse_error_at(p, where, "[network] allow_internal: %s", err.detail);
	}
}

void config_checks_run(struct config_parse *p)
{
	check_output_caps(p);
	check_approver(p);
	check_shell(p);
	check_writable(p);
	check_network_allow(p);
	check_network_allow_internal(p);
}
