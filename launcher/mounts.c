/* SPDX-License-Identifier: MIT */
/*
 * The mounts of the private namespace, made with the mount API of Linux
 * 5.12 (open_tree, move_mount, mount_setattr, fsopen): no pivot_root, no
 * new root, no walk over the host's mounts. In order:
 *
 *   1. nothing propagates out: every mount a slave (one recursive call);
 *   2. detached copies of the writable paths, taken while still writable;
 *   3. everything read-only (one recursive call): chmod, chown, times,
 *      xattrs and ACLs fail with EROFS outside the writable paths, which
 *      Landlock has no rights for;
 *   4. copies of what must stay read-only inside the writable paths (the
 *      repository's hooks and config, the --protect paths, --read-only
 *      paths), taken now that they are read-only;
 *   5. with --tmpdir, the private /tmp: a tmpfs with a size cap, holding
 *      the way (empty folders, or an empty file) to each path of the plan
 *      that lies in /tmp, so that a workspace there stays where it was;
 *   6. that tmpfs mounted on /tmp, then every copy moved into place, outer
 *      paths before inner ones, then the --hide paths covered by read-only
 *      copies of an empty folder or file made for a moment in /tmp;
 *   7. a minimal /dev (dev.h) over the host's.
 *
 * Each path costs two or three system calls; the host's mounts are only
 * walked by the two recursive calls, inside the kernel.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/mount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "dev.h"
#include "git-paths.h"
#include "monotonic.h"
#include "mounts.h"
#include "namespaces.h"
#include "options.h"
#include "protected-paths.h"
#include "protections.h"
#include "path-text.h"

#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

/* Enough for the workspace, every --rw, --read-only and --hide path, the
 * repository's paths and the --protect ones. */
#define MOUNT_PLAN_MAX                                                                   \
	(1 + LAUNCH_MAX_RW + LAUNCH_MAX_READ_ONLY + LAUNCH_MAX_HIDE + LAUNCH_MAX_COVER + \
	 GIT_PATHS_MAX + PROTECTED_PATHS_MAX)

/* The covers of the --hide paths, made in the private /tmp and removed
 * once bound. */
#define TMPFS_COVERS ".sluice-covers"
#define TMPFS_EMPTY_DIR "empty-dir"
#define TMPFS_EMPTY_FILE "empty-file"

enum entry_kind {
	ENTRY_WRITABLE,  /* a copy taken before step 3 */
	ENTRY_READ_ONLY, /* a copy taken after step 3 */
	ENTRY_HIDDEN,    /* an empty directory or file from the tmpfs */
};

struct mount_entry {
	char *path; /* absolute and canonical (ENTRY_HIDDEN: as given); owned */
	enum entry_kind kind;
	bool is_dir; /* ENTRY_HIDDEN: which cover */
	int fd;      /* the detached copy; -1 until made */
};

struct mount_plan {
	struct mount_entry entries[MOUNT_PLAN_MAX];
	size_t n;
	bool hidden_covered; /* the covers are made: every ENTRY_HIDDEN gets one */
	char *tmp;           /* the canonical /tmp, with --tmpdir; owned */
};

static void plan_done(struct mount_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		free(plan->entries[i].path);
		if (plan->entries[i].fd >= 0)
			(void)close(plan->entries[i].fd);
	}
	free(plan->tmp);
}

static int sys_open_tree(int dfd, const char *path, unsigned flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags | OPEN_TREE_CLOEXEC);
}

/* Attach the detached copy fd at path (no symlink followed: paths here are
 * canonical). */
static int sys_move_mount(int fd, const char *path)
{
	return (int)syscall(SYS_move_mount, fd, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH);
}

static int sys_mount_setattr(int dfd, const char *path, unsigned flags, struct mount_attr *attr)
{
	return (int)syscall(SYS_mount_setattr, dfd, path, flags, attr, sizeof(*attr));
}

static int plan_add(struct mount_plan *plan, char *path, enum entry_kind kind, bool is_dir,
                    struct sluice_error *err)
{
	if (!path)
		return sluice_error_set(err, -ENOMEM, "planning the mounts");
	if (plan->n >= MOUNT_PLAN_MAX) {
		free(path);
		return sluice_error_set(err, -E2BIG, "more than %d mounts", MOUNT_PLAN_MAX);
	}
	plan->entries[plan->n++] = (struct mount_entry){ path, kind, is_dir, -1 };
	return 0;
}

/* The canonical form of an existing path; -ENOENT when it does not exist
 * (found so with one stat, not a readlink for each of its components). */
static int canonical(const char *path, char **ret, struct sluice_error *err)
{
	struct stat st;
	*ret = NULL;
	if (stat(path, &st) < 0 && errno == ENOENT)
		return -ENOENT;
	*ret = realpath(path, NULL);
	if (!*ret)
		return errno == ENOENT ? -ENOENT : sluice_error_set(err, neg_errno(), "'%s'", path);
	return 0;
}

/* Insert c (canonical, owned) in order of length, so that a path is placed
 * before the paths beneath it. */
static int plan_add_writable(struct mount_plan *plan, size_t first, char *c,
                             struct sluice_error *err)
{
	int r = plan_add(plan, c, ENTRY_WRITABLE, true, err);
	if (r < 0)
		return r;
	for (size_t i = plan->n - 1; i > first; i--) {
		struct mount_entry *a = &plan->entries[i - 1], *b = &plan->entries[i];
		if (strlen(a->path) <= strlen(b->path))
			break;
		struct mount_entry t = *a;
		*a = *b;
		*b = t;
	}
	return 0;
}

/* Whether path lies in one of the writable entries. */
static bool plan_in_writable(const struct mount_plan *plan, const char *path)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->entries[i].kind == ENTRY_WRITABLE &&
		    path_within(path, plan->entries[i].path))
			return true;
	return false;
}

/* The workspace's repository (git-paths.h), unless --git-writable: its
 * writable gitdirs (Landlock grants those outside the workspace too), and
 * what git trusts bound read-only where it lies in a writable path; with
 * --git-read-only (a background job, which outlives the sweep that would
 * undo what it plants while the user's git runs) the gitdirs read-only
 * too. A file
 * git would read that does not exist in a writable path outside the
 * workspace (where nothing is made) could be created by the command: the
 * run is refused. */
static int plan_git(struct mount_plan *plan, const char *workspace, bool read_only,
                    struct launch_state *state, struct sluice_error *err)
{
	struct git_paths git;
	int r = git_paths_find(workspace, &git, err);
	if (r < 0)
		return r;
	state->git_mounted = !git.unsupported;
	memcpy(state->git_read_only, git.outside_read_only, sizeof(state->git_read_only));
	for (size_t i = 0; r >= 0 && i < git.n; i++) {
		struct git_path *g = &git.items[i];
		bool writable = g->access == GIT_PATH_WRITABLE && !read_only;
		if (!writable && !plan_in_writable(plan, g->path))
			continue; /* read-only like everything else already */
		if (g->access == GIT_PATH_ABSENT) {
			r = sluice_error_set(
			        err, -EEXIST,
			        "'%s', which git's configuration names, does not exist "
			        "in a writable path, where the command could create it",
			        g->path);
			break;
		}
		if (writable && !path_within(g->path, workspace)) {
			if (state->n_git_outside >= ELEMENTSOF(state->git_outside)) {
				r = sluice_error_set(err, -E2BIG, "too many gitdirs outside '%s'",
				                     workspace);
				break;
			}
			state->git_outside[state->n_git_outside] = strdup(g->path);
			if (!state->git_outside[state->n_git_outside++]) {
				r = sluice_error_set(err, -ENOMEM, "planning the mounts");
				break;
			}
		}
		r = plan_add(plan, TAKE_PTR(g->path), writable ? ENTRY_WRITABLE : ENTRY_READ_ONLY,
		             true, err);
	}
	git_paths_done(&git);
	return r;
}

/* The --protect paths of the workspace that exist, read-only
 * (protected-paths.h). */
static int plan_protected(struct mount_plan *plan, const struct launch_spec *spec, const char *ws,
                          struct launch_state *state, struct sluice_error *err)
{
	struct protected_paths found;
	int r = protected_paths_find(ws, spec->protect, spec->n_protect, spec->protect_lock, &found,
	                             err);
	for (size_t i = 0; r >= 0 && i < found.n_present; i++)
		r = plan_add(plan, TAKE_PTR(found.present[i]), ENTRY_READ_ONLY, true, err);
	protected_paths_done(&found);
	state->protected_mounted = r >= 0;
	return r;
}

/* The --hide and --cover paths that exist (symlinks followed); nothing
 * canonical is needed: they are found again by name once everything else
 * is in place, and one inside another is already covered then. */
static int plan_hidden(struct mount_plan *plan, const struct launch_spec *spec,
                       struct sluice_error *err)
{
	for (unsigned i = 0; i < spec->n_hide + spec->n_cover; i++) {
		const char *path = i < spec->n_hide ? spec->hide[i] : spec->cover[i - spec->n_hide];
		struct stat st;
		if (stat(path, &st) < 0)
			continue; /* nothing to hide, or nothing we can see */
		int r = plan_add(plan, strdup(path), ENTRY_HIDDEN, S_ISDIR(st.st_mode), err);
		if (r < 0)
			return r;
	}
	return 0;
}

/* A read-only workspace (restricted) that lies in /tmp: a copy of its own,
 * so that the private /tmp (with --tmpdir) does not hide it. */
static int plan_read_only_workspace(struct mount_plan *plan, const struct launch_spec *spec,
                                    struct sluice_error *err)
{
	const char *given = spec->workspace ? spec->workspace : ".";
	_cleanup_free_ char *tmp = realpath(PRIVATE_TMP, NULL);
	char *ws = NULL;
	int r = canonical(given, &ws, err);
	if (r < 0)
		return sluice_error_set(err, r, "the workspace '%s'", given);
	if (!tmp || !path_within(ws, tmp) || strcmp(ws, tmp) == 0) {
		free(ws);
		return 0;
	}
	return plan_add(plan, ws, ENTRY_READ_ONLY, true, err);
}

static int plan_build(struct mount_plan *plan, const struct launch_spec *spec,
                      struct launch_state *state, struct sluice_error *err)
{
	int r = 0;
	bool writable_ws = spec->profile->workspace == WORKSPACE_WRITABLE;
	_cleanup_free_ char *ws = NULL;
	if (writable_ws) {
		r = canonical(spec->workspace ? spec->workspace : ".", &ws, err);
		if (r < 0)
			return sluice_error_set(err, r, "the workspace '%s'",
			                        spec->workspace ? spec->workspace : ".");
		char *copy = strdup(ws);
		r = copy ? plan_add_writable(plan, 0, copy, err) : -ENOMEM;
	}
	for (unsigned i = 0; r >= 0 && i < spec->n_rw; i++) {
		char *c;
		r = canonical(spec->rw[i], &c, err);
		if (r == -ENOENT)
			r = sluice_error_set(err, r, "the writable path '%s'", spec->rw[i]);
		if (r >= 0)
			r = plan_add_writable(plan, 0, c, err);
	}
	if (r >= 0 && writable_ws && !spec->git_writable)
		r = plan_git(plan, ws, spec->git_read_only, state, err);
	else
		state->git_mounted = true; /* nothing to protect: the workspace is writable whole */
	if (r >= 0 && writable_ws && spec->n_protect > 0)
		r = plan_protected(plan, spec, ws, state, err);
	for (unsigned i = 0; r >= 0 && i < spec->n_read_only; i++) {
		char *c;
		r = canonical(spec->read_only[i], &c, err);
		if (r == -ENOENT) {
			r = 0;
			continue;
		}
		if (r >= 0 && !plan_in_writable(plan, c)) {
			free(c); /* read-only like everything else already */
			continue;
		}
		if (r >= 0)
			r = plan_add(plan, c, ENTRY_READ_ONLY, true, err);
	}
	if (r >= 0 && !writable_ws && spec->tmpdir)
		r = plan_read_only_workspace(plan, spec, err);
	if (r >= 0)
		r = plan_hidden(plan, spec, err);
	return r;
}

/* Steps 2 and 4: a detached copy of each entry of kind. */
static int plan_copy(struct mount_plan *plan, enum entry_kind kind, struct sluice_error *err)
{
	for (size_t i = 0; i < plan->n; i++) {
		struct mount_entry *e = &plan->entries[i];
		if (e->kind != kind)
			continue;
		e->fd = sys_open_tree(AT_FDCWD, e->path, OPEN_TREE_CLONE | AT_RECURSIVE);
		if (e->fd < 0)
			return sluice_error_set(err, neg_errno(), "copying the mount of '%s'",
			                        e->path);
	}
	return 0;
}

/* A fresh tmpfs, detached: size bytes, its root mode (octal text) and
 * owned by uid:gid, no setuid programs, no devices of its own. */
static int tmpfs_make(uint64_t size, const char *mode, uid_t uid, gid_t gid, int *ret,
                      struct sluice_error *err)
{
	_cleanup_close_ int fs = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return sluice_error_set(err, neg_errno(), "fsopen tmpfs");
	char text[3][32];
	snprintf(text[0], sizeof(text[0]), "%llu", (unsigned long long)size);
	snprintf(text[1], sizeof(text[1]), "%u", (unsigned)uid);
	snprintf(text[2], sizeof(text[2]), "%u", (unsigned)gid);
	const char *const keys[] = { "size", "mode", "uid", "gid" };
	const char *const values[] = { text[0], mode, text[1], text[2] };
	/* the owner is who makes it, unless root makes it for --user */
	size_t n = uid == geteuid() && gid == getegid() ? 2 : ELEMENTSOF(keys);
	for (size_t i = 0; i < n; i++)
		if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, keys[i], values[i], 0) < 0)
			return sluice_error_set(err, neg_errno(), "tmpfs %s=%s", keys[i],
			                        values[i]);
	if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return sluice_error_set(err, neg_errno(), "creating a tmpfs");
	*ret = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (*ret < 0)
		return sluice_error_set(err, neg_errno(), "fsmount tmpfs");
	return 0;
}

/* Whether the folder way (relative to the tmpfs's root) was made on the
 * way to made, the previous way (its folders, and itself when a folder). */
static bool made_before(const char *made, bool made_dir, const char *way)
{
	size_t len = strlen(way);
	return strncmp(made, way, len) == 0 &&
	       (made[len] == '/' || (made[len] == '\0' && made_dir));
}

/* Make the way to path (canonical, beneath the tmpfs's root tmp) in the
 * detached tmpfs fd: its folders (0755), and the path itself, a folder or
 * an empty file as is_dir says; what exists already is kept. made holds
 * the previous way (empty at first): the folders it made are not made
 * again (the protected paths of a workspace in /tmp share its whole way);
 * it is this way on return. */
static int make_way(int fd, const char *tmp, const char *path, bool is_dir, char *made,
                    bool *made_dir, struct sluice_error *err)
{
	char way[PATH_MAX];
	if (snprintf(way, sizeof(way), "%s", path + strlen(tmp) + (strcmp(tmp, "/") != 0)) >=
	    (int)sizeof(way))
		return sluice_error_set(err, -ENAMETOOLONG, "'%s'", path);
	for (char *s = strchr(way, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (!made_before(made, *made_dir, way) && mkdirat(fd, way, 0755) < 0 &&
		    errno != EEXIST)
			return sluice_error_set(err, neg_errno(), "making the way to '%s' in %s",
			                        path, PRIVATE_TMP);
		*s = '/';
	}
	int r = is_dir ? mkdirat(fd, way, 0755)
	               : openat(fd, way, O_CREAT | O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (r < 0 && !(is_dir && errno == EEXIST))
		return sluice_error_set(err, neg_errno(), "making the way to '%s' in %s", path,
		                        PRIVATE_TMP);
	if (!is_dir)
		(void)close(r);
	memcpy(made, way, strlen(way) + 1);
	*made_dir = is_dir;
	return 0;
}

static int plan_ways(const struct mount_plan *plan, int fd, struct sluice_error *err)
{
	char made[PATH_MAX] = "";
	bool made_dir = false;
	for (size_t i = 0; i < plan->n; i++) {
		const struct mount_entry *e = &plan->entries[i];
		if (e->kind == ENTRY_HIDDEN)
			continue; /* what lies in /tmp is hidden by it already */
		if (path_within(plan->tmp, e->path))
			return sluice_error_set(err, -EINVAL,
			                        "'%s' holds %s, which is the sandbox's private "
			                        "%s: name a folder in it instead",
			                        e->path, PRIVATE_TMP, PRIVATE_TMP);
		if (!path_within(e->path, plan->tmp))
			continue;
		struct stat st;
		if (fstat(e->fd, &st) < 0)
			return sluice_error_set(err, neg_errno(), "the copy of '%s'", e->path);
		int r = make_way(fd, plan->tmp, e->path, S_ISDIR(st.st_mode), made, &made_dir, err);
		if (r < 0)
			return r;
	}
	_cleanup_free_ char *cwd = getcwd(NULL, 0);
	if (cwd && path_within(cwd, plan->tmp) && strcmp(cwd, plan->tmp) != 0)
		return make_way(fd, plan->tmp, cwd, true, made, &made_dir, err);
	return 0;
}

/* Step 5, with --tmpdir: the private /tmp, a tmpfs of spec->tmpdir_size
 * owned like --tmpdir (the command's user), mode 1777 as /tmp is, with the
 * ways to what the plan puts in /tmp; in it, when there is something to
 * hide, a folder of covers (an empty folder and an empty file, mode 0)
 * that plan_place() binds from and then removes. Returns the tmpfs in
 * *ret_tmp (-1 when none). Without --tmpdir, /tmp stays the host's, read
 * only, and Landlock hides the --hide paths. */
static int plan_private_tmp(struct mount_plan *plan, const struct launch_spec *spec, int *ret_tmp,
                            struct sluice_error *err)
{
	*ret_tmp = -1;
	if (!spec->tmpdir)
		return 0;
	struct stat st;
	if (stat(spec->tmpdir, &st) < 0)
		return sluice_error_set(err, neg_errno(), "the TMPDIR '%s'", spec->tmpdir);
	plan->tmp = realpath(PRIVATE_TMP, NULL);
	if (!plan->tmp)
		return sluice_error_set(err, neg_errno(), "'%s', where the private one goes",
		                        PRIVATE_TMP);
	int r = tmpfs_make(spec->tmpdir_size, "1777", st.st_uid, st.st_gid, ret_tmp, err);
	if (r >= 0)
		r = plan_ways(plan, *ret_tmp, err);
	if (r < 0)
		return r;
	bool hiding = false;
	for (size_t i = 0; i < plan->n && !hiding; i++)
		hiding = plan->entries[i].kind == ENTRY_HIDDEN;
	if (!hiding)
		return 0;
	int f = -1;
	if (mkdirat(*ret_tmp, TMPFS_COVERS, 0700) < 0 ||
	    mkdirat(*ret_tmp, TMPFS_COVERS "/" TMPFS_EMPTY_DIR, 0) < 0 ||
	    (f = openat(*ret_tmp, TMPFS_COVERS "/" TMPFS_EMPTY_FILE,
	                O_CREAT | O_EXCL | O_RDONLY | O_CLOEXEC, 0)) < 0)
		return sluice_error_set(err, neg_errno(), "making the covers of the hidden paths");
	(void)close(f);
	plan->hidden_covered = true;
	return 0;
}

/* Cover a hidden path: a read-only, noexec copy of the empty folder or
 * file in the private /tmp, on the path by name (symlinks followed), on
 * top of what is in place now. Gone: it was inside another hidden path,
 * covered, or in /tmp. /tmp itself is left: the private one hides it. */
static int cover(const struct mount_entry *e, const char *tmp, struct sluice_error *err)
{
	_cleanup_free_ char *c = realpath(e->path, NULL);
	if (c && strcmp(c, tmp) == 0)
		return 0;
	char source[PATH_MAX];
	snprintf(source, sizeof(source), "%s/%s/%s", tmp, TMPFS_COVERS,
	         e->is_dir ? TMPFS_EMPTY_DIR : TMPFS_EMPTY_FILE);
	_cleanup_close_ int fd = sys_open_tree(AT_FDCWD, source, OPEN_TREE_CLONE);
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOEXEC };
	if (fd < 0 || sys_mount_setattr(fd, "", AT_EMPTY_PATH, &ro) < 0)
		return sluice_error_set(err, neg_errno(), "copying '%s'", source);
	if (syscall(SYS_move_mount, fd, "", AT_FDCWD, e->path,
	            MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_SYMLINKS) < 0 &&
	    errno != ENOENT)
		return sluice_error_set(err, neg_errno(), "covering '%s'", e->path);
	return 0;
}

/* The covers' folder, once every hidden path has its copy: /tmp is left
 * empty, the copies keep what they show. */
static int remove_covers(const char *tmp, struct sluice_error *err)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", tmp, TMPFS_COVERS);
	_cleanup_close_ int dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0 || unlinkat(dir, TMPFS_EMPTY_DIR, AT_REMOVEDIR) < 0 ||
	    unlinkat(dir, TMPFS_EMPTY_FILE, 0) < 0 || rmdir(path) < 0)
		return sluice_error_set(err, neg_errno(), "removing '%s'", path);
	return 0;
}

/* Step 6: the private /tmp first (the ways in it lead to what lies
 * beneath), then in plan order: writable paths (outer first), the
 * repository's, --read-only, then the hidden ones. */
static int plan_place(struct mount_plan *plan, int tmp_fd, struct sluice_error *err)
{
	if (tmp_fd >= 0 && sys_move_mount(tmp_fd, plan->tmp) < 0)
		return sluice_error_set(err, neg_errno(), "mounting a tmpfs on '%s'", plan->tmp);
	for (size_t i = 0; i < plan->n; i++) {
		struct mount_entry *e = &plan->entries[i];
		int r = 0;
		if (e->kind == ENTRY_HIDDEN)
			r = plan->hidden_covered ? cover(e, plan->tmp, err) : 0;
		else if (sys_move_mount(e->fd, e->path) < 0)
			r = sluice_error_set(err, neg_errno(), "mounting on '%s'", e->path);
		if (r < 0)
			return r;
	}
	return plan->hidden_covered ? remove_covers(plan->tmp, err) : 0;
}

/* Whether an entry of the plan lies in /dev, which the minimal /dev would
 * cover. */
static bool plan_uses_dev(const struct mount_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->entries[i].kind != ENTRY_HIDDEN &&
		    path_within(plan->entries[i].path, "/dev"))
			return true;
	return false;
}

/* Step 7: a tmpfs on /dev holding only what dev.h lists, read-only. Not
 * over a writable or read-only path the plan put in /dev (a --rw
 * /dev/shm): the host's /dev stays, and minimal-dev is missing. */
static int plan_dev(const struct mount_plan *plan, struct launch_state *state,
                    struct sluice_error *err)
{
	if (plan_uses_dev(plan))
		return 0;
	_cleanup_close_ int fd = -1;
	int r = tmpfs_make(DEV_TMPFS_SIZE, "0755", geteuid(), getegid(), &fd, err);
	if (r >= 0)
		r = dev_populate(fd, err);
	if (r >= 0)
		r = dev_reopen_standard(err);
	if (r < 0)
		return r;
	state->enforced |= PROT_MINIMAL_DEV;
	return 0;
}

/* The working directory again by its name, so that it is the directory on
 * top of the new mounts, not the one beneath them. */
static int rechdir(struct sluice_error *err)
{
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return sluice_error_set(err, neg_errno(), "getcwd");
	if (chdir(cwd) < 0)
		return sluice_error_set(err, neg_errno(), "chdir '%s'", cwd);
	return 0;
}

/* No mount_setattr (before Linux 5.12): the namespace stays as it was
 * copied, and Landlock protects the repository its own way. */
static int mounts_unavailable(struct launch_state *state)
{
	state->git_mounted = false;
	state->protected_mounted = false;
	for (; state->n_git_outside > 0; state->n_git_outside--)
		free(state->git_outside[state->n_git_outside - 1]);
	return 0;
}

/* How long make_all_read_only() tries while a mount is busy. */
#define READ_ONLY_BUSY_US 500000
#define READ_ONLY_BUSY_PAUSE_NS 20000

/* Every mount of the namespace read-only; -errno. The kernel refuses
 * (EBUSY) while a process of this namespace holds a write access to one of
 * its mounts, and one does, for a moment: the monitor, building the
 * Landlock read rules beside this step (monitor.c), lists folders, and a
 * listing updates the folder's atime. Nothing here holds one for longer
 * (no file of this namespace is open for writing yet), so the call is
 * tried again, pausing so that the monitor may finish its write, for at
 * most READ_ONLY_BUSY_US. */
static int make_all_read_only(void)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
	uint64_t start = monotonic_us();
	while (sys_mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &ro) < 0) {
		if (errno != EBUSY || monotonic_us() - start > READ_ONLY_BUSY_US)
			return neg_errno();
		struct timespec pause = { 0, READ_ONLY_BUSY_PAUSE_NS };
		(void)nanosleep(&pause, NULL);
	}
	return 0;
}

int apply_mounts(const struct launch_spec *spec, struct launch_state *state,
                 struct sluice_error *err)
{
	if (state->namespace == NAMESPACE_NONE)
		return 0;
	_cleanup_(plan_done) struct mount_plan plan = { .n = 0 };
	int r = plan_build(&plan, spec, state, err);
	if (r < 0)
		return r;
	/* In a new user namespace the kernel made every mount a slave already
	 * (its copies are "less privileged"); with CAP_SYS_ADMIN alone, not.
	 * Before Linux 5.12 (no mount_setattr), nothing is mounted: Landlock
	 * alone, as without a namespace. */
	struct mount_attr slave = { .propagation = MS_SLAVE };
	if (state->namespace == NAMESPACE_PRIVILEGED &&
	    sys_mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &slave) < 0)
		return errno == ENOSYS
		               ? mounts_unavailable(state)
		               : sluice_error_set(err, neg_errno(), "making the mounts slaves");
	r = plan_copy(&plan, ENTRY_WRITABLE, err);
	if (r < 0)
		return r;
	r = make_all_read_only();
	if (r < 0)
		return r == -ENOSYS ? mounts_unavailable(state)
		                    : sluice_error_set(err, r, "making everything read-only");
	r = plan_copy(&plan, ENTRY_READ_ONLY, err);
	_cleanup_close_ int tmp_fd = -1;
	if (r >= 0)
		r = plan_private_tmp(&plan, spec, &tmp_fd, err);
	if (r >= 0)
		r = plan_place(&plan, tmp_fd, err);
	if (r >= 0)
		r = plan_dev(&plan, state, err);
	if (r >= 0)
		r = rechdir(err);
	if (r < 0)
		return r;
	state->enforced |= PROT_MOUNT_NAMESPACE;
	if (tmp_fd >= 0) {
		state->private_tmp = true;
		state->enforced |= PROT_PRIVATE_TMP | PROT_TMPDIR_TMPFS;
	}
	if (spec->n_read_only > 0)
		state->enforced |= PROT_READ_ONLY_PATHS;
	if (state->protected_mounted)
		state->enforced |= PROT_PROTECTED_PATHS;
	bool hiding = false;
	for (size_t i = 0; i < plan.n; i++)
		hiding |= plan.entries[i].kind == ENTRY_HIDDEN;
	state->hidden_mounted = !hiding || plan.hidden_covered;
	if (spec->n_hide + spec->n_cover > 0 && state->hidden_mounted)
		state->enforced |= PROT_HIDDEN_PATHS;
	return 0;
}
