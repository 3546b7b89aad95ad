/* SPDX-License-Identifier: MIT */
/*
 * common/path-text.c: containment as the launcher and the broker decide
 * what a run may touch (a near-miss prefix is not inside), and the lexical
 * and canonical forms of a path that may not exist yet.
 * Not for: trust (test-path-trust is admin-locks.sh's).
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "path-text.h"

Test(path_text, within_is_the_folder_or_beneath_it_never_a_longer_name)
{
	cr_assert(path_within("/home/a", "/home/a"));
	cr_assert(path_within("/home/a/b/c", "/home/a"));
	cr_assert(path_within("/home/a/b", "/home/a/"),
	          "a trailing slash on the folder does not count");
	cr_assert_not(path_within("/home/ab", "/home/a"), "a longer name is another folder");
	cr_assert_not(path_within("/home", "/home/a"));
	cr_assert(path_within("/etc/passwd", "/"), "the root holds every absolute path");
	cr_assert(path_within("/", "/"));
	cr_assert(path_within("/x", "//"));
	cr_assert_not(path_within("relative", "/"));
}

Test(path_text, join_and_dots)
{
	_cleanup_free_ char *j = path_join("/a", "b");
	cr_assert_str_eq(j, "/a/b");
	cr_assert(path_has_dots("a/../b"));
	cr_assert(path_has_dots("./b"));
	cr_assert(path_has_dots("a/.."));
	cr_assert_not(path_has_dots("a/..b/.c/b."));
}

Test(path_text, normalize_is_lexical)
{
	const char *cases[][2] = {
		{ "/a/b/../c", "/a/c" },
		{ "/a/./b//c/", "/a/b/c" },
		{ "/../..", "/" },
		{ "/a/b/../../..", "/" },
		{ "/", "/" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		_cleanup_free_ char *n = path_normalize(cases[i][0]);
		cr_assert_str_eq(n, cases[i][1], "%s", cases[i][0]);
	}
}

Test(path_text, canonical_forms_resolve_links_even_for_a_missing_rest)
{
	char dir[] = "/tmp/path-text-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	_cleanup_free_ char *real_dir = realpath(dir, NULL);
	_cleanup_free_ char *target = path_join(real_dir, "target");
	_cleanup_free_ char *link = path_join(dir, "link");
	cr_assert_eq(mkdir(target, 0700), 0);
	cr_assert_eq(symlink(target, link), 0);

	_cleanup_free_ char *missing = path_join(link, "new/file");
	_cleanup_free_ char *canon = path_canonical_missing(missing);
	_cleanup_free_ char *want = path_join(target, "new/file");
	cr_assert_str_eq(canon, want, "the link on the way is followed");
	_cleanup_free_ char *dotted = path_join(link, "new/../x");
	cr_assert_null(path_canonical_missing(dotted), "'..' beneath a missing folder is refused");

	_cleanup_free_ char *from = path_resolve_from(dir, "link");
	cr_assert_str_eq(from, target, "relative text resolves from its base");
	cr_assert_null(path_resolve_from(dir, "nothing-here"));

	cr_assert_eq(rmdir(target), 0);
	cr_assert_eq(unlink(link), 0);
	cr_assert_eq(rmdir(dir), 0);
}
