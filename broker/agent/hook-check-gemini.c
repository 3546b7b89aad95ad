/* SPDX-License-Identifier: MIT */
/*
 * Gemini CLI's check: its settings layers and folder trust, read as Gemini
 * CLI 0.61 reads them (its settings loader and hook registry):
 * - the layers: the system defaults, the user's ~/.gemini/settings.json,
 *   the project's .gemini/settings.json (only in a trusted folder) and the
 *   system settings (the administrator's, which win);
 * - trust: GEMINI_CLI_TRUST_WORKSPACE=true trusts, =false (or
 *   GEMINI_RESTRICTED_MODE=true) distrusts; security.folderTrust.enabled
 *   false (outside the project's settings) trusts every folder; otherwise
 *   the longest matching rule of trustedFolders.json, and no rule is no
 *   trust;
 * - in a folder that is not trusted no hook runs at all, the user's
 *   included (headless, Gemini CLI then refuses to work; `--skip-trust`
 *   trusts only after the settings were read: the user's and the system's
 *   hooks then run, the project's do not);
 * - hooksConfig.enabled false turns every hook off, hooksConfig.disabled
 *   names hooks (by name, else command) that are off.
 * Not for: other agents (hook-check-codex.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/hook-check.h"
#include "cleanup.h"
#include "fd-util.h"
#include "path-text.h"

/* A settings file larger than this is not one a person wrote. */
#define SETTINGS_MAX (4 * 1024 * 1024)

enum layer { LAYER_SYSTEM_DEFAULTS, LAYER_USER, LAYER_PROJECT, LAYER_SYSTEM, N_LAYERS };
static const char *const layer_names[N_LAYERS] = { "system defaults", "user", "project", "system" };

struct gemini_settings {
	char *path[N_LAYERS];
	json_t *layer[N_LAYERS]; /* NULL: no such file */
	char *home;
	char *trusted_folders;
};

static void gemini_settings_done(struct gemini_settings *g)
{
	for (int i = 0; i < N_LAYERS; i++) {
		free(g->path[i]);
		json_decref(g->layer[i]);
	}
	free(g->home);
	free(g->trusted_folders);
}

/* Blank out // and block comments outside strings, as Gemini CLI strips
 * them before JSON.parse. */
static void strip_json_comments(char *s, size_t len)
{
	bool in_string = false;
	for (size_t i = 0; i < len; i++) {
		if (in_string) {
			if (s[i] == '\\' && i + 1 < len)
				i++;
			else if (s[i] == '"')
				in_string = false;
		} else if (s[i] == '"') {
			in_string = true;
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
			for (; i < len && s[i] != '\n'; i++)
				s[i] = ' ';
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			size_t j = i + 2;
			while (j + 1 < len && !(s[j] == '*' && s[j + 1] == '/'))
				j++;
			size_t end = j + 1 < len ? j + 2 : len;
			for (; i < end; i++)
				if (s[i] != '\n')
					s[i] = ' ';
			i--;
		}
	}
}

/* The JSON object in path: *ret NULL when there is no such file; an error
 * for a file that cannot be read or is not an object (Gemini CLI refuses
 * to start on it). */
static int read_settings(const char *path, json_t **ret, struct sluice_error *reterr)
{
	*ret = NULL;
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR
		               ? 0
		               : sluice_error_set(reterr, neg_errno(), "reading %s", path);
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > SETTINGS_MAX)
		return sluice_error_set(reterr, -EINVAL, "%s is not a settings file", path);
	_cleanup_free_ char *text = malloc((size_t)st.st_size + 1);
	if (!text)
		return sluice_error_set(reterr, -ENOMEM, "reading %s", path);
	ssize_t n = read_full(fd, text, (size_t)st.st_size);
	if (n < 0)
		return sluice_error_set(reterr, (int)n, "reading %s", path);
	strip_json_comments(text, (size_t)n);
	json_error_t jerr;
	json_t *doc = json_loadb(text, (size_t)n, JSON_DECODE_ANY, &jerr);
	if (!json_is_object(doc)) {
		json_decref(doc);
		return sluice_error_set(
		        reterr, -EINVAL,
		        "%s is not a JSON object (line %d: %s); Gemini CLI refuses to "
		        "start on it",
		        path, jerr.line, doc ? "not an object" : jerr.text);
	}
	*ret = doc;
	return 0;
}

/* layer's value at dotted path a.b.c, or NULL. */
static json_t *setting(json_t *layer, const char *a, const char *b, const char *c)
{
	json_t *v = json_object_get(json_object_get(layer, a), b);
	return c ? json_object_get(v, c) : v;
}

/* The boolean the layers give a.b.c, the highest one that sets it winning
 * (of those listed in order, lowest first), or fallback. */
static bool merged_bool(const struct gemini_settings *g, const enum layer *order, size_t n,
                        const char *a, const char *b, const char *c, bool fallback)
{
	bool v = fallback;
	for (size_t i = 0; i < n; i++) {
		json_t *x = setting(g->layer[order[i]], a, b, c);
		if (json_is_boolean(x))
			v = json_is_true(x);
	}
	return v;
}

static char *real_or_same(const char *path)
{
	char *r = realpath(path, NULL);
	return r ? r : strdup(path);
}

static int trust_rule_of(json_t *rules, const char *directory, char *why, size_t why_size,
                         const char *file, struct sluice_error *reterr);

/* trustedFolders.json's word on directory: 1 trusted, 0 distrusted, -1 no
 * rule; an error for a file Gemini CLI would refuse. why names the rule. */
static int trust_rule(const struct gemini_settings *g, const char *directory, char *why,
                      size_t why_size, struct sluice_error *reterr)
{
	json_t *rules = NULL;
	if (read_settings(g->trusted_folders, &rules, reterr) < 0)
		return reterr->code;
	int r = trust_rule_of(rules, directory, why, why_size, g->trusted_folders, reterr);
	json_decref(rules);
	return r;
}

static int trust_rule_of(json_t *rules, const char *directory, char *why, size_t why_size,
                         const char *file, struct sluice_error *reterr)
{
	_cleanup_free_ char *where = real_or_same(directory);
	if (!where)
		return sluice_error_set(reterr, -ENOMEM, "the folder's path");
	const char *rule_path, *best = NULL, *best_level = NULL;
	size_t best_len = 0;
	json_t *level;
	json_object_foreach(rules, rule_path, level)
	{
		const char *l = json_string_value(level);
		if (!l)
			continue;
		_cleanup_free_ char *effective = NULL;
		if (strcmp(l, "TRUST_PARENT") == 0) {
			effective = strdup(rule_path);
			char *slash = effective ? strrchr(effective, '/') : NULL;
			if (slash)
				*(slash == effective ? slash + 1 : slash) = '\0';
		} else if (strcmp(l, "TRUST_FOLDER") == 0 || strcmp(l, "DO_NOT_TRUST") == 0) {
			effective = strdup(rule_path);
		} else {
			continue;
		}
		_cleanup_free_ char *real = effective ? real_or_same(effective) : NULL;
		if (!real)
			return sluice_error_set(reterr, -ENOMEM, "a trust rule");
		if (path_within(where, real) && (!best || strlen(rule_path) > best_len)) {
			best = rule_path;
			best_len = strlen(rule_path);
			best_level = l;
		}
	}
	if (!best) {
		snprintf(why, why_size, "no rule of %s covers it", file);
		return -1;
	}
	snprintf(why, why_size, "%s for %s in %s", best_level, best, file);
	return strcmp(best_level, "DO_NOT_TRUST") != 0;
}

/* Whether Gemini CLI trusts directory; why says by what. */
static int folder_trusted(const struct gemini_settings *g, const char *directory, char *why,
                          size_t why_size, struct sluice_error *reterr)
{
	const char *env = getenv("GEMINI_CLI_TRUST_WORKSPACE");
	const char *restricted = getenv("GEMINI_RESTRICTED_MODE");
	if ((restricted && strcmp(restricted, "true") == 0) || (env && strcmp(env, "false") == 0)) {
		snprintf(why, why_size, "the environment says so (%s)",
		         env && strcmp(env, "false") == 0 ? "GEMINI_CLI_TRUST_WORKSPACE=false"
		                                          : "GEMINI_RESTRICTED_MODE=true");
		return 0;
	}
	if (env && strcmp(env, "true") == 0) {
		snprintf(why, why_size, "GEMINI_CLI_TRUST_WORKSPACE=true");
		return 1;
	}
	static const enum layer trust_layers[] = { LAYER_SYSTEM_DEFAULTS, LAYER_USER,
		                                   LAYER_SYSTEM };
	if (!merged_bool(g, trust_layers, ELEMENTSOF(trust_layers), "security", "folderTrust",
	                 "enabled", true)) {
		snprintf(why, why_size, "folder trust is off (security.folderTrust.enabled)");
		return 1;
	}
	int r = trust_rule(g, directory, why, why_size, reterr);
	return r < -1 ? r : r == 1;
}

/* Whether the merged hooksConfig.disabled names the hook. */
static bool hook_disabled(const struct gemini_settings *g, const enum layer *order, size_t n,
                          json_t *hook)
{
	const char *name = json_string_value(json_object_get(hook, "name"));
	if (!name)
		name = json_string_value(json_object_get(hook, "command"));
	for (size_t i = 0; i < n; i++) {
		size_t j;
		json_t *d;
		json_array_foreach(setting(g->layer[order[i]], "hooksConfig", "disabled", NULL), j,
		                   d) if (name && json_is_string(d) &&
		                          strcmp(json_string_value(d), name) == 0) return true;
	}
	return false;
}

/* The hooks of sluice's in layer: a line each on out; how many of them
 * would run (given that hooks run at all). */
static size_t layer_hooks(const struct gemini_settings *g, enum layer l, const enum layer *order,
                          size_t n, bool layer_read, FILE *out, size_t *found)
{
	size_t running = 0, i, j;
	json_t *group, *hook;
	json_array_foreach(setting(g->layer[l], "hooks", "BeforeTool", NULL), i, group)
	{
		const char *matcher = json_string_value(json_object_get(group, "matcher"));
		json_array_foreach(json_object_get(group, "hooks"), j, hook)
		{
			const char *command = json_string_value(json_object_get(hook, "command"));
			const char *type = json_string_value(json_object_get(hook, "type"));
			if (!type || strcmp(type, "command") != 0 ||
			    !hook_check_runs_sluice(command, "gemini"))
				continue;
			(*found)++;
			bool covers = hook_check_matcher_covers(matcher, "run_shell_command");
			bool disabled = hook_disabled(g, order, n, hook);
			fprintf(out,
			        "gemini: %s settings (%s): BeforeTool `%s`, matcher %s%s%s%s%s%s\n",
			        layer_names[l], g->path[l], command, matcher ? "\"" : "",
			        matcher ? matcher : "none", matcher ? "\"" : "",
			        covers ? "" : ", which does not cover run_shell_command",
			        disabled ? ", disabled by hooksConfig.disabled" : "",
			        layer_read ? "" : ", NOT READ: the folder is not trusted");
			running += covers && !disabled && layer_read;
		}
	}
	return running;
}

static int locate(struct gemini_settings *g, const char *directory, struct sluice_error *reterr)
{
	const char *home = getenv("GEMINI_CLI_HOME");
	if (!home || !*home)
		home = getenv("HOME");
	if (!home || !*home)
		return sluice_error_set(reterr, -ENOENT,
		                        "no HOME: Gemini CLI's settings are under it");
	const char *system = getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH");
	if (!system || !*system)
		system = "/etc/gemini-cli/settings.json";
	const char *defaults = getenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH");
	const char *folders = getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH");
	_cleanup_free_ char *system_dir = strdup(system);
	char *slash = system_dir ? strrchr(system_dir, '/') : NULL;
	if (slash)
		*slash = '\0';
	g->home = strdup(home);
	g->path[LAYER_SYSTEM] = strdup(system);
	if (!system_dir || !g->home || !g->path[LAYER_SYSTEM] ||
	    (defaults && *defaults
	             ? !(g->path[LAYER_SYSTEM_DEFAULTS] = strdup(defaults))
	             : asprintf(&g->path[LAYER_SYSTEM_DEFAULTS], "%s/system-defaults.json",
	                        slash ? system_dir : ".") < 0) ||
	    asprintf(&g->path[LAYER_USER], "%s/.gemini/settings.json", home) < 0 ||
	    asprintf(&g->path[LAYER_PROJECT], "%s/.gemini/settings.json", directory) < 0 ||
	    (folders && *folders
	             ? !(g->trusted_folders = strdup(folders))
	             : asprintf(&g->trusted_folders, "%s/.gemini/trustedFolders.json", home) < 0))
		return sluice_error_set(reterr, -ENOMEM, "Gemini CLI's settings paths");
	/* the home folder's .gemini/ is the user's, not a project's */
	_cleanup_free_ char *real_home = real_or_same(home), *real_dir = real_or_same(directory);
	bool home_is_project = real_home && real_dir && strcmp(real_home, real_dir) == 0;
	for (int i = 0; i < N_LAYERS; i++)
		if (!(i == LAYER_PROJECT && home_is_project) &&
		    read_settings(g->path[i], &g->layer[i], reterr) < 0)
			return reterr->code;
	return 0;
}

int hook_check_gemini(const struct hook_check_request *req, FILE *out, struct sluice_error *reterr)
{
	_cleanup_(gemini_settings_done) struct gemini_settings g = { 0 };
	if (locate(&g, req->directory, reterr) < 0)
		return reterr->code;
	char why[PATH_MAX + 128];
	int trusted = folder_trusted(&g, req->directory, why, sizeof(why), reterr);
	if (trusted < 0)
		return trusted;
	fprintf(out, "gemini: %s is %strusted: %s\n", req->directory, trusted ? "" : "not ", why);

	/* the merge's order, lowest first: the project's only when trusted */
	static const enum layer all[] = { LAYER_SYSTEM_DEFAULTS, LAYER_USER, LAYER_PROJECT,
		                          LAYER_SYSTEM };
	static const enum layer untrusted[] = { LAYER_SYSTEM_DEFAULTS, LAYER_USER, LAYER_SYSTEM };
	const enum layer *order = trusted ? all : untrusted;
	size_t n = trusted ? ELEMENTSOF(all) : ELEMENTSOF(untrusted);
	bool enabled = merged_bool(&g, order, n, "hooksConfig", "enabled", NULL, true);
	size_t found = 0, running = 0, user_or_system = 0;
	for (size_t i = 0; i < ELEMENTSOF(all); i++) {
		size_t r = layer_hooks(&g, all[i], order, n, trusted || all[i] != LAYER_PROJECT,
		                       out, &found);
		running += r;
		if (all[i] != LAYER_PROJECT)
			user_or_system += r;
	}
	if (found && !enabled)
		fprintf(out, "gemini: hooksConfig.enabled is false: no hook runs\n");

	_cleanup_free_ char *policies = NULL;
	struct stat st;
	if (asprintf(&policies, "%s/.gemini/policies", req->directory) >= 0 &&
	    stat(policies, &st) == 0 && S_ISDIR(st.st_mode))
		fprintf(out,
		        "gemini: %s is ignored: Gemini CLI reads no project policies; put the policy "
		        "in %s/.gemini/policies/ (the user's)\n",
		        policies, g.home);

	if (trusted && enabled && running) {
		fprintf(out, "sluice hook gemini: takes effect in %s\n", req->directory);
		return HOOK_CHECK_TAKES_EFFECT;
	}
	if (!found)
		fprintf(out, "gemini: no BeforeTool hook runs `sluice hook gemini` in Gemini CLI's "
		             "settings for this folder; docs/integrations.md shows one\n");
	if (!trusted && user_or_system)
		fprintf(out,
		        "gemini: the hook of the user's or the system's settings takes effect here "
		        "only when Gemini CLI is started with --skip-trust (which trusts the folder "
		        "after the settings were read). Without it, Gemini CLI runs no hook in a folder "
		        "that is not trusted: headless (-p) it refuses to work there, interactively it "
		        "asks whether to trust the folder\n");
	if (!trusted && found)
		fprintf(out,
		        "gemini: trust the folder: a TRUST_FOLDER rule for it in %s, or "
		        "GEMINI_CLI_TRUST_WORKSPACE=true in Gemini CLI's environment%s\n",
		        g.trusted_folders,
		        found > user_or_system
		                ? ". --skip-trust is not the same: the project's "
		                  "settings, and the hook in them, are dropped silently"
		                : "");
	fprintf(out,
	        "sluice hook gemini: does NOT take effect in %s: Gemini CLI would run every "
	        "command unchecked\n",
	        req->directory);
	return HOOK_CHECK_NO_EFFECT;
}
