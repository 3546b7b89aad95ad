/* SPDX-License-Identifier: MIT */
/*
 * What git restores later, in the nested repositories (git-later-nested.h):
 * the folders on the way to a name that runs later, their .git (a folder,
 * or a file naming the gitdir, as git itself finds it from the user's
 * `git -C tools ...`) read before the run with a few stat(2)s and HEAD;
 * after it, git-later.c's check of the index and branch, run in each with
 * its work tree and gitdir, its paths asked about from the workspace's top.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "strv.h"
#include "run/git-index.h"
#include "run/git-later-diff.h"
#include "run/git-later-nested.h"
#include "run/git-later-refs.h"
#include "run/git-sweep-state.h"
#include "run/protect-watch.h"

/* Each folder on the way to path[0..len) ("a", "a/b"), relative to the
 * workspace, added to *folders once; none through "." or "..". */
static int add_folders(char ***folders, const char *path, size_t len)
{
	for (size_t i = 1; i <= len; i++) {
		if (i < len && path[i] != '/')
			continue;
		const char *last = path + i - 1;
		while (last > path && last[-1] != '/')
			last--;
		size_t n = (size_t)(path + i - last);
		if (n == 0 || (n == 1 && last[0] == '.') || (n == 2 && strncmp(last, "..", 2) == 0))
			return 0;
		char *f = strndup(path, i);
		if (!f)
			return -ENOMEM;
		if (git_later_listed(*folders, f)) {
			free(f);
			continue;
		}
		if (strv_consume(folders, f) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The folders a nested repository's work tree can be at and hold a name
 * that runs later: those on the way to each protected entry's folder (and
 * the entry's own folder, for "NAME/") and to each PATH folder. */
static int candidate_folders(const struct protect_watch *w, char ***folders)
{
	const struct run_settings *s = w->settings;
	for (size_t i = 0; s && i < s->n_protect; i++) {
		const char *e = s->protect[i], *last = strrchr(e, '/');
		int r = last && last > e ? add_folders(folders, e, (size_t)(last - e)) : 0;
		if (r < 0)
			return r;
	}
	STRV_FOREACH (line, w->path_folders) {
		int r = add_folders(folders, *line, strcspn(*line, "\t"));
		if (r < 0)
			return r;
	}
	return 0;
}

/* The first line of the file at path (a .git file, a commondir), into
 * *ret; NULL where there is none. */
static int read_line(const char *path, char **ret)
{
	*ret = NULL;
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? 0 : neg_errno();
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	int r = git_later_read_small(fd, 4096, &st, &text, &len);
	if (r < 0)
		return r == -EINVAL || r == -E2BIG ? 0 : r;
	/* as git reads it: trailing newlines and carriage returns cut */
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		text[--len] = '\0';
	*ret = text;
	return 0;
}

/* A path relative to base (or absolute) resolved; NULL where it is none. */
static int resolve(const char *base, const char *path, char **ret)
{
	_cleanup_free_ char *joined = NULL;
	if (path[0] != '/' && asprintf(&joined, "%s/%s", base, path) < 0)
		return -ENOMEM;
	*ret = realpath(joined ? joined : path, NULL);
	return !*ret && errno == ENOMEM ? -ENOMEM : 0;
}

/* The repository git finds at folder (its .git: a folder, or a file
 * "gitdir: PATH"): its gitdir and common directory, resolved, or NULL
 * each where git finds none. */
static int find_repository(const char *folder, char **gitdir, char **common)
{
	*gitdir = *common = NULL;
	_cleanup_free_ char *dotgit = NULL, *line = NULL, *cpath = NULL, *cline = NULL;
	if (asprintf(&dotgit, "%s/.git", folder) < 0)
		return -ENOMEM;
	struct stat st;
	if (stat(dotgit, &st) < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? 0 : neg_errno();
	int r = 0;
	if (S_ISDIR(st.st_mode))
		r = resolve(folder, ".git", gitdir);
	else if (S_ISREG(st.st_mode)) {
		r = read_line(dotgit, &line);
		if (r == 0 && line && strncmp(line, "gitdir: ", 8) == 0)
			r = resolve(folder, line + 8, gitdir);
	}
	if (r < 0 || !*gitdir)
		return r;
	if (asprintf(&cpath, "%s/commondir", *gitdir) < 0)
		return -ENOMEM;
	r = read_line(cpath, &cline);
	if (r == 0)
		r = cline ? resolve(*gitdir, cline, common) : resolve(*gitdir, ".", common);
	if (r == 0 && !*common) {
		/* a commondir git cannot follow: no repository git uses */
		free(*gitdir);
		*gitdir = NULL;
	}
	return r;
}

/* n's HEAD and the files whose change means its index or branch changed,
 * as they are now; false where HEAD cannot be read. */
static bool read_state(struct git_later *n)
{
	_cleanup_close_ int gfd = -1, cfd = -1;
	n->head = (struct git_later_head){ .ok = false };
	if (git_later_open_dirs(n, &gfd, &cfd) < 0 ||
	    git_later_read_head(n, gfd, cfd, &n->head) < 0)
		return false;
	if (n->hex_len == 0)
		n->hex_len = git_index_hash_length(cfd) * 2;
	git_later_take_stats(gfd, cfd, n->before, n->head.ref);
	return n->head.ok;
}

int git_later_nested_begin(struct git_later *g, const struct protect_watch *w)
{
	if (!g->active || !w->settings)
		return 0;
	_cleanup_strv_free_ char **folders = NULL;
	int r = candidate_folders(w, &folders);
	size_t n = strv_length(folders), found = 0;
	if (r < 0 || n == 0)
		return r;
	g->nested = calloc(n, sizeof(*g->nested));
	if (!g->nested)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct git_later *e = &g->nested[g->n_nested++];
		_cleanup_free_ char *folder = NULL, *gitdir = NULL, *common = NULL;
		if (asprintf(&folder, "%s/%s", g->workspace, folders[i]) < 0)
			return -ENOMEM;
		r = find_repository(folder, &gitdir, &common);
		if (r < 0)
			return r;
		if (gitdir) {
			/* the top's check, begun in it: its HEAD, the stats, its
			 * refs, stash, pointers and history as they are */
			struct git_sweep at = { .workspace = folder,
				                .roots = { gitdir, common },
				                .n_roots = strcmp(gitdir, common) != 0 ? 2 : 1 };
			r = git_later_begin(e, &at, w->settings);
			if (r < 0)
				return r;
		} else {
			e->workspace = TAKE_PTR(folder);
		}
		e->prefix = strdup(folders[i]);
		if (!e->prefix || !e->workspace)
			return -ENOMEM;
		if (gitdir && ++found >= GIT_LATER_NESTED_MAX && i + 1 < n) {
			/* the folders past the bound not looked at: said after the run */
			g->nested_over = true;
			break;
		}
	}
	return 0;
}

/* Whether n's index, HEAD, packed-refs or branch changed since the run
 * began. */
static bool changed(struct git_later *n)
{
	struct git_later_stat after[GIT_LATER_FILES];
	_cleanup_close_ int gfd = -1, cfd = -1;
	(void)git_later_open_dirs(n, &gfd, &cfd); /* one that cannot be opened: a change */
	git_later_take_stats(gfd, cfd, after, n->head.ref);
	for (int i = 0; i < GIT_LATER_FILES; i++)
		if (!git_later_same_stat(&n->before[i], &after[i]))
			return true;
	return false;
}

/* Whether path lies in folder (or is it). */
static bool inside(const char *path, const char *folder)
{
	size_t n = strlen(folder);
	return strncmp(path, folder, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* Whether gitdir was made after the run began (its birth time; unknown:
 * taken as made by the run, whose undoing is reported and held). */
static bool made_in_run(const struct git_later *g, const char *gitdir)
{
	struct statx stx;
	if (statx(AT_FDCWD, gitdir, 0, STATX_BTIME, &stx) < 0 || !(stx.stx_mask & STATX_BTIME))
		return true;
	/* file times are the coarse clock's, as started is: one born before
	 * the run is at most equal to it, and the command starts later */
	return stx.stx_btime.tv_sec > g->started.tv_sec ||
	       (stx.stx_btime.tv_sec == g->started.tv_sec &&
	        stx.stx_btime.tv_nsec > (uint32_t)g->started.tv_nsec);
}

/* The repository the run made at n's folder, which planted: its ".git"
 * (the folder, or the file naming the gitdir: the way the user's git
 * enters it) renamed .git.sluice-blocked, which no git finds; reported. */
static void set_aside(struct git_later *n, struct git_sweep *s)
{
	_cleanup_close_ int dfd =
	        open(n->workspace, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	char aside[NAME_MAX + 1];
	int r = dfd < 0 ? neg_errno() : protect_watch_set_aside(dfd, ".git", aside, sizeof(aside));
	_cleanup_free_ char *path = NULL, *what = NULL;
	if (r < 0) {
		git_sweep_fail(s,
		               "the check of what git would restore later: the repository the run "
		               "made at %s could not be set aside: %s; look before git -C %s "
		               "reset --hard",
		               n->prefix, strerror(-r), n->prefix);
		return;
	}
	if (asprintf(&path, "%s/.git", n->workspace) < 0 ||
	    asprintf(&what,
	             "a repository the command made, on the way to names that run later: "
	             "renamed %s, which no git finds (its reflog, ORIG_HEAD and stash are the "
	             "command's; its gitdir %s)",
	             aside, n->gitdir) < 0)
		return;
	git_sweep_note_item(s, path, what, NULL);
}

/* The repository at n's folder, which the run made (or pointed the folder
 * at): none of it was there before the run, so whatever its index and
 * branch hold at a name that runs later counts, against the empty tree.
 * One the folder now names that was there before the run (the top's, one
 * outside the workspace) is not the run's to undo: said. */
static int made_by_run(struct git_later *g, struct git_later *n, const struct protect_watch *w,
                       struct git_sweep *s, char **all, char *gitdir, char *common)
{
	bool ours = (inside(gitdir, g->workspace) || inside(gitdir, g->common)) &&
	            strcmp(gitdir, g->gitdir) != 0 && strcmp(common, g->common) != 0 &&
	            made_in_run(g, gitdir);
	free(n->gitdir);
	free(n->common);
	n->gitdir = gitdir;
	n->common = common;
	if (!ours) {
		git_sweep_fail(s,
		               "the check of what git would restore later: the run pointed %s/.git "
		               "at %s, a repository that was there before it: not checked; look "
		               "at its index and HEAD before git -C %s reset --hard",
		               n->prefix, gitdir, n->prefix);
		return -EPERM;
	}
	n->hex_len = 0;
	if (!read_state(n)) {
		git_sweep_fail(s,
		               "the check of what git would restore later: the repository the run "
		               "made at %s: HEAD could not be read; look at its index and branch "
		               "before git -C %s reset --hard",
		               n->prefix, n->prefix);
		return -EIO;
	}
	if (!n->head.ref[0]) {
		/* a detached HEAD has no unborn state to go back to */
		_cleanup_free_ char *names = NULL;
		int r = git_later_commit_plants(n, s, w, NULL, n->head.id, all, &names);
		if (r < 0 || names) {
			git_sweep_fail(
			        s,
			        "the check of what git would restore later: the repository "
			        "the run made at %s has HEAD detached at a commit that puts "
			        "content at names that run later (%s); look before git -C %s "
			        "reset --hard",
			        n->prefix, names ? names : "git could not tell", n->prefix);
			return -EIO;
		}
	}
	/* the branch, as if unborn before the run */
	n->head.id[0] = '\0';
	int r = git_later_index_and_branch(n, w, s, all);
	/* its reflog, ORIG_HEAD and stash are the run's too, and still name
	 * what it planted: no git is to find it from the folder */
	if (r > 0)
		set_aside(n, s);
	return r;
}

/* One nested folder's repository after the run (see git-later-nested.h). */
static int check_one(struct git_later *g, struct git_later *n, const struct protect_watch *w,
                     struct git_sweep *s, char **all)
{
	char *gitdir = NULL, *common = NULL;
	int r = find_repository(n->workspace, &gitdir, &common);
	if (r < 0 || !gitdir) {
		free(gitdir);
		free(common);
		if (r < 0)
			git_sweep_fail(
			        s,
			        "the check of what git would restore later: the repository at "
			        "%s could not be looked at: %s",
			        n->prefix, strerror(-r));
		return r;
	}
	if (!n->gitdir || strcmp(gitdir, n->gitdir) != 0 || strcmp(common, n->common) != 0)
		return made_by_run(g, n, w, s, all, gitdir, common);
	free(gitdir);
	free(common);
	if (n->active)
		return git_later_end(n, w, s);
	if (!changed(n))
		return 0;
	git_sweep_fail(s,
	               "the check of what git would restore later: the index or HEAD of "
	               "the repository at %s changed, and its HEAD before the run could not "
	               "be read; look before git -C %s reset --hard",
	               n->prefix, n->prefix);
	return -EIO;
}

int git_later_nested_end(struct git_later *g, const struct protect_watch *w, struct git_sweep *s)
{
	if (g->n_nested == 0 && !g->nested_over)
		return 0;
	/* no pathspec: every path of a nested repository, each asked about
	 * from the top (a glob's "*" would stop at a "/") */
	char *all[] = { NULL };
	int found = 0, failed = 0;
	size_t checked = 0;
	for (size_t i = 0; i < g->n_nested; i++) {
		struct git_later *n = &g->nested[i];
		if (checked >= GIT_LATER_NESTED_MAX) {
			/* one more repository (the run's) past the bound: said */
			_cleanup_free_ char *gitdir = NULL, *common = NULL;
			if (find_repository(n->workspace, &gitdir, &common) != 0 || gitdir)
				g->nested_over = true;
			continue;
		}
		int r = check_one(g, n, w, s, all);
		checked += n->gitdir != NULL;
		found += r > 0 ? r : 0;
		failed = r < 0 ? r : failed;
		g->gits += n->gits;
		n->gits = 0;
	}
	if (g->nested_over)
		git_sweep_fail(s,
		               "the check of what git would restore later: the nested repositories "
		               "on the way to names that run later could not all be checked (more "
		               "than %d, or no memory); look at their index and HEAD before git "
		               "reset --hard in them",
		               GIT_LATER_NESTED_MAX);
	return failed < 0 ? failed : found;
}

void git_later_nested_done(struct git_later *g)
{
	for (size_t i = 0; i < g->n_nested; i++)
		git_later_done(&g->nested[i]);
	free(g->nested);
	g->nested = NULL;
	g->n_nested = 0;
}
