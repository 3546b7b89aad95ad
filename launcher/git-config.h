/* SPDX-License-Identifier: MIT */
/*
 * What of git's configuration the launcher must know to protect a
 * repository: every core.hooksPath value (where git looks for hooks),
 * extensions.worktreeConfig (whether git also reads config.worktree),
 * core.worktree (how a submodule's repository names its checkout), and the
 * files the configuration includes (include.path, includeIf.*.path), which
 * git reads as if they were part of it. A small reader of git's config
 * syntax: sections, keys, quoted values with escapes, comments.
 * Not for: any other key, or writing.
 */
#ifndef SLUICE_LAUNCHER_GIT_CONFIG_H
#define SLUICE_LAUNCHER_GIT_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* git's own limit on nested includes; git refuses to read deeper. */
#define GIT_CONFIG_INCLUDE_DEPTH 10
/* More included files, or more core.hooksPath values, than this: overflow
 * (a repository with that many is unusual; the caller refuses it). */
#define GIT_CONFIG_INCLUDES_MAX 16
#define GIT_CONFIG_HOOKS_PATHS_MAX 4

struct git_config_view {
	/* Every core.hooksPath value as written, each once, from every file
	 * read: which one applies can change after the run (an includeIf
	 * "onbranch:" follows the branch), so each is protected. */
	char *hooks_paths[GIT_CONFIG_HOOKS_PATHS_MAX];
	size_t n_hooks_paths;
	/* extensions.worktreeConfig set true in any file read */
	bool worktree_config;
	/* core.worktree as written, the last one read ("" when unset) */
	char worktree[PATH_MAX];
	/* core.excludesFile as written, the last one read ("" when unset) */
	char excludes_file[PATH_MAX];
	/* Every file included, whatever the includeIf condition, each once:
	 * a relative path resolved against the folder of the file holding the
	 * directive, "~/" against HOME. Not necessarily existing. */
	char *includes[GIT_CONFIG_INCLUDES_MAX];
	size_t n_includes;
	/* more hooksPath values or includes than fit, or out of memory */
	bool overflow;
};

/* Read the config file at path (absolute) into view, and the files it
 * includes, to GIT_CONFIG_INCLUDE_DEPTH (call it for each file in git's
 * order). A missing or unreadable file changes nothing. */
void git_config_read(const char *path, struct git_config_view *view);

/* The config files git reads before any repository's, in its order:
 * system (unless GIT_CONFIG_NOSYSTEM; GIT_CONFIG_SYSTEM), global
 * (GIT_CONFIG_GLOBAL, else XDG's then ~/.gitconfig), each with the files
 * it includes, into view; the path of each in files (at most max, *n of
 * them). Read also where the workspace has no .git of its own (a plain
 * folder, a package folder of a repository above it): the user's git
 * reads them in every repository, so a file of theirs, an include or a
 * core.hooksPath that lies in the workspace would run the command's text
 * in all of them. */
void git_config_read_user(struct git_config_view *view, char **files, size_t max, size_t *n);

/* The same, from text in memory (len bytes) said to be the file at path
 * (its folder resolves relative includes); includes are listed, not read. */
void git_config_parse(const char *text, size_t len, const char *path, struct git_config_view *view);

/* Free what view holds; it is empty afterwards. */
void git_config_view_done(struct git_config_view *view);

#endif
