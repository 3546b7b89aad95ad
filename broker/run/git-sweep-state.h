/* SPDX-License-Identifier: MIT */
/*
 * The state of one git sweep, shared by its parts: the walk of the
 * repositories (git-sweep.c), the quarantine folder the items it finds
 * are moved or copied to (git-quarantine.c), and the check of what git
 * would restore later from the index and the branch (git-later.c).
 * Not for: anyone outside the sweep; git-sweep.h is its interface.
 */
#ifndef SLUICE_GIT_SWEEP_STATE_H
#define SLUICE_GIT_SWEEP_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "run/git-defuse.h"

#include "run/git-sweep.h"

/* A config or todo file larger than this is moved away, not read. */
#define SWEEP_TEXT_MAX (1024 * 1024)

/* A gitdir's config files, which the sweep rewrites when the run made or
 * changed them (config_before holds each). */
extern const char *const git_sweep_config_files[2];

/* Nested repositories kept in the list (each swept, then its own
 * index's gitlinks followed, in turn), at most. The ones found past it
 * are swept at once, on the way, without being kept (git-sweep.c,
 * sweep_unkept()), up to the two bounds below; past those, set aside. */
#define SWEEP_NESTED_MAX 256
/* Repositories swept on the way past the list, at most, in one sweep:
 * each costs a walk of its gitdir, and .git files can name one gitdir
 * any number of times. */
#define SWEEP_UNKEPT_MAX 4096
/* How deep sweeps on the way follow a swept repository's own gitlinks
 * (a recursion, each level a walk's stack). */
#define SWEEP_UNKEPT_DEPTH_MAX 8

struct sweeper {
	struct git_sweep *s;
	const char *jobs_dir;
	int qfd; /* the quarantine folder, -1 until the first item */
	bool ctime_ok;
	/* walking one of the roots (not a nested repository), and in its
	 * hooks folder that the launcher kept read-only */
	bool root_walk, in_kept_hooks;
	dev_t dev;
	char path[PATH_MAX]; /* the directory being read */
	char *nested[SWEEP_NESTED_MAX];
	/* the work tree of each nested repository found through a gitlink
	 * (whose own index's gitlinks lie there), else NULL */
	char *nested_tree[SWEEP_NESTED_MAX];
	size_t n_nested;
	const char *tree; /* the work tree the gitlinks at hand are relative to */
	char keys[512];   /* the names git_defuse_* reported for the file at hand */
	int n_keys;
	/* git_sweep_recheck_worktree() met a core.worktree that is gone */
	bool worktree_gone;
	/* git_sweep_run(), which sweeps what is past the list; not
	 * git_sweep_nested_gitdirs(), which lists (overflow: it could not) */
	bool sweeping, overflow;
	unsigned unkept_depth; /* sweeps on the way now under way */
	/* the gitdirs swept on the way (SWEEP_UNKEPT_MAX, made on the
	 * first), and how many; how many were set aside */
	struct {
		dev_t dev;
		ino_t ino;
	} * unkept;
	size_t n_unkept, n_unswept;
};

/* Whether st's ctime is not before t (a file time of the coarse clock):
 * it was made, written, renamed, linked or had its mode changed since. */
static inline bool git_sweep_ctime_since(const struct stat *st, const struct timespec *t)
{
	return st->st_ctim.tv_sec > t->tv_sec ||
	       (st->st_ctim.tv_sec == t->tv_sec && st->st_ctim.tv_nsec >= t->tv_nsec);
}

/* Whether what st describes changed (an entry made, renamed, removed; its
 * mode or link count changed) since the run began. */
static inline bool git_sweep_changed(const struct sweeper *w, const struct stat *st)
{
	return !w->ctime_ok || git_sweep_ctime_since(st, &w->s->since);
}

/* How a file's text is rewritten without what runs (git-defuse.h's
 * functions, a config file's with the text before the run). */
typedef int (*git_sweep_defuse_fn)(const char *text, size_t len, const char *before,
                                   size_t before_len, char **ret, size_t *ret_len, git_defuse_fn fn,
                                   void *userdata);

/* A config file's defuse for the sweeper w (userdata): git_defuse_config_since(),
 * keeping a submodule's core.worktree that git itself wrote
 * (git-sweep-defuse.c). */
int git_sweep_defuse_config(const char *text, size_t len, const char *before, size_t before_len,
                            char **ret, size_t *ret_len, git_defuse_fn fn, void *userdata);

/* A config file's defuse, for one the run did not change in a nested
 * repository's gitdir (w->path, the sweeper w as userdata): its
 * core.worktree disabled when it no longer leads to a folder of the
 * workspace whose .git names this gitdir back (a later run may have made
 * that folder a link out of it); nothing else (git-sweep-defuse.c). */
int git_sweep_recheck_worktree(const char *text, size_t len, const char *before, size_t before_len,
                               char **ret, size_t *ret_len, git_defuse_fn fn, void *userdata);

/* Rewrite dir/name (dir is w->path) with defuse when it holds what runs
 * (and, for a config file, what before, when not NULL, did not hold): the
 * original copied into the quarantine first; label names the kind
 * (git-sweep-defuse.c). */
void git_sweep_defuse_file(struct sweeper *w, int dir, const char *name, git_sweep_defuse_fn defuse,
                           const char *before, size_t before_len, const char *label);

/* The paused sequencer's todo lists in gitdir fd (w->path): their exec
 * lines disabled when the run made or changed them (git-sweep-defuse.c). */
void git_sweep_sequencer(struct sweeper *w, int fd);

/* Whether the file system of fd sets a file's ctime from this kernel's
 * clock on every change (the table in git-sweep.c), so that a ctime older
 * than the run's start says the run did not change the file. */
bool git_sweep_ctime_trusted(int fd);

/* Note an item found without the quarantine folder (git-later.c: an index
 * entry put back, a branch moved back, kept: the ref that holds the run's
 * commits, or NULL): listed and counted as the sweep's own are. */
void git_sweep_note_item(struct git_sweep *s, const char *path, const char *what, const char *kept);

/* Record that the sweep could not do all it should (s->error): the first
 * failure is kept, the one to read. */
void git_sweep_fail(struct git_sweep *s, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

#endif
