/* SPDX-License-Identifier: MIT */
/*
 * launcher/git-config.c, git-paths.c and git-trust.c: the two git settings
 * read from config text, and what of a repository the mounts protect (a
 * repository outside trusted only as git-trust.c checks), in a scratch
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

/* The view of text, as if it were /cfg/dir/config (git_config_view_done()
 * frees it). */
static struct git_config_view parse(const char *text)
{
	struct git_config_view v = { .n_hooks_paths = 0 };
	git_config_parse(text, strlen(text), "/cfg/dir/config", &v);
	return v;
}

/* The last core.hooksPath value read, or "" (valid until the next call). */
static const char *hooks_path(const char *text)
{
	static char last[4096];
	struct git_config_view v = parse(text);
	snprintf(last, sizeof(last), "%s",
	         v.n_hooks_paths ? v.hooks_paths[v.n_hooks_paths - 1] : "");
	git_config_view_done(&v);
	return last;
}

Test(git_config, reads_core_hooks_path_in_its_spellings)
{
	cr_assert_str_eq(hooks_path("[core]\n\thooksPath = .husky/_\n"), ".husky/_");
	cr_assert_str_eq(hooks_path("[CORE]\nHOOKSPATH=x"), "x", "names ignore case");
	cr_assert_str_eq(hooks_path("[core] hookspath = \"a b\" # comment\n"), "a b",
	                 "a key on the header's line, quotes, a comment");
	cr_assert_str_eq(hooks_path("[core]\nhooksPath = a\\\"b\\\\c ; x\n"), "a\"b\\c");
	cr_assert_str_eq(hooks_path("[core]\nhooksPath = lo\\\nng\n"), "long",
	                 "a line continuation");
}

Test(git_config, keeps_every_hooks_path_value)
{
	struct git_config_view v = parse("[core]\nhooksPath = one\n[core]\nhooksPath = two\n"
	                                 "[core]\nhooksPath = one\n");
	cr_assert_eq(v.n_hooks_paths, 2, "each value once: which applies may change later");
	cr_assert_str_eq(v.hooks_paths[0], "one");
	cr_assert_str_eq(v.hooks_paths[1], "two");
	git_config_view_done(&v);
	v = parse("[core]\nhooksPath=a\nhooksPath=b\nhooksPath=c\nhooksPath=d\nhooksPath=e\n");
	cr_assert(v.overflow, "more values than fit are not dropped silently");
	git_config_view_done(&v);
}

Test(git_config, ignores_other_sections_and_keys)
{
	cr_assert_str_eq(hooks_path("[core \"x\"]\nhooksPath = a\n"), "", "a subsection");
	cr_assert_str_eq(hooks_path("[core.x]\nhooksPath = a\n"), "", "old subsection");
	cr_assert_str_eq(hooks_path("[alias]\nhooksPath = a\n"), "");
	cr_assert_str_eq(hooks_path("[core]\nhooksPathX = a\n# hooksPath = b\n"), "");
	cr_assert_str_eq(hooks_path("[core]\n\tfsmonitor = \"]\"\n\thooksPath = ok\n"), "ok");
	cr_assert_eq(parse("[other]\npath = x\n[core]\npath = y\n").n_includes, 0);
}

Test(git_config, reads_extensions_worktree_config)
{
	cr_assert(parse("[extensions]\n\tworktreeConfig = true\n").worktree_config);
	cr_assert(parse("[extensions]\nworktreeconfig\n").worktree_config, "a key alone is true");
	cr_assert(!parse("[extensions]\nworktreeConfig = no\n").worktree_config);
	cr_assert(!parse("[core]\nworktreeConfig = yes\n").worktree_config);
	cr_assert(
	        parse("[extensions]\nworktreeConfig = yes\nworktreeConfig = no\n").worktree_config,
	        "once on in any file, its config.worktree is protected");
}

Test(git_config, reads_core_worktree)
{
	cr_assert_str_eq(parse("[core]\n\tworktree = ../../../sub\n").worktree, "../../../sub");
}

Test(git_config, lists_includes_whatever_the_condition)
{
	setenv("HOME", "/home/u", 1);
	struct git_config_view v = parse("[include]\n\tpath = ../.gitconfig.project\n"
	                                 "[includeIf \"gitdir:/elsewhere/\"]\n\tpath = /abs/x\n"
	                                 "[includeIf \"onbranch:evil\"]\n\tpath = ~/y\n"
	                                 "[IncludeIf \"hasconfig:remote.*.url:*\"]\npath = z\n"
	                                 "[include]\npath = /abs/x\n");
	cr_assert_eq(v.n_includes, 4, "each once");
	cr_assert_str_eq(v.includes[0], "/cfg/dir/../.gitconfig.project",
	                 "relative to the including file's folder");
	cr_assert_str_eq(v.includes[1], "/abs/x");
	cr_assert_str_eq(v.includes[2], "/home/u/y", "~/ is HOME");
	cr_assert_str_eq(v.includes[3], "/cfg/dir/z");
	git_config_view_done(&v);
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
	cr_assert_eq(listed(&g, "elsewhere"), GIT_PATH_ABSENT,
	             "the mounts refuse it only in a writable path");
	git_paths_done(&g);
}

/* main/.git with worktrees/wt registered for the worktree scratch/wt. */
static void linked_worktree(void)
{
	make_dir("main");
	make_dir("main/.git");
	make_dir("main/.git/objects");
	make_dir("main/.git/refs");
	make_dir("main/.git/worktrees");
	make_dir("main/.git/worktrees/wt");
	write_file("main/.git/worktrees/wt/commondir", "../..\n");
	char text[600];
	snprintf(text, sizeof(text), "%s/wt/.git\n", scratch);
	write_file("main/.git/worktrees/wt/gitdir", text);
	make_dir("wt");
	snprintf(text, sizeof(text), "gitdir: %s/main/.git/worktrees/wt\n", scratch);
	write_file("wt/.git", text);
}

/* The same, main/.git holding every name the launcher covers. */
static void complete_linked_worktree(void)
{
	linked_worktree();
	write_file("main/.git/config", "");
	write_file("main/.git/commondir", ".\n");
	make_dir("main/.git/hooks");
}

Test(git_paths, a_linked_worktree_protects_its_file_gitdir_and_common_directory)
{
	complete_linked_worktree();
	struct git_paths g;
	find("wt", &g);
	cr_assert_eq(listed(&g, "wt/.git"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git"), GIT_PATH_WRITABLE);
	cr_assert_eq(listed(&g, "main/.git/hooks"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/worktrees"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt"), GIT_PATH_WRITABLE);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt/commondir"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt/gitdir"), GIT_PATH_READ_ONLY);
	cr_assert_str_eq(g.outside_read_only, "");
	git_paths_done(&g);
	/* the main worktree's index and HEAD are not the run's; its own are */
	write_file("main/.git/index", "");
	write_file("main/.git/HEAD", "ref: refs/heads/main\n");
	write_file("main/.git/worktrees/wt/index", "");
	write_file("main/.git/worktrees/wt/HEAD", "ref: refs/heads/wt\n");
	find("wt", &g);
	cr_assert_eq(listed(&g, "main/.git/index"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/HEAD"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt/index"), -1);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt/HEAD"), -1);
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

Test(git_paths, a_repository_s_linked_worktrees_gitdirs_are_writable_their_files_not)
{
	linked_worktree();
	struct git_paths g;
	find("main", &g);
	cr_assert_eq(listed(&g, "main/.git/worktrees"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt"), GIT_PATH_WRITABLE,
	             "git gc updates its HEAD's log");
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt/commondir"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt/gitdir"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt/index"), -1, "none: none made");
	cr_assert(!exists("main/.git/worktrees/wt/index"));
	git_paths_done(&g);
	/* the other worktree's index and HEAD are read-only; the main
	 * worktree's own (the run's) are not listed */
	write_file("main/.git/index", "");
	write_file("main/.git/HEAD", "ref: refs/heads/main\n");
	write_file("main/.git/worktrees/wt/index", "");
	write_file("main/.git/worktrees/wt/HEAD", "ref: refs/heads/wt\n");
	find("main", &g);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt/index"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt/HEAD"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/index"), -1);
	cr_assert_eq(listed(&g, "main/.git/HEAD"), -1);
	git_paths_done(&g);
}

/* Eight linked worktrees (those made writable), each with every name
 * listed, and extensions.worktreeConfig: all fits, with room left. */
Test(git_paths, eight_worktrees_with_every_name_fit)
{
	make_dir("main");
	make_dir("main/.git");
	make_dir("main/.git/worktrees");
	write_file("main/.git/config", "[extensions]\n\tworktreeConfig = true\n");
	write_file("main/.git/index", "");
	write_file("main/.git/HEAD", "ref: refs/heads/main\n");
	for (int i = 0; i < 8; i++) {
		static const char *const names[] = { "commondir", "gitdir", "config.worktree",
			                             "index", "HEAD" };
		char rel[128];
		snprintf(rel, sizeof(rel), "main/.git/worktrees/w%d", i);
		make_dir(rel);
		for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
			snprintf(rel, sizeof(rel), "main/.git/worktrees/w%d/%s", i, names[n]);
			write_file(rel, "x\n");
		}
	}
	struct git_paths g;
	find("main", &g);
	cr_assert_eq(listed(&g, "main/.git/worktrees/w7/index"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "main/.git/worktrees/w7/HEAD"), GIT_PATH_READ_ONLY);
	cr_assert_lt(g.n + 16, GIT_PATHS_MAX, "%zu listed", g.n);
	git_paths_done(&g);
}

/* A common directory inside the workspace, its worktrees' gitdirs too (a
 * bare repository ws/.bare beside its worktrees): from worktree a, b's
 * index and HEAD and the common directory's HEAD are read-only, a's own
 * are not. */
Test(git_paths, from_a_worktree_whose_common_directory_is_inside_the_others_state_is_read_only)
{
	make_dir("ws");
	make_dir("ws/.bare");
	make_dir("ws/.bare/worktrees");
	write_file("ws/.bare/HEAD", "ref: refs/heads/main\n");
	const char *names[] = { "a", "b" };
	for (size_t i = 0; i < 2; i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "ws/.bare/worktrees/%s", names[i]);
		make_dir(rel);
		snprintf(rel, sizeof(rel), "ws/.bare/worktrees/%s/commondir", names[i]);
		write_file(rel, "../..\n");
		snprintf(rel, sizeof(rel), "ws/.bare/worktrees/%s/index", names[i]);
		write_file(rel, "");
		snprintf(rel, sizeof(rel), "ws/.bare/worktrees/%s/HEAD", names[i]);
		write_file(rel, "ref: refs/heads/x\n");
	}
	char text[600];
	snprintf(text, sizeof(text), "gitdir: %s/ws/.bare/worktrees/a\n", scratch);
	write_file("ws/.git", text);
	struct git_paths g;
	find("ws", &g);
	cr_assert_eq(listed(&g, "ws/.bare/worktrees/a"), GIT_PATH_WRITABLE);
	cr_assert_eq(listed(&g, "ws/.bare/worktrees/a/index"), -1);
	cr_assert_eq(listed(&g, "ws/.bare/worktrees/a/HEAD"), -1);
	cr_assert_eq(listed(&g, "ws/.bare/worktrees/b"), GIT_PATH_WRITABLE);
	cr_assert_eq(listed(&g, "ws/.bare/worktrees/b/index"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "ws/.bare/worktrees/b/HEAD"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "ws/.bare/HEAD"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "ws/.bare/index"), -1, "a bare repository has none; none made");
	git_paths_done(&g);
}

Test(git_paths, a_common_directory_outside_including_a_missing_file_keeps_only_its_data_writable)
{
	complete_linked_worktree();
	write_file("main/.git/config", "[include]\n\tpath = config.local\n");
	struct git_paths g;
	find("wt", &g);
	cr_assert(!exists("main/.git/config.local"), "nothing made outside the workspace");
	cr_assert_eq(listed(&g, "main/.git"), -1, "else the command could make config.local");
	cr_assert_eq(listed(&g, "main/.git/objects"), GIT_PATH_WRITABLE);
	git_paths_done(&g);
}

Test(git_paths, a_common_directory_outside_with_names_missing_keeps_only_its_data_writable)
{
	linked_worktree();
	struct git_paths g;
	find("wt", &g);
	cr_assert(!exists("main/.git/commondir") && !exists("main/.git/hooks") &&
	                  !exists("main/.git/config"),
	          "nothing made outside the workspace");
	cr_assert_eq(listed(&g, "main/.git"), -1, "its top level stays read-only");
	cr_assert_eq(listed(&g, "main/.git/objects"), GIT_PATH_WRITABLE);
	cr_assert_eq(listed(&g, "main/.git/refs"), GIT_PATH_WRITABLE);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt"), GIT_PATH_WRITABLE);
	git_paths_done(&g);
}

/* No path listed writable outside scratch/ws. */
static void nothing_writable_outside(const struct git_paths *g)
{
	char ws[512];
	snprintf(ws, sizeof(ws), "%s/ws", scratch);
	for (size_t i = 0; i < g->n; i++)
		if (g->items[i].access == GIT_PATH_WRITABLE)
			cr_assert(strncmp(g->items[i].path, ws, strlen(ws)) == 0, "%s writable",
			          g->items[i].path);
}

Test(git_paths, a_git_file_naming_a_folder_outside_makes_nothing_there_writable)
{
	make_dir("ws");
	make_dir("home");
	write_file("ws/.git", "gitdir: ../home\n");
	struct git_paths g;
	find("ws", &g);
	cr_assert(!g.unsupported);
	nothing_writable_outside(&g);
	cr_assert(!exists("home/config") && !exists("home/hooks") && !exists("home/commondir"),
	          "nothing made outside the workspace");
	cr_assert_eq(listed(&g, "ws/.git"), GIT_PATH_READ_ONLY);
	cr_assert(strstr(g.outside_read_only, "core.worktree"), "why: %s", g.outside_read_only);
	git_paths_done(&g);
}

Test(git_paths, a_worktree_not_registered_both_ways_stays_read_only)
{
	complete_linked_worktree();
	/* its gitdir file names another checkout */
	write_file("main/.git/worktrees/wt/gitdir", "/elsewhere/.git\n");
	struct git_paths g;
	find("wt", &g);
	cr_assert_eq(listed(&g, "main/.git"), -1);
	cr_assert_eq(listed(&g, "main/.git/worktrees/wt"), -1);
	cr_assert(strstr(g.outside_read_only, "/elsewhere/.git"), "why: %s", g.outside_read_only);
	git_paths_done(&g);
	/* its commondir names a folder that does not list it */
	char text[600];
	snprintf(text, sizeof(text), "%s/wt/.git\n", scratch);
	write_file("main/.git/worktrees/wt/gitdir", text);
	write_file("main/.git/worktrees/wt/commondir", "/\n");
	find("wt", &g);
	cr_assert_eq(g.n, 1, "only the .git file");
	cr_assert(strstr(g.outside_read_only, "among its worktrees"), "why: %s",
	          g.outside_read_only);
	git_paths_done(&g);
}

Test(git_paths, a_worktree_in_a_folder_others_can_write_stays_read_only)
{
	complete_linked_worktree();
	char path[512];
	snprintf(path, sizeof(path), "%s/main", scratch);
	cr_assert_eq(chmod(path, 0777), 0);
	struct git_paths g;
	find("wt", &g);
	cr_assert_eq(listed(&g, "main/.git"), -1);
	cr_assert(strstr(g.outside_read_only, "another user"), "why: %s", g.outside_read_only);
	git_paths_done(&g);
}

Test(git_paths, a_submodule_repository_outside_without_a_commondir_stays_read_only)
{
	make_dir("super");
	make_dir("super/.git");
	make_dir("super/.git/modules");
	make_dir("super/.git/modules/ws");
	make_dir("super/.git/modules/ws/hooks");
	write_file("super/.git/modules/ws/config", "[core]\n\tworktree = ../../../ws\n");
	make_dir("super/ws");
	write_file("super/ws/.git", "gitdir: ../.git/modules/ws\n");
	struct git_paths g;
	find("super/ws", &g);
	cr_assert_eq(listed(&g, "super/.git/modules/ws"), -1);
	cr_assert(!exists("super/.git/modules/ws/commondir"), "nothing made outside");
	cr_assert(strstr(g.outside_read_only, "commondir"), "why: %s", g.outside_read_only);
	git_paths_done(&g);
	write_file("super/.git/modules/ws/commondir", ".\n");
	find("super/ws", &g);
	cr_assert_eq(listed(&g, "super/.git/modules/ws"), GIT_PATH_WRITABLE,
	             "registered, and nothing to make: writable (%s)", g.outside_read_only);
	git_paths_done(&g);
}

Test(git_paths, an_empty_commondir_is_replaced_whole)
{
	make_dir("ws");
	make_dir("ws/.git");
	write_file("ws/.git/commondir", "");
	struct git_paths g;
	find("ws", &g);
	char path[600], buf[8] = "";
	snprintf(path, sizeof(path), "%s/ws/.git/commondir", scratch);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_assert_not_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	cr_assert_str_eq(buf, ".\n");
	git_paths_done(&g);
	/* no temporary file left beside it */
	snprintf(path, sizeof(path), "ls -a '%s/ws/.git' | grep -q sluice", scratch);
	cr_assert_neq(system(path), 0);
}

Test(git_paths, included_files_are_protected_and_made_when_missing)
{
	make_dir("ws");
	make_dir("ws/.git");
	write_file("ws/.git/config", "[include]\n\tpath = ../.gitconfig.project\n"
	                             "[includeIf \"onbranch:x\"]\n\tpath = ../conf/local.cfg\n");
	write_file("ws/.gitconfig.project", "[include]\n\tpath = nested.cfg\n");
	struct git_paths g;
	find("ws", &g);
	cr_assert_eq(listed(&g, "ws/.gitconfig.project"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "ws/conf/local.cfg"), GIT_PATH_READ_ONLY, "whatever the condition");
	cr_assert(exists("ws/conf/local.cfg"), "made, so that the command cannot make it");
	cr_assert_eq(listed(&g, "ws/nested.cfg"), GIT_PATH_READ_ONLY,
	             "an include of an include, relative to its own folder");
	git_paths_done(&g);
}

/* A FIFO where a configuration file is read (a command with the repository
 * writable, [sandbox] git_writable, may leave one): read as nothing, never
 * waited on (a blocking open would wait for a writer for ever). */
Test(git_paths, a_fifo_included_is_not_waited_on, .timeout = 10)
{
	make_dir("ws");
	make_dir("ws/.git");
	write_file("ws/.git/config", "[include]\n\tpath = ../fifo.cfg\n");
	char fifo[512];
	snprintf(fifo, sizeof(fifo), "%s/ws/fifo.cfg", scratch);
	cr_assert_eq(mkfifo(fifo, 0644), 0);
	struct git_paths g;
	find("ws", &g);
	cr_assert_eq(listed(&g, "ws/fifo.cfg"), GIT_PATH_READ_ONLY, "kept read-only all the same");
	git_paths_done(&g);
}

Test(git_paths, a_loop_of_includes_ends)
{
	make_dir("ws");
	make_dir("ws/.git");
	write_file("ws/.git/config", "[include]\n\tpath = ../a.cfg\n");
	write_file("ws/a.cfg", "[include]\n\tpath = b.cfg\n");
	write_file("ws/b.cfg", "[include]\n\tpath = a.cfg\n");
	struct git_paths g;
	find("ws", &g);
	cr_assert_eq(listed(&g, "ws/a.cfg"), GIT_PATH_READ_ONLY);
	cr_assert_eq(listed(&g, "ws/b.cfg"), GIT_PATH_READ_ONLY);
	git_paths_done(&g);
}

Test(git_paths, a_missing_include_outside_the_workspace_is_listed_absent)
{
	make_dir("ws");
	make_dir("ws/.git");
	make_dir("elsewhere");
	char text[600];
	snprintf(text, sizeof(text), "[include]\n\tpath = %s/elsewhere/x.cfg\n", scratch);
	write_file("ws/.git/config", text);
	struct git_paths g;
	find("ws", &g);
	cr_assert_eq(listed(&g, "elsewhere/x.cfg"), GIT_PATH_ABSENT);
	cr_assert(!exists("elsewhere/x.cfg"), "nothing made outside the workspace");
	git_paths_done(&g);
}

Test(git_paths, an_include_through_a_symlink_in_the_workspace_is_unsupported)
{
	make_dir("ws");
	make_dir("ws/.git");
	make_dir("ws/real");
	write_file("ws/real/x.cfg", "");
	char link[512];
	snprintf(link, sizeof(link), "%s/ws/conf", scratch);
	cr_assert_eq(symlink("real", link), 0);
	write_file("ws/.git/config", "[include]\n\tpath = ../conf/x.cfg\n");
	struct git_paths g;
	find("ws", &g);
	cr_assert(g.unsupported, "the link could be replaced while the mount covers its target");
	git_paths_done(&g);
	struct sluice_error err = { 0 };
	char ws[512];
	snprintf(ws, sizeof(ws), "%s/ws", scratch);
	cr_assert_eq(git_paths_keep(ws, &g, &err), 0, "%s", err.detail);
	cr_assert_eq(listed(&g, "ws/real/x.cfg"), GIT_PATH_READ_ONLY, "Landlock keeps the target");
	cr_assert_eq(listed(&g, "ws/conf/x.cfg"), GIT_PATH_READ_ONLY, "and the way to it");
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
	cr_assert_eq(g.n, 0, "its target lies outside the workspace");
}

Test(git_paths, a_symlinked_dot_git_into_the_workspace_lists_its_target)
{
	make_dir("ws");
	make_dir("ws/real");
	char link[512];
	snprintf(link, sizeof(link), "%s/ws/.git", scratch);
	cr_assert_eq(symlink("real", link), 0);
	struct git_paths g;
	find("ws", &g);
	cr_assert(g.unsupported);
	cr_assert_eq(listed(&g, "ws/real"), GIT_PATH_READ_ONLY,
	             "read-only as a whole: else writable with the workspace");
	git_paths_done(&g);
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
