/* SPDX-License-Identifier: MIT */
/*
 * broker/run/workdir.c: the working directory stays beneath the workspace root:
 * absolute paths, `..` and symbolic links out are refused as outside
 * (-EXDEV); missing directories and files say which.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "scratch.h"
#include "run/workdir.h"

static char root[PATH_MAX];

static void setup(void)
{
	scratch_make(root, sizeof(root), "workdir");
	char p[PATH_MAX + 32];
	snprintf(p, sizeof(p), "%s/sub", root);
	cr_assert_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/sub/deeper", root);
	cr_assert_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/file", root);
	FILE *f = fopen(p, "w");
	cr_assert_not_null(f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/out", root);
	cr_assert_eq(symlink("/", p), 0);
	snprintf(p, sizeof(p), "%s/in", root);
	cr_assert_eq(symlink("sub/deeper", p), 0);
}

static void teardown(void)
{
	scratch_remove(root);
}

TestSuite(workdir, .init = setup, .fini = teardown);

static int resolve(const char *dir, char **path, struct sluice_error *err)
{
	_cleanup_free_ char *r = NULL;
	return workdir_resolve(root, dir, &r, path, err);
}

Test(workdir, the_root_itself)
{
	_cleanup_free_ char *path = NULL;
	cr_assert_eq(resolve(NULL, &path, NULL), 0);
	char real[PATH_MAX];
	cr_assert_not_null(realpath(root, real));
	cr_assert_str_eq(path, real);
}

Test(workdir, a_subdirectory_and_a_link_inside)
{
	_cleanup_free_ char *a = NULL, *b = NULL;
	cr_assert_eq(resolve("sub/deeper", &a, NULL), 0);
	cr_assert_eq(resolve("in", &b, NULL), 0);
	cr_assert_str_eq(a, b, "a link inside the workspace resolves to its target");
}

Test(workdir, refuses_absolute_dotdot_and_links_out)
{
	struct sluice_error err = { 0 };
	_cleanup_free_ char *path = NULL;
	cr_assert_eq(resolve("/etc", &path, &err), -EXDEV);
	cr_assert(strstr(err.detail, "absolute"), "%s", err.detail);
	cr_assert_eq(resolve("sub/../..", &path, &err), -EXDEV);
	cr_assert(strstr(err.detail, ".."), "%s", err.detail);
	cr_assert_eq(resolve("sub/..", &path, &err), -EXDEV, "'..' is refused even inside");
	cr_assert_eq(resolve("out", &path, &err), -EXDEV);
	cr_assert_eq(resolve("out/etc", &path, &err), -EXDEV);
	cr_assert_null(path);
}

Test(workdir, says_which_when_invalid)
{
	struct sluice_error err = { 0 };
	_cleanup_free_ char *path = NULL;
	cr_assert_eq(resolve("missing", &path, &err), -ENOENT);
	cr_assert(strstr(err.detail, "does not exist"), "%s", err.detail);
	cr_assert_eq(resolve("file", &path, &err), -ENOTDIR);
	cr_assert(strstr(err.detail, "not a directory"), "%s", err.detail);
}
