/* SPDX-License-Identifier: MIT */
/*
 * What of a workspace's repository git trusts later, outside the sandbox.
 * A repository's "gitdir" holds objects, refs and the index, which a
 * command must be able to write for `git commit` to work, next to files
 * that run code or redirect git elsewhere: hooks/, config (core.fsmonitor,
 * core.hooksPath, aliases, filters), config.worktree (read when
 * extensions.worktreeConfig is on), commondir (a file naming the directory
 * that holds config and hooks: created where there was none, it points git
 * at a repository of the command's making), and the repositories of
 * submodules (modules/) and of linked worktrees (worktrees/). The gitdir
 * is bound onto itself writable, so that it cannot be renamed or replaced;
 * the others are bound read-only on top, after being made if missing,
 * because a name that does not exist cannot be covered by a mount.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "git-config.h"
#include "git-paths.h"

struct finder {
	struct git_paths *out;
	const char *workspace;
	struct stat repo; /* the owner of what is made */
	struct git_config_view config;
	bool hooks_path_only; /* only core.hooksPath's folder is wanted */
	struct sluice_error *err;
};

/* "a/b", or NULL when out of memory. */
static char *join(const char *a, const char *b)
{
	char *s = NULL;
	return asprintf(&s, "%s/%s", a, b) < 0 ? NULL : s;
}

/* Whether path is dir or lies beneath it (both absolute and canonical). */
static bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1)
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* Take path (owned) into the list. */
static int add(struct finder *f, char *path, enum git_path_access access)
{
	if (!path)
		return sluice_error_set(f->err, -ENOMEM, "the repository's paths");
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

/* Make a missing file holding text. */
static int ensure_file(struct finder *f, const char *path, const char *text)
{
	int r = exists(f, path);
	if (r != 0)
		return r < 0 ? r : 0;
	_cleanup_close_ int fd =
	        open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == EEXIST ? 0
		                       : sluice_error_set(f->err, neg_errno(), "making '%s'", path);
	r = write_full(fd, text, strlen(text));
	if (r < 0)
		return sluice_error_set(f->err, r, "writing '%s'", path);
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
	_cleanup_free_ char *path = join(dir, name);
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

/* A repository's own gitdir, where its config and hooks live. */
static int protect_common_dir(struct finder *f, const char *dir)
{
	if (f->hooks_path_only)
		return 0;
	int r = add(f, strdup(dir), GIT_PATH_WRITABLE);
	if (r >= 0)
		r = protect(f, dir, "config", MAKE_FILE, "");
	if (r >= 0)
		r = protect(f, dir, "hooks", MAKE_DIR, NULL);
	/* "." : the common directory is this one, which git assumes anyway */
	if (r >= 0)
		r = protect(f, dir, "commondir", MAKE_FILE, ".\n");
	if (r >= 0)
		r = protect(f, dir, "config.worktree",
		            f->config.worktree_config ? MAKE_FILE : IF_PRESENT, "");
	if (r >= 0)
		r = protect(f, dir, "modules", IF_PRESENT, NULL);
	if (r >= 0)
		r = protect(f, dir, "worktrees", IF_PRESENT, NULL);
	return r;
}

/* A linked worktree's gitdir: its own HEAD and index; config and hooks are
 * in the common directory its commondir names. */
static int protect_worktree_dir(struct finder *f, const char *dir)
{
	if (f->hooks_path_only)
		return 0;
	int r = add(f, strdup(dir), GIT_PATH_WRITABLE);
	if (r >= 0)
		r = protect(f, dir, "commondir", IF_PRESENT, NULL);
	if (r >= 0)
		r = protect(f, dir, "config.worktree",
		            f->config.worktree_config ? MAKE_FILE : IF_PRESENT, "");
	return r;
}

/* The first line of a small file, without its line end, into buf. */
static int read_line(const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return neg_errno();
	ssize_t n = read_full(fd, buf, size - 1);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
}

/* The canonical form of text read from a file in base ("relative to base"
 * when not absolute); NULL when it does not resolve. */
static char *resolve_from(const char *base, const char *text)
{
	_cleanup_free_ char *joined = text[0] == '/' ? strdup(text) : join(base, text);
	return joined ? realpath(joined, NULL) : NULL;
}

/* Read the config files git reads for this repository, in its order:
 * system, global (XDG, then ~/.gitconfig), the repository's, and the
 * worktree's when extensions.worktreeConfig is on. */
static void read_config(struct finder *f, const char *common, const char *gitdir)
{
	const char *home = getenv("HOME");
	if (!getenv("GIT_CONFIG_NOSYSTEM")) {
		const char *sys = getenv("GIT_CONFIG_SYSTEM");
		git_config_read(sys ? sys : "/etc/gitconfig", &f->config);
	}
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	char path[PATH_MAX];
	if (global) {
		git_config_read(global, &f->config);
	} else {
		const char *xdg = getenv("XDG_CONFIG_HOME");
		if (xdg && xdg[0] == '/')
			snprintf(path, sizeof(path), "%s/git/config", xdg);
		else
			snprintf(path, sizeof(path), "%s/.config/git/config", home ? home : "");
		if (home || xdg)
			git_config_read(path, &f->config);
		if (home) {
			snprintf(path, sizeof(path), "%s/.gitconfig", home);
			git_config_read(path, &f->config);
		}
	}
	snprintf(path, sizeof(path), "%s/config", common);
	git_config_read(path, &f->config);
	if (f->config.worktree_config) {
		snprintf(path, sizeof(path), "%s/config.worktree", gitdir);
		git_config_read(path, &f->config);
	}
}

/* Whether a relative or absolute path has a ".." component. */
static bool has_dotdot(const char *p)
{
	for (const char *s = p; (s = strstr(s, "..")) != NULL; s += 2)
		if ((s == p || s[-1] == '/') && (s[2] == '\0' || s[2] == '/'))
			return true;
	return false;
}

/* Make every missing directory of path (absolute, inside the workspace). */
static int make_dirs(struct finder *f, const char *path)
{
	char buf[PATH_MAX];
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

/* core.hooksPath, when it names a folder inside the workspace: git runs
 * what is there, so it stays read-only (made when missing, else a command
 * could make it). Relative paths are relative to the top of the worktree,
 * "~/" to HOME; folders outside the workspace are read-only anyway. */
static int protect_hooks_path(struct finder *f)
{
	const char *hp = f->config.hooks_path;
	if (!hp[0])
		return 0;
	const char *home = getenv("HOME");
	_cleanup_free_ char *full = NULL;
	if (strncmp(hp, "~/", 2) == 0)
		full = home ? join(home, hp + 2) : NULL;
	else if (hp[0] == '/')
		full = strdup(hp);
	else
		full = join(f->workspace, hp);
	if (!full)
		return 0;
	_cleanup_free_ char *canonical = realpath(full, NULL);
	if (!canonical) {
		if (errno != ENOENT || has_dotdot(full) || !path_within(full, f->workspace) ||
		    strcmp(full, f->workspace) == 0)
			return 0;
		int r = make_dirs(f, full);
		if (r < 0)
			return r;
		canonical = realpath(full, NULL);
		if (!canonical)
			return sluice_error_set(f->err, neg_errno(), "'%s'", full);
	}
	if (!path_within(canonical, f->workspace) || strcmp(canonical, f->workspace) == 0)
		return 0;
	return add(f, TAKE_PTR(canonical), GIT_PATH_READ_ONLY);
}

/* A ".git" file: "gitdir: PATH" names the repository (a linked worktree's
 * gitdir, or a submodule's); the file itself stays read-only. */
static int protect_git_file(struct finder *f, const char *dotgit)
{
	char line[PATH_MAX + 16];
	int r = read_line(dotgit, line, sizeof(line));
	if (r < 0)
		return sluice_error_set(f->err, r, "reading '%s'", dotgit);
	r = f->hooks_path_only ? 0 : add(f, strdup(dotgit), GIT_PATH_READ_ONLY);
	if (r < 0)
		return r;
	if (strncmp(line, "gitdir: ", 8) != 0) {
		f->out->unsupported = true;
		return sluice_error_set(f->err, -EINVAL, "'%s' has no gitdir line", dotgit);
	}
	_cleanup_free_ char *gitdir = resolve_from(f->workspace, line + 8);
	if (!gitdir) {
		f->out->unsupported = true;
		return sluice_error_set(f->err, -ENOENT, "the repository '%s' named in '%s'",
		                        line + 8, dotgit);
	}
	_cleanup_free_ char *commondir_file = join(gitdir, "commondir");
	if (!commondir_file)
		return sluice_error_set(f->err, -ENOMEM, "the repository's paths");
	char common_text[PATH_MAX];
	if (read_line(commondir_file, common_text, sizeof(common_text)) < 0) {
		read_config(f, gitdir, gitdir); /* a submodule's own repository */
		return protect_common_dir(f, gitdir);
	}
	_cleanup_free_ char *common = resolve_from(gitdir, common_text);
	if (!common) {
		f->out->unsupported = true;
		return sluice_error_set(f->err, -ENOENT, "the common directory '%s' of '%s'",
		                        common_text, gitdir);
	}
	read_config(f, common, gitdir);
	r = protect_common_dir(f, common);
	return r < 0 ? r : protect_worktree_dir(f, gitdir);
}

static int find(const char *workspace, bool hooks_path_only, struct git_paths *ret,
                struct sluice_error *err)
{
	*ret = (struct git_paths){ .n = 0 };
	struct finder f = {
		.out = ret, .workspace = workspace, .hooks_path_only = hooks_path_only, .err = err
	};
	_cleanup_free_ char *dotgit = join(workspace, ".git");
	if (!dotgit)
		return sluice_error_set(err, -ENOMEM, "the repository's paths");
	struct stat st;
	if (lstat(dotgit, &st) < 0)
		return errno == ENOENT ? 0 : sluice_error_set(err, neg_errno(), "'%s'", dotgit);
	f.repo = st;
	int r;
	if (S_ISDIR(st.st_mode)) {
		read_config(&f, dotgit, dotgit);
		r = protect_common_dir(&f, dotgit);
	} else if (S_ISREG(st.st_mode)) {
		r = protect_git_file(&f, dotgit);
	} else {
		ret->unsupported = true;
		return 0;
	}
	if (r >= 0)
		r = protect_hooks_path(&f);
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

int git_paths_hooks_path(const char *workspace, char **ret, struct sluice_error *err)
{
	struct git_paths g;
	*ret = NULL;
	int r = find(workspace, true, &g, err);
	if (r >= 0 && g.n > 0)
		*ret = TAKE_PTR(g.items[0].path);
	git_paths_done(&g);
	return r;
}

void git_paths_done(struct git_paths *paths)
{
	for (size_t i = 0; i < paths->n; i++)
		free(paths->items[i].path);
	paths->n = 0;
}
