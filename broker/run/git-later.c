/* SPDX-License-Identifier: MIT */
/*
 * What git restores later (git-later.h): the stat(2)s before the run, and
 * after it, where they changed, git's own view of the index and the
 * branch against the pre-run HEAD (git-later-diff.c), through git run in
 * a hardened way (git-later-git.c, git-command.c) with no external diff
 * or textconv and no filter (hash-object --no-filters). The repository's
 * config is the user's, less what the sweep just disabled; what the
 * command line sets wins over it. This file undoes what it finds.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "monotonic.h"
#include "strv.h"
#include "run/git-command.h"
#include "run/git-later-diff.h"
#include "run/git-later-git.h"
#include "run/git-index.h"
#include "run/git-later.h"
#include "run/git-later-refs.h"
#include "run/git-later-locks.h"
#include "run/git-later-moved.h"
#include "run/git-later-nested.h"
#include "run/git-later-replace.h"
#include "run/git-later-snapshot.h"
#include "run/git-later-stash.h"
#include "run/git-sweep-state.h"

/* --- undoing ------------------------------------------------------------ */

/* HEAD as it was before the run, written as git writes it (a lock file
 * renamed onto it), where git itself would not start: the run left HEAD
 * as no git reads it. */
static int write_head(struct git_later *g, struct git_sweep *s)
{
	_cleanup_close_ int gfd = open(g->gitdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_free_ char *text = NULL;
	if (asprintf(&text, "%s%s\n", g->head.ref[0] ? "ref: " : "",
	             g->head.ref[0] ? g->head.ref : g->head.id) < 0)
		return -ENOMEM;
	int r = gfd < 0 ? neg_errno() : git_later_write_file(gfd, "HEAD", text, strlen(text));
	if (r < 0)
		git_sweep_fail(s,
		               "the check of what git would restore later: HEAD could not be "
		               "put back: %s",
		               strerror(-r));
	return r;
}

/* HEAD, moved by the run to another branch (or detached) whose commit
 * plants a name, put back on the branch it named before the run; names
 * NULL: HEAD, which no git can read any more, put back. */
static int put_head_back(struct git_later *g, struct git_sweep *s, const struct git_later_head *now,
                         const char *names)
{
	struct git_output o = { .data = NULL };
	int r = 0;
	if (!names) {
		/* git would refuse the repository: HEAD written here, below */
	} else if (g->head.ref[0]) {
		const char *args[] = {
			"symbolic-ref", "-m",        "sluice: HEAD put back after a run",
			"HEAD",         g->head.ref, NULL
		};
		r = git_later_ok(g, s, "git symbolic-ref HEAD", args, -1, &o);
	} else {
		const char *args[] = { "update-ref", "--no-deref",
			               "-m",         "sluice: HEAD put back after a run",
			               "HEAD",       g->head.id,
			               NULL };
		r = git_later_ok(g, s, "git update-ref HEAD", args, -1, &o);
	}
	git_output_done(&o);
	if (r < 0)
		return r;
	_cleanup_free_ char *path = NULL, *what = NULL;
	if (!names) {
		r = write_head(g, s);
		if (r < 0)
			return r;
		if (asprintf(&path, "%s/HEAD", g->gitdir) < 0 ||
		    asprintf(&what,
		             "the command left HEAD as git cannot read it; put back on %s, as it "
		             "was before the run",
		             g->head.ref[0] ? g->head.ref : g->head.id) < 0)
			return -ENOMEM;
		git_sweep_note_item(s, path, what, NULL);
		return 1;
	}
	if (asprintf(&path, "%s/HEAD", g->gitdir) < 0 ||
	    asprintf(&what,
	             "the command pointed HEAD at %s, whose commits put content at names that run "
	             "later (%s); HEAD put back on %s (%s left as it is: read its commits before "
	             "checking it out)",
	             now->ref[0] ? now->ref : now->id, names,
	             g->head.ref[0] ? g->head.ref : g->head.id,
	             now->ref[0] ? now->ref : "the commit") < 0)
		return -ENOMEM;
	git_sweep_note_item(s, path, what, NULL);
	return 1;
}

/* The branch (or a detached HEAD), moved by the run to a commit that
 * plants a name: the commit kept at refs/sluice/held/..., the branch put
 * back where it was (its changes since stay in the index, and the index
 * check below takes out what runs later). */
static int hold_commits(struct git_later *g, struct git_sweep *s, const char *commit,
                        const char *names)
{
	char held[96];
	int r = git_later_hold(g, s, commit, held);
	if (r < 0)
		return r;
	struct git_output o = { .data = NULL };
	const char *target = g->head.ref[0] ? g->head.ref : "HEAD";
	if (g->head.id[0]) {
		const char *back[] = { "update-ref", "--no-deref",
			               "-m",         "sluice: put back where it was before a run",
			               target,       g->head.id,
			               commit,       NULL };
		r = git_later_ok(g, s, "git update-ref (the branch put back)", back, -1, &o);
	} else {
		/* unborn before the run: unborn again */
		const char *del[] = { "update-ref", "--no-deref", "-d", target, commit, NULL };
		r = git_later_ok(g, s, "git update-ref -d (the branch put back)", del, -1, &o);
	}
	git_output_done(&o);
	if (r < 0)
		return r;
	char was[13], now[13];
	git_later_short_id(g->head.id, was);
	git_later_short_id(commit, now);
	_cleanup_free_ char *path = NULL, *what = NULL;
	if (asprintf(&path, "%s/%s", g->head.ref[0] ? g->common : g->gitdir, target) < 0 ||
	    asprintf(&what,
	             "the command committed content at names that run later (%s); %s moved back "
	             "from %s to %s, where it was before the run (the run's other changes stay "
	             "staged), its commits kept at %s",
	             names, target, now, was, held) < 0)
		return -ENOMEM;
	git_sweep_note_item(s, path, what, held);
	return 1;
}

/* The index's items, noted once git has put the entries back (failed:
 * it could not): "\x01" in each of whats is where that goes. */
static int note_index_items(struct git_sweep *s, char **paths, char **whats, bool failed)
{
	for (size_t i = 0; paths && paths[i] && whats && whats[i]; i++) {
		_cleanup_free_ char *what = NULL;
		bool removed = strstr(whats[i], "\x01 (HEAD had none") != NULL;
		const char *done =
		        failed    ? "NOT put back (git failed: see the error; look before git "
		                    "reset --hard or checkout)"
		        : removed ? "removed"
		                  : "put back";
		size_t at = strcspn(whats[i], "\x01");
		if (asprintf(&what, "%.*s%s%s", (int)at, whats[i], done,
		             whats[i][at] ? whats[i] + at + 1 : "") < 0)
			return -ENOMEM;
		git_sweep_note_item(s, paths[i], what, NULL);
	}
	return failed ? -EIO : 0;
}

/* The index's entries that plant a name, put back to the pre-run HEAD's
 * (or removed where it had none) with git update-index --index-info. */
static int fix_index(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                     char **pathspecs)
{
	struct git_output o;
	/* HEAD's tree lacking an object the run wrote over (git's diff also
	 * skips a folder whose tree id the index's cache holds): the empty
	 * tree instead, so what the work tree does not hold goes */
	int r = git_later_diff(g, s, g->objects_lost ? git_later_empty_tree(g) : NULL, NULL,
	                       pathspecs, &o);
	if (r < 0) {
		git_output_done(&o);
		return r;
	}
	/* removals first, then what HEAD had: an entry at a folder's name
	 * (a symlink .claude) goes before the folder's files come back */
	char *removals = NULL, *additions = NULL;
	size_t rlen = 0, alen = 0;
	FILE *rf = open_memstream(&removals, &rlen), *af = open_memstream(&additions, &alen);
	int found = 0;
	char *p = o.data, *end = o.data + o.len;
	struct git_later_change c;
	bool bad = false;
	/* each entry's item, noted once git has put it back (or said it could
	 * not): "\x01" in whats is where that goes */
	_cleanup_strv_free_ char **paths = NULL, **whats = NULL;
	static const char zeros[65] =
	        "0000000000000000000000000000000000000000000000000000000000000000";
	while (rf && af && git_later_next_change(g, &p, end, &c, &bad)) {
		if (!git_later_plants(g, s, w, &c))
			continue;
		fprintf(rf, "0 %.*s\t%s%c", (int)g->hex_len, zeros, c.path, '\0');
		if (c.old_mode != 0 && strncmp(c.old_id, zeros, g->hex_len) != 0)
			fprintf(af, "%o %s\t%s%c", c.old_mode, c.old_id, c.path, '\0');
		char *path = NULL, *what = NULL;
		if (asprintf(&path, "%s/%s", g->workspace, c.path) < 0 ||
		    strv_consume(&paths, path) < 0 ||
		    (c.status == 'U'
		             ? asprintf(&what,
		                        "the command left a conflict in the index at a name "
		                        "that runs later; the entry \x01 to HEAD's before the run")
		             : asprintf(
		                       &what,
		                       "the command staged it (%o %s), a name that runs later, which "
		                       "the user's git reset --hard or checkout would write; the "
		                       "index entry %s",
		                       c.new_mode, c.new_id,
		                       c.old_mode ? "\x01 to HEAD's before the run"
		                                  : "\x01 (HEAD had none before the run)")) < 0 ||
		    strv_consume(&whats, what) < 0) {
			r = -ENOMEM;
			break;
		}
		found++;
	}
	git_output_done(&o);
	if (rf)
		fclose(rf);
	if (af)
		fclose(af);
	_cleanup_free_ char *rbuf = removals, *abuf = additions;
	if (!rf || !af)
		return -ENOMEM;
	if (bad) {
		git_sweep_fail(s, "the check of what git would restore later: git diff-index's "
		                  "output could not be read");
		return -EIO;
	}
	if (r < 0 || found == 0)
		return r < 0 ? r : 0;
	_cleanup_free_ char *all = malloc(rlen + alen + 1);
	if (!all)
		return -ENOMEM;
	memcpy(all, rbuf, rlen);
	memcpy(all + rlen, abuf, alen);
	_cleanup_close_ int in = git_command_memfd("sluice-git-index-info", all, rlen + alen);
	if (in < 0)
		return in;
	const char *args[] = { "update-index", "-z", "--index-info", NULL };
	r = git_later_ok(g, s, "git update-index --index-info", args, in, &o);
	git_output_done(&o);
	r = note_index_items(s, paths, whats, r < 0);
	return r < 0 ? r : found;
}

/* --- begin and end ------------------------------------------------------- */

int git_later_begin(struct git_later *g, const struct git_sweep *s,
                    const struct run_settings *settings)
{
	*g = (struct git_later){ .active = false };
	if (settings->sandbox_mode != SANDBOX_MODE_WORKSPACE_WRITE || s->n_roots == 0)
		return 0;
	g->workspace = strdup(s->workspace);
	g->gitdir = strdup(s->roots[0]);
	/* a linked worktree's second root is its common directory */
	g->common = strdup(s->n_roots > 1 ? s->roots[1] : s->roots[0]);
	if (!g->workspace || !g->gitdir || !g->common)
		return -ENOMEM;
	_cleanup_close_ int gfd = -1, cfd = -1;
	if (git_later_open_dirs(g, &gfd, &cfd) < 0 ||
	    git_later_read_head(g, gfd, cfd, &g->head) < 0)
		return 0;    /* no HEAD: no repository git would use */
	if (g->hex_len == 0) /* an unborn branch, nothing packed */
		g->hex_len = git_index_hash_length(cfd) * 2;
	git_later_take_stats(gfd, cfd, g->before, g->head.ref);
	git_later_snapshot_take(&g->refs, cfd);
	if (git_later_pointers_take(g, gfd, cfd) < 0)
		return -ENOMEM;
	git_later_history_take(&g->history, cfd);
	if (git_later_objects_take(&g->objects, cfd) < 0)
		return -ENOMEM;
	(void)clock_gettime(CLOCK_REALTIME_COARSE, &g->started); /* as file times are */
	git_later_stash_begin(&g->stash, cfd);
	g->active = true;
	return 0;
}

/* HEAD's commit, read by git where the files could not tell (reftable, a
 * large packed-refs): after the run only, never on every run's path. */
static void head_by_git(struct git_later *g, struct git_sweep *s, struct git_later_head *h)
{
	struct git_output o;
	const char *args[] = { "rev-parse", "-q", "--verify", "HEAD^{commit}", NULL };
	if (git_later_run(g, args, -1, &o) == 0 && WIFEXITED(o.status) &&
	    WEXITSTATUS(o.status) == 0 && o.len >= g->hex_len) {
		memcpy(h->id, o.data, g->hex_len);
		h->id[g->hex_len] = '\0';
		h->ok = git_later_is_hex(h->id, g->hex_len);
	}
	git_output_done(&o);
	if (!h->ok)
		git_sweep_fail(s,
		               "the check of what git would restore later: HEAD could not be read");
}

/* The index, HEAD and the pre-run branch, which changed: what reached them
 * at the names of pathspecs undone (see git-later.h); the number found,
 * or -errno. */
int git_later_index_and_branch(struct git_later *g, const struct protect_watch *w,
                               struct git_sweep *s, char **pathspecs)
{
	int found = 0, r;
	struct git_later_head now;
	git_later_read_head_now(g, &now);
	if (now.ref[0] && !now.ok)
		head_by_git(g, s, &now);
	bool moved = !now.ok || strcmp(now.ref, g->head.ref) != 0;
	if (moved && !now.ok) {
		/* a HEAD the user's git cannot read either: the user's own
		 * put back, which the user's next git then reads */
		r = put_head_back(g, s, &now, NULL);
		found += r > 0;
		git_later_read_head_now(g, &now);
	} else if (moved && now.id[0] && strcmp(now.id, g->head.id) != 0) {
		_cleanup_free_ char *names = NULL;
		r = git_later_commit_plants(g, s, w, NULL, now.id, pathspecs, &names);
		if (r >= 0 && names) {
			r = put_head_back(g, s, &now, names);
			found += r > 0;
			git_later_read_head_now(g, &now);
		}
	}
	/* the branch HEAD named before the run, whatever HEAD names now */
	struct git_later_head branch;
	git_later_read_branch_now(g, &now, &branch);
	if (branch.ok && branch.id[0] && strcmp(branch.id, g->head.id) != 0) {
		_cleanup_free_ char *names = NULL;
		r = git_later_commit_plants(g, s, w, NULL, branch.id, pathspecs, &names);
		if (r >= 0 && names) {
			r = hold_commits(g, s, branch.id, names);
			found += r > 0;
		}
	} else if (!branch.ok) {
		git_sweep_fail(s,
		               "the check of what git would restore later: %s could not be "
		               "read after the run; look at its commits before git reset --hard",
		               g->head.ref[0] ? g->head.ref : "HEAD");
	}
	r = fix_index(g, s, w, pathspecs);
	return r < 0 ? r : found + r;
}

/* The refs the run changed (git-later-snapshot.c) into *c and *n, and the
 * names there before the run into *before; a failure noted in s (the
 * rest of the check goes on). */
static void ref_changes(struct git_later *g, struct git_sweep *s, struct git_later_ref_change **c,
                        size_t *n, char ***before)
{
	_cleanup_close_ int cfd = open(g->common, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int r = cfd < 0 ? neg_errno() : git_later_snapshot_changes(&g->refs, cfd, c, n, before);
	if (r < 0)
		git_sweep_fail(
		        s,
		        "the check of what git would restore later: the refs could not be "
		        "compared with the ones before the run: %s; look at git replace -l, "
		        "git stash list and the branches before git reset --hard or git switch",
		        r == -E2BIG ? "too many loose refs" : strerror(-r));
}

/* Whether any of the n changes is not a replace ref's. */
static bool moves(const struct git_later_ref_change *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strncmp(c[i].name, "refs/replace/", 13) != 0)
			return true;
	return false;
}

/* Whether the index, HEAD, packed-refs or the branch's ref changed. */
static bool index_or_heads_changed(struct git_later *g)
{
	struct git_later_stat after[GIT_LATER_FILES];
	{
		_cleanup_close_ int gfd = -1, cfd = -1;
		(void)git_later_open_dirs(g, &gfd, &cfd); /* one that cannot be opened: a change */
		git_later_take_stats(gfd, cfd, after, g->head.ref);
	}
	bool changed = false;
	for (int i = 0; i < GIT_LATER_FILES; i++)
		changed |= !git_later_same_stat(&g->before[i], &after[i]);
	return changed;
}

/* What git_later_end() found beyond the replace refs: refs moved, the
 * stash, the index and the branch, where they changed. */
static int names_that_run_later(struct git_later *g, const struct protect_watch *w,
                                struct git_sweep *s, const struct git_later_ref_change *c, size_t n,
                                char **before)
{
	bool changed = index_or_heads_changed(g);
	bool stashed = git_later_stash_changed(g), moved = moves(c, n);
	bool pointed = git_later_pointers_changed(g);
	if (!changed && !stashed && !moved && !pointed)
		return 0;
	_cleanup_strv_free_ char **pathspecs = NULL;
	/* a nested repository's: no pathspec, every path (each asked about
	 * from the top: git-later-diff.c); the top's: the names' first parts */
	int r = g->prefix ? ((pathspecs = calloc(1, sizeof(char *))) ? 0 : -ENOMEM)
	                  : protect_watch_pathspecs(w, &pathspecs),
	    found = 0;
	if (!g->head.ok) {
		/* not read before the run as the files are: nothing to compare
		 * with, said, never guessed; the other worktrees' files are
		 * still checked, each against its own HEAD, read by git */
		if (r == 0 && pathspecs && pointed)
			(void)git_later_pointers_end(g, s, w, pathspecs);
		git_sweep_fail(s,
		               "the check of what git would restore later: HEAD before the run "
		               "could not be read; look at the index, the branches and the stash "
		               "before git reset --hard, git switch or git stash pop");
		return -EIO;
	}
	if (r < 0 || !pathspecs) /* no name runs later: nothing to look for */
		return r;
	if (moved) {
		r = git_later_moved_end(g, s, w, pathspecs, c, n, before);
		found += r > 0 ? r : 0;
	}
	if (stashed) {
		r = git_later_stash_end(g, s, w, pathspecs);
		found += r > 0 ? r : 0;
	}
	if (pointed) {
		r = git_later_pointers_end(g, s, w, pathspecs);
		found += r > 0 ? r : 0;
	}
	if (changed) {
		r = git_later_index_and_branch(g, w, s, pathspecs);
		found += r > 0 ? r : 0;
	}
	return r < 0 ? r : found;
}

int git_later_end(struct git_later *g, const struct protect_watch *w, struct git_sweep *s)
{
	if (!g->active)
		return 0;
	uint64_t t0 = monotonic_us();
	struct git_later_ref_change *changes = NULL;
	size_t n = 0;
	_cleanup_strv_free_ char **before = NULL;
	ref_changes(g, s, &changes, &n, &before);
	/* the check's git first needs the locks the run left gone */
	int found = git_later_locks_end(g, s, changes, n);
	/* grafts and alternates change what every commit reads as */
	found += git_later_history_end(g, s);
	/* an object rewritten is what every check below would read */
	found += git_later_objects_end(g, s);
	/* a replace ref changes what any name reads as: whatever the names */
	int r = git_later_replace_end(g, s, changes, n);
	found += r > 0 ? r : 0;
	r = names_that_run_later(g, w, s, changes, n, before);
	found += r > 0 ? r : 0;
	/* the nested repositories', each against its own HEAD before the run */
	int nr = git_later_nested_end(g, w, s);
	found += nr > 0 ? nr : 0;
	git_later_ref_changes_free(changes, n);
	if (found || r < 0 || g->gits)
		g->duration_us = monotonic_us() - t0;
	return r < 0 ? r : found;
}

void git_later_done(struct git_later *g)
{
	/* a nested repository the run made holds without having begun */
	strv_free(g->held);
	if (g->active) {
		git_later_history_done(&g->history);
		git_later_snapshot_done(&g->refs);
		git_later_stash_done(&g->stash);
	}
	git_later_pointers_done(&g->pointers);
	git_later_objects_done(&g->objects);
	git_later_nested_done(g);
	free(g->workspace);
	free(g->gitdir);
	free(g->common);
	free(g->prefix);
	*g = (struct git_later){ .active = false };
}
