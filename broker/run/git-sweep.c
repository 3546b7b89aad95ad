/* SPDX-License-Identifier: MIT */
/*
 * The post-run sweep of a run's repository (git-sweep.h): the walk of its
 * gitdirs and nested repositories; what is disabled in place is rewritten
 * by git-sweep-defuse.c, what is taken out goes to the quarantine folder
 * (git-quarantine.c). Every step
 * works on descriptors and never follows a symbolic link: what it looks at
 * is what the command may have planted.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "monotonic.h"
#include "run/git-defuse.h"
#include "run/git-index.h"
#include "run/git-quarantine.h"
#include "run/git-sweep.h"
#include "run/git-sweep-state.h"
#include "strv.h"
#include "path-text.h"

/* Deeper folders than this are not walked: the folder at that depth is
 * moved to the quarantine whole (git makes nothing that deep). */
#define SWEEP_DEPTH_MAX 48

/* File systems whose directories' ctime the kernel sets from its own
 * clock on every change of their entries (and on a rename of the folder
 * itself). Elsewhere (a network file system, whose server's clock sets
 * ctime; FUSE) every fan-out folder is read. */
static const unsigned long trusted_fs[] = {
	0xEF53,     /* ext2, ext3, ext4 */
	0x01021994, /* tmpfs */
	0x58465342, /* xfs */
	0x9123683E, /* btrfs */
	0x794c7630, /* overlayfs: a changed folder is copied up, a new inode */
	0x2fc12fc1, /* zfs */
	0xF2F52010, /* f2fs */
};

static bool ctime_trusted(const struct statfs *sf)
{
	for (size_t i = 0; i < ELEMENTSOF(trusted_fs); i++)
		if ((unsigned long)sf->f_type == trusted_fs[i])
			return true;
	return false;
}

bool git_sweep_ctime_trusted(int fd)
{
	struct statfs sf;
	return fstatfs(fd, &sf) == 0 && ctime_trusted(&sf);
}

void git_sweep_fail(struct git_sweep *s, const char *fmt, ...)
{
	if (s->error[0])
		return; /* the first failure is the one to read */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
}

/* What a non-directory entry of a gitdir is, when git would never have put
 * it there, into what (else ""). in_objects: in an object store, where
 * git's own clones hard-link objects and git never writes a file in place. */
static void describe(int dir, const char *name, const struct stat *st, bool in_objects, char *what,
                     size_t size)
{
	what[0] = '\0';
	switch (st->st_mode & S_IFMT) {
	case S_IFLNK: {
		char target[PATH_MAX];
		ssize_t n = readlinkat(dir, name, target, sizeof(target) - 1);
		target[n < 0 ? 0 : n] = '\0';
		snprintf(what, size, "symbolic link to %.200s", target);
		return;
	}
	case S_IFIFO:
		snprintf(what, size, "FIFO");
		return;
	case S_IFSOCK:
		snprintf(what, size, "socket");
		return;
	case S_IFCHR:
	case S_IFBLK:
		snprintf(what, size, "device node %u:%u", major(st->st_rdev), minor(st->st_rdev));
		return;
	case S_IFREG:
		if (st->st_nlink > 1 && !in_objects)
			snprintf(what, size, "hard link (%ju names)", (uintmax_t)st->st_nlink);
		return;
	default:
		return;
	}
}

static bool is_name(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

/* In a root's hooks folder the launcher kept read-only (nothing there is
 * the run's), whether an entry describe() flagged is the user's own and
 * stays: a symbolic link noted before the run that leads to the same
 * file, which the run did not change (or led nowhere and still does); a
 * hard link the run did not change (its other name may lie in the
 * workspace). Otherwise the command could have changed what git runs. */
static bool users_hook(const struct sweeper *w, int dir, const char *name, const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return w->ctime_ok && !git_sweep_changed(w, st);
	if (!S_ISLNK(st->st_mode))
		return false;
	for (size_t i = 0; i < w->s->n_hook_links; i++) {
		const struct git_sweep_hook_link *l = &w->s->hook_links[i];
		if (l->dev != st->st_dev || l->ino != st->st_ino)
			continue;
		struct stat target;
		if (fstatat(dir, name, &target, 0) < 0)
			return !l->target_exists && errno == ENOENT;
		return l->target_exists && target.st_dev == l->target_dev &&
		       target.st_ino == l->target_ino && w->ctime_ok &&
		       !git_sweep_changed(w, &target);
	}
	return false;
}

static void sweep_unkept(struct sweeper *w, const char *path, const char *tree);

/* A nested repository found (gitdir path; tree: its work tree, when a
 * gitlink named it, else NULL), kept in the list; past the list, swept
 * at once (a sweep) or, for the list alone, noted as not listed. */
static void remember_nested_in(struct sweeper *w, const char *path, const char *tree)
{
	for (size_t i = 0; i < w->n_nested; i++)
		if (strcmp(w->nested[i], path) == 0)
			return;
	if (w->n_nested >= SWEEP_NESTED_MAX) {
		if (w->sweeping)
			sweep_unkept(w, path, tree);
		else
			w->overflow = true;
		return;
	}
	char *copy = strdup(path);
	char *tree_copy = tree ? strdup(tree) : NULL;
	if (!copy || (tree && !tree_copy)) {
		free(copy);
		free(tree_copy);
		git_sweep_fail(w->s, "out of memory");
		return;
	}
	w->nested_tree[w->n_nested] = tree_copy;
	w->nested[w->n_nested++] = copy;
}

static void remember_nested(struct sweeper *w, const char *path)
{
	remember_nested_in(w, path, NULL);
}

/* A listing of the directory fd, on a descriptor of its own (fd stays
 * open for the *at() calls); NULL with errno set when it cannot be had. */
static DIR *dir_of(int fd)
{
	int copy = dup(fd);
	DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
	if (!d)
		safe_close(copy); /* keeps errno */
	return d;
}

/* A folder's entries read straight from the descriptor the walk's *at()
 * calls use: the DIR of dir_of() costs a dup() and fdopendir()'s fstat()
 * and two fcntl() for each folder, on the path of every run. */
struct listing {
	int fd;
	ssize_t n, off;
	char buf[2048] __attribute__((aligned(8)));
};

/* The next entry of l; NULL at the end (errno 0) or on an error (errno
 * set). */
static const struct dirent64 *listing_next(struct listing *l)
{
	if (l->off >= l->n) {
		l->off = 0;
		l->n = getdents64(l->fd, l->buf, sizeof(l->buf));
		if (l->n <= 0) {
			if (l->n == 0)
				errno = 0;
			return NULL;
		}
	}
	const struct dirent64 *de = (const struct dirent64 *)(void *)(l->buf + l->off);
	l->off += de->d_reclen;
	return de;
}

/* Whether name is an object store's fan-out folder ("ab"). */
static bool is_fanout(const char *name)
{
	return strlen(name) == 2 && isxdigit((unsigned char)name[0]) &&
	       isxdigit((unsigned char)name[1]);
}

/* A fan-out folder (w->path) the run changed: git puts only object files
 * there (hard links among them are its own: clone --local). */
static int walk_fanout(struct sweeper *w, int fd)
{
	w->s->directories++;
	struct listing l = { .fd = fd };
	const struct dirent64 *de;
	while ((errno = 0, de = listing_next(&l)) != NULL) {
		const char *name = de->d_name;
		struct stat st;
		if (is_name(name, ".") || is_name(name, "..") || de->d_type == DT_REG)
			continue;
		if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || S_ISREG(st.st_mode))
			continue;
		char what[256];
		describe(fd, name, &st, true, what, sizeof(what));
		git_quarantine_move(w, fd, name, &st, what[0] ? what : "a folder among objects");
	}
	return errno != 0 ? neg_errno() : 0;
}

/*
 * Walk the directory fd (w->path), depth levels below a root: every entry
 * is looked at, but for the object store's fan-out folders, read only when
 * the run changed them (their ctime), the one part of a gitdir that grows
 * with the repository. objects: fd is an "objects" folder.
 */
static int walk(struct sweeper *w, int fd, bool in_objects, bool objects, int depth)
{
	w->s->directories++;
	struct listing l = { .fd = fd };
	bool head = false, config = false, commondir = false;
	size_t len = strlen(w->path);
	const struct dirent64 *de;
	while ((errno = 0, de = listing_next(&l)) != NULL) {
		const char *name = de->d_name;
		if (is_name(name, ".") || is_name(name, ".."))
			continue;
		head |= is_name(name, "HEAD");
		config |= is_name(name, "config");
		commondir |= is_name(name, "commondir");
		if (de->d_type == DT_REG && in_objects)
			continue; /* git's objects, packs, and their hard links */
		struct stat est;
		if (fstatat(fd, name, &est, AT_SYMLINK_NOFOLLOW) < 0)
			continue; /* gone: nothing runs any more that could remove it */
		if (!S_ISDIR(est.st_mode)) {
			char what[256];
			describe(fd, name, &est, in_objects, what, sizeof(what));
			if (what[0] && !(w->in_kept_hooks && users_hook(w, fd, name, &est)))
				git_quarantine_move(w, fd, name, &est, what);
			continue;
		}
		if (est.st_dev != w->dev)
			continue; /* a mount point: not the repository's */
		if (len + 1 + strlen(name) >= sizeof(w->path))
			continue;
		bool fanout = objects && is_fanout(name);
		if (fanout && !git_sweep_changed(w, &est))
			continue; /* no entry made, renamed or removed there since the start */
		snprintf(w->path + len, sizeof(w->path) - len, "/%s", name);
		int r = 0;
		if (depth + 1 >= SWEEP_DEPTH_MAX) {
			w->path[len] = '\0';
			git_quarantine_move(w, fd, name, &est, "folders nested too deep for git");
		} else {
			_cleanup_close_ int cfd =
			        openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			bool kept_hooks = depth == 0 && w->root_walk && is_name(name, "hooks") &&
			                  !w->s->roots_config_writable;
			w->in_kept_hooks = kept_hooks;
			if (cfd >= 0)
				r = fanout ? walk_fanout(w, cfd)
				           : walk(w, cfd, in_objects || is_name(name, "objects"),
				                  is_name(name, "objects"), depth + 1);
			w->in_kept_hooks = false;
		}
		w->path[len] = '\0';
		if (r < 0)
			return r;
	}
	if (errno != 0)
		return neg_errno();
	/* a repository inside this one: a submodule's (modules/NAME) or a
	 * linked worktree's (worktrees/NAME) */
	if (depth > 0 && head && (config || commondir))
		remember_nested(w, w->path);
	return 0;
}

/* Walk the gitdir path. */
static int sweep_tree(struct sweeper *w, const char *path)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	struct stat st;
	struct statfs sf;
	if (fstat(fd, &st) < 0 || fstatfs(fd, &sf) < 0)
		return neg_errno();
	w->dev = st.st_dev;
	w->ctime_ok = ctime_trusted(&sf);
	snprintf(w->path, sizeof(w->path), "%s", path);
	return walk(w, fd, false, false, 0);
}

/* What config file i of root held before the run: "" when it was missing
 * (then nothing of it is the user's, and no remote either); NULL for a
 * repository that is not a root, whose text before is not known. */
static const char *root_before(const struct git_sweep *s, int root, size_t i)
{
	if (root < 0)
		return NULL;
	return s->config_before[root][i] ? s->config_before[root][i] : "";
}

/* The legacy remote files of gitdir fd (w->path), remotes/NAME and
 * branches/NAME, that the run made or changed (all: every one): moved to
 * the quarantine. Git reads one for a remote name its config does not
 * configure, "origin" among them, which a plain `git push` or `fetch`
 * uses when nothing is chosen. Git reads them for compatibility and its
 * commands write remotes to the config instead (since git 1.5), so a new
 * one is planted; the user's own are older than the run and stay. */
static void sweep_legacy_remotes(struct sweeper *w, int fd, bool all)
{
	static const char *const folders[] = { "remotes", "branches" };
	size_t len = strlen(w->path);
	for (size_t i = 0; i < ELEMENTSOF(folders); i++) {
		_cleanup_close_ int dfd =
		        openat(fd, folders[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (dfd < 0 || fstat(dfd, &st) < 0 || !(all || git_sweep_changed(w, &st)))
			continue; /* no entry made, renamed or removed there since the start */
		_cleanup_closedir_ DIR *d = dir_of(dfd);
		if (!d)
			continue;
		snprintf(w->path + len, sizeof(w->path) - len, "/%s", folders[i]);
		struct dirent *de;
		while ((de = readdir(d)) != NULL) {
			if (is_name(de->d_name, ".") || is_name(de->d_name, ".."))
				continue;
			if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			    (!all && !git_sweep_changed(w, &st)))
				continue;
			git_quarantine_move(w, dfd, de->d_name, &st,
			                    "legacy remote file (git pushes where it says to a "
			                    "remote the config lacks)");
		}
		w->path[len] = '\0';
	}
}

/*
 * A repository's gitdir fd (w->path): its config files and hooks that the
 * run made or changed. Each file's own ctime says so (a file renamed into
 * place gets a new one too), except where the whole gitdir may have been
 * moved here with old files in it: a gitdir that is not a root (those are
 * found before the run, and the launcher binds them in place) whose folder
 * and parent folder both changed counts as the run's whole. Likewise
 * every hook of a hooks folder that changed. root: the index of the root
 * it is, or -1. Its legacy remote files the run made go too. A root's
 * config files keep what they held before the run
 * (config_before); its hooks are left to the launcher's read-only bind of
 * the hooks folder, which the user's tools do not replace, unless
 * [sandbox] git_writable gave them to the command.
 */
static void sweep_nested(struct sweeper *w, int fd, int root)
{
	struct stat st, parent;
	bool all = root < 0 && fstat(fd, &st) == 0 && git_sweep_changed(w, &st) &&
	           fstatat(fd, "..", &parent, 0) == 0 && git_sweep_changed(w, &parent);
	for (size_t i = 0; i < ELEMENTSOF(git_sweep_config_files); i++) {
		const char *name = git_sweep_config_files[i];
		bool there = fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
		if (all || (there && git_sweep_changed(w, &st)))
			git_sweep_defuse_file(
			        w, fd, name, git_sweep_defuse_config, root_before(w->s, root, i),
			        root < 0 ? 0 : w->s->config_before_len[root][i],
			        "config keys that run programs or send data elsewhere");
		else if (root < 0 && there && S_ISREG(st.st_mode) && st.st_size <= SWEEP_TEXT_MAX)
			/* kept in an earlier sweep, or the user's: the folder it
			 * names may have been swapped since (a later run, a
			 * background job), with no change to the file */
			git_sweep_defuse_file(w, fd, name, git_sweep_recheck_worktree, NULL, 0,
			                      "core.worktree that no longer leads to its "
			                      "submodule's folder in the workspace");
	}
	sweep_legacy_remotes(w, fd, all);
	if (root >= 0 && !w->s->roots_config_writable)
		return;
	_cleanup_close_ int hfd =
	        openat(fd, "hooks", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_closedir_ DIR *hooks = hfd >= 0 ? dir_of(hfd) : NULL;
	if (!hooks)
		return;
	all |= fstat(hfd, &st) == 0 && git_sweep_changed(w, &st);
	size_t len = strlen(w->path);
	snprintf(w->path + len, sizeof(w->path) - len, "/hooks");
	struct dirent *de;
	while ((de = readdir(hooks)) != NULL) {
		const char *name = de->d_name;
		size_t n = strlen(name);
		if (is_name(name, ".") || is_name(name, "..") ||
		    (n > 7 && strcmp(name + n - 7, ".sample") == 0))
			continue; /* git runs no hook by a name ending in .sample */
		if (fstatat(hfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    (!all && !git_sweep_changed(w, &st)))
			continue;
		if (S_ISREG(st.st_mode) && !(st.st_mode & 0111))
			continue; /* git does not run it */
		git_quarantine_move(w, hfd, name, &st,
		                    S_ISREG(st.st_mode) ? "executable hook"
		                                        : "hook that is not a file");
	}
	w->path[len] = '\0';
}

static bool in_roots(const struct git_sweep *s, const char *path);
static int root_index(const struct git_sweep *s, const char *path);

/* The common directory that the commondir file of the nested gitdir fd
 * (w->path) names, when it lies in the workspace and is not a root:
 * git reads that one's config (and hooks, refs, objects) for this
 * repository, so it is a repository to sweep too, in the list or on the
 * way (and set aside past the bounds), like any other. One outside the
 * workspace is not the run's. */
static void follow_commondir(struct sweeper *w, int fd)
{
	char text[PATH_MAX];
	if (read_first_line_at(fd, "commondir", false, text, sizeof(text)) < 0 || !text[0])
		return;
	_cleanup_free_ char *common = path_resolve_from(w->path, text);
	_cleanup_free_ char *top = realpath(w->s->workspace, NULL);
	if (!common || !top || root_index(w->s, common) >= 0 ||
	    !(path_within(common, top) || in_roots(w->s, common)))
		return;
	remember_nested(w, common);
}

/* A repository at path (root: the index of the root it is, or -1): its own
 * walk (a nested one not inside a root, whose walk saw it), its config and
 * hooks, its sequencer, and the common directory it names. */
static void sweep_repository(struct sweeper *w, const char *path, bool walk_it, int root)
{
	if (walk_it) {
		int r = sweep_tree(w, path);
		if (r < 0 && r != -ENOENT)
			git_sweep_fail(w->s, "sweeping '%s': %s", path, strerror(-r));
	}
	_cleanup_close_ int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	snprintf(w->path, sizeof(w->path), "%s", path);
	struct stat st;
	struct statfs sf;
	if (fstat(fd, &st) == 0 && fstatfs(fd, &sf) == 0) {
		w->ctime_ok = ctime_trusted(&sf);
	}
	sweep_nested(w, fd, root);
	git_sweep_sequencer(w, fd);
	if (root < 0)
		follow_commondir(w, fd);
}

/* The index of the root path is, or -1. */
static int root_index(const struct git_sweep *s, const char *path)
{
	for (size_t i = 0; i < s->n_roots; i++)
		if (strcmp(path, s->roots[i]) == 0)
			return (int)i;
	return -1;
}

/* Whether path lies in one of the roots. */
static bool in_roots(const struct git_sweep *s, const char *path)
{
	for (size_t i = 0; i < s->n_roots; i++)
		if (path_within(path, s->roots[i]))
			return true;
	return false;
}

/* The gitdir of the gitlink at path rel of the work tree at hand (the
 * workspace's, or a nested repository's), when it lies in the workspace
 * (one elsewhere is not the run's), remembered with its work tree (a
 * git_index_gitlink_fn; userdata: the sweeper). */
static void gitlink(const char *rel, void *userdata)
{
	struct sweeper *w = userdata;
	_cleanup_free_ char *dir = NULL;
	if (asprintf(&dir, "%s/%s", w->tree ? w->tree : w->s->workspace, rel) < 0)
		return;
	_cleanup_free_ char *gitdir =
	        git_index_gitlink_gitdir(w->tree ? w->tree : w->s->workspace, rel);
	if (gitdir && (path_within(gitdir, w->s->workspace) || in_roots(w->s, gitdir)))
		remember_nested_in(w, gitdir, dir);
}

/* The gitlinks of the workspace's index (its own gitdir, roots[0]), which
 * the user's git status enters, into w's nested list. */
static void find_gitlinks(struct sweeper *w)
{
	const struct git_sweep *s = w->s;
	if (s->n_roots == 0)
		return;
	_cleanup_close_ int fd = open(s->roots[0], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int cfd = s->n_roots > 1
	                  ? open(s->roots[1], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
	                  : -1;
	if (fd >= 0)
		git_index_each_gitlink(fd, git_index_hash_length(cfd >= 0 ? cfd : fd), gitlink, w);
	safe_close(cfd);
}

/* The gitlinks of the index in gitdir, whose work tree is tree (which its
 * git status enters when the user's at the top enters it), into the list
 * (or swept on the way). */
static void follow_gitlinks(struct sweeper *w, const char *gitdir, const char *tree)
{
	_cleanup_close_ int nfd = open(gitdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (nfd < 0)
		return;
	const char *outer = w->tree;
	w->tree = tree;
	git_index_each_gitlink(nfd, git_index_hash_length(nfd), gitlink, w);
	w->tree = outer;
}

/* The gitlinks of the i-th nested repository's own index. */
static void find_nested_gitlinks(struct sweeper *w, size_t i)
{
	if (w->nested_tree[i])
		follow_gitlinks(w, w->nested[i], w->nested_tree[i]);
}

/*
 * A nested repository past the sweep's bounds, which is not swept: set
 * aside, renamed NAME.sluice-unswept beside itself, so that no git finds
 * it, and reported (the user renames it back on purpose). For one a
 * gitlink names, that is the work tree's ".git" (the folder, or the file
 * or link that names the gitdir), the way the user's git enters it; for
 * one inside a gitdir (modules/NAME, worktrees/NAME), the gitdir itself,
 * whose ".git" file then names nothing. A root is swept whole anyway.
 */
static void set_aside(struct sweeper *w, const char *path, const char *tree)
{
	if (!tree && root_index(w->s, path) >= 0)
		return;
	_cleanup_free_ char *copy = strdup(tree ? tree : path);
	char *slash = copy ? strrchr(copy, '/') : NULL;
	if (!slash || slash == copy) {
		git_sweep_fail(w->s, "setting '%s' aside: %s", path, strerror(ENOMEM));
		return;
	}
	const char *name = tree ? ".git" : slash + 1;
	if (!tree)
		*slash = '\0';
	_cleanup_close_ int dfd = open(copy, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int r = dfd < 0 ? -errno : -EEXIST;
	char aside[NAME_MAX + 1];
	for (int i = 0; dfd >= 0 && r == -EEXIST && i < 100; i++) {
		snprintf(aside, sizeof(aside),
		         i ? "%.200s.sluice-unswept.%d" : "%.200s.sluice-unswept", name, i);
		r = renameat2(dfd, name, dfd, aside, RENAME_NOREPLACE) < 0 ? -errno : 0;
	}
	if (r < 0) {
		git_sweep_fail(
		        w->s,
		        "nested repository '%s' past the sweep's bounds: setting it aside: %s",
		        path, strerror(-r));
		return;
	}
	char what[NAME_MAX + 200];
	snprintf(what, sizeof(what),
	         "nested repository past the sweep's bounds, not swept: renamed %s, "
	         "which no git finds",
	         aside);
	git_quarantine_note(w, copy, name, what, NULL);
	w->n_unswept++;
}

/* Whether the gitdir st describes was swept on the way already (or is
 * being swept further up: a .git linked back, a cycle); if not, it is
 * noted as swept. */
static bool swept_on_the_way(struct sweeper *w, const struct stat *st)
{
	for (size_t i = 0; i < w->n_unkept; i++)
		if (w->unkept[i].dev == st->st_dev && w->unkept[i].ino == st->st_ino)
			return true;
	w->unkept[w->n_unkept].dev = st->st_dev;
	w->unkept[w->n_unkept++].ino = st->st_ino;
	return false;
}

/*
 * A nested repository found past the list (gitdir path, its work tree
 * tree or NULL): swept at once, then the gitlinks of its own index in
 * turn, what was under way (a walk's folder, the work tree whose index is
 * being read) kept aside and put back. Only its identity is kept, so that
 * the many .git files that may name one gitdir cost one sweep. Past the
 * bounds on the count and the depth of these sweeps, set aside: never
 * left live.
 */
static void sweep_unkept(struct sweeper *w, const char *path, const char *tree)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return; /* gone, or no repository git would enter */
	if (!w->unkept && !(w->unkept = calloc(SWEEP_UNKEPT_MAX, sizeof(*w->unkept)))) {
		git_sweep_fail(w->s, "out of memory");
		set_aside(w, path, tree);
		return;
	}
	if (w->n_unkept < SWEEP_UNKEPT_MAX && swept_on_the_way(w, &st))
		return;
	if (w->unkept_depth >= SWEEP_UNKEPT_DEPTH_MAX || w->n_unkept >= SWEEP_UNKEPT_MAX) {
		set_aside(w, path, tree);
		return;
	}
	_cleanup_free_ char *gitdir = strdup(path), *wt = tree ? strdup(tree) : NULL;
	_cleanup_free_ char *outer = strdup(w->path);
	if (!gitdir || (tree && !wt) || !outer) {
		git_sweep_fail(w->s, "out of memory");
		set_aside(w, path, tree);
		return;
	}
	dev_t dev = w->dev;
	bool ctime_ok = w->ctime_ok;
	w->unkept_depth++;
	sweep_repository(w, gitdir, !in_roots(w->s, gitdir), root_index(w->s, gitdir));
	if (wt)
		follow_gitlinks(w, gitdir, wt);
	w->unkept_depth--;
	snprintf(w->path, sizeof(w->path), "%s", outer);
	w->dev = dev;
	w->ctime_ok = ctime_ok;
}

static void forget_nested(struct sweeper *w)
{
	free(w->unkept);
	w->unkept = NULL;
	for (size_t i = 0; i < w->n_nested; i++) {
		free(w->nested[i]);
		free(w->nested_tree[i]);
	}
	w->n_nested = 0;
}

/* The common directory the i-th nested repository's commondir names,
 * into the list (follow_commondir()). */
static void find_nested_commondir(struct sweeper *w, size_t i)
{
	_cleanup_close_ int fd =
	        open(w->nested[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	snprintf(w->path, sizeof(w->path), "%s", w->nested[i]);
	follow_commondir(w, fd);
}

int git_sweep_nested_gitdirs(struct git_sweep *s, char ***ret)
{
	struct sweeper w = { .s = s, .qfd = -1 };
	find_gitlinks(&w);
	for (size_t i = 0; i < w.n_nested; i++) {
		find_nested_gitlinks(&w, i);
		find_nested_commondir(&w, i);
	}
	/* a list that is not whole would leave the rest writable */
	int r = w.overflow ? -E2BIG : 0;
	for (size_t i = 0; r >= 0 && i < w.n_nested; i++)
		if (!in_roots(s, w.nested[i]))
			r = strv_extend(ret, w.nested[i]);
	forget_nested(&w);
	return r;
}

int git_sweep_run(struct git_sweep *s, const char *jobs_dir)
{
	uint64_t start = monotonic_us();
	struct sweeper w = { .s = s, .jobs_dir = jobs_dir, .qfd = -1, .sweeping = true };
	s->ran = true;
	for (size_t i = 0; i < s->n_roots; i++) {
		w.root_walk = true;
		int r = sweep_tree(&w, s->roots[i]);
		w.root_walk = false;
		if (r < 0 && r != -ENOENT)
			git_sweep_fail(s, "sweeping '%s': %s", s->roots[i], strerror(-r));
	}
	find_gitlinks(&w);
	for (size_t i = 0; i < s->n_roots; i++)
		sweep_repository(&w, s->roots[i], false, (int)i);
	/* nested repositories found on the way (the list may grow as they
	 * are swept: a submodule's own submodules, and the gitlinks of a
	 * nested repository's own index, which its git status enters when
	 * the user's at the top enters it) */
	for (size_t i = 0; i < w.n_nested; i++) {
		sweep_repository(&w, w.nested[i], !in_roots(s, w.nested[i]),
		                 root_index(s, w.nested[i]));
		find_nested_gitlinks(&w, i);
	}
	forget_nested(&w);
	safe_close(w.qfd);
	if (w.n_unswept > 0)
		git_sweep_fail(
		        s,
		        "%zu nested repositor%s past its bounds (%d listed, %d more, %d deep) "
		        "not swept but set aside (listed above)",
		        w.n_unswept, w.n_unswept == 1 ? "y" : "ies", SWEEP_NESTED_MAX,
		        SWEEP_UNKEPT_MAX, SWEEP_UNKEPT_DEPTH_MAX);
	s->duration_us = monotonic_us() - start;
	if (s->error[0])
		return -EIO;
	return (int)(s->n_found > INT_MAX ? INT_MAX : s->n_found);
}
