/* SPDX-License-Identifier: MIT */
/*
 * The two git settings the launcher must know to protect a repository:
 * core.hooksPath (where git looks for hooks) and
 * extensions.worktreeConfig (whether git also reads config.worktree). A
 * small reader of git's config syntax: sections, keys, quoted values with
 * escapes, comments. Includes are not followed (docs/launcher.md).
 * Not for: any other key, or writing.
 */
#ifndef SLUICE_LAUNCHER_GIT_CONFIG_H
#define SLUICE_LAUNCHER_GIT_CONFIG_H

#include <limits.h>
#include <stdbool.h>

struct git_config_view {
	char hooks_path[PATH_MAX]; /* core.hooksPath as written ("" when unset) */
	bool worktree_config;      /* extensions.worktreeConfig */
};

/* Read the config file at path into view, later values overriding earlier
 * ones (call it for each file in git's order). A missing or unreadable file
 * changes nothing. */
void git_config_read(const char *path, struct git_config_view *view);

/* The same, from text in memory (len bytes). */
void git_config_parse(const char *text, size_t len, struct git_config_view *view);

#endif
