/* SPDX-License-Identifier: MIT */
/*
 * launcher/git-config.c and git-paths.c: the two git settings read from
 * config text, and what of a repository the mounts protect, in a scratch
 * repository made here (no git needed).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git-config.h"
#include "git-paths.h"

static struct git_config_view parse(const char *text)
{
	struct git_config_view v = { .hooks_path = "" };
	git_config_parse(text, strlen(text), &v);
	return v;
}

Test(git_config, reads_core_hooks_path_in_its_spellings)
{
	cr_assert_str_eq(parse("[core]\n\thooksPath = .husky/_\n").hooks_path, ".husky/_");
	cr_assert_str_eq(parse("[CORE]\nHOOKSPATH=x").hooks_path, "x", "names ignore case");
	cr_assert_str_eq(parse("[core] hookspath = \"a b\" # comment\n").hooks_path, "a b",
	                 "a key on the header's line, quotes, a comment");
	cr_assert_str_eq(parse("[core]\nhooksPath = a\\\"b\\\\c ; x\n").hooks_path, "a\"b\\c");
	cr_assert_str_eq(parse("[core]\nhooksPath = one\n[core]\nhooksPath = two\n").hooks_path,
	                 "two", "the last one counts");
	cr_assert_str_eq(parse("[core]\nhooksPath = lo\\\nng\n").hooks_path, "long",
	                 "a line continuation");
}

Test(git_config, ignores_other_sections_and_keys)
{
	cr_assert_str_eq(parse("[core \"x\"]\nhooksPath = a\n").hooks_path, "", "a subsection");
	cr_assert_str_eq(parse("[core.x]\nhooksPath = a\n").hooks_path, "", "old subsection");
	cr_assert_str_eq(parse("[alias]\nhooksPath = a\n").hooks_path, "");
	cr_assert_str_eq(parse("[core]\nhooksPathX = a\n# hooksPath = b\n").hooks_path, "");
	cr_assert_str_eq(parse("[core]\n\tfsmonitor = \"]\"\n\thooksPath = ok\n").hooks_path, "ok");
}

Test(git_config, reads_extensions_worktree_config)
{
	cr_assert(parse("[extensions]\n\tworktreeConfig = true\n").worktree_config);
	cr_assert(parse("[extensions]\nworktreeconfig\n").worktree_config, "a key alone is true");
	cr_assert(!parse("[extensions]\nworktreeConfig = no\n").worktree_config);
	cr_assert(!parse("[core]\nworktreeConfig = yes\n").worktree_config);
}

static char scratch[256];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void setup(void)
{
	snprintf(scratch, sizeof(scratch), "%s/git-paths-XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	cr_assert_not_null(mkdtemp(scratch));
	char *real = realpath(scratch, NULL);
	snprintf(scratch, sizeof(scratch), "%s", real);
	free(real);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
}

static void teardown(void)
{
	nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static void make_dir(const char *rel)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
}

/* The access listed for scratch/rel, or -1 when it is not listed. */
static int listed(const struct git_paths *g, const char *rel)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	for (size_t i = 0; i < g->n; i++)
		if (strcmp(g->items[i].path, path) == 0)
			return (int)g->items[i].access;
	return -1;
}

static bool exists(const char *rel)
{
	char path[512];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	return lstat(path, &st) == 0;
}

/* git_paths_find() on the workspace scratch/rel; fails the test on error. */
static void find(const char *rel, struct git_paths *g)
{
	char ws[512];
	snprintf(ws, sizeof(ws), "%s/%s", scratch, rel);
	struct sluice_error err = { 0 };
	cr_assert_eq(git_paths_find(ws, g, &err), 0, "%s", err.detail);
}

TestSuite(git_paths, .init = setup, .fini = teardown);

Test(git_paths, a_repository_without_hooks_gets_them_made_and_read_only)
{
	make_dir("ws");
	make_dir("ws/.git");
	make_dir("ws/.git/worktrees");
	write_file("ws/.git/HEAD", "ref: refs/heads/main\n");
	struct git_paths g;
	find("ws", &g);
	cr_assert(!g.unsupported);
	cr_assert_eq(listed(&g, "ws/.git"), GIT_PATH_WRITABLE);
	cr_assert_eq(listed(&g, "ws/.git/config"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "ws/.git/hooks"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "ws/.git/commondir"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "ws/.git/worktrees"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "ws/.git/modules"), -1, "not there, not listed");
	cr_assert(exists("ws/.git/hooks") && exists("ws/.git/config"), "made when missing");
	char path[600], buf[8] = "";
	snprintf(path, sizeof(path), "%s/ws/.git/commondir", scratch);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_assert_not_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	cr_assert_str_eq(buf, ".\n", "commondir says: this repository is its own");
	git_paths_done(&g);
}

Test(git_paths, a_hooks_path_inside_the_workspace_is_made_and_listed)
{
	make_dir("ws");
	make_dir("ws/.git");
	write_file("ws/.git/config",
	           "[core]\n\thooksPath = .husky/_\n[extensions]\nworktreeConfig\n");
	struct git_paths g;
	find("ws", &g);
	cr_assert_eq(listed(&g, "ws/.husky/_"), GIT_PATH_READ_ONLY);
	cr_assert(exists("ws/.husky/_"));
	cr_assert_eq(listed(&g, "ws/.git/config.worktree"), GIT_PATH_READ_ONLY,
	             "made when the extension is on");
	git_paths_done(&g);
}

Test(git_paths, a_hooks_path_outside_the_workspace_is_left_alone)
{
	make_dir("ws");
	make_dir("ws/.git");
	write_file("ws/.git/config", "[core]\n\thooksPath = ../elsewhere\n");
	struct git_paths g;
	find("ws", &g);
	cr_assert(!exists("elsewhere"), "nothing made outside the workspace");
	cr_assert_eq(listed(&g, "elsewhere"), -1);
	git_paths_done(&g);
}

Test(git_paths, a_linked_worktree_protects_its_file_gitdir_and_common_directory)
{
	make_dir("main");
	make_dir("main/.git");
	make_dir("main/.git/worktrees");
	make_dir("main/.git/worktrees/wt");
	write_file("main/.git/worktrees/wt/commondir", "../..\n");
	make_dir("wt");
	char text[600];
	snprintf(text, sizeof(text), "gitdir: %s/main/.git/worktrees/wt\n", scratch);
	write_file("wt/.git", text);
	struct git_paths g;
	find("wt", &g);
	cr_assert_eq(listed(&g, "wt/.git"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git"), GIT_PATH_WRITABLE);
	cr_assert_eq(listed(&g, "main/.git/hooks"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/worktrees"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt"), GIT_PATH_WRITABLE);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt/commondir"), GIT_PATH_READ_ONLY);
	/* the worktree's gitdir comes after the common directory's worktrees/,
	 * so that it is mounted on top of it */
	size_t common = 0, own = 0;
	for (size_t i = 0; i < g.n; i++) {
		if (strstr(g.items[i].path, "/main/.git/worktrees") &&
		    !strstr(g.items[i].path, "/wt"))
			common = i;
		if (strstr(g.items[i].path, "/worktrees/wt") &&
		    !strstr(g.items[i].path, "commondir"))
			own = i;
	}
	cr_assert_lt(common, own);
	git_paths_done(&g);
}

Test(git_paths, a_symlinked_dot_git_is_unsupported)
{
	make_dir("ws");
	make_dir("real");
	char link[512], target[512];
	snprintf(link, sizeof(link), "%s/ws/.git", scratch);
	snprintf(target, sizeof(target), "%s/real", scratch);
	cr_assert_eq(symlink(target, link), 0);
	struct git_paths g;
	find("ws", &g);
	cr_assert(g.unsupported);
	cr_assert_eq(g.n, 0);
}

Test(git_paths, no_dot_git_gives_nothing)
{
	make_dir("ws");
	struct git_paths g;
	find("ws", &g);
	cr_assert(!g.unsupported);
	cr_assert_eq(g.n, 0);
	cr_assert(!exists("ws/.git"), "nothing made");
}
