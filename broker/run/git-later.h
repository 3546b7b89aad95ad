/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the check after a run for a name that runs
 * later (a protected path, an executable named as a system command in a
 * folder of the workspace on the user's PATH: protect_watch_runs_later())
 * that reached git's index or the checked-out branch during the run with
 * content the user did not have there. The work tree's copy is kept
 * read-only or renamed away by the other checks, but the user's routine
 * `git reset --hard`, `git checkout .`, `git restore .` or `git stash`
 * would write the index's or the commit's version back, and the next
 * `git status` or `git commit` run it.
 *
 * Before the run a few stat(2)s, the HEAD commit's id and the refs as
 * files (git-later-snapshot.c: the loose refs read, packed-refs held
 * open) are taken; after it, git is run (hardened: git-later-git.c) only
 * when the index, HEAD, packed-refs, the branch's ref, a ref or the stash
 * changed. A commit of the run that changes such a name is kept at
 * refs/sluice/held/STAMP-PID and the branch moved back to the commit it
 * was at (its other changes stay staged); an index entry is put back to
 * the pre-run HEAD's (or removed). Content equal to the work tree's file
 * (which the run could not change: the user's own edit, staged or
 * committed by the run) and deletions are left alone. More ways to the
 * work tree are checked: replace refs (git-later-replace.c: any the run
 * added is taken out), the stash (git-later-stash.c: an entry of the
 * run's that plants is dropped), the user's other refs (git-later-moved.c:
 * one moved to a commit that plants is put back), the files that name a
 * commit git goes to later (git-later-pointers.c: ORIG_HEAD, a rebase's
 * orig-head, HEAD's reflog ...), grafts and alternates
 * (git-later-history.c: set aside); the locks the run left go first
 * (git-later-locks.c), and an object store the run made to read as other
 * content goes before any of them reads it (git-later-objects.c). The index and branch of each nested repository
 * (a submodule, a `git init sub`) whose folder lies on the way to such a
 * name are checked the same way (git-later-nested.c). Reported as items
 * of the sweep (git-sweep.h).
 * Not for: the work tree (protect-watch.c), the gitdir's files
 * (git-sweep.c), background jobs (their repository is read-only).
 */
#ifndef SLUICE_GIT_LATER_H
#define SLUICE_GIT_LATER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "run/git-later-head.h"
#include "run/git-later-history.h"
#include "run/git-later-objects.h"
#include "run/git-later-pointers.h"
#include "run/git-later-snapshot.h"
#include "run/git-later-stash.h"
#include "run/git-sweep.h"
#include "run/protect-watch.h"

/* The files whose change means the index or a ref may have changed. */
enum git_later_file {
	GIT_LATER_INDEX,
	GIT_LATER_HEAD,
	GIT_LATER_PACKED_REFS,
	GIT_LATER_BRANCH,
	GIT_LATER_FILES
};

struct git_later_stat {
	int error; /* 0, or the stat's -errno (-ENOENT: missing) */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtim, ctim;
};

struct git_later {
	bool active;
	char *workspace, *gitdir, *common;
	size_t hex_len; /* 40, or 64 in a sha256 repository */
	struct git_later_stat before[GIT_LATER_FILES];
	struct git_later_head head;
	struct git_later_snapshot refs; /* before the run */
	struct git_later_stash stash;
	struct git_later_pointers pointers; /* before the run */
	struct git_later_history history;   /* before the run */
	struct git_later_objects objects;   /* before the run */
	/* an object of the user's that the run wrote over was set aside and
	 * could not be written again: HEAD's tree may not be read whole */
	bool objects_lost;
	struct timespec started; /* the coarse wall clock (file times) before the run */
	char **held;             /* "ID\tREF": what the check kept, each id once */
	uint64_t duration_us;    /* of git_later_end() */
	unsigned gits;           /* git commands it ran */
	/* a nested repository's (git-later-nested.h): its folder in the
	 * workspace ("tools"), which protect_watch_runs_later() is asked
	 * about with each of its paths; NULL: the workspace's own */
	char *prefix;
	struct git_later *nested; /* the nested repositories' state before the run */
	size_t n_nested;
	bool nested_over; /* more than GIT_LATER_NESTED_MAX: not read, said after the run */
};

/* Before the command can start: the state of the workspace's repository
 * (the sweep's roots: s->roots[0] the work tree's gitdir, s->roots[1] a
 * linked worktree's common directory). Nothing outside workspace-write or
 * without a repository. Returns 0 or -ENOMEM. */
int git_later_begin(struct git_later *g, const struct git_sweep *s,
                    const struct run_settings *settings);

/* Once every process of the run is gone, after protect_watch_end() (so
 * that the work tree holds no file the run planted) and the sweep (so
 * that the repository's config holds nothing the run added): when the
 * index or refs changed, find and undo what reached them, each noted in
 * s's items (a failure in s->error). Returns the number found, or -errno. */
int git_later_end(struct git_later *g, const struct protect_watch *w, struct git_sweep *s);

/* After protect_watch_begin(), before the command can start: the nested
 * repositories whose work tree holds a name that runs later, as they are
 * (git-later-nested.c). Returns 0 or -ENOMEM. */
int git_later_nested_begin(struct git_later *g, const struct protect_watch *w);

void git_later_done(struct git_later *g);

#endif
