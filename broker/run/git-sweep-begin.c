/* SPDX-License-Identifier: MIT */
/*
 * The start of a git sweep (git-sweep.h), before the command runs: the
 * gitdirs it will look at (the roots), found and checked as git
 * registered them, and their config files as they are then; and its end,
 * what it held freed.
 * Not for: the sweep itself (git-sweep.c).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "path-text.h"
#include "run/git-sweep.h"
#include "run/git-sweep-state.h"

/* Coarse clocks and file systems that keep whole seconds: a directory
 * changed this long before the run's start is looked at too. */
#define SWEEP_MARGIN_S 2

static int add_root(struct git_sweep *s, const char *path)
{
	for (size_t i = 0; i < s->n_roots; i++)
		if (strcmp(s->roots[i], path) == 0)
			return 0;
	if (s->n_roots >= GIT_SWEEP_ROOTS_MAX)
		return 0;
	s->roots[s->n_roots] = strdup(path);
	if (!s->roots[s->n_roots])
		return -ENOMEM;
	s->n_roots++;
	return 0;
}

/* The gitdir a ".git" file names, with its common directory, when git
 * registered them: see git_sweep_begin(). */
static int begin_git_file(struct git_sweep *s, const char *dotgit, const struct stat *dst)
{
	char line[PATH_MAX + 16];
	if (read_first_line_at(AT_FDCWD, dotgit, false, line, sizeof(line)) < 0 ||
	    strncmp(line, "gitdir: ", 8) != 0)
		return 0;
	_cleanup_free_ char *gitdir = path_resolve_from(s->workspace, line + 8);
	struct stat gst;
	if (!gitdir || stat(gitdir, &gst) < 0 || !S_ISDIR(gst.st_mode) || gst.st_uid != dst->st_uid)
		return 0;
	_cleanup_close_ int gfd = open(gitdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (gfd < 0)
		return 0;
	char text[PATH_MAX];
	if (read_first_line_at(gfd, "commondir", false, text, sizeof(text)) < 0) {
		/* no common directory: a submodule's repository, .../modules/NAME */
		return strstr(gitdir, "/modules/") ? add_root(s, gitdir) : 0;
	}
	_cleanup_free_ char *common = path_resolve_from(gitdir, text);
	_cleanup_free_ char *back = NULL, *dotgit_real = realpath(dotgit, NULL);
	struct stat cst;
	if (!common || !dotgit_real || stat(common, &cst) < 0 || cst.st_uid != dst->st_uid ||
	    read_first_line_at(gfd, "gitdir", false, text, sizeof(text)) < 0)
		return 0;
	back = path_resolve_from(gitdir, text);
	if (!back || strcmp(back, dotgit_real) != 0)
		return 0; /* this gitdir is another worktree's */
	const char *name = strrchr(gitdir, '/');
	_cleanup_free_ char *registered = NULL, *wt = NULL;
	if (asprintf(&wt, "%s/worktrees%s", common, name) < 0)
		return -ENOMEM;
	registered = realpath(wt, NULL);
	if (!registered || strcmp(registered, gitdir) != 0)
		return 0; /* the common directory does not know it */
	int r = add_root(s, gitdir);
	return r < 0 ? r : add_root(s, common);
}

const char *const git_sweep_config_files[2] = { "config", "config.worktree" };

/* The roots' config files as they are before the run (config_before):
 * one that is missing, not a regular file or too long stays NULL, and
 * then nothing of it counts as the user's. */
static int read_configs_before(struct git_sweep *s)
{
	for (size_t i = 0; i < s->n_roots; i++) {
		_cleanup_close_ int dfd = open(s->roots[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		for (size_t j = 0; dfd >= 0 && j < ELEMENTSOF(git_sweep_config_files); j++) {
			_cleanup_close_ int fd =
			        openat(dfd, git_sweep_config_files[j],
			               O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
			struct stat st;
			if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
			    st.st_size > SWEEP_TEXT_MAX)
				continue;
			_cleanup_free_ char *text = malloc((size_t)st.st_size + 1);
			if (!text)
				return -ENOMEM;
			ssize_t n = read_full(fd, text, (size_t)st.st_size);
			if (n < 0)
				continue;
			s->config_before[i][j] = TAKE_PTR(text);
			s->config_before_len[i][j] = (size_t)n;
		}
	}
	return 0;
}

static int find_roots(struct git_sweep *s, const char *workspace)
{
	*s = (struct git_sweep){ .n_roots = 0 };
	clock_gettime(CLOCK_REALTIME_COARSE, &s->since);
	s->since.tv_sec -= SWEEP_MARGIN_S;
	s->workspace = strdup(workspace);
	if (!s->workspace)
		return -ENOMEM;
	_cleanup_free_ char *dotgit = NULL;
	if (asprintf(&dotgit, "%s/.git", workspace) < 0)
		return -ENOMEM;
	struct stat st;
	if (lstat(dotgit, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode))
		return add_root(s, dotgit);
	if (S_ISREG(st.st_mode))
		return begin_git_file(s, dotgit, &st);
	return 0;
}

/* The symbolic links in each root's hooks folder, and what each leads to
 * (hook_links). */
static void note_hook_links(struct git_sweep *s)
{
	for (size_t i = 0; i < s->n_roots; i++) {
		_cleanup_close_ int dfd = open(s->roots[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		int hfd = dfd < 0 ? -1
		                  : openat(dfd, "hooks",
		                           O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *d = hfd < 0 ? NULL : fdopendir(hfd);
		if (!d) {
			safe_close(hfd);
			continue;
		}
		struct dirent *de;
		while ((de = readdir(d)) != NULL && s->n_hook_links < GIT_SWEEP_HOOK_LINKS_MAX) {
			struct stat st, target;
			if ((de->d_type != DT_LNK && de->d_type != DT_UNKNOWN) ||
			    fstatat(hfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			    !S_ISLNK(st.st_mode))
				continue;
			bool exists = fstatat(hfd, de->d_name, &target, 0) == 0;
			s->hook_links[s->n_hook_links++] = (struct git_sweep_hook_link){
				.dev = st.st_dev,
				.ino = st.st_ino,
				.target_exists = exists,
				.target_dev = exists ? target.st_dev : 0,
				.target_ino = exists ? target.st_ino : 0,
			};
		}
		(void)closedir(d);
	}
}

int git_sweep_begin(struct git_sweep *s, const char *workspace)
{
	int r = find_roots(s, workspace);
	if (r >= 0)
		note_hook_links(s);
	return r < 0 ? r : read_configs_before(s);
}

void git_sweep_done(struct git_sweep *s)
{
	free(s->workspace);
	for (size_t i = 0; i < s->n_roots; i++) {
		free(s->roots[i]);
		free(s->config_before[i][0]);
		free(s->config_before[i][1]);
	}
	for (size_t i = 0; i < s->n_items; i++) {
		free(s->items[i].path);
		free(s->items[i].what);
		free(s->items[i].kept);
	}
	free(s->quarantine);
	*s = (struct git_sweep){ .n_roots = 0 };
}
