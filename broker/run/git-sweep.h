/* SPDX-License-Identifier: MIT */
/*
 * The post-run sweep of a sandboxed run's repository. The command may
 * write the workspace's gitdir (and, from a linked worktree, the main
 * repository's), so it can leave there what the user's own git, run later
 * outside the sandbox, follows or runs: a symbolic link where git writes
 * (.git/logs/HEAD, COMMIT_EDITMSG, FETCH_HEAD: the user's next commit
 * writes ~/.bashrc), a FIFO where git reads (info/exclude: git status
 * hangs), a socket or device node, a second name of a file git writes in
 * place; a nested repository (a gitlink, .git/modules/, .git/worktrees/)
 * whose config or hooks run a program; config keys that send the user's
 * later push elsewhere (url.*.insteadOf, a remote's url, a branch's push
 * remote; git-defuse.h), and legacy remote files (remotes/NAME,
 * branches/NAME); an exec line in a paused rebase's todo list. Git itself
 * makes none of the first kind nor legacy remote files, so they are moved
 * to a quarantine folder; the others are disabled in place, a copy of the
 * original kept in the quarantine folder. Every entry of a gitdir is
 * looked at but the object store's fan-out folders, which are read only
 * when their ctime says the run changed them (docs/running.md, "The
 * sweep", argues it); config files, hooks and todo lists likewise only
 * when the run made or changed them.
 * Not for: what the sandbox keeps read-only (the launcher), or the
 * workspace outside its repositories.
 */
#ifndef SLUICE_GIT_SWEEP_H
#define SLUICE_GIT_SWEEP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

/* The gitdirs swept at most (a workspace's own, a linked worktree's and
 * its common directory's). */
#define GIT_SWEEP_ROOTS_MAX 4
/* Items listed at most; more are counted. */
#define GIT_SWEEP_ITEMS_MAX 64
/* The symbolic links of the roots' hooks folders noted before the run, at
 * most; one past them is swept as any other. */
#define GIT_SWEEP_HOOK_LINKS_MAX 64

struct git_sweep_item {
	char *path; /* where it was (absolute) */
	char *what; /* "symbolic link to /home/u/.bashrc", "core.fsmonitor", "exec make" */
	char *kept; /* its copy in the quarantine folder, or NULL (none could be kept) */
};

/* A symbolic link in a root's hooks folder before the run, and the file it
 * led to then. */
struct git_sweep_hook_link {
	dev_t dev;
	ino_t ino;
	bool target_exists;
	dev_t target_dev;
	ino_t target_ino;
};

struct git_sweep {
	char *workspace;
	char *roots[GIT_SWEEP_ROOTS_MAX]; /* the gitdirs, resolved before the run */
	size_t n_roots;
	struct timespec since; /* the run's start, less the margin of coarse clocks */
	/* [sandbox] git_writable: the roots' own config and hooks were
	 * writable. Otherwise the launcher kept them read-only, and one that
	 * changed near the run's start was changed by the user, not the run. */
	bool roots_config_writable;
	/* The roots' config and config.worktree (git_sweep_config_files) as
	 * they were before the run, NULL where there was none or it could not
	 * be read as text. The launcher's read-only bind on one lasts only as
	 * long as the file: should the user's own git replace it while the
	 * run lasts (a lock file renamed onto it), the kernel detaches the
	 * bind in the sandbox too, and the command can write the new file. So
	 * a root's config that changed is swept like a nested one's, but what
	 * it held before the run stays. */
	char *config_before[GIT_SWEEP_ROOTS_MAX][2];
	size_t config_before_len[GIT_SWEEP_ROOTS_MAX][2];
	/* The symbolic links in the roots' hooks folders before the run (a
	 * common way to share hooks: `ln -s ../../scripts/pre-commit
	 * .git/hooks/pre-commit`). With those folders kept read-only (not
	 * roots_config_writable), a link that still leads to the same file,
	 * unchanged since the run began (or that led nowhere and still does),
	 * is the user's own and stays; the launcher kept its target read-only
	 * too where it could. */
	struct git_sweep_hook_link hook_links[GIT_SWEEP_HOOK_LINKS_MAX];
	size_t n_hook_links;

	/* after git_sweep_run(): */
	bool ran;
	char *quarantine; /* the folder, made on the first item; NULL: none */
	struct git_sweep_item items[GIT_SWEEP_ITEMS_MAX];
	size_t n_items, n_found; /* n_found counts those not listed too */
	char error[256];         /* what the sweep could not do, or "" */
	uint64_t directories;    /* directories looked at (the cost) */
	uint64_t duration_us;
};

/*
 * Before the run: note the time and find the workspace's gitdirs: its
 * .git directory, or for a .git file, the gitdir it names and that
 * gitdir's common directory, when git registered them both ways (the
 * gitdir's "gitdir" file names this .git back; the common directory's
 * worktrees/NAME is that gitdir) or the gitdir is a submodule's
 * (".../modules/NAME"), and they belong to the caller. Nothing else text
 * in the workspace names is ever swept. Each root's config files are read
 * (config_before). Returns 0 (no repository: nothing to sweep) or -ENOMEM.
 */
int git_sweep_begin(struct git_sweep *s, const char *workspace);

/* The gitdirs of the nested repositories the workspace's index names (and
 * theirs, in turn, and the common directories their commondir files name
 * in the workspace), found as the sweep finds them, that lie outside the
 * workspace's own gitdirs: before a background job starts, to be kept
 * read-only, since it outlives the sweep (spawner.h). Appended to *ret
 * (a strv); 0 or -ENOMEM. */
int git_sweep_nested_gitdirs(struct git_sweep *s, char ***ret);

/*
 * After every process of the run is gone: sweep. The quarantine folder is
 * made in jobs_dir (sluice's private directory) when something is found.
 * Returns the number of things found (0: nothing), or -errno when the sweep
 * could not be done (s->error says what); what was found before that is in
 * s->items all the same.
 */
int git_sweep_run(struct git_sweep *s, const char *jobs_dir);

/* The result's "gitSweep" object (a new reference), or json_null() when
 * nothing was found and nothing failed. */
json_t *git_sweep_to_json(const struct git_sweep *s);

/* The lines a model reads, nothing when nothing was found. */
void git_sweep_write_text(const struct git_sweep *s, FILE *f);

/* One line for a job's output and the like: "N things ... kept in DIR". */
int git_sweep_summary(const struct git_sweep *s, char *buf, size_t size);

void git_sweep_done(struct git_sweep *s);

#endif
