/* SPDX-License-Identifier: MIT */
/*
 * launcher/dir-names.c: a path stat() finds is never said missing
 * (through symlinks, dots, files taken as folders, unreadable folders and
 * a full set of folders), and the missing ones the listing can tell are
 * said missing, each folder listed once.
 * Not for: what step "mounts" covers with them (sandbox-hide.sh).
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dir-names.h"

static char tree[PATH_MAX];

static void make(const char *rest, int kind)
{
	char p[2 * PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", tree, rest);
	if (kind == 'd') {
		cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s", p);
	} else {
		FILE *f = fopen(p, "w");
		cr_assert_not_null(f, "%s", p);
		fclose(f);
	}
}

static void link_to(const char *target, const char *rest)
{
	char p[2 * PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", tree, rest);
	cr_assert_eq(symlink(target, p), 0);
}

static void make_tree(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(tree, sizeof(tree), "%s/dir-names-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	cr_assert_not_null(mkdtemp(tree));
	make("home", 'd');
	make("home/.netrc", 'f');
	make("home/.config", 'd');
	make("home/.config/gh", 'd');
	make("home/.config/gh/hosts.yml", 'f');
	make("home/.aws-file", 'f');
	link_to("../elsewhere/kube", "home/.kube");   /* dangling */
	link_to(".config/gh", "home/gh-link");        /* to a folder */
	link_to("../home/.netrc", "home/netrc-link"); /* to a file */
	make("elsewhere", 'd');
}

static void remove_tree(void)
{
	char cmd[3 * PATH_MAX];
	snprintf(cmd, sizeof(cmd), "chmod -R u+rwx '%s'; rm -rf '%s'", tree, tree);
	cr_assert_eq(system(cmd), 0);
}

static const char *const rests[] = {
	"home/.netrc",
	"home/.config/gh/hosts.yml",
	"home/.config/gh",
	"home/gh-link/hosts.yml",
	"home/netrc-link",
	"home/.kube/config",
	"home/.kube",
	"home/.aws-file/credentials",
	"home/.aws/credentials",
	"home/.config/gcloud/credentials.db",
	"home/.config/../.netrc",
	"home/./.netrc",
	"home//.netrc",
	"home/.netrc/",
	"nothing/at/all",
	"",
};

static bool found(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Every path: stat() finds it, so it may exist; or it is missing. */
static void check_all(struct dir_names *d, size_t *said_missing)
{
	for (size_t i = 0; i < sizeof(rests) / sizeof(*rests); i++) {
		char p[2 * PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", tree, rests[i]);
		bool maybe = dir_names_may_exist(d, p);
		if (found(p))
			cr_assert(maybe, "'%s' exists but was said missing", p);
		else if (!maybe)
			(*said_missing)++;
	}
}

Test(dir_names, never_misses_what_exists, .init = make_tree, .fini = remove_tree)
{
	struct dir_names d = { 0 };
	size_t missing = 0;
	check_all(&d, &missing);
	/* .kube's target, .aws, .aws-file as a folder, gcloud, nothing */
	cr_assert_geq(missing, 5, "only %zu said missing", missing);
	/* again, from the kept listings */
	size_t again = 0;
	check_all(&d, &again);
	cr_assert_eq(again, missing);
	dir_names_done(&d);
}

Test(dir_names, names_and_dots, .init = make_tree, .fini = remove_tree)
{
	struct dir_names d = { 0 };
	char p[2 * PATH_MAX];
	snprintf(p, sizeof(p), "%s/home/.aws/credentials", tree);
	cr_assert_not(dir_names_may_exist(&d, p), "a name the folder lacks");
	snprintf(p, sizeof(p), "%s/home/.aws-file/credentials", tree);
	cr_assert_not(dir_names_may_exist(&d, p), "beneath a file");
	snprintf(p, sizeof(p), "%s/home/.kube/config", tree);
	cr_assert_not(dir_names_may_exist(&d, p), "beneath a dangling symlink");
	snprintf(p, sizeof(p), "%s/home/../home/.aws", tree);
	cr_assert(dir_names_may_exist(&d, p), "'..' is left to stat()");
	cr_assert(dir_names_may_exist(&d, "relative/path"), "a relative path is left to stat()");
	dir_names_done(&d);
}

/* A folder that cannot be listed says nothing of its names. */
Test(dir_names, unreadable_folder, .init = make_tree, .fini = remove_tree)
{
	char p[2 * PATH_MAX];
	snprintf(p, sizeof(p), "%s/home/.config", tree);
	cr_assert_eq(chmod(p, 0311), 0);
	struct dir_names d = { 0 };
	snprintf(p, sizeof(p), "%s/home/.config/gh/hosts.yml", tree);
	cr_assert(dir_names_may_exist(&d, p));
	snprintf(p, sizeof(p), "%s/home/.config/nothing", tree);
	bool maybe = dir_names_may_exist(&d, p);
	/* as root the folder can be listed all the same */
	if (geteuid() != 0)
		cr_assert(maybe, "a name in an unlistable folder is left to stat()");
	dir_names_done(&d);
}

/* Past its folders, everything may exist: a name a folder lacks is said
 * missing only when the folder could be kept. */
Test(dir_names, full, .init = make_tree, .fini = remove_tree)
{
	char p[2 * PATH_MAX];
	for (int i = 0; i < DIR_NAMES_FOLDERS; i++) {
		snprintf(p, sizeof(p), "d%d", i);
		make(p, 'd');
	}
	make("late", 'd');
	struct dir_names d = { 0 };
	snprintf(p, sizeof(p), "%s/late/x", tree);
	cr_assert_not(dir_names_may_exist(&d, p), "a kept folder lacks the name");
	dir_names_done(&d);
	d = (struct dir_names){ 0 };
	for (int i = 0; i < DIR_NAMES_FOLDERS; i++) {
		snprintf(p, sizeof(p), "%s/d%d/missing", tree, i);
		cr_assert_not(dir_names_may_exist(&d, p) && i < 2, "d%d", i);
	}
	snprintf(p, sizeof(p), "%s/late/x", tree);
	cr_assert(dir_names_may_exist(&d, p), "no room for the folder: maybe");
	dir_names_done(&d);
}
