/* SPDX-License-Identifier: MIT */
/*
 * What the sweep disables in place (git-sweep-state.h): a git file that
 * holds what runs (a config's keys that run programs, a todo list's exec
 * lines) is rewritten without it, whole or not at all, the original kept
 * in the quarantine; one that cannot be read as text, or rewritten, is
 * moved there whole.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "path-text.h"
#include "run/git-defuse.h"
#include "run/git-quarantine.h"
#include "run/git-sweep-state.h"

static void collect_key(const char *what, void *userdata)
{
	struct sweeper *w = userdata;
	size_t len = strlen(w->keys);
	if (len + strlen(what) + 3 < sizeof(w->keys))
		snprintf(w->keys + len, sizeof(w->keys) - len, "%s%s", len ? ", " : "", what);
	w->n_keys++;
}

static int defuse_todo(const char *text, size_t len, const char *before, size_t before_len,
                       char **ret, size_t *ret_len, git_defuse_fn fn, void *userdata)
{
	(void)before;
	(void)before_len;
	return git_defuse_todo(text, len, ret, ret_len, fn, userdata);
}

/* Whether core.worktree = value in the gitdir w->path is what git writes
 * for a submodule (`git submodule add`, `update --init`, `absorbgitdirs`):
 * a folder of the workspace whose .git file names this gitdir back. git's
 * checkouts then write into the workspace, where the command could write
 * itself; any other work tree (outside the workspace, or not git's own
 * layout) is disabled, as the rest of the table is. The run is over: its
 * processes cannot move the paths between these checks and git's use. */
static bool is_submodule_worktree(const char *section, bool has_sub, const char *key,
                                  const char *value, void *userdata)
{
	const struct sweeper *w = userdata;
	if (has_sub || strcasecmp(section, "core") != 0 || strcasecmp(key, "worktree") != 0 ||
	    !value[0])
		return false;
	_cleanup_free_ char *tree = path_resolve_from(w->path, value);
	_cleanup_free_ char *top = realpath(w->s->workspace, NULL);
	_cleanup_free_ char *dotgit = tree ? path_join(tree, ".git") : NULL;
	char line[PATH_MAX + 16];
	if (!top || !dotgit || !path_within(tree, top) ||
	    read_first_line_at(AT_FDCWD, dotgit, false, line, sizeof(line)) < 0 ||
	    strncmp(line, "gitdir: ", 8) != 0)
		return false;
	_cleanup_free_ char *back = path_resolve_from(tree, line + 8);
	struct stat a, b;
	return back && stat(back, &a) == 0 && stat(w->path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int git_sweep_defuse_config(const char *text, size_t len, const char *before, size_t before_len,
                            char **ret, size_t *ret_len, git_defuse_fn fn, void *userdata)
{
	return git_defuse_config_keeping(text, len, before, before_len, is_submodule_worktree, ret,
	                                 ret_len, fn, userdata);
}

/* Whether following value from the gitdir w->path, one component at a
 * time as the kernel does (symbolic links resolved on the way), passes
 * through a folder of the workspace (top): only there could a run have
 * changed where it leads since the config was written (a symbolic link
 * a run leaves in a swept gitdir is moved away before this check).
 * Otherwise (the main worktree's submodule seen from a linked worktree,
 * a value the user set to a folder outside) nothing of the run's is
 * involved. */
static bool resolves_through_run(const struct sweeper *w, const char *value)
{
	_cleanup_free_ char *top = realpath(w->s->workspace, NULL);
	_cleanup_free_ char *cur = value[0] == '/' ? strdup("/") : realpath(w->path, NULL);
	_cleanup_free_ char *copy = strdup(value);
	if (!top || !cur || !copy)
		return true; /* cannot tell: judged */
	char *save = NULL;
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (strcmp(c, ".") == 0)
			continue;
		char *slash = strrchr(cur, '/');
		_cleanup_free_ char *next =
		        strcmp(c, "..") == 0 ? strndup(cur, slash > cur ? (size_t)(slash - cur) : 1)
		                             : path_join(strcmp(cur, "/") == 0 ? "" : cur, c);
		char *real = next ? realpath(next, NULL) : NULL;
		if (!real)
			return !next || path_within(next, top); /* the rest leads nowhere */
		free(cur);
		cur = real;
		if (path_within(cur, top))
			return true;
	}
	return false;
}

/* For a config file the run did not change: every entry kept but a
 * core.worktree that no longer passes is_submodule_worktree() where a
 * run could have changed where it leads, noted in w->worktree_gone. */
static bool keep_but_worktree_gone(const char *section, bool has_sub, const char *key,
                                   const char *value, void *userdata)
{
	struct sweeper *w = userdata;
	if (has_sub || strcasecmp(section, "core") != 0 || strcasecmp(key, "worktree") != 0 ||
	    is_submodule_worktree(section, has_sub, key, value, userdata) ||
	    !resolves_through_run(w, value))
		return true;
	w->worktree_gone = true;
	return false;
}

int git_sweep_recheck_worktree(const char *text, size_t len, const char *before, size_t before_len,
                               char **ret, size_t *ret_len, git_defuse_fn fn, void *userdata)
{
	(void)before;
	(void)before_len;
	struct sweeper *w = userdata;
	w->worktree_gone = false;
	/* a first reading, which changes nothing: the rewrite below would
	 * also disable the entries keep is not asked about (a value that
	 * does not read cleanly), which in a file the run did not change
	 * are the user's; they go only along with a core.worktree that is
	 * gone */
	_cleanup_free_ char *probe = NULL;
	size_t probe_len = 0;
	int r = git_defuse_config_keeping(text, len, NULL, 0, keep_but_worktree_gone, &probe,
	                                  &probe_len, NULL, userdata);
	if (r < 0 || !w->worktree_gone)
		return r < 0 ? r : 0;
	return git_defuse_config_keeping(text, len, NULL, 0, keep_but_worktree_gone, ret, ret_len,
	                                 fn, userdata);
}

/* Rewrite dir/name (dir is w->path) with defuse when it holds what runs
 * (and, for a config file, what the text before, when not NULL, did not
 * hold): the original copied into the quarantine first. label names the
 * kind. */
void git_sweep_defuse_file(struct sweeper *w, int dir, const char *name, git_sweep_defuse_fn defuse,
                           const char *before, size_t before_len, const char *label)
{
	_cleanup_close_ int fd =
	        openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 && errno == ENOENT)
		return;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > SWEEP_TEXT_MAX) {
		/* not a file git can read as text: away with it */
		if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			git_quarantine_move(w, dir, name, &st, "unreadable or oversized git file");
		return;
	}
	_cleanup_free_ char *text = malloc((size_t)st.st_size + 1);
	ssize_t n = text ? read_full(fd, text, (size_t)st.st_size) : -ENOMEM;
	if (n < 0) {
		git_sweep_fail(w->s, "reading '%s/%s': %s", w->path, name, strerror((int)-n));
		return;
	}
	w->keys[0] = '\0';
	w->n_keys = 0;
	_cleanup_free_ char *out = NULL;
	size_t out_len = 0;
	int r = defuse(text, (size_t)n, before, before_len, &out, &out_len, collect_key, w);
	if (r <= 0) {
		if (r < 0)
			git_sweep_fail(w->s, "reading '%s/%s': %s", w->path, name, strerror(-r));
		return;
	}
	char kept[NAME_MAX + 1];
	git_quarantine_kept_name(w, name, kept);
	int qfd = git_quarantine_open(w);
	bool copied = qfd >= 0 && lseek(fd, 0, SEEK_SET) == 0 &&
	              git_quarantine_copy(w, fd, kept, SWEEP_TEXT_MAX) == 0;
	char tmp[NAME_MAX + 1];
	snprintf(tmp, sizeof(tmp), ".%.200s.sluice-sweep", name);
	(void)unlinkat(dir, tmp, 0);
	_cleanup_close_ int nfd = openat(
	        dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st.st_mode & 0777);
	int wr = nfd < 0 ? neg_errno() : write_full(nfd, out, out_len);
	if (wr >= 0 && fchown(nfd, st.st_uid, st.st_gid) < 0 && errno != EPERM)
		wr = neg_errno();
	if (wr >= 0 && renameat(dir, tmp, dir, name) < 0)
		wr = neg_errno();
	if (wr < 0) {
		(void)unlinkat(dir, tmp, 0);
		/* it must not stay as it is: moved away whole instead */
		git_quarantine_move(w, dir, name, &st,
		                    "git file that runs programs (could not be rewritten)");
		return;
	}
	char what[600];
	snprintf(what, sizeof(what), "%s: %s (commented out)", label, w->keys);
	git_quarantine_note(w, w->path, name, what, copied ? kept : NULL);
	w->s->n_found += (size_t)(w->n_keys - 1); /* each key counts */
}

/* The paused sequencer's todo lists in gitdir fd (w->path): their exec lines
 * disabled when the run made or changed them. */
void git_sweep_sequencer(struct sweeper *w, int fd)
{
	static const char *const todos[][2] = {
		{ "rebase-merge", "git-rebase-todo" },
		{ "sequencer", "todo" },
	};
	size_t len = strlen(w->path);
	for (size_t i = 0; i < ELEMENTSOF(todos); i++) {
		_cleanup_close_ int dfd =
		        openat(fd, todos[i][0], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat dst, fst;
		if (dfd < 0 || fstat(dfd, &dst) < 0)
			continue;
		bool fresh = git_sweep_changed(w, &dst) ||
		             (fstatat(dfd, todos[i][1], &fst, AT_SYMLINK_NOFOLLOW) == 0 &&
		              git_sweep_changed(w, &fst));
		if (!fresh)
			continue;
		snprintf(w->path + len, sizeof(w->path) - len, "/%s", todos[i][0]);
		git_sweep_defuse_file(w, dfd, todos[i][1], defuse_todo, NULL, 0,
		                      "todo list exec lines");
		w->path[len] = '\0';
	}
}
