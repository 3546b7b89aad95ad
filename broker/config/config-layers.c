/* SPDX-License-Identifier: MIT */
/*
 * Where the configuration's layers are and reading them in order: the
 * system file, policies.d/NAME.ini (name order), the user's file and
 * --config; each file read whole and checked on the open descriptor
 * (steady-read.c), the system layer's plugins locked before the user's
 * layers are read. The only file of config/ that names the sysconfdir.
 * Not for: what a file says (config-parse.c).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "config/config-layers.h"
#include "config/config-plugins.h"
#include "config/steady-read.h"
#include "errors.h"
#include "strv.h"

/* Drop-ins read from policies.d at most. */
#define CONFIG_MAX_DROPINS 256

/* Read one file into p. A missing optional file is skipped (returns 0). */
static int load_file(struct config_parse *p, int dirfd, const char *path, const char *display,
                     bool optional)
{
	p->file = display;
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	struct stat st;
	struct sluice_error err = { 0 };
	int r = steady_read(dirfd, path, &text, &len, &st, &err);
	if (r == -ENOENT && optional)
		return 0;
	if (r < 0) {
		config_parse_error(p, 0, "%s", err.detail);
		return r == -ENOMEM ? r : 0;
	}
	if (p->layer == CONFIG_LAYER_SYSTEM && (st.st_uid != 0 || (st.st_mode & 022))) {
		char w[600];
		snprintf(w, sizeof(w), "%s: not owned by root, or writable by group or others",
		         display);
		(void)strv_extend(&p->cfg->warnings, w);
	}
	(void)strv_extend(&p->cfg->files, display);
	config_parse_begin_file(p, display);
	return ini_source_parse(text, len, &config_parse_ops, p);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* policies.d/NAME.ini in byte order of their names; a missing directory is fine. */
static int load_dropins(struct config_parse *p, const char *dir)
{
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	int dup_fd = fcntl(dfd, F_DUPFD_CLOEXEC, 3);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -ENOMEM;
	}
	_cleanup_strv_free_ char **names = NULL;
	size_t n = 0;
	for (struct dirent *de; (de = readdir(d));) {
		size_t len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 5 || strcmp(de->d_name + len - 4, ".ini") != 0)
			continue;
		if (n >= CONFIG_MAX_DROPINS) {
			/* which ones would be read would depend on readdir order */
			closedir(d);
			p->file = dir;
			config_parse_error(p, 0, "more than %d drop-ins", CONFIG_MAX_DROPINS);
			return 0;
		}
		if (strv_extend(&names, de->d_name) < 0) {
			closedir(d);
			return -ENOMEM;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(char *), cmp_names);
	STRV_FOREACH (name, names) {
		_cleanup_free_ char *display = NULL;
		if (asprintf(&display, "%s/%s", dir, *name) < 0)
			return -ENOMEM;
		int r = load_file(p, dfd, *name, display, true);
		if (r < 0)
			return r;
	}
	return 0;
}
static char *user_file_default(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	char *s = NULL;
	if (xdg && *xdg == '/') {
		if (asprintf(&s, "%s/sluice/sluice.ini", xdg) < 0)
			return NULL;
		return s;
	}
	const char *home = getenv("HOME");
	if (!home || *home != '/')
		return NULL;
	if (asprintf(&s, "%s/.config/sluice/sluice.ini", home) < 0)
		return NULL;
	return s;
}

bool config_env_overrides_allowed(void)
{
	/* The test overrides must not let a user step around the system
	 * layer's locks: once an administrator has installed a system
	 * configuration, they are ignored. */
	struct stat st;
	return stat(SLUICE_SYSCONFDIR "/sluice/sluice.ini", &st) < 0 &&
	       stat(SLUICE_SYSCONFDIR "/sluice/policies.d", &st) < 0;
}

/* Record the directory of the configuration file path in cfg->config_dirs. */
static int add_config_dir(struct broker_config *cfg, const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return 0;
	_cleanup_free_ char *dir = strndup(path, (size_t)(slash - path));
	return dir ? strv_extend(&cfg->config_dirs, dir) : -ENOMEM;
}

/* The system configuration directory: paths->sysconfdir, else env
 * SLUICE_SYSCONFDIR while no system configuration is installed (else
 * *ret_ignored is set), else SLUICE_SYSCONFDIR (borrowed). */
static const char *system_dir(const struct config_paths *paths, bool *ret_ignored)
{
	*ret_ignored = false;
	const char *sysconf = paths->sysconfdir;
	const char *env = getenv("SLUICE_SYSCONFDIR");
	if (!sysconf && env && *env) {
		if (config_env_overrides_allowed())
			sysconf = env;
		else
			*ret_ignored = true;
	}
	return sysconf && *sysconf ? sysconf : SLUICE_SYSCONFDIR;
}

int config_search(const struct config_paths *paths, struct config_place **ret, size_t *ret_n)
{
	static const struct config_paths none;
	if (!paths)
		paths = &none;
	bool ignored;
	const char *sysconf = system_dir(paths, &ignored);
	struct config_place *places = calloc(4, sizeof(*places));
	if (!places)
		return -ENOMEM;
	size_t n = 0;
	int r = 0;
	places[n] = (struct config_place){ .layer = CONFIG_LAYER_SYSTEM };
	if (asprintf(&places[n++].path, "%s/sluice/sluice.ini", sysconf) < 0)
		r = -ENOMEM;
	places[n] = (struct config_place){ .layer = CONFIG_LAYER_SYSTEM, .directory = true };
	if (r == 0 && asprintf(&places[n++].path, "%s/sluice/policies.d", sysconf) < 0)
		r = -ENOMEM;
	char *user = paths->user_file ? strdup(paths->user_file) : user_file_default();
	if (r == 0 && paths->user_file && !user)
		r = -ENOMEM;
	if (r == 0 && user)
		places[n++] = (struct config_place){ .layer = CONFIG_LAYER_USER, .path = user };
	if (r == 0 && paths->cli_file) {
		places[n] = (struct config_place){ .layer = CONFIG_LAYER_CLI,
			                           .path = strdup(paths->cli_file) };
		if (!places[n++].path)
			r = -ENOMEM;
	}
	if (r < 0) {
		config_places_free(places, n);
		return r;
	}
	*ret = places;
	*ret_n = n;
	return 0;
}

void config_places_free(struct config_place *places, size_t n)
{
	for (size_t i = 0; places && i < n; i++)
		free(places[i].path);
	free(places);
}

int config_layers_load(struct config_parse *p, const struct config_paths *paths)
{
	bool ignored;
	(void)system_dir(paths, &ignored);
	if (ignored)
		(void)strv_extend(&p->cfg->warnings,
		                  "SLUICE_SYSCONFDIR ignored: a system configuration exists");
	struct config_place *places = NULL;
	size_t n = 0;
	int r = config_search(paths, &places, &n);
	if (r < 0)
		return r;
	/* the system's and the user's configuration folders, whether or not
	 * their files exist (cfg->config_dirs) */
	for (size_t i = 0; r >= 0 && i < n; i++)
		if (!places[i].directory && places[i].layer != CONFIG_LAYER_CLI)
			r = add_config_dir(p->cfg, places[i].path);
	bool locked = false;
	for (size_t i = 0; r >= 0 && i < n; i++) {
		const struct config_place *pl = &places[i];
		if (pl->layer > CONFIG_LAYER_SYSTEM && !locked) {
			config_plugins_lock_system(p->cfg);
			locked = true;
		}
		p->layer = pl->layer;
		if (pl->directory)
			r = load_dropins(p, pl->path);
		else /* every file but --config's may be missing */
			r = load_file(p, AT_FDCWD, pl->path, pl->path,
			              pl->layer != CONFIG_LAYER_CLI);
	}
	if (!locked)
		config_plugins_lock_system(p->cfg);
	config_places_free(places, n);
	return r;
}
