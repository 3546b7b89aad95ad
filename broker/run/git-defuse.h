/* SPDX-License-Identifier: MIT */
/*
 * The texts in a repository that make the user's own git run a program
 * later, or send the repository somewhere the command chose, rewritten in
 * memory so that they no longer do: a config file's keys that name a
 * program (core.fsmonitor, core.hooksPath, aliases starting with '!',
 * filters, diff drivers, credential helpers, ...), that redirect or expose
 * a fetch or push (url.*.insteadOf, proxies, TLS checks, a remote's url,
 * the remote a branch pushes to; the tables in git-defuse.c), and the exec
 * lines of a sequencer's todo list (`git rebase --continue` runs them).
 * Each is commented out, never deleted, so that the user sees it and can
 * restore it on purpose.
 * Not for: finding the files (git-sweep.c) or writing them.
 */
#ifndef SLUICE_GIT_DEFUSE_H
#define SLUICE_GIT_DEFUSE_H

#include <stdbool.h>
#include <stddef.h>

/* The prefix a disabled line gets: a comment in both syntaxes. */
#define GIT_DEFUSE_MARK "#sluice-disabled# "

/* Called once per disabled entry: its name ("core.fsmonitor",
 * "alias.st", "exec make test"), cut to a readable length. */
typedef void (*git_defuse_fn)(const char *what, void *userdata);

/*
 * Comment out each key of git config text[0..len) that runs a program or
 * sends the repository elsewhere whatever the remotes are
 * (git_defuse_key_sends()), with its continuation lines. Returns the
 * number disabled (0: *ret is NULL, nothing to change), with the new text
 * in *ret (malloc'd, *ret_len bytes), or -ENOMEM. fn may be NULL.
 */
int git_defuse_config(const char *text, size_t len, char **ret, size_t *ret_len, git_defuse_fn fn,
                      void *userdata);

/*
 * The same, but an entry that text before[0..before_len) (the file as it
 * was earlier; "" when there was none) already held as written, under the
 * same header, stays: what was added since is disabled, what the user had
 * is kept. A disabled entry that replaced the user's line in place (git
 * config KEY VALUE) gets the user's line back after it. Past 1024 reads
 * of the text before, every entry this disables is disabled, and nothing
 * is put back. With a text before, the remotes it names decide two more
 * kinds: an added url, pushurl, push or mirror of a remote the user had
 * (configured or chosen before, or "origin"), and an added
 * branch.*.remote, branch.*.pushRemote or remote.pushDefault naming a
 * remote other than ".", one chosen before, or "origin" when it was
 * configured before. before NULL (a repository the run may have made
 * whole): nothing to judge remotes by, so those two kinds stay.
 */
int git_defuse_config_since(const char *text, size_t len, const char *before, size_t before_len,
                            char **ret, size_t *ret_len, git_defuse_fn fn, void *userdata);

/* Asked about each entry git_defuse_config_keeping() would disable, with
 * its section and key (any case) and its value as git reads it: true
 * keeps it as it is. Not asked about an entry whose value does not read
 * cleanly (none, continued on another line, an unknown escape). */
typedef bool (*git_defuse_keep_fn)(const char *section, bool has_sub, const char *key,
                                   const char *value, void *userdata);

/* git_defuse_config_since(), but an entry that keep (with userdata, as fn)
 * says to keep stays: for what git itself writes there and the caller can
 * tell apart (a submodule's core.worktree). */
int git_defuse_config_keeping(const char *text, size_t len, const char *before, size_t before_len,
                              git_defuse_keep_fn keep, char **ret, size_t *ret_len,
                              git_defuse_fn fn, void *userdata);

/* Whether section[.subsection].key (any case; has_sub: a subsection was
 * given) with value (may be NULL) makes git run a program, or read a file
 * of the command's choosing (a FIFO there hangs git). */
bool git_defuse_key_runs(const char *section, bool has_sub, const char *key, const char *value);

/* Whether section[.subsection].key (any case) sends fetches or pushes
 * elsewhere, or lets a man in the middle read them, whatever the remotes:
 * url.*.insteadOf, http[.<url>].proxy, sslVerify, sslCAInfo, ... */
bool git_defuse_key_sends(const char *section, bool has_sub, const char *key);

/*
 * Comment out each exec (x) line of a sequencer todo list text[0..len),
 * as git_defuse_config() does.
 */
int git_defuse_todo(const char *text, size_t len, char **ret, size_t *ret_len, git_defuse_fn fn,
                    void *userdata);

#endif
