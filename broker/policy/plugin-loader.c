/* SPDX-License-Identifier: MIT */
/*
 * Finding a plugin's file (its configured path, or NAME.so in the plugin
 * directory, or for a built-in plugin their one module there), dlopen
 * and the descriptor's symbol, then the descriptor checks, in the order sudo's
 * plugin loader does them: the version, the size and the required members;
 * one exit path that dlcloses unless ownership moved out.
 * Not for: calling plugin code (policy-chain.c runs it in a child).
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "path-trust.h"
#include "policy/plugin-loader.h"
#include "strv.h"
#include "suggest.h"

/* The size of the 1.0 descriptor: the members every plugin has. */
#define DESC_SIZE_1_0 (offsetof(struct sluice_policy_plugin, close) + sizeof(void (*)(void *)))

/* The build tree's plugin directory when the running program is the build
 * tree's (the directory it is in holds config.status, which only a
 * configured build tree has, and the plugins/ the build fills), else NULL.
 * Returns a new string. */
static char *build_tree_dir(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	_cleanup_free_ char *status = NULL, *dir = NULL;
	if (asprintf(&status, "%s/config.status", exe) < 0 || asprintf(&dir, "%s/plugins", exe) < 0)
		return NULL;
	struct stat st;
	if (stat(status, &st) < 0 || !S_ISREG(st.st_mode) || stat(dir, &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		return NULL;
	return TAKE_PTR(dir);
}

char *plugin_loader_dir(void)
{
	const char *env = getenv("SLUICE_PLUGIN_DIR");
	if (env && *env && config_env_overrides_allowed())
		return strdup(env);
	char *dir = build_tree_dir();
	return dir ? dir : strdup(SLUICE_PLUGINDIR);
}

const char *plugin_origin(const struct loaded_plugin *p)
{
	return p->file ? p->file : "not loaded";
}

static const struct sluice_key *find_key(const struct sluice_policy_plugin *d, const char *key)
{
	for (const struct sluice_key *k = d->keys; k && k->name; k++)
		if (strcmp(k->name, key) == 0)
			return k;
	return NULL;
}

#define SECTION_KEY_NAME(key, type, rule, doc) #key,
static const char *const section_keys[] = { CONFIG_PLUGIN_KEYS(SECTION_KEY_NAME) };
#undef SECTION_KEY_NAME

/* Whether key is one that sluice reads in every [plugin NAME] section. */
static bool is_section_key(const char *key)
{
	for (size_t i = 0; i < ELEMENTSOF(section_keys); i++)
		if (strcmp(section_keys[i], key) == 0)
			return true;
	return false;
}

/* The key of d, or of every section, closest to a misspelt one, or NULL. */
static const char *suggest_key(const struct sluice_policy_plugin *d, const char *key)
{
	struct suggestion s;
	suggestion_init(&s, key);
	for (const struct sluice_key *k = d->keys; k && k->name; k++)
		suggestion_consider(&s, k->name);
	for (size_t i = 0; i < ELEMENTSOF(section_keys); i++)
		suggestion_consider(&s, section_keys[i]);
	return suggestion_best(&s);
}

/* Every [plugin NAME] key, checked against the plugin's declaration before
 * open() ever sees it (the reverse of logging and ignoring). */
static int check_settings(const struct loaded_plugin *p, struct sluice_error *reterr)
{
	const struct config_plugin *c = p->conf;
	for (size_t i = 0; i < c->n_settings; i++) {
		const struct config_setting *s = &c->settings[i];
		const struct sluice_key *k = find_key(&p->desc, s->key);
		if (!k) {
			const char *meant = suggest_key(&p->desc, s->key);
			return sluice_error_set(
			        reterr, -EINVAL, "%s:%u: unknown key '%s' in [plugin %s]%s%s%s",
			        s->file, s->line, s->key, c->name, meant ? "; did you mean '" : "",
			        meant ? meant : "", meant ? "'?" : "");
		}
		STRV_FOREACH (kl, s->key_lines) {
			const char *word = strchr(*kl, ':') + 1;
			if (find_key(&p->desc, word) || is_section_key(word))
				return sluice_error_set(
				        reterr, -EINVAL,
				        "%s:%u: indented '%s' is joined onto '%s' of [plugin %s] "
				        "above it as a continuation; start the line at its beginning "
				        "to set '%s'",
				        s->file, (unsigned)strtoul(*kl, NULL, 10), word, s->key,
				        c->name, word);
		}
		if (s->continued && !(k->flags & SLUICE_KEY_JOINABLE))
			return sluice_error_set(reterr, -EINVAL,
			                        "%s:%u: '%s' of [plugin %s] takes one line: only "
			                        "indent lines that continue a long value",
			                        s->file, s->continued, s->key, c->name);
		if (k->flags & SLUICE_KEY_REPEATABLE)
			continue;
		for (size_t j = 0; j < i; j++) {
			const struct config_setting *o = &c->settings[j];
			if (strcmp(o->key, s->key) != 0)
				continue;
			if (strcmp(o->file, s->file) == 0)
				return sluice_error_set(reterr, -EINVAL,
				                        "%s:%u: duplicate key '%s' in [plugin %s] "
				                        "(first at line %u)",
				                        s->file, s->line, s->key, c->name, o->line);
			if (c->locked && o->layer == CONFIG_LAYER_SYSTEM &&
			    s->layer >= CONFIG_LAYER_USER)
				return sluice_error_set(
				        reterr, -EINVAL,
				        "%s:%u: '%s' of [plugin %s] is set by the system "
				        "configuration (%s:%u) and cannot be changed here",
				        s->file, s->line, s->key, c->name, o->file, o->line);
		}
	}
	return 0;
}

/* The kernel's copy_struct_from_user() rule: a larger descriptor is fine
 * when every byte we do not know is zero. */
static bool tail_is_zero(const void *desc, size_t known, size_t size)
{
	const unsigned char *b = desc;
	for (size_t i = known; i < size; i++)
		if (b[i])
			return false;
	return true;
}

static int check_descriptor(const struct sluice_policy_plugin *d, struct loaded_plugin *p,
                            struct sluice_error *reterr)
{
	const char *name = p->conf->name;
	uint32_t major = SLUICE_ABI_MAJOR_OF(d->abi_version);
	uint32_t minor = SLUICE_ABI_MINOR_OF(d->abi_version);
	if (major != SLUICE_POLICY_ABI_MAJOR)
		return sluice_error_set(reterr, -EPROTO,
		                        "plugin '%s' (%s): %s was built for plugin ABI %u.%u; this "
		                        "sluice speaks %u.%u",
		                        name, p->where, plugin_origin(p), major, minor,
		                        SLUICE_POLICY_ABI_MAJOR, SLUICE_POLICY_ABI_MINOR);
	if (d->struct_size < DESC_SIZE_1_0)
		return sluice_error_set(reterr, -EPROTO,
		                        "plugin '%s' (%s): descriptor of %u bytes is smaller than "
		                        "ABI 1.0's %zu",
		                        name, p->where, d->struct_size, DESC_SIZE_1_0);
	if (d->struct_size > sizeof(*d) && !tail_is_zero(d, sizeof(*d), d->struct_size))
		return sluice_error_set(reterr, -EPROTO,
		                        "plugin '%s' (%s): %s needs plugin ABI %u.%u features this "
		                        "sluice (ABI %u.%u) does not have",
		                        name, p->where, plugin_origin(p), major, minor,
		                        SLUICE_POLICY_ABI_MAJOR, SLUICE_POLICY_ABI_MINOR);
	memset(&p->desc, 0, sizeof(p->desc));
	memcpy(&p->desc, d, d->struct_size < sizeof(*d) ? d->struct_size : sizeof(*d));
	if (!p->desc.open || !p->desc.check)
		return sluice_error_set(reterr, -EPROTO, "plugin '%s' (%s): %s has no %s function",
		                        name, p->where, plugin_origin(p),
		                        p->desc.open ? "check" : "open");
	if (p->desc.name && strcmp(p->desc.name, name) != 0 && !p->conf->path)
		return sluice_error_set(reterr, -EPROTO, "plugin '%s' (%s): %s calls itself '%s'",
		                        name, p->where, plugin_origin(p), p->desc.name);
	return 0;
}

/* The built-in plugin a misspelt plugin name was perhaps meant to be, or
 * NULL. */
static const char *builtin_meant(const char *name)
{
	struct suggestion s;
	suggestion_init(&s, name);
	size_t n;
	const struct config_builtin *b = config_builtins(&n);
	for (size_t i = 0; i < n; i++)
		suggestion_consider(&s, b[i].name);
	return suggestion_best(&s);
}

/* Whether name is one of the built-in plugins. */
static bool is_builtin(const char *name)
{
	size_t n;
	const struct config_builtin *b = config_builtins(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(b[i].name, name) == 0)
			return true;
	return false;
}

bool plugin_from_builtins(const struct config_plugin *conf)
{
	return !conf->path && is_builtin(conf->name);
}

/* dlopen the configured path (its descriptor: sluice_policy_plugin), or a
 * built-in plugin's module (PLUGIN_BUILTINS_FILE in dir, one for all of
 * them: sluice_policy_plugin_NAME), or NAME.so in dir, into p and find its
 * descriptor. The built-ins' module is mapped once however many of them
 * load it: each later dlopen only counts a reference. */
static int load_file(const struct config_plugin *conf, const char *dir, struct loaded_plugin *p,
                     const struct sluice_policy_plugin **ret_desc, struct sluice_error *reterr)
{
	bool builtin = plugin_from_builtins(conf);
	char symbol[128] = "sluice_policy_plugin";
	if (builtin)
		snprintf(symbol, sizeof(symbol), "sluice_policy_plugin_%s", conf->name);
	if (conf->path)
		p->file = strdup(conf->path);
	else if (asprintf(&p->file, "%s/%s%s", dir, builtin ? PLUGIN_BUILTINS_FILE : conf->name,
	                  builtin ? "" : ".so") < 0)
		p->file = NULL;
	if (!p->file)
		return -ENOMEM;
	/* Code that anyone but root or the user can change would run as the
	 * user: refused as sudo refuses such a plugin, before dlopen runs any
	 * of it (its constructors). A module mapped already (the built-ins'
	 * module, for its second plugin on) was checked when it was mapped,
	 * and a dlopen of it maps nothing again. */
	p->dl = dlopen(p->file, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
	if (!p->dl) {
		struct sluice_error why = { 0 };
		int r = path_trust_check(p->file, getuid(), &why);
		if (r < 0 && r != -ENOENT)
			return sluice_error_set(reterr, r == -EPERM ? -EPERM : -ENOEXEC,
			                        "plugin '%s' (%s): %s", conf->name, p->where,
			                        why.detail);
		p->dl = r < 0 ? NULL : dlopen(p->file, RTLD_NOW | RTLD_LOCAL);
	}
	if (!p->dl && access(p->file, F_OK) < 0) {
		const char *meant = conf->path ? NULL : builtin_meant(conf->name);
		/* a build run from elsewhere than its tree, not installed: say
		 * what to set rather than only where it looked */
		bool no_dir = !conf->path && access(dir, F_OK) < 0;
		return sluice_error_set(reterr, -ENOENT, "plugin '%s' (%s): cannot find %s%s%s%s%s",
		                        conf->name, p->where, p->file,
		                        meant ? "; did you mean [plugin " : "", meant ? meant : "",
		                        meant ? "]?" : "",
		                        no_dir ? "; the plugin directory does not exist: install "
		                                 "sluice, or set SLUICE_PLUGIN_DIR to the plugins "
		                                 "directory of its build (an MCP client must pass "
		                                 "it in the server's env)"
		                               : "");
	}
	if (!p->dl)
		return sluice_error_set(reterr, -ENOEXEC, "plugin '%s' (%s): cannot load: %s",
		                        conf->name, p->where, dlerror());
	*ret_desc = dlsym(p->dl, symbol);
	if (!*ret_desc)
		return sluice_error_set(reterr, -ENOEXEC, "plugin '%s' (%s): %s exports no '%s'",
		                        conf->name, p->where, p->file, symbol);
	return 0;
}

int plugin_load(const struct config_plugin *conf, const char *dir, struct loaded_plugin *ret,
                struct sluice_error *reterr)
{
	struct loaded_plugin p = { .conf = conf };
	int r;
	if (conf->file)
		r = asprintf(&p.where, "%s:%u", conf->file, conf->line);
	else
		r = asprintf(&p.where, "built-in default");
	if (r < 0)
		return -ENOMEM;
	const struct sluice_policy_plugin *d = NULL;
	r = load_file(conf, dir, &p, &d, reterr);
	if (r < 0)
		goto fail;
	r = check_descriptor(d, &p, reterr);
	if (r < 0)
		goto fail;
	r = check_settings(&p, reterr);
	if (r < 0)
		goto fail;
	*ret = p;
	return 0;
fail:
	plugin_unload(&p);
	return r;
}

void plugin_unload(struct loaded_plugin *p)
{
	if (p->dl)
		(void)dlclose(p->dl);
	free(p->file);
	free(p->where);
	*p = (struct loaded_plugin){ 0 };
}
