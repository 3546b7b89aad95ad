/* SPDX-License-Identifier: MIT */
/*
 * git_discard: refuse the git commands that throw away work git cannot
 * bring back, under any global options, wrappers and nesting, one rule
 * each (its key is deny, ask or allow):
 *   reset     git reset --hard / --merge (uncommitted changes)       deny
 *   clean     git clean -f of the whole tree (untracked files)       deny
 *   checkout  git checkout/restore of every path, checkout -f,
 *             switch -f / --discard-changes (uncommitted changes)    deny
 *   rm        git rm of every path, without --cached                 deny
 *   worktree  git worktree remove --force, submodule deinit / update
 *             --force (their uncommitted changes)                    deny
 *   directory git checkout/restore of a directory (written "dir/",
 *             or one where sluice runs): its uncommitted changes     ask
 *   stash     git stash drop / clear (saved changes)                 ask
 *   branch    git branch -D (commits merged nowhere)                 ask
 *   ref       git tag -d, update-ref -d / --stdin, symbolic-ref -d   ask
 *   history   git filter-branch, git filter-repo (every commit)      ask
 *   reflog    git reflog expire now / delete, gc --prune=now, prune  ask
 * A rule denies where a spelling that keeps the work gets the same result
 * (stash first, reset --keep, clean -n then rm by name), and asks where
 * losing the work is the point and a person must say so.
 * Harmless forms pass: reset --soft / --mixed / --keep, clean -n / -X /
 * of a named directory, checkout or restore of named files, restore
 * --staged, rm --cached, stash list / pop, branch -d, filter-repo
 * --analyze. Options are read as git reads them: the value of an option
 * that takes one is never read as options ("clean -f -e -n" removes).
 * Not known here: whether the directory has uncommitted changes (the
 * command asks whenever it names one).
 * Not for: pushes (git_push), adds (git_add).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "git-pathspec.h"
#include "plugin-util.h"
#include "sluice/policy.h"

/* The rules an administrator can switch (deny, ask, or allow: off). */
#define DISCARD_RULES(X)                      \
	X(RESET, "reset", SLUICE_DENY)        \
	X(CLEAN, "clean", SLUICE_DENY)        \
	X(CHECKOUT, "checkout", SLUICE_DENY)  \
	X(RM, "rm", SLUICE_DENY)              \
	X(WORKTREE, "worktree", SLUICE_DENY)  \
	X(DIRECTORY, "directory", SLUICE_ASK) \
	X(STASH, "stash", SLUICE_ASK)         \
	X(BRANCH, "branch", SLUICE_ASK)       \
	X(REF, "ref", SLUICE_ASK)             \
	X(HISTORY, "history", SLUICE_ASK)     \
	X(REFLOG, "reflog", SLUICE_ASK)

enum { DISCARD_RULES(RULE_ENUM) N_DISCARD_RULES };
static const struct rule_switch discard_rules[] = { DISCARD_RULES(RULE_SWITCH) };

/* Is the short option letter or the long option name (any prefix of at
 * least min bytes, as git's parse-options takes it) given after word sub? */
static bool given(const struct sluice_simple_command *sc, size_t sub, const char *const *with_value,
                  char letter, const char *name, size_t min)
{
	return (letter && short_option_given(sc, sub + 1, letter, with_value)) ||
	       (name && long_option_given(sc, sub + 1, name, min, with_value));
}

/* The word after the subcommand ("drop" of git stash drop), or "". */
static const char *action_word(const struct sluice_simple_command *sc, size_t sub)
{
	return sub + 1 < sluice_argc(sc) ? sluice_arg(sc, sub + 1) : "";
}

/* Each subcommand's options that take a value (as -X VALUE, -XVALUE, or
 * --name VALUE), after its man page: their values are not read as
 * options ("git clean -f -e -n" removes files and keeps "-n"). */
static const char *const reset_values[] = { "--pathspec-from-file", NULL };
static const char *const clean_values[] = { "-e", "--exclude", NULL };
static const char *const checkout_values[] = { "-b", "-B", "--orphan", "--pathspec-from-file",
	                                       NULL };
static const char *const restore_values[] = { "-s", "--source", "--pathspec-from-file", NULL };
static const char *const switch_values[] = { "-c",       "-C", "--create", "--force-create",
	                                     "--orphan", NULL };
static const char *const rm_values[] = { "--pathspec-from-file", NULL };
static const char *const branch_values[] = {
	"-u",          "--set-upstream-to", "--contains", "--no-contains", "--merged",
	"--no-merged", "--points-at",       "--sort",     "--format",      NULL
};
static const char *const tag_values[] = { "-m",        "-F",          "-u",
	                                  "--message", "--file",      "--local-user",
	                                  "--cleanup", "--contains",  "--no-contains",
	                                  "--merged",  "--no-merged", "--points-at",
	                                  "--sort",    "--format",    NULL };
static const char *const update_ref_values[] = { "-m", NULL };
static const char *const prune_values[] = { "--expire", NULL };

static bool reset_discards(const struct sluice_simple_command *sc, size_t sub)
{
	/* --merge drops what is only staged; --keep refuses every loss */
	return given(sc, sub, reset_values, 0, "hard", 2) ||
	       given(sc, sub, reset_values, 0, "merge", 2);
}

static bool clean_discards(const struct sluice_simple_command *sc, size_t sub)
{
	const char *const *o = clean_values;
	if (!given(sc, sub, o, 'f', "force", 1) || given(sc, sub, o, 'n', "dry-run", 1) ||
	    given(sc, sub, o, 'i', "interactive", 1))
		return false;
	/* -X alone removes only what .gitignore names: build output */
	if (given(sc, sub, o, 'X', NULL, 0) && !given(sc, sub, o, 'x', NULL, 0))
		return false;
	bool dashdash = false;
	return pathspec_next(sc, sub + 1, o, &dashdash) == 0 || pathspec_blind_word(sc, sub + 1, o);
}

static bool checkout_discards(const struct sluice_simple_command *sc, size_t sub)
{
	const char *const *o = checkout_values;
	if (given(sc, sub, o, 'p', "patch", 2))
		return false;
	return given(sc, sub, o, 'f', "force", 3) || pathspec_blind_word(sc, sub + 1, o);
}

static bool restore_discards(const struct sluice_simple_command *sc, size_t sub)
{
	const char *const *o = restore_values;
	if (given(sc, sub, o, 'p', "patch", 2))
		return false;
	/* --staged alone puts the index back and leaves the files be */
	if (given(sc, sub, o, 'S', "staged", 3) && !given(sc, sub, o, 'W', "worktree", 1))
		return false;
	return pathspec_blind_word(sc, sub + 1, o);
}

/* Does the pathspec word name a directory: written with a trailing '/'
 * ("src/"), or one where sluice runs (relative to the literal cd before
 * the command)? A file or a branch does not. */
static bool names_directory(const struct sluice_simple_command *sc, const char *a)
{
	bool top, exclude;
	const char *p = pathspec_strip_magic(a, &top, &exclude);
	if (exclude || !*p || strpbrk(p, "*?[$`"))
		return false;
	size_t n = strlen(p);
	if (p[n - 1] == '/')
		return true;
	const char *cwd = sluice_cwd(sc);
	char path[PATH_CAP];
	if (p[0] == '~' || (cwd && cwd[0] == '~'))
		return false; /* the home directory: not where the work is */
	if (p[0] != '/' && cwd)
		snprintf(path, sizeof(path), "%s/%s", cwd, p);
	else
		snprintf(path, sizeof(path), "%s", p);
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The first pathspec word of a checkout or restore that names a directory
 * (names_directory()), or NULL. `git checkout NAME` without `--` reads
 * NAME as a branch first: a directory there is a path only when no branch
 * has its name, which is not known here, so it counts (git refuses a name
 * that is both). */
static const char *directory_word(const struct sluice_simple_command *sc, size_t sub,
                                  const char *const *with_value)
{
	bool dashdash = false;
	for (size_t i = pathspec_next(sc, sub + 1, with_value, &dashdash); i;
	     i = pathspec_next(sc, i + 1, with_value, &dashdash))
		if (!(sluice_arg_flags(sc, i) &
		      (SLUICE_WORD_PARAM | SLUICE_WORD_CMDSUBST | SLUICE_WORD_UNKNOWN)) &&
		    names_directory(sc, sluice_arg(sc, i)))
			return sluice_arg(sc, i);
	return NULL;
}

static bool checkout_directory(const struct sluice_simple_command *sc, size_t sub)
{
	const char *const *o = checkout_values;
	if (given(sc, sub, o, 'p', "patch", 2) || given(sc, sub, o, 'b', NULL, 0) ||
	    given(sc, sub, o, 'B', "orphan", 2))
		return false; /* a new branch: git takes no paths with it */
	return directory_word(sc, sub, o) != NULL;
}

static bool restore_directory(const struct sluice_simple_command *sc, size_t sub)
{
	const char *const *o = restore_values;
	if (given(sc, sub, o, 'p', "patch", 2) ||
	    (given(sc, sub, o, 'S', "staged", 3) && !given(sc, sub, o, 'W', "worktree", 1)))
		return false;
	return directory_word(sc, sub, o) != NULL;
}

static bool switch_discards(const struct sluice_simple_command *sc, size_t sub)
{
	return given(sc, sub, switch_values, 'f', "force", 3) ||
	       given(sc, sub, switch_values, 0, "discard-changes", 2);
}

static bool rm_discards(const struct sluice_simple_command *sc, size_t sub)
{
	if (given(sc, sub, rm_values, 0, "cached", 1) ||
	    given(sc, sub, rm_values, 'n', "dry-run", 1))
		return false;
	return pathspec_blind_word(sc, sub + 1, rm_values);
}

static bool worktree_discards(const struct sluice_simple_command *sc, size_t sub)
{
	return strcmp(action_word(sc, sub), "remove") == 0 &&
	       given(sc, sub + 1, NULL, 'f', "force", 1);
}

/* git submodule deinit --force removes the submodules' worktrees with
 * their local changes, update --force checks out over them (without it,
 * git refuses while there are some). */
static bool submodule_discards(const struct sluice_simple_command *sc, size_t sub)
{
	size_t action = sub + 1;
	while (action < sluice_argc(sc) && sluice_arg(sc, action)[0] == '-')
		action++; /* git submodule --quiet deinit */
	static const char *const forcing[] = { "deinit", "update", NULL };
	return action < sluice_argc(sc) && str_in(sluice_arg(sc, action), forcing) &&
	       given(sc, action, NULL, 'f', "force", 1);
}

static bool stash_discards(const struct sluice_simple_command *sc, size_t sub)
{
	static const char *const dropping[] = { "drop", "clear", NULL };
	return str_in(action_word(sc, sub), dropping);
}

static bool branch_discards(const struct sluice_simple_command *sc, size_t sub)
{
	const char *const *o = branch_values;
	return given(sc, sub, o, 'D', NULL, 0) ||
	       (given(sc, sub, o, 'd', "delete", 3) && given(sc, sub, o, 'f', "force", 1));
}

/* git tag -d: a tag has no reflog, so a deleted one is found again only
 * by its hash. */
static bool tag_discards(const struct sluice_simple_command *sc, size_t sub)
{
	return given(sc, sub, tag_values, 'd', "delete", 1);
}

/* git update-ref -d REF, or --stdin (its updates, deletes too, are read
 * when it runs); git symbolic-ref -d / --delete. */
static bool update_ref_discards(const struct sluice_simple_command *sc, size_t sub)
{
	return given(sc, sub, update_ref_values, 'd', NULL, 0) ||
	       given(sc, sub, update_ref_values, 0, "stdin", 3);
}

static bool symbolic_ref_discards(const struct sluice_simple_command *sc, size_t sub)
{
	return given(sc, sub, update_ref_values, 'd', "delete", 1);
}

/* git filter-branch and git filter-repo rewrite every commit they are
 * given; filter-repo also expires the reflog and prunes what the old
 * history held. Their read-only forms pass. */
static bool filter_rewrites(const struct sluice_simple_command *sc, size_t sub)
{
	return !given(sc, sub, NULL, 0, "analyze", 2) && !given(sc, sub, NULL, 0, "dry-run", 2) &&
	       !given(sc, sub, NULL, 'h', "help", 1) && !given(sc, sub, NULL, 0, "version", 1);
}

/* Is the time word "now" or "all" (or 0): everything expires at once? */
static bool expires_everything(const char *when)
{
	static const char *const at_once[] = { "now", "all", "0", NULL };
	return when && str_in(when, at_once);
}

/* Does option name (alone and then its value word, or with "=value") of
 * sc after word sub expire everything? */
static bool option_expires_everything(const struct sluice_simple_command *sc, size_t sub,
                                      const char *name)
{
	for (size_t i = sub + 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		size_t n = strlen(name);
		if (strncmp(a, name, n) != 0)
			continue;
		if (a[n] == '=' && expires_everything(a + n + 1))
			return true;
		if (!a[n] && i + 1 < sluice_argc(sc) && expires_everything(sluice_arg(sc, i + 1)))
			return true;
	}
	return false;
}

static bool reflog_discards(const struct sluice_simple_command *sc, size_t sub)
{
	const char *action = action_word(sc, sub);
	if (strcmp(action, "delete") == 0)
		return true;
	return strcmp(action, "expire") == 0 &&
	       (option_expires_everything(sc, sub + 1, "--expire") ||
	        option_expires_everything(sc, sub + 1, "--expire-unreachable"));
}

static bool gc_discards(const struct sluice_simple_command *sc, size_t sub)
{
	return option_expires_everything(sc, sub, "--prune");
}

static bool prune_discards(const struct sluice_simple_command *sc, size_t sub)
{
	/* without --expire it prunes every unreachable object; -n only lists */
	return !given(sc, sub, prune_values, 'n', "dry-run", 1);
}

static const char *const stash_first =
        "git stash first (the changes stay recoverable: git stash pop), then ";

static const struct discard_check {
	const char *sub;
	int rule;
	bool (*discards)(const struct sluice_simple_command *sc, size_t sub);
	const char *loses;  /* what the command throws away */
	const char *advice; /* the suggestion, after stash_first when it starts with "+" */
} checks[] = {
	{ "reset", RULE_RESET, reset_discards, "every change that is not committed",
	  "+git reset --keep REF (it refuses to drop local changes)" },
	{ "clean", RULE_CLEAN, clean_discards, "every untracked file, which git never saw",
	  "git clean -n lists what would go: remove those files by name (or git stash -u keeps "
	  "them)" },
	{ "checkout", RULE_CHECKOUT, checkout_discards, "every change that is not committed",
	  "+check out or restore the files you mean by name: git restore path/to/file" },
	{ "restore", RULE_CHECKOUT, restore_discards, "every change that is not committed",
	  "+restore the files you mean by name: git restore path/to/file" },
	{ "checkout", RULE_DIRECTORY, checkout_directory,
	  "the uncommitted changes of every file in the directory it names",
	  "+check out or restore the files you mean by name: git restore path/to/file" },
	{ "restore", RULE_DIRECTORY, restore_directory,
	  "the uncommitted changes of every file in the directory it names",
	  "+restore the files you mean by name: git restore path/to/file" },
	{ "switch", RULE_CHECKOUT, switch_discards, "every change that is not committed",
	  "+git switch without --force / --discard-changes" },
	{ "rm", RULE_RM, rm_discards, "every tracked file from the tree, with its changes",
	  "remove the files you mean by name, or only untrack them: git rm -r --cached PATH" },
	{ "worktree", RULE_WORKTREE, worktree_discards,
	  "the worktree's changes that are not committed",
	  "git worktree remove without --force refuses while it has changes: commit or stash "
	  "them there first" },
	{ "submodule", RULE_WORKTREE, submodule_discards,
	  "the submodules' changes that are not committed",
	  "without --force git submodule refuses while they have changes: commit or stash them "
	  "there first" },
	{ "stash", RULE_STASH, stash_discards, "saved changes for good",
	  "look first (git stash list, git stash show -p) and keep them unless the user says "
	  "otherwise" },
	{ "branch", RULE_BRANCH, branch_discards, "a branch whose commits may be merged nowhere",
	  "git branch -d deletes only a branch that is merged" },
	{ "tag", RULE_REF, tag_discards, "a tag, which has no reflog to bring it back",
	  "leave the tag, or ask the user before deleting it, naming it" },
	{ "update-ref", RULE_REF, update_ref_discards,
	  "a ref, and with it the only name of the commits it holds",
	  "delete a branch with git branch -d, which refuses one that is not merged" },
	{ "symbolic-ref", RULE_REF, symbolic_ref_discards,
	  "a symbolic ref such as HEAD, which the repository needs",
	  "leave HEAD alone; git switch BRANCH moves it" },
	{ "filter-branch", RULE_HISTORY, filter_rewrites,
	  "the history it rewrites: every commit it is given gets a new hash",
	  "ask the user before rewriting history; a new commit that removes the file keeps "
	  "everyone's clones working" },
	{ "filter-repo", RULE_HISTORY, filter_rewrites,
	  "the old history: it rewrites every commit, expires the reflog and prunes what only "
	  "the old commits held",
	  "ask the user before rewriting history; git filter-repo --analyze only reports" },
	{ "reflog", RULE_REFLOG, reflog_discards,
	  "the records git needs to find lost commits again",
	  "leave the reflog to expire on its own" },
	{ "gc", RULE_REFLOG, gc_discards, "every commit nothing refers to any more",
	  "git gc without --prune=now keeps them for two weeks" },
	{ "prune", RULE_REFLOG, prune_discards, "every commit nothing refers to any more",
	  "git gc keeps them for two weeks" },
};

/* "git WORDS" of sc from word sub on, for a message, cut short visibly. */
static void git_words(const struct sluice_simple_command *sc, size_t sub, char *out, size_t size)
{
	size_t o = sub ? (size_t)snprintf(out, size, "git ") : 0;
	for (size_t i = sub; i < sluice_argc(sc) && o < size; i++)
		o += (size_t)snprintf(out + o, size - o, "%s%s", i > sub ? " " : "",
		                      sluice_arg(sc, i));
	if (o >= size && size > 4)
		memcpy(out + size - 4, "...", 4);
}

static int check_one(const void *state, const struct sluice_simple_command *sc,
                     struct sluice_verdict *v)
{
	const struct rule_state *st = state;
	size_t sub = git_subcommand(sc);
	const char *name = sub ? sluice_arg(sc, sub) : NULL;
	if (strcmp(sluice_name(sc), "git-filter-repo") == 0)
		name = "filter-repo"; /* the script run by its own name: its options from word 1 */
	if (!name)
		return SLUICE_ALLOW;
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		const struct discard_check *c = &checks[i];
		int verdict = st->verdict[c->rule];
		if (strcmp(name, c->sub) != 0 || verdict == SLUICE_ALLOW || !c->discards(sc, sub))
			continue;
		char words[256], msg[512], advice[512];
		git_words(sc, sub, words, sizeof(words));
		snprintf(msg, sizeof(msg), "'%s' throws away %s", words, c->loses);
		if (c->advice[0] == '+')
			snprintf(advice, sizeof(advice), "%s%s", stash_first, c->advice + 1);
		else
			snprintf(advice, sizeof(advice), "%s", c->advice);
		return sluice_verdict_add(v, verdict, msg, advice);
	}
	return SLUICE_ALLOW;
}

static int gd_open(const struct sluice_host *host, const struct sluice_settings *settings,
                   void **ret_state)
{
	return rule_state_open(host, settings, discard_rules, N_DISCARD_RULES, ret_state);
}

static int gd_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	return check_each(state, cmd, v, check_one);
}

static const struct sluice_key keys[] = {
	DISCARD_RULES(RULE_KEY){ NULL, 0 },
};

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "git_discard",
	.description = "refuses git that throws work away (reset --hard, clean -f, checkout -- ., "
	               "stash drop, branch -D ...)",
	.keys = keys,
	.open = gd_open,
	.check = gd_check,
	.close = rule_state_close,
};
