/* SPDX-License-Identifier: MIT */
/*
 * Landlock for the sandboxed profiles. The ruleset handles every right the
 * plan asks for and this ABI knows; rules then grant back what the profile
 * allows. Rights on a directory apply to everything beneath it, and
 * Landlock has no "deny" rule: a read-only hole inside a writable tree can
 * only be made by granting the tree's entries one by one.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <linux/landlock.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "canonical-memo.h"
#include "cleanup.h"
#include "fd-passing.h"
#include "git-paths.h"
#include "mounts.h"
#include "protected-paths.h"
#include "protections.h"
#include "landlock.h"
#include "options.h"
#include "path-text.h"

/* The build machine's <linux/landlock.h> may predate the rights below;
 * these values are kernel ABI and never change. */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif

/* struct landlock_ruleset_attr as of ABI 6; older kernels accept the larger
 * struct as long as the fields they do not know are zero. */
struct ruleset_attr {
	__u64 handled_access_fs;
	__u64 handled_access_net; /* ABI 4 */
	__u64 scoped;             /* ABI 6 */
};

/* The rights of ABI 1 (Linux 5.13). */
#define ACCESS_FS_ABI1                                                    \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |     \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR |     \
	 LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE | \
	 LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |     \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |     \
	 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |   \
	 LANDLOCK_ACCESS_FS_MAKE_SYM)

/* Rights that make sense on a file (the kernel refuses others there). */
#define ACCESS_FILE                                                   \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV)

/* What everything gets: read and execute. */
#define ACCESS_READ \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)

/* What writable paths get: everything but device ioctls. */
#define ACCESS_WRITE (ACCESS_FS_ABI1 | LANDLOCK_ACCESS_FS_REFER | LANDLOCK_ACCESS_FS_TRUNCATE)

/* What the null-like devices get. */
#define ACCESS_DEVICE \
	(LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE)

/* Usable in every sandboxed profile; missing ones are skipped (a container
 * may lack /dev/full). */
static const char *const usable_devices[] = { "/dev/null", "/dev/zero", "/dev/full",
	                                      "/dev/urandom" };

/* The handled rights for the plan, each limited to the ABI that has it. */
static struct ruleset_attr ruleset_for_plan(uint32_t planned)
{
	struct ruleset_attr attr = { 0 };
	if (planned & PROT_LANDLOCK_FS)
		attr.handled_access_fs = ACCESS_FS_ABI1;
	/* ABI 2 (Linux 5.19) added REFER; without it, renames and links across
	 * directories are always denied, which is stricter, not weaker. */
	if (planned & PROT_LANDLOCK_REFER)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
	/* ABI 3 (Linux 6.2) added TRUNCATE. */
	if (planned & PROT_LANDLOCK_TRUNCATE)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
	/* ABI 4 (Linux 6.7) added TCP bind and connect. No rule grants a port:
	 * with the network denied, every TCP bind and connect is refused. */
	if (planned & PROT_LANDLOCK_TCP)
		attr.handled_access_net =
		        LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP;
	/* ABI 5 (Linux 6.10) added IOCTL_DEV; no rule grants it. */
	if (planned & PROT_LANDLOCK_IOCTL_DEV)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	/* ABI 6 (Linux 6.12) added scoping of abstract unix sockets and signals
	 * to the sandbox. ABI 7 (Linux 6.15) only adds audit-log flags. */
	if (planned & PROT_LANDLOCK_SCOPE_UNIX)
		attr.scoped |= LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
	if (planned & PROT_LANDLOCK_SCOPE_SIGNAL)
		attr.scoped |= LANDLOCK_SCOPE_SIGNAL;
	return attr;
}

/* Grant access (limited to what the ruleset handles, and to file rights for
 * a non-directory) on the object fd refers to. */
static int add_rule_fd(int ruleset, int fd, __u64 access, __u64 handled, const char *what,
                       struct sluice_error *err)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return sluice_error_set(err, neg_errno(), "stat '%s'", what);
	if (!S_ISDIR(st.st_mode))
		access &= ACCESS_FILE;
	struct landlock_path_beneath_attr rule = {
		.allowed_access = access & handled,
		.parent_fd = fd,
	};
	if (rule.allowed_access == 0)
		return 0;
	if (syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) < 0)
		return sluice_error_set(err, neg_errno(), "adding a rule for '%s'", what);
	return 0;
}

/* The same for a path; O_PATH, so opening grants nothing by itself. */
static int add_rule_path(int ruleset, int dirfd, const char *path, int flags, __u64 access,
                         __u64 handled, struct sluice_error *err)
{
	_cleanup_close_ int fd = openat(dirfd, path, O_PATH | O_CLOEXEC | flags);
	if (fd < 0)
		return sluice_error_set(err, neg_errno(), "opening '%s'", path);
	return add_rule_fd(ruleset, fd, access, handled, path, err);
}

/* A set of canonical paths to leave out of a grant: the --hide paths, or
 * the workspace's .git, core.hooksPath folder and --protect paths (a
 * pattern among them keeps its folder uncreatable, matching nothing). */
#define PATH_SET_GIT (1 + GIT_PATHS_MAX + PROTECTED_PATHS_MAX + PROTECTED_PATTERNS_MAX)
#define PATH_SET_HIDDEN (LAUNCH_MAX_HIDE + LAUNCH_MAX_COVER)
struct path_set {
	/* .git, what git trusts, the --protect paths; or the hidden ones */
	char *paths[PATH_SET_GIT > PATH_SET_HIDDEN ? PATH_SET_GIT : PATH_SET_HIDDEN];
	size_t n;
	/* add_around() passes over the remounted folders (the monitor's
	 * rules: its child grants those, below) */
	bool skip_remounted;
};

/* The folders the mounts put a new filesystem on: the private /tmp, the
 * minimal /dev, the PID namespace's /proc. Landlock, walking up from a
 * file, passes over a mount point that a filesystem covers: a rule on what
 * was there before does not reach the new one. The monitor builds its
 * rules before the mounts, so its child grants these itself. */
static const char *const remounted[] = { PRIVATE_TMP, "/dev", "/proc" };

static bool is_remounted(const char *path)
{
	for (size_t i = 0; i < ELEMENTSOF(remounted); i++)
		if (strcmp(path, remounted[i]) == 0)
			return true;
	return false;
}
_Static_assert(PATH_SET_HIDDEN <= ELEMENTSOF(((struct path_set *)0)->paths),
               "a path set holds every --hide and --cover path");

static void path_set_done(struct path_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->paths[i]);
}

/* 2: path is in the set; 1: an ancestor of one; 0: neither. */
static int path_set_relation(const struct path_set *set, const char *path)
{
	int rel = 0;
	for (size_t i = 0; i < set->n; i++) {
		if (strcmp(set->paths[i], path) == 0)
			return 2;
		if (path_within(set->paths[i], path))
			rel = 1;
	}
	return rel;
}

/* Landlock has no "deny": to grant access on dir (canonical) but not on
 * the paths of the set, grant it on each entry of dir but those, and
 * descend into the entries that lead to one. Symlinks get a rule on the
 * link, never on its target. Entries made after the launch are not
 * covered. */
static int add_around(int ruleset, const char *dir, const struct path_set *set, __u64 access,
                      __u64 handled, struct sluice_error *err)
{
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return sluice_error_set(err, neg_errno(), "reading '%s'", dir);
	DIR *d = fdopendir(fd);
	if (!d)
		return sluice_error_set(err, neg_errno(), "reading '%s'", dir);
	(void)TAKE_FD(fd); /* the stream owns it now */
	int r = 0;
	for (;;) {
		errno = 0;
		const struct dirent *de = readdir(d);
		if (!de) {
			if (errno)
				r = sluice_error_set(err, neg_errno(), "reading '%s'", dir);
			break;
		}
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		char child[PATH_MAX];
		if (snprintf(child, sizeof(child), "%s/%s", strcmp(dir, "/") == 0 ? "" : dir,
		             de->d_name) >= (int)sizeof(child))
			continue;
		if (set->skip_remounted && is_remounted(child))
			continue;
		int rel = path_set_relation(set, child);
		if (rel == 1)
			r = add_around(ruleset, child, set, access, handled, err);
		else if (rel == 0)
			r = add_rule_path(ruleset, dirfd(d), de->d_name, O_NOFOLLOW, access,
			                  handled, err);
		if (r == -ENOENT || r == -EACCES)
			r = 0; /* gone meanwhile, or not ours to reach anyway */
		if (r < 0)
			break;
	}
	(void)closedir(d);
	return r;
}

/* The --protect paths into keep: what exists, and what must not be made
 * (a missing file, a pattern), whose folder then gets no rule. */
static int keep_protected(const struct launch_spec *spec, const char *canonical,
                          struct path_set *keep, struct sluice_error *err)
{
	struct protected_paths found;
	int r = protected_paths_find(canonical, spec->protect, spec->n_protect, spec->protect_lock,
	                             &found, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < found.n_present; i++)
		keep->paths[keep->n++] = TAKE_PTR(found.present[i]);
	for (size_t i = 0; i < found.n_absent; i++)
		keep->paths[keep->n++] = TAKE_PTR(found.absent[i]);
	protected_paths_done(&found);
	return 0;
}

/* Workspace-write without the mounts that protect the repository or the
 * --protect paths: the workspace is writable around them, because rights
 * on the workspace directory would reach .git/hooks and .git/config
 * beneath it, and a .git file (a worktree's or a submodule's "gitdir:"
 * line) rewritten, or the entry replaced, would point git at a repository
 * the command made; a missing protected file could be made. So the
 * workspace directory itself stays read-only, and so does each folder on
 * the way to a protected path. Around what else in the workspace git
 * trusts too (git_paths_keep(): core.hooksPath folders, the files git's
 * configuration includes, a symlinked .git's target). */
/* Whether add_workspace() must grant the workspace around what it holds
 * (the repository, the --protect paths): the mounts did not protect them. */
static bool workspace_carved(const struct launch_spec *spec, const struct launch_state *state,
                             int wsfd, bool *ret_around_git)
{
	struct stat st;
	/* a directory, a file or a symlink: git follows each */
	bool has_git = fstatat(wsfd, ".git", &st, AT_SYMLINK_NOFOLLOW) == 0;
	/* the mounts protect the repository (mounts.c), or there is none */
	*ret_around_git = has_git && !spec->git_writable && !state->git_mounted;
	return *ret_around_git || (spec->n_protect > 0 && !state->protected_mounted);
}

/* Into keep: what git_paths_keep() finds for a workspace without a .git
 * (the user's system and global configuration: files it includes, its
 * core.hooksPath folders, the files themselves, where they lie here). */
static int keep_user_git_config(const char *ws, struct path_set *keep, struct sluice_error *err)
{
	_cleanup_free_ char *canonical = realpath(ws, NULL);
	if (!canonical)
		return sluice_error_set(err, neg_errno(), "the workspace '%s'", ws);
	struct git_paths git;
	int r = git_paths_keep(canonical, &git, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < git.n; i++)
		keep->paths[keep->n++] = TAKE_PTR(git.items[i].path);
	git.n = 0;
	return 0;
}

static int add_workspace(int ruleset, const struct launch_spec *spec, struct launch_state *state,
                         __u64 handled, struct sluice_error *err)
{
	const char *ws = spec->workspace ? spec->workspace : ".";
	_cleanup_close_ int wsfd = open(ws, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (wsfd < 0)
		return sluice_error_set(err, neg_errno(), "opening the workspace '%s'", ws);
	bool around_git;
	bool carved = workspace_carved(spec, state, wsfd, &around_git);
	bool around_protected = spec->n_protect > 0 && !state->protected_mounted;
	_cleanup_(path_set_done) struct path_set keep = { .n = 0 };
	struct stat st;
	if (fstatat(wsfd, ".git", &st, AT_SYMLINK_NOFOLLOW) < 0 && !spec->git_writable &&
	    !state->git_mounted) {
		/* no .git here: the files and hooks folders the user's own git
		 * configuration names in the workspace (git_paths_keep()), which
		 * the mounts did not protect */
		int r = keep_user_git_config(ws, &keep, err);
		if (r < 0)
			return r;
		carved = carved || keep.n > 0;
	}
	if (!carved) {
		int r = add_rule_fd(ruleset, wsfd, ACCESS_WRITE, handled, ws, err);
		if (r >= 0 && !spec->git_writable)
			state->enforced |= PROT_GIT_INCLUDES;
		return r;
	}
	_cleanup_free_ char *canonical = realpath(ws, NULL);
	if (!canonical)
		return sluice_error_set(err, neg_errno(), "the workspace '%s'", ws);
	if (around_git) {
		if (asprintf(&keep.paths[0], "%s/.git", canonical) < 0)
			return sluice_error_set(err, -ENOMEM, "the workspace '%s'", ws);
		keep.n = 1;
		struct git_paths git;
		int r = git_paths_keep(canonical, &git, err);
		if (r < 0)
			return r;
		for (size_t i = 0; i < git.n; i++)
			keep.paths[keep.n++] = TAKE_PTR(git.items[i].path);
		git.n = 0;
	}
	if (around_protected) {
		int r = keep_protected(spec, canonical, &keep, err);
		if (r < 0)
			return r;
	}
	int r = add_around(ruleset, canonical, &keep, ACCESS_WRITE, handled, err);
	if (r >= 0 && !spec->git_writable)
		state->enforced |= PROT_GIT_INCLUDES;
	return r;
}

/* The canonical writable paths of the spec, resolved once (each --hide
 * path is checked against them): its --rw paths, its TMPDIR (the one step
 * "private-tmpdir" chose) and a writable workspace. */
struct writable_set {
	char *paths[LAUNCH_MAX_RW + 2];
	size_t n;
};

static void writable_set_done(struct writable_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->paths[i]);
}

/* A path that cannot be resolved is left out: nothing lies in it now. */
static void writable_set_init(const struct launch_spec *spec, const struct launch_state *state,
                              struct writable_set *set)
{
	const char *writable[LAUNCH_MAX_RW + 2];
	size_t n = 0;
	for (unsigned i = 0; i < spec->n_rw; i++)
		writable[n++] = spec->rw[i];
	if (state->tmpdir)
		writable[n++] = state->tmpdir;
	if (spec->profile->workspace == WORKSPACE_WRITABLE)
		writable[n++] = spec->workspace ? spec->workspace : ".";
	set->n = 0;
	for (size_t i = 0; i < n; i++) {
		char *c = realpath(writable[i], NULL);
		if (c)
			set->paths[set->n++] = c;
	}
}

/* Whether the canonical path lies in a path of the set. */
static bool within_writable(const struct writable_set *set, const char *path)
{
	for (size_t i = 0; i < set->n; i++)
		if (path_within(path, set->paths[i]))
			return true;
	return false;
}

/* Read everywhere but the --hide paths: listing stays granted everywhere
 * (names in a hidden folder can be listed, not read) and read is granted
 * around them, entry by entry in each folder on the way to one. Also
 * where the mounts covered them: a cover lasts only as long as the name it
 * sits on, and the user's own tools replace a file by renaming a new one
 * onto it (git credential-store, an editor's safe save), which detaches
 * the cover in every other mount namespace; the new file, made after the
 * launch, then has no rule here. A missing one likewise: made later, its
 * folder grants nothing for it. One inside a writable path cannot be
 * hidden: PROT_HIDDEN_PATHS is then missing, unless the mounts hid it.
 * The --cover paths only where there are no mounts (options.h). */
static int add_read_around(int ruleset, const struct launch_spec *spec, struct launch_state *state,
                           struct path_set *hidden, __u64 handled, struct sluice_error *err);

static int add_read(int ruleset, const struct launch_spec *spec, struct launch_state *state,
                    __u64 handled, struct sluice_error *err)
{
	unsigned n_cover = state->hidden_mounted ? 0 : spec->n_cover;
	if (spec->n_hide + n_cover == 0)
		return add_rule_path(ruleset, AT_FDCWD, "/", O_DIRECTORY, ACCESS_READ, handled,
		                     err);
	_cleanup_(path_set_done) struct path_set hidden = { .n = 0 };
	return add_read_around(ruleset, spec, state, &hidden, handled, err);
}

/* add_read() with --hide paths, their canonical forms left in *hidden. */
static int add_read_around(int ruleset, const struct launch_spec *spec, struct launch_state *state,
                           struct path_set *hidden, __u64 handled, struct sluice_error *err)
{
	unsigned n_cover = state->hidden_mounted ? 0 : spec->n_cover;
	_cleanup_(writable_set_done) struct writable_set writable = { .n = 0 };
	_cleanup_(canonical_memo_done) struct canonical_memo memo = { .n = 0 };
	if (!state->hidden_mounted) /* else the mounts hid them, wherever they lie */
		writable_set_init(spec, state, &writable);
	bool inside_writable = false;
	for (unsigned i = 0; i < spec->n_hide + n_cover; i++) {
		const char *path = i < spec->n_hide ? spec->hide[i] : spec->cover[i - spec->n_hide];
		bool exists;
		char *c = canonical_memo_resolve(&memo, path, &exists);
		if (!c)
			continue; /* "..", or out of memory: nothing there to hide now */
		if (exists && !state->hidden_mounted) /* else the mounts hid it */
			inside_writable |= within_writable(&writable, c);
		hidden->paths[hidden->n++] = c;
	}
	int r = add_rule_path(ruleset, AT_FDCWD, "/", O_DIRECTORY,
	                      hidden->n ? LANDLOCK_ACCESS_FS_READ_DIR : ACCESS_READ, handled, err);
	if (r >= 0 && hidden->n)
		r = add_around(ruleset, "/", hidden, ACCESS_READ, handled, err);
	if (r >= 0 && !inside_writable)
		state->enforced |= PROT_HIDDEN_PATHS;
	return r;
}

/* Without the mounts, a --read-only path holds only outside the writable
 * paths, where everything is read-only. */
static void check_read_only(const struct launch_spec *spec, struct launch_state *state)
{
	if (spec->n_read_only == 0 || (state->enforced & PROT_READ_ONLY_PATHS))
		return;
	_cleanup_(writable_set_done) struct writable_set writable = { .n = 0 };
	writable_set_init(spec, state, &writable);
	for (unsigned i = 0; i < spec->n_read_only; i++) {
		_cleanup_free_ char *c = realpath(spec->read_only[i], NULL);
		if (c && within_writable(&writable, c))
			return;
	}
	state->enforced |= PROT_READ_ONLY_PATHS;
}

/* The TMPDIR, writable. A grant on the private /tmp would reach a
 * workspace that lies in it, beneath which the repository (or a --protect
 * path) the mounts could not protect must stay read-only: then /tmp is
 * granted around the workspace, so what is in it now is writable and
 * nothing can be made in /tmp itself. */
static int add_tmpdir(int ruleset, const struct launch_spec *spec, struct launch_state *state,
                      __u64 handled, struct sluice_error *err)
{
	const char *ws = spec->workspace ? spec->workspace : ".";
	_cleanup_close_ int wsfd = -1;
	_cleanup_(path_set_done) struct path_set keep = { .n = 0 };
	bool around_git;
	if (state->private_tmp && spec->profile->workspace == WORKSPACE_WRITABLE &&
	    (wsfd = open(ws, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0 &&
	    workspace_carved(spec, state, wsfd, &around_git)) {
		_cleanup_free_ char *tmp = realpath(state->tmpdir, NULL);
		keep.paths[0] = realpath(ws, NULL);
		keep.n = keep.paths[0] ? 1 : 0;
		if (tmp && keep.n && path_within(keep.paths[0], tmp))
			return add_around(ruleset, tmp, &keep, ACCESS_WRITE, handled, err);
	}
	return add_rule_path(ruleset, AT_FDCWD, state->tmpdir, O_DIRECTORY, ACCESS_WRITE, handled,
	                     err);
}

static int add_rules(int ruleset, const struct launch_spec *spec, struct launch_state *state,
                     __u64 handled, bool read_granted, struct sluice_error *err)
{
	int r = read_granted ? 0 : add_read(ruleset, spec, state, handled, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < ELEMENTSOF(usable_devices); i++) {
		r = add_rule_path(ruleset, AT_FDCWD, usable_devices[i], 0, ACCESS_DEVICE, handled,
		                  err);
		if (r == -ENOENT)
			continue;
		if (r < 0)
			return r;
	}
	if (state->tmpdir) {
		r = add_tmpdir(ruleset, spec, state, handled, err);
		if (r < 0)
			return r;
	}
	for (unsigned i = 0; i < spec->n_rw; i++) {
		r = add_rule_path(ruleset, AT_FDCWD, spec->rw[i], 0, ACCESS_WRITE, handled, err);
		if (r < 0)
			return r;
	}
	/* the tools' caches the overlays made writable (overlays.h) */
	for (unsigned i = 0; i < state->n_overlaid; i++) {
		r = add_rule_path(ruleset, AT_FDCWD, state->overlaid[i], O_DIRECTORY, ACCESS_WRITE,
		                  handled, err);
		if (r < 0)
			return r;
	}
	/* the workspace's repository outside it, when the mounts protect it */
	for (unsigned i = 0; i < state->n_git_outside; i++) {
		r = add_rule_path(ruleset, AT_FDCWD, state->git_outside[i], O_DIRECTORY,
		                  ACCESS_WRITE, handled, err);
		if (r < 0)
			return r;
	}
	if (spec->profile->workspace == WORKSPACE_WRITABLE)
		return add_workspace(ruleset, spec, state, handled, err);
	return 0;
}

/* Whether step "monitor"'s parent builds add_read()'s rules for this run
 * (landlock_send_read_rules()): only where they cost something. */
bool landlock_reads_ahead(const struct launch_spec *spec, const struct launch_state *state)
{
	return (state->planned & PROT_LANDLOCK_ANY) != 0 && spec->n_hide > 0;
}

/* The most text of hidden paths in remounted folders the monitor sends. */
#define REMOUNTED_HIDDEN_MAX 16384

void landlock_send_read_rules(const struct launch_spec *spec, const struct launch_state *state,
                              int sock)
{
	struct ruleset_attr attr = ruleset_for_plan(state->planned & PROT_LANDLOCK_ANY);
	_cleanup_close_ int ruleset =
	        (int)syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	/* as the child will find them once its mounts have hidden the paths;
	 * where they did not, it builds its own (apply_landlock()) */
	struct launch_state mounted = *state;
	mounted.hidden_mounted = true;
	struct sluice_error err = { 0 };
	_cleanup_(path_set_done) struct path_set hidden = { .n = 0, .skip_remounted = true };
	/* the message: "R", then the hidden paths in the remounted folders,
	 * each ended by a NUL, with which the child grants around them */
	char text[REMOUNTED_HIDDEN_MAX];
	size_t len = 0;
	text[len++] = 'R';
	int r = ruleset >= 0 ? add_read_around(ruleset, spec, &mounted, &hidden,
	                                       attr.handled_access_fs, &err)
	                     : -1;
	for (size_t i = 0; r >= 0 && i < hidden.n; i++) {
		bool within = false;
		for (size_t k = 0; k < ELEMENTSOF(remounted); k++)
			within |= path_within(hidden.paths[i], remounted[k]);
		size_t n = strlen(hidden.paths[i]) + 1;
		if (!within)
			continue;
		if (len + n > sizeof(text))
			r = -1; /* more than the child takes: it builds them all */
		else
			memcpy(text + len, hidden.paths[i], n), len += n;
	}
	if (r >= 0)
		(void)fds_send_message(sock, text, len, &ruleset, 1);
	(void)close(sock); /* nothing sent: end of file, and the child builds them */
}

/* The remounted folders' read rules on the monitor's ruleset: each as
 * add_around() would have granted it, had the rules been built after the
 * mounts, from the hidden paths in them the monitor sent (text[0..len),
 * NUL-ended). */
static int add_remounted(int ruleset, char *text, size_t len, __u64 handled,
                         struct sluice_error *err)
{
	struct path_set hidden = { .n = 0 }; /* borrows from text */
	for (size_t at = 0; at < len && hidden.n < ELEMENTSOF(hidden.paths);
	     at += strlen(text + at) + 1)
		hidden.paths[hidden.n++] = text + at;
	int r = 0;
	for (size_t i = 0; r >= 0 && i < ELEMENTSOF(remounted); i++) {
		int rel = path_set_relation(&hidden, remounted[i]);
		if (rel == 1)
			r = add_around(ruleset, remounted[i], &hidden, ACCESS_READ, handled, err);
		else if (rel == 0)
			r = add_rule_path(ruleset, AT_FDCWD, remounted[i], O_DIRECTORY, ACCESS_READ,
			                  handled, err);
		if (r == -ENOENT || r == -EACCES)
			r = 0; /* as add_around() takes a folder that is not there */
	}
	return r;
}

/* The ruleset with add_read()'s rules that step "monitor"'s parent built
 * meanwhile, when it did and the mounts hid the --hide paths as it
 * assumed; else -1, and the caller builds them. */
/* "R", then nothing or NUL-ended paths. */
static bool message_whole(const char *text, size_t len)
{
	return len >= 1 && text[0] == 'R' && (len == 1 || text[len - 1] == '\0');
}

static int read_rules_ahead(struct launch_state *state, __u64 handled)
{
	if (state->read_rules_fd < 0)
		return -1;
	int ruleset = -1;
	char text[REMOUNTED_HIDDEN_MAX + 1];
	size_t len = 0;
	struct sluice_error ignored = { 0 };
	if (state->hidden_mounted &&
	    (fds_receive_message(state->read_rules_fd, text, sizeof(text) - 1, &len, &ruleset, 1) <
	             0 ||
	     !message_whole(text, len) ||
	     add_remounted(ruleset, text + 1, len - 1, handled, &ignored) < 0)) {
		if (ruleset >= 0)
			(void)close(ruleset);
		ruleset = -1;
	}
	(void)close(state->read_rules_fd);
	state->read_rules_fd = -1;
	if (ruleset >= 0)
		state->enforced |= PROT_HIDDEN_PATHS; /* as add_read() with the mounts' */
	return ruleset;
}

int apply_landlock(const struct launch_spec *spec, struct launch_state *state,
                   struct sluice_error *err)
{
	uint32_t planned = state->planned & PROT_LANDLOCK_ANY;
	if (planned == 0)
		return 0; /* unrestricted, or no Landlock and --best-effort */

	struct ruleset_attr attr = ruleset_for_plan(planned);
	_cleanup_close_ int ruleset = read_rules_ahead(state, attr.handled_access_fs);
	bool read_granted = ruleset >= 0;
	if (!read_granted)
		ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0)
		return sluice_error_set(err, neg_errno(), "creating the ruleset (ABI %d)",
		                        state->landlock_abi);
	int r = add_rules(ruleset, spec, state, attr.handled_access_fs, read_granted, err);
	if (r < 0)
		return r;
	/* no_new_privs was set by the privileges step; restrict_self needs it. */
	if (syscall(__NR_landlock_restrict_self, ruleset, 0) < 0)
		return sluice_error_set(err, neg_errno(), "restricting this process");
	state->enforced |= planned;
	/* the mounts bound them, or add_workspace() carved around them */
	if (spec->n_protect > 0 && spec->profile->workspace == WORKSPACE_WRITABLE)
		state->enforced |= PROT_PROTECTED_PATHS;
	check_read_only(spec, state);
	return 0;
}

int landlock_restrict_to_files(uint32_t planned, const char *const *files, size_t n,
                               struct sluice_error *err)
{
	/* the network is this process's job: TCP stays unhandled */
	struct ruleset_attr attr =
	        ruleset_for_plan(planned & PROT_LANDLOCK_ANY & ~PROT_LANDLOCK_TCP);
	if (attr.handled_access_fs == 0)
		return 0; /* no Landlock, and --best-effort */
	_cleanup_close_ int ruleset =
	        (int)syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0)
		return sluice_error_set(err, neg_errno(), "creating a ruleset");
	for (size_t i = 0; i < n; i++) {
		int r = add_rule_path(ruleset, AT_FDCWD, files[i], 0, LANDLOCK_ACCESS_FS_READ_FILE,
		                      attr.handled_access_fs, err);
		if (r == -ENOENT || r == -EACCES)
			continue; /* a file this system does not have: nothing to read */
		if (r < 0)
			return r;
	}
	if (syscall(__NR_landlock_restrict_self, ruleset, 0) < 0)
		return sluice_error_set(err, neg_errno(), "restricting this process");
	return 0;
}
