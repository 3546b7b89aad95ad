/* SPDX-License-Identifier: MIT */
/*
 * The files of the workspace that a protected direnv or mise configuration
 * loads, protected with it for the run (sluice issue 30). `.envrc*` and
 * `mise*.toml` are on [sandbox] protect, but `dotenv .env` in .envrc, or
 * `_.file = ".env"` in mise.toml, puts what .env says into the user's
 * shell on the next cd (PROMPT_COMMAND, LD_PRELOAD, PATH) with no new
 * `direnv allow` or `mise trust`: those cover the configuration's own
 * text only. So the names they give are read here and added to the run's
 * protect list, as if it named them: the launcher binds what exists
 * read-only, protect-watch.c renames what the run creates there.
 * Conservative: only plain words are read (a word, a quoted word; no
 * `$`, backquote or backslash, no mise template but {{config_root}}); a
 * path that leaves the workspace is left out (read-only there anyway);
 * nothing is run. Not for: the protection itself (the launcher's
 * protected-paths.c), a configuration in a sub-folder (not protected).
 */
#ifndef SLUICE_PROTECT_LOADED_H
#define SLUICE_PROTECT_LOADED_H

#include "core/run-settings.h"
#include "errors.h"

/* The most bytes read of one configuration, and the most direnv scripts
 * read one sourcing the next: more refuses the run. */
#define PROTECT_LOADED_FILE_MAX (1024 * 1024)
#define PROTECT_LOADED_DEPTH 8

/*
 * Read the files at workspace's top level that s->protect covers and
 * direnv (`.envrc*`) or mise (`mise*.toml`, `.mise*.toml`) reads, and the
 * scripts they `source_env`, and append to s->protect each file they load
 * (dotenv, dotenv_if_exists, source_env, source_env_if_exists; mise's
 * [env] _.file and _.source) that no entry covers yet, with
 * s->protect_loader naming the configuration that loads it. workspace:
 * canonical and absolute. The added strings are owned by *owned (a strv,
 * appended to; the caller frees it after the run). Returns 0, or -errno
 * with err saying why: -E2BIG (more than RUN_SETTINGS_PROTECT_MAX
 * entries), -EFBIG (a configuration over PROTECT_LOADED_FILE_MAX), -ELOOP
 * (scripts sourced deeper than PROTECT_LOADED_DEPTH), -EINVAL
 * (a loaded path with a wildcard before its last component, which an
 * entry cannot hold), or what reading failed with. The run must then be
 * refused: a file it loads would be left writable.
 */
int protect_loaded_add(struct run_settings *s, const char *workspace, char ***owned,
                       struct sluice_error *err);

#endif
