/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the files besides refs that name a commit the
 * user's git goes to later, as git itself suggests (git-later-pointers.c):
 * ORIG_HEAD (`git reset --hard ORIG_HEAD`), FETCH_HEAD (`git merge
 * FETCH_HEAD`), a rebase's orig-head (`git status` says "use git rebase
 * --abort", which moves the branch there), a cherry-pick's sequencer/head
 * (`git cherry-pick --abort`), BISECT_START (`git bisect reset`), and the
 * new lines of the HEAD reflog (`git reset --hard HEAD@{1}`, `git
 * checkout -`, which takes the commit a "checkout: moving from X" line
 * names), and the autostash of a rebase or merge (rebase-merge/autostash,
 * rebase-apply/autostash, MERGE_AUTOSTASH: a stash-like commit that `git
 * rebase --abort`/`--continue`, `git merge --abort` or the commit that
 * concludes the merge applies to the work tree, its untracked files too),
 * and the commits a paused rebase's or cherry-pick's todo list picks
 * (git-later-todo.h: those lines made `drop`), and a bisect's bad commit
 * (refs/bisect/bad, per worktree: `git bisect good` checks out a commit
 * between it and the good ones, each of which is compared; removed). A run that writes one with a commit of its own gets that
 * commit's lefthook.yml written by them. After the run, each that changed
 * is read, and the commits it names are compared with the pre-run HEAD at
 * the names that run later, all in one git diff-tree; one that plants is
 * held at refs/sluice/held/..., and the file put back (a rebase's,
 * cherry-pick's or bisect's to where the run started) or removed (ORIG_HEAD,
 * FETCH_HEAD: git writes them again; an autostash: dropped, its commit
 * held), or the reflog lines deleted (git
 * reflog delete). The same in each of the user's other worktrees, whose
 * files the command can write as well (a paused rebase planted there, its
 * orig-head a commit of the run's: the user's `git rebase --abort` there
 * checks it out, outside the workspace). Before the run: a few stat(2)s
 * per worktree, its HEAD, and its HEAD reflog's size and newest lines (to
 * tell an append from a rewrite, and the user's lines a rewrite kept:
 * git-later-pointer-log.h). A worktree other than the run's whose
 * index or HEAD changed while the run lasted is left alone: the run cannot
 * write them (launcher/git-paths.c), so the user's own git worked there
 * (a merge or pull writes ORIG_HEAD and a reflog line), and the check
 * would undo the user's work.
 * Not for: anyone but git-later.c.
 */
#ifndef SLUICE_GIT_LATER_POINTERS_H
#define SLUICE_GIT_LATER_POINTERS_H

#include <stdbool.h>
#include <sys/stat.h>

#include "run/git-later-am.h"
#include "run/git-later-head.h"
#include "run/git-later-pointer-log.h"
#include "run/protect-watch.h"

struct git_later;
struct git_sweep;

/* The files, in the gitdir. */
enum git_later_pointer {
	POINTER_ORIG_HEAD,
	POINTER_FETCH_HEAD,
	POINTER_BISECT_START,
	POINTER_REBASE_MERGE,
	POINTER_REBASE_APPLY,
	POINTER_SEQUENCER,
	POINTER_REBASE_MERGE_AUTOSTASH,
	POINTER_REBASE_APPLY_AUTOSTASH,
	POINTER_MERGE_AUTOSTASH,
	POINTER_REBASE_TODO,
	POINTER_SEQUENCER_TODO,
	POINTER_BISECT_BAD,
	POINTER_HEAD_LOG,
	POINTERS
};

/* The gitdirs whose files are read, at most: the run's own, then the
 * user's other worktrees (the main one's, the common directory, and each
 * worktrees/NAME). A command in one worktree can write them all (the
 * objects and refs they share are in the common directory, and git gc
 * rewrites every worktree's HEAD log), and the user's git there writes
 * that worktree's files, outside the workspace. */
#define POINTER_SITES_MAX 9

/* One worktree's files before the run. */
struct git_later_pointer_site {
	char *gitdir;               /* malloc'd */
	struct git_later_head head; /* its HEAD before the run */
	int error[POINTERS];        /* 0, or the stat's -errno */
	struct stat st[POINTERS];
	struct git_later_log_before log; /* its HEAD reflog's newest text */
	struct folder_snapshot am;       /* rebase-apply/ */
	/* another worktree's index and HEAD (the run cannot write them: a
	 * change is the user's own git at work there) */
	int own_error[2];
	struct stat own_st[2];
};

struct git_later_pointers {
	struct git_later_pointer_site site[POINTER_SITES_MAX]; /* [0]: the run's */
	size_t n;
};

/* Before the run: the run's gitdir gfd (g->gitdir, its HEAD g->head), and
 * the other worktrees of the common directory cfd, into g->pointers.
 * Returns 0 or -ENOMEM. */
int git_later_pointers_take(struct git_later *g, int gfd, int cfd);

/* Whether any of them changed since. */
bool git_later_pointers_changed(const struct git_later *g);

/* After the run: what the changed ones name that plants a name of
 * pathspecs (against that worktree's HEAD before the run) undone, each
 * noted in s's items. Returns the number, or -errno (noted in s). */
int git_later_pointers_end(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                           char **pathspecs);

/* Whether ref is the branch checked out (before the run) in another
 * worktree of the user's whose index or HEAD changed while the run lasted:
 * the user's own git worked there (a merge, a pull), which no check undoes. */
bool git_later_pointers_users_branch(const struct git_later *g, const char *ref);

void git_later_pointers_done(struct git_later_pointers *p);

#endif
