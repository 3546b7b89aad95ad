/* SPDX-License-Identifier: MIT */
/*
 * launcher/canonical-memo.c: the memo gives what realpath() gives for a
 * path that exists and path_canonical_missing() for one that does not,
 * through symlinks, files taken as folders, dots and missing folders, and
 * again when the prefixes come from the memo.
 * Not for: what the Landlock step does with them (sandbox-hide.sh).
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "canonical-memo.h"
#include "cleanup.h"
#include "path-text.h"

static char tree[PATH_MAX];

static void make_tree(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(tree, sizeof(tree), "%s/canonical-memo-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	cr_assert_not_null(mkdtemp(tree));
	char p[2 * PATH_MAX];
	snprintf(p, sizeof(p), "%s/a", tree);
	cr_assert_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/a/f", tree);
	FILE *f = fopen(p, "w");
	cr_assert_not_null(f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/link", tree);
	cr_assert_eq(symlink("a", p), 0);
	snprintf(p, sizeof(p), "%s/dangling", tree);
	cr_assert_eq(symlink("nowhere/x", p), 0);
	snprintf(p, sizeof(p), "%s/a/up", tree);
	cr_assert_eq(symlink(tree, p), 0);
}

static void remove_tree(void)
{
	char cmd[2 * PATH_MAX];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	cr_assert_eq(system(cmd), 0);
}

/* What the memo stands in for. */
static char *oracle(const char *path, bool *exists)
{
	char *c = realpath(path, NULL);
	*exists = c != NULL;
	return c ? c : path_canonical_missing(path);
}

static const char *const rests[] = {
	"",
	"/a",
	"/a/f",
	"/a/f/x",
	"/missing",
	"/missing/x/y",
	"/link",
	"/link/f",
	"/link/missing/z",
	"/dangling",
	"/dangling/x",
	"/a/up/a/f",
	"/a/../a/f",
	"/a//f",
	"/a/",
	"/missing/../a",
	"/a/f/..",
	"/a/missing/.",
	"/a/.hidden",
	"/a/f.",
};

static void check_all(struct canonical_memo *memo, bool backwards)
{
	size_t n = sizeof(rests) / sizeof(rests[0]);
	for (size_t k = 0; k < n; k++) {
		const char *rest = rests[backwards ? n - 1 - k : k];
		char path[2 * PATH_MAX];
		snprintf(path, sizeof(path), "%s%s", tree, rest);
		bool want_exists = false, got_exists = true;
		_cleanup_free_ char *want = oracle(path, &want_exists);
		_cleanup_free_ char *got = canonical_memo_resolve(memo, path, &got_exists);
		if (!want) {
			cr_assert_null(got, "%s: nothing, as path_canonical_missing() says", rest);
			continue;
		}
		cr_assert_not_null(got, "%s", rest);
		cr_assert_str_eq(got, want, "%s", rest);
		cr_assert_eq(got_exists, want_exists, "%s: exists", rest);
	}
}

Test(canonical_memo, agrees_with_realpath_and_the_missing_form, .init = make_tree,
     .fini = remove_tree)
{
	struct canonical_memo memo = { .n = 0 };
	check_all(&memo, false);
	cr_assert_gt(memo.n, 0, "prefixes are kept");
	check_all(&memo, false); /* from the memo */
	canonical_memo_done(&memo);
	check_all(&memo, true); /* in the other order: other prefixes first */
	canonical_memo_done(&memo);
}

Test(canonical_memo, the_root_and_relative_paths)
{
	struct canonical_memo memo = { .n = 0 };
	bool exists = false;
	_cleanup_free_ char *root = canonical_memo_resolve(&memo, "/", &exists);
	cr_assert_str_eq(root, "/");
	cr_assert(exists);
	_cleanup_free_ char *want = realpath(".", NULL);
	_cleanup_free_ char *dot = canonical_memo_resolve(&memo, ".", &exists);
	cr_assert_str_eq(dot, want, "a relative path is realpath()'s");
	canonical_memo_done(&memo);
}

Test(canonical_memo, a_full_memo_still_resolves, .init = make_tree, .fini = remove_tree)
{
	struct canonical_memo memo = { .n = 0 };
	for (int i = 0; i < CANONICAL_MEMO_SLOTS; i++) {
		char path[2 * PATH_MAX];
		snprintf(path, sizeof(path), "%s/missing-%d/x", tree, i);
		bool exists = true, want_exists = true;
		_cleanup_free_ char *got = canonical_memo_resolve(&memo, path, &exists);
		_cleanup_free_ char *want = oracle(path, &want_exists);
		cr_assert_str_eq(got, want, "%s", path);
		cr_assert_not(exists);
	}
	cr_assert_leq(memo.n, CANONICAL_MEMO_SLOTS / 2, "never more than half full");
	check_all(&memo, false);
	canonical_memo_done(&memo);
}
