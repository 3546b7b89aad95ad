/* SPDX-License-Identifier: MIT */
/*
 * What of a workspace's repository git trusts later, outside the sandbox.
 * A repository's "gitdir" holds objects, refs and the index, which a
 * command must be able to write for `git commit` to work, next to files
 * that run code or redirect git elsewhere: hooks/, config (core.fsmonitor,
 * core.hooksPath, aliases, filters) and the files it includes,
 * config.worktree (read when extensions.worktreeConfig is on), commondir
 * (a file naming the directory that holds config and hooks: created where
 * there was none, it points git at a repository of the command's making),
 * and the repositories of submodules (modules/) and of linked worktrees
 * (worktrees/). The gitdir is bound onto itself writable, so that it
 * cannot be renamed or replaced; the others are bound read-only on top,
 * after being made if missing, because a name that does not exist cannot
 * be covered by a mount. So are the index and HEAD of every worktree but
 * the run's own (the common directory's for the main worktree, each
 * worktrees/NAME/ for a linked one), where they exist: the user's `git
 * checkout .` or `git reset --hard` in that other worktree writes the
 * files its index or HEAD names, a bin/git or a hook manager's config of
 * the command's making among them. None is made (git cannot read an
 * empty index or HEAD): a worktree that has no index yet (`git worktree
 * add --no-checkout`) can be given one by the command.
 *
 * A ".git" file is text the command may have written: the repository it
 * names is made writable only if it lies in the workspace, or if git
 * registered it both ways (a linked worktree's gitdir names this ".git"
 * file back and its common directory lists it under worktrees/; a
 * submodule's repository names this workspace as its core.worktree), it
 * belongs to the caller and no folder on its way can be renamed by
 * another user (those checks: git-trust.c). Nothing is made outside the
 * workspace: a repository there that lacks a name to cover stays
 * read-only (a linked worktree's common directory then keeps only
 * objects/, refs/ and logs/ writable).
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "git-config.h"
#include "git-paths.h"
#include "git-trust.h"
#include "path-text.h"

struct finder {
	struct git_paths *out;
	const char *workspace;
	struct stat repo; /* the owner of what is made */
	struct git_config_view config;
	bool keep_only; /* only what lies in the workspace outside .git */
	bool no_repo;   /* the workspace has no .git: only the user's configuration */
	/* the system and global files read (read_config()): the file itself
	 * is protected where it lies in the workspace, as an include is */
	char *config_files[3];
	size_t n_config_files;
	struct git_trust trust; /* whether a repository outside may be trusted */
	/* the gitdir of the run's own linked worktree (NULL in the main
	 * worktree): its index and HEAD stay writable, the others' not */
	const char *own_gitdir;
	struct sluice_error *err;
};

/* Take path (owned) into the list. */
static int add(struct finder *f, char *path, enum git_path_access access)
{
	if (!path)
		return sluice_error_set(f->err, -ENOMEM, "the repository's paths");
	for (size_t i = 0; i < f->out->n; i++)
		if (strcmp(f->out->items[i].path, path) == 0 && f->out->items[i].access == access) {
			free(path); /* a worktree's gitdir, listed with its common directory */
			return 0;
		}
	if (f->out->n >= GIT_PATHS_MAX) {
		int r = sluice_error_set(f->err, -E2BIG, "more than %d paths to protect in '%s'",
		                         GIT_PATHS_MAX, f->workspace);
		free(path);
		return r;
	}
	f->out->items[f->out->n++] = (struct git_path){ path, access };
	return 0;
}

/* Give what was made the repository's owner (only root makes it as
 * another user). */
static int own(struct finder *f, const char *path)
{
	if (geteuid() != 0 || (f->repo.st_uid == 0 && f->repo.st_gid == 0))
		return 0;
	if (fchownat(AT_FDCWD, path, f->repo.st_uid, f->repo.st_gid, AT_SYMLINK_NOFOLLOW) < 0)
		return sluice_error_set(f->err, neg_errno(), "giving '%s' the repository's owner",
		                        path);
	return 0;
}

/* Whether path exists: 1 yes, 0 no, -errno. A symlink there would let a
 * command replace the link while the mount covers its target: the
 * repository is then unsupported. */
static int exists(struct finder *f, const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		return sluice_error_set(f->err, neg_errno(), "'%s'", path);
	}
	if (S_ISLNK(st.st_mode)) {
		f->out->unsupported = true;
		return sluice_error_set(f->err, -ELOOP, "'%s' is a symlink", path);
	}
	return 1;
}

/* Make a missing directory. */
static int ensure_dir(struct finder *f, const char *path)
{
	int r = exists(f, path);
	if (r != 0)
		return r < 0 ? r : 0;
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return sluice_error_set(f->err, neg_errno(), "making '%s'", path);
	return own(f, path);
}

/* Put text at path whole or not at all: written to a temporary file
 * beside it, synced, then linked (no file there yet) or renamed (over an
 * empty one) into place. A full disk or a crash leaves at most the
 * temporary file, which git ignores, never a half-written path. */
static int write_whole(struct finder *f, const char *path, const char *text, bool replace)
{
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof(tmp), "%s.sluice-XXXXXX", path) >= (int)sizeof(tmp))
		return sluice_error_set(f->err, -ENAMETOOLONG, "'%s'", path);
	_cleanup_close_ int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return sluice_error_set(f->err, neg_errno(), "making '%s'", tmp);
	int r = write_full(fd, text, strlen(text));
	if (r >= 0 && (fchmod(fd, 0644) < 0 || fsync(fd) < 0))
		r = neg_errno();
	if (r >= 0)
		r = own(f, tmp);
	else
		r = sluice_error_set(f->err, r, "writing '%s'", tmp);
	if (r >= 0 &&
	    (replace ? rename(tmp, path) : linkat(AT_FDCWD, tmp, AT_FDCWD, path, 0)) < 0 &&
	    errno != EEXIST)
		r = sluice_error_set(f->err, neg_errno(), "making '%s'", path);
	(void)unlink(tmp); /* after a rename, already gone */
	return r;
}

/* Make a missing file holding text. An empty file is made by its open
 * alone; one with text whole or not at all. An empty file where text is
 * wanted is what an interrupted write leaves (git cannot read such a
 * commondir): it is replaced whole. */
static int ensure_file(struct finder *f, const char *path, const char *text)
{
	int r = exists(f, path);
	if (r < 0)
		return r;
	struct stat st;
	if (r > 0 && text[0] && stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
		return write_whole(f, path, text, true);
	if (r > 0)
		return 0;
	if (text[0])
		return write_whole(f, path, text, false);
	_cleanup_close_ int fd =
	        open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == EEXIST ? 0
		                       : sluice_error_set(f->err, neg_errno(), "making '%s'", path);
	return own(f, path);
}

enum presence {
	IF_PRESENT, /* listed only when it exists */
	MAKE_DIR,   /* made empty when missing */
	MAKE_FILE,  /* made with the given text when missing */
};

/* List dir/name read-only, making it first when asked. */
static int protect(struct finder *f, const char *dir, const char *name, enum presence presence,
                   const char *text)
{
	_cleanup_free_ char *path = path_join(dir, name);
	if (!path)
		return sluice_error_set(f->err, -ENOMEM, "the repository's paths");
	int r = presence == MAKE_DIR    ? ensure_dir(f, path)
	        : presence == MAKE_FILE ? ensure_file(f, path, text)
	                                : exists(f, path);
	if (r <= 0 && presence == IF_PRESENT)
		return r;
	if (r < 0)
		return r;
	return add(f, TAKE_PTR(path), GIT_PATH_READ_ONLY);
}

/* The index and HEAD of a worktree the run is not in (dir: its gitdir,
 * or the common directory for the main worktree), read-only where they
 * exist; nothing is made (see the top). A rename onto them (git's lock
 * files) then fails with EBUSY. */
static int protect_other_worktree(struct finder *f, const char *dir)
{
	int r = protect(f, dir, "index", IF_PRESENT, NULL);
	return r < 0 ? r : protect(f, dir, "HEAD", IF_PRESENT, NULL);
}

/* A linked worktree's gitdir: its own HEAD and index; config and hooks are
 * in the common directory its commondir names. Its "gitdir" file, which
 * registers it, stays as git wrote it; so do its index and HEAD when it is
 * not the run's own worktree. */
static int protect_worktree_dir(struct finder *f, const char *dir, bool inside)
{
	if (f->keep_only)
		return 0;
	int r = add(f, strdup(dir), GIT_PATH_WRITABLE);
	if (r >= 0 && (!f->own_gitdir || strcmp(dir, f->own_gitdir) != 0))
		r = protect_other_worktree(f, dir);
	if (r >= 0)
		r = protect(f, dir, "commondir", IF_PRESENT, NULL);
	if (r >= 0)
		r = protect(f, dir, "gitdir", IF_PRESENT, NULL);
	if (r >= 0)
		r = protect(f, dir, "config.worktree",
		            f->config.worktree_config && inside ? MAKE_FILE : IF_PRESENT, "");
	return r;
}

/* The gitdirs of the linked worktrees a repository inside the workspace
 * has (its worktrees/ is read-only): writable on top, their commondir,
 * gitdir and config.worktree read-only (and index and HEAD, but for the
 * run's own), so that `git gc` and `git reflog expire --all` can update
 * their HEAD's log. At most this many; the others stay read-only. */
#define WORKTREES_WRITABLE_MAX 8

static int protect_worktrees(struct finder *f, const char *common)
{
	_cleanup_free_ char *dir = path_join(common, "worktrees");
	if (!dir)
		return sluice_error_set(f->err, -ENOMEM, "the repository's paths");
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int r = 0;
	size_t made = 0;
	for (const struct dirent *de;
	     r >= 0 && made < WORKTREES_WRITABLE_MAX && (de = readdir(d)) != NULL;) {
		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue; /* DT_UNKNOWN too: then only its own worktree is writable */
		_cleanup_free_ char *path = path_join(dir, de->d_name);
		r = path ? protect_worktree_dir(f, path, true)
		         : sluice_error_set(f->err, -ENOMEM, "the repository's paths");
		made++;
	}
	(void)closedir(d);
	return r;
}

/* Paths protect_hook_targets() leaves for others: a repository with
 * many hooks that are symlinks still has room for the rest. */
#define HOOK_TARGETS_ROOM 16

/* The targets of the symlinks in dir's hooks folder (a common practice:
 * `ln -s ../../scripts/pre-commit .git/hooks/pre-commit`): git runs them,
 * so one that lies in a writable path is kept read-only as the folder is,
 * or the command could rewrite what the user's next commit runs. Not one
 * whose path goes through a symlink in the workspace (the command could
 * replace that symlink while the bind covers the old target), one that is
 * missing, or one past the room: the sweep after the run disables the
 * hook whose target is not what it was before the run (git-sweep.c). A
 * hard link in the folder cannot be kept so (its other name is unknown):
 * the sweep likewise. In keep_only mode (Landlock alone), the .git folder
 * is kept read-only whole: only targets outside it. */
static int protect_hook_targets(struct finder *f, const char *dir)
{
	_cleanup_free_ char *hooks = path_join(dir, "hooks");
	_cleanup_free_ char *dotgit = path_join(f->workspace, ".git");
	if (!hooks || !dotgit)
		return sluice_error_set(f->err, -ENOMEM, "the repository's paths");
	DIR *d = opendir(hooks);
	if (!d)
		return 0;
	int r = 0;
	struct dirent *de;
	while (r >= 0 && (de = readdir(d)) != NULL) {
		if (de->d_type != DT_LNK && de->d_type != DT_UNKNOWN)
			continue;
		char link[PATH_MAX], text[PATH_MAX];
		struct stat st;
		if (snprintf(link, sizeof(link), "%s/%s", hooks, de->d_name) >= (int)sizeof(link) ||
		    lstat(link, &st) < 0 || !S_ISLNK(st.st_mode))
			continue;
		ssize_t n = readlink(link, text, sizeof(text) - 1);
		if (n <= 0)
			continue;
		text[n] = '\0';
		_cleanup_free_ char *joined =
		        text[0] == '/' ? strdup(text) : path_join(hooks, text);
		_cleanup_free_ char *lexical = joined ? path_normalize(joined) : NULL;
		_cleanup_free_ char *real = realpath(link, NULL);
		if (!lexical || !real || f->out->n + HOOK_TARGETS_ROOM >= GIT_PATHS_MAX)
			continue;
		if (path_within(lexical, f->workspace) && strcmp(lexical, real) != 0)
			continue;
		if (f->keep_only && (!path_within(real, f->workspace) || path_within(real, dotgit)))
			continue;
		r = add(f, TAKE_PTR(real), GIT_PATH_READ_ONLY);
	}
	(void)closedir(d);
	return r;
}

/* A repository's own gitdir, where its config and hooks live. Inside the
 * workspace, what is missing is made; outside, the caller checked that
 * nothing is (has_names()). From a linked worktree (own_gitdir set), its
 * index and HEAD are the main worktree's: read-only. */
static int protect_common_dir(struct finder *f, const char *dir, bool inside)
{
	if (f->keep_only)
		return protect_hook_targets(f, dir);
	int r = add(f, strdup(dir), GIT_PATH_WRITABLE);
	if (r >= 0 && f->own_gitdir && strcmp(dir, f->own_gitdir) != 0)
		r = protect_other_worktree(f, dir);
	if (r >= 0)
		r = protect(f, dir, "config", inside ? MAKE_FILE : IF_PRESENT, "");
	if (r >= 0)
		r = protect(f, dir, "hooks", inside ? MAKE_DIR : IF_PRESENT, NULL);
	/* "." : the common directory is this one, which git assumes anyway */
	if (r >= 0)
		r = protect(f, dir, "commondir", inside ? MAKE_FILE : IF_PRESENT, ".\n");
	if (r >= 0)
		r = protect(f, dir, "config.worktree",
		            f->config.worktree_config && inside ? MAKE_FILE : IF_PRESENT, "");
	if (r >= 0)
		r = protect(f, dir, "modules", IF_PRESENT, NULL);
	if (r >= 0)
		r = protect(f, dir, "worktrees", IF_PRESENT, NULL);
	if (r >= 0 && inside)
		r = protect_worktrees(f, dir);
	if (r >= 0)
		r = protect_hook_targets(f, dir);
	return r;
}

/* The first line of a small regular file, without its line end, into buf:
 * a FIFO a command left in a repository cannot hang the launcher. */
static int read_line(const char *path, char *buf, size_t size)
{
	return read_first_line_at(AT_FDCWD, path, true, buf, size);
}

/* The system and global config files (git_config_read_user()), their
 * paths kept: one that lies in the workspace is protected too. */
static void read_user_configs(struct finder *f)
{
	git_config_read_user(&f->config, f->config_files, ELEMENTSOF(f->config_files),
	                     &f->n_config_files);
}

/* Read the config files git reads for this repository, in its order:
 * system, global, the repository's, and the worktree's when
 * extensions.worktreeConfig is on; each with the files it includes. */
static void read_config(struct finder *f, const char *common, const char *gitdir)
{
	char path[PATH_MAX];
	read_user_configs(f);
	snprintf(path, sizeof(path), "%s/config", common);
	git_config_read(path, &f->config);
	if (f->config.worktree_config) {
		snprintf(path, sizeof(path), "%s/config.worktree", gitdir);
		git_config_read(path, &f->config);
	}
}

/* Make every missing directory of path (absolute, beneath the workspace). */
static int make_dirs(struct finder *f, const char *path)
{
	char buf[PATH_MAX];
	if (strcmp(path, f->workspace) == 0)
		return 0;
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return sluice_error_set(f->err, -ENAMETOOLONG, "'%s'", path);
	for (char *s = buf + strlen(f->workspace) + 1; s; s = strchr(s + 1, '/')) {
		char saved = *s;
		*s = '\0';
		int r = ensure_dir(f, buf);
		*s = saved;
		if (r < 0)
			return r;
	}
	return ensure_dir(f, buf);
}

/* A file or folder git reads its configuration or hooks from, by the path
 * the configuration gives (absolute): read-only wherever it lies (mounts.c
 * binds only those in a writable path); made when missing in the
 * workspace, so that the command cannot make it; listed absent when
 * missing elsewhere. A symlink on its way inside the workspace could be
 * replaced while the mount covers its old target: the repository is then
 * unsupported. The workspace itself and its .git (covered as a whole
 * where there are no mounts) are not listed. */
static int protect_config_source(struct finder *f, const char *path, bool is_dir, const char *what)
{
	_cleanup_free_ char *lexical = path_normalize(path);
	if (!lexical)
		return sluice_error_set(f->err, -ENAMETOOLONG, "%s '%s'", what, path);
	_cleanup_free_ char *real = realpath(path, NULL);
	bool missing = !real;
	if (missing && errno != ENOENT)
		return 0; /* not a path git can read either (a file on the way, no access) */
	if (missing)
		real = path_canonical_missing(path);
	if (!real) {
		f->out->unsupported = true;
		return sluice_error_set(f->err, -EINVAL, "%s '%s' cannot be resolved", what, path);
	}
	bool inside = path_within(real, f->workspace) && strcmp(real, f->workspace) != 0;
	if (path_within(lexical, f->workspace) && strcmp(lexical, real) != 0) {
		if (!f->keep_only) {
			f->out->unsupported = true;
			return sluice_error_set(f->err, -ELOOP, "%s '%s' goes through a symlink",
			                        what, path);
		}
		/* Landlock then keeps the folders on the way read-only too, so that
		 * the symlink cannot be replaced */
		int r = add(f, TAKE_PTR(lexical), GIT_PATH_READ_ONLY);
		if (r < 0)
			return r;
	}
	if (f->keep_only) {
		_cleanup_free_ char *dotgit = path_join(f->workspace, ".git");
		if (!inside || !dotgit || path_within(real, dotgit))
			return dotgit ? 0 : sluice_error_set(f->err, -ENOMEM, "'%s'", path);
	}
	if (!missing)
		return add(f, TAKE_PTR(real), GIT_PATH_READ_ONLY);
	if (!inside)
		return f->keep_only ? 0 : add(f, TAKE_PTR(real), GIT_PATH_ABSENT);
	int r;
	if (is_dir) {
		r = make_dirs(f, real);
	} else {
		char *slash = strrchr(real, '/');
		*slash = '\0';
		r = make_dirs(f, real);
		*slash = '/';
		if (r >= 0)
			r = ensure_file(f, real, "");
	}
	return r < 0 ? r : add(f, TAKE_PTR(real), GIT_PATH_READ_ONLY);
}

/* Every core.hooksPath (git runs what is there) and every file git's
 * configuration includes. A relative hooksPath is relative to the top of
 * the worktree, "~/" to HOME. */
static int protect_config_sources(struct finder *f)
{
	if (f->config.overflow)
		return sluice_error_set(f->err, -E2BIG,
		                        "git's configuration for '%s' has more than %d includes or "
		                        "%d core.hooksPath values",
		                        f->workspace, GIT_CONFIG_INCLUDES_MAX,
		                        GIT_CONFIG_HOOKS_PATHS_MAX);
	const char *home = getenv("HOME");
	int r = 0;
	for (size_t i = 0; r >= 0 && i < f->config.n_hooks_paths; i++) {
		const char *hp = f->config.hooks_paths[i];
		_cleanup_free_ char *full = NULL;
		if (strncmp(hp, "~/", 2) == 0)
			full = home ? path_join(home, hp + 2) : NULL;
		else if (hp[0] == '/')
			full = strdup(hp);
		else if (hp[0] && !f->no_repo)
			full = path_join(f->workspace, hp);
		/* without a .git here a relative one is relative to a top that
		 * is not the workspace (a repository above it, or none) */
		if (full)
			r = protect_config_source(f, full, true, "core.hooksPath");
	}
	for (size_t i = 0; r >= 0 && i < f->config.n_includes; i++)
		r = protect_config_source(f, f->config.includes[i], false,
		                          "the file git's configuration includes");
	/* the system and global files themselves, where they lie in the
	 * workspace (~/.config/git kept as a repository of its own); those
	 * elsewhere are read-only with the rest, or (in a writable path)
	 * the user's to have chosen */
	for (size_t i = 0; r >= 0 && i < f->n_config_files; i++) {
		_cleanup_free_ char *real = realpath(f->config_files[i], NULL);
		if (!real && errno == ENOENT)
			real = path_canonical_missing(f->config_files[i]);
		if (real && path_within(real, f->workspace))
			r = protect_config_source(f, f->config_files[i], false,
			                          "git's global configuration");
	}
	return r;
}

static void finder_done(struct finder *f)
{
	git_config_view_done(&f->config);
	for (size_t i = 0; i < f->n_config_files; i++)
		free(f->config_files[i]);
	f->n_config_files = 0;
}

/* What a repository's gitdir must hold before it is made writable: the
 * names protect_common_dir() covers, and every file its configuration
 * includes and every core.hooksPath that would lie in it. */
static bool common_dir_complete(struct finder *f, const char *dir)
{
	static const char *const names[] = { "config", "hooks", "commondir", "config.worktree" };
	if (!git_trust_has_names(&f->trust, dir, names,
	                         ELEMENTSOF(names) - !f->config.worktree_config))
		return false;
	const struct git_config_view *c = &f->config;
	for (size_t i = 0; i < c->n_includes + c->n_hooks_paths; i++) {
		const char *p =
		        i < c->n_includes ? c->includes[i] : c->hooks_paths[i - c->n_includes];
		struct stat st;
		if (p[0] != '/' || stat(p, &st) == 0)
			continue; /* relative hooksPath: in the worktree */
		_cleanup_free_ char *real = path_canonical_missing(p);
		if (!real || path_within(real, dir)) {
			git_trust_note(
			        &f->trust,
			        "'%s', which git's configuration names, does not exist in '%s', and "
			        "nothing is made outside the workspace",
			        p, dir);
			return false;
		}
	}
	return true;
}

/* A linked worktree's common directory outside the workspace, with a
 * name to cover missing: only where git writes a commit's data. */
static int protect_common_data(struct finder *f, const char *dir)
{
	static const char *const names[] = { "objects", "refs", "logs" };
	for (size_t i = 0; i < ELEMENTSOF(names); i++) {
		_cleanup_free_ char *path = path_join(dir, names[i]);
		struct stat st;
		if (!path)
			return sluice_error_set(f->err, -ENOMEM, "the repository's paths");
		if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != f->trust.uid)
			continue;
		int r = add(f, TAKE_PTR(path), GIT_PATH_WRITABLE);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The repository a ".git" file names outside the workspace: writable only
 * as the comment at the top says. */
static int protect_outside(struct finder *f, const char *dotgit, const char *gitdir,
                           const char *common)
{
	if (f->keep_only)
		return 0;
	if (!common) {
		if (!git_trust_registered_submodule(&f->trust, gitdir) ||
		    !git_trust_owned_safely(&f->trust, gitdir) || !common_dir_complete(f, gitdir))
			return 0;
		return protect_common_dir(f, gitdir, false);
	}
	static const char *const worktree_names[] = { "commondir", "gitdir", "config.worktree" };
	if (!git_trust_registered_worktree(&f->trust, dotgit, gitdir, common) ||
	    !git_trust_owned_safely(&f->trust, gitdir) ||
	    !git_trust_owned_safely(&f->trust, common) ||
	    !git_trust_has_names(&f->trust, gitdir, worktree_names,
	                         ELEMENTSOF(worktree_names) - !f->config.worktree_config))
		return 0;
	/* the common directory's own names, or else its data alone */
	char saved[sizeof(f->out->outside_read_only)];
	memcpy(saved, f->out->outside_read_only, sizeof(saved));
	int r = common_dir_complete(f, common) ? protect_common_dir(f, common, false)
	                                       : protect_common_data(f, common);
	memcpy(f->out->outside_read_only, saved, sizeof(saved));
	return r < 0 ? r : protect_worktree_dir(f, gitdir, false);
}

/* A ".git" file: "gitdir: PATH" names the repository (a linked worktree's
 * gitdir, or a submodule's); the file itself stays read-only. */
static int protect_git_file(struct finder *f, const char *dotgit)
{
	char line[PATH_MAX + 16];
	int r = read_line(dotgit, line, sizeof(line));
	if (r < 0)
		return sluice_error_set(f->err, r, "reading '%s'", dotgit);
	r = f->keep_only ? 0 : add(f, strdup(dotgit), GIT_PATH_READ_ONLY);
	if (r < 0)
		return r;
	if (strncmp(line, "gitdir: ", 8) != 0) {
		f->out->unsupported = true;
		return sluice_error_set(f->err, -EINVAL, "'%s' has no gitdir line", dotgit);
	}
	_cleanup_free_ char *gitdir = path_resolve_from(f->workspace, line + 8);
	if (!gitdir) {
		f->out->unsupported = true;
		return sluice_error_set(f->err, -ENOENT, "the repository '%s' named in '%s'",
		                        line + 8, dotgit);
	}
	bool inside = path_within(gitdir, f->workspace);
	_cleanup_free_ char *commondir_file = path_join(gitdir, "commondir");
	if (!commondir_file)
		return sluice_error_set(f->err, -ENOMEM, "the repository's paths");
	char common_text[PATH_MAX];
	_cleanup_free_ char *common =
	        read_line(commondir_file, common_text, sizeof(common_text)) < 0
	                ? NULL
	                : path_resolve_from(gitdir, common_text);
	/* none (or none git could follow): a submodule's own repository */
	if (!common || strcmp(common, gitdir) == 0) {
		read_config(f, gitdir, gitdir);
		return inside ? protect_common_dir(f, gitdir, true)
		              : protect_outside(f, dotgit, gitdir, NULL);
	}
	read_config(f, common, gitdir);
	/* a linked worktree: the main worktree's and the others' index and
	 * HEAD are not the run's to write */
	f->own_gitdir = gitdir;
	if (!inside)
		r = protect_outside(f, dotgit, gitdir, common);
	else if (path_within(common, f->workspace))
		r = protect_common_dir(f, common, true);
	else
		git_trust_note(&f->trust,
		               "the common directory '%s' of '%s' lies outside the workspace",
		               common, gitdir);
	if (r >= 0 && inside)
		r = protect_worktree_dir(f, gitdir, true);
	f->own_gitdir = NULL; /* freed on return */
	return r;
}

/* A ".git" symlink: nothing can be mounted on the link, which the command
 * could replace, so the repository is unsupported (read-only as a whole
 * another way); its target is listed when it lies in the workspace, where
 * it would otherwise be writable with the rest. */
static int protect_git_symlink(struct finder *f, const char *dotgit)
{
	f->out->unsupported = true;
	_cleanup_free_ char *target = realpath(dotgit, NULL);
	if (!target || !path_within(target, f->workspace) || strcmp(target, f->workspace) == 0)
		return 0;
	read_config(f, target, target);
	int r = add(f, TAKE_PTR(target), GIT_PATH_READ_ONLY);
	return r < 0 ? r : protect_config_sources(f);
}

static int find(const char *workspace, bool keep_only, struct git_paths *ret,
                struct sluice_error *err)
{
	*ret = (struct git_paths){ .n = 0 };
	struct finder f = { .out = ret,
		            .workspace = workspace,
		            .keep_only = keep_only,
		            .trust = { .workspace = workspace,
		                       .uid = geteuid(),
		                       .gid = getegid(),
		                       .why = ret->outside_read_only,
		                       .why_size = sizeof(ret->outside_read_only) },
		            .err = err };
	_cleanup_free_ char *dotgit = path_join(workspace, ".git");
	if (!dotgit)
		return sluice_error_set(err, -ENOMEM, "the repository's paths");
	struct stat st;
	if (lstat(dotgit, &st) < 0) {
		if (errno != ENOENT)
			return sluice_error_set(err, neg_errno(), "'%s'", dotgit);
		/* no repository of its own: what the user's configuration names
		 * in the workspace still is (whatever is made: the workspace's owner) */
		if (stat(workspace, &f.repo) < 0)
			return sluice_error_set(err, neg_errno(), "'%s'", workspace);
		f.no_repo = true;
		read_user_configs(&f);
		int r = protect_config_sources(&f);
		finder_done(&f);
		/* no .git to make read-only as a whole instead (below): an
		 * include through a symlink here refuses the run */
		return r;
	}
	f.repo = st;
	int r;
	if (S_ISDIR(st.st_mode)) {
		read_config(&f, dotgit, dotgit);
		r = protect_common_dir(&f, dotgit, true);
	} else if (S_ISREG(st.st_mode)) {
		r = protect_git_file(&f, dotgit);
	} else {
		r = S_ISLNK(st.st_mode) ? protect_git_symlink(&f, dotgit) : 0;
		ret->unsupported = true;
		finder_done(&f);
		return r;
	}
	if (r >= 0)
		r = protect_config_sources(&f);
	finder_done(&f);
	if (r < 0 && ret->unsupported) {
		git_paths_done(ret);
		ret->unsupported = true;
		return 0;
	}
	return r;
}

int git_paths_find(const char *workspace, struct git_paths *ret, struct sluice_error *err)
{
	return find(workspace, false, ret, err);
}

int git_paths_keep(const char *workspace, struct git_paths *ret, struct sluice_error *err)
{
	return find(workspace, true, ret, err);
}

void git_paths_done(struct git_paths *paths)
{
	for (size_t i = 0; i < paths->n; i++)
		free(paths->items[i].path);
	paths->n = 0;
}
