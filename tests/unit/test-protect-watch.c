/* SPDX-License-Identifier: MIT */
/*
 * broker/run/protect-watch.c's answer for git's entries: which names in
 * the index or a commit would run later once git writes them to the work
 * tree (a protected path, under a protected folder, on the way to one; an
 * executable named as a system command in a folder on the user's PATH),
 * and the pathspecs that cover them. Table-driven: each row says why.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "strv.h"
#include "run/protect-watch.h"

/* arrays, not pointers: Criterion hands each row to a test process of
 * its own, where a pointer into this one's data would not hold */
struct later_case {
	char path[64];
	unsigned mode;
	bool runs_later;
	char why[80];
};

static struct later_case cases[] = {
	{ "lefthook.yml", 0100644, true, "a protected file" },
	{ "lefthook-local.yml", 0100644, true, "a wildcard entry's match" },
	{ "lefthook.yml", 0120000, true, "a symlink staged at a protected name" },
	{ "sub/lefthook.yml", 0100644, false, "the entry is the top level's" },
	{ ".claude/settings.json", 0100644, true, "under a protected folder" },
	{ ".claude/agents/x.md", 0100644, true, "nested under a protected folder" },
	{ ".claude", 0120000, true, "a symlink where the protected folder lies" },
	{ ".claudex", 0100644, false, "a name that only begins like the folder" },
	{ ".config", 0120000, true, "on the way to .config/lefthook*" },
	{ ".config/lefthook.yml", 0100644, true, "a wildcard entry in a folder" },
	{ ".config/other.toml", 0100644, false, "beside a protected entry" },
	{ "README", 0100644, false, "an ordinary file" },
	{ "src/main.c", 0100755, false, "an ordinary executable" },
	{ "bin/git", 0100755, true, "an executable named as a system command on the PATH" },
	{ "bin/git", 0120000, true, "a symlink named as a system command on the PATH" },
	{ "bin/git", 0100644, false, "not executable: checked out, it does not run" },
	{ "bin/sluice-test-no-such-command", 0100755, false, "a project's own tool" },
	{ "bin/sub/git", 0100755, false, "not in the PATH's folder itself" },
	{ "bin", 0120000, true, "a symlink where the PATH's folder lies" },
	{ "binx/git", 0100755, false, "a folder that only begins like the PATH's" },
};

ParameterizedTestParameters(protect_watch, runs_later)
{
	return cr_make_param_array(struct later_case, cases, sizeof(cases) / sizeof(cases[0]));
}

static void watch_for(struct protect_watch *w, struct run_settings *s)
{
	*s = (struct run_settings){ .sandbox_mode = SANDBOX_MODE_WORKSPACE_WRITE };
	static const char *const protect[] = { "lefthook*", ".claude/", ".config/lefthook*" };
	for (size_t i = 0; i < sizeof(protect) / sizeof(protect[0]); i++)
		s->protect[s->n_protect++] = protect[i];
	*w = (struct protect_watch){ .settings = s };
	cr_assert_eq(strv_extend(&w->path_folders, "bin\t/usr/bin:/bin:"), 0);
}

ParameterizedTest(struct later_case *c, protect_watch, runs_later)
{
	struct run_settings s;
	struct protect_watch w;
	watch_for(&w, &s);
	cr_expect_eq(protect_watch_runs_later(&w, c->path, c->mode), c->runs_later, "%s %o: %s",
	             c->path, c->mode, c->why);
	protect_watch_done(&w);
}

Test(protect_watch, nothing_runs_later_outside_workspace_write)
{
	struct run_settings s;
	struct protect_watch w;
	watch_for(&w, &s);
	s.sandbox_mode = SANDBOX_MODE_RESTRICTED;
	cr_expect(!protect_watch_runs_later(&w, "lefthook.yml", 0100644));
	protect_watch_done(&w);
}

Test(protect_watch, pathspecs_cover_each_entry_once)
{
	struct run_settings s;
	struct protect_watch w;
	watch_for(&w, &s);
	cr_assert_eq(strv_extend(&w.path_folders, "tools/bin\t/usr/bin:"), 0);
	char **specs = NULL;
	cr_assert_eq(protect_watch_pathspecs(&w, &specs), 0);
	const char *want[] = { ":(glob)lefthook*", ":(literal).claude", ":(literal).config",
		               ":(literal)bin", ":(literal)tools" };
	cr_assert_eq(strv_length(specs), sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cr_expect_str_eq(specs[i], want[i]);
	strv_free(specs);
	protect_watch_done(&w);
}
