/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the object store (git-later-objects.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "run/git-later-git.h"
#include "run/git-later-objects.h"
#include "run/git-later-refs.h"
#include "run/git-later.h"
#include "run/git-object-check.h"
#include "run/git-sweep-state.h"
#include "run/protect-watch.h"

/* Entries listed before the run in each folder, at most: a repository
 * has a few packs; past this every pack is verified after a run. */
#define OBJECT_FILES_MAX 4096

static const char *const folders[OBJECTS_FOLDERS] = {
	[OBJECTS_PACK] = "objects/pack",
	[OBJECTS_INFO] = "objects/info",
	[OBJECTS_GRAPHS] = "objects/info/commit-graphs",
};

/* name in dir (at path), to read (NULL: none). */
static DIR *open_dir(int dir, const char *name)
{
	int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (fd >= 0 && !d)
		close(fd);
	return d;
}

int git_later_objects_take(struct git_later_objects *o, int cfd)
{
	for (unsigned i = 0; i < OBJECTS_FOLDERS; i++) {
		int r = folder_snapshot_take(cfd, folders[i], OBJECT_FILES_MAX, &o->folder[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

void git_later_objects_done(struct git_later_objects *o)
{
	for (unsigned i = 0; i < OBJECTS_FOLDERS; i++)
		folder_snapshot_done(&o->folder[i]);
}

/* Whether name in dir (folder i) is not as it was before the run (new,
 * another file, or written: its ctime); one gone since counts as not. */
static bool changed(const struct git_later *g, unsigned i, int dir, const char *name)
{
	struct stat st;
	return fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       folder_snapshot_changed(&g->objects.folder[i], name, &st, NULL);
}

/* What fails is moved out of the object store, into this folder of the
 * common directory: git warns of every name it does not know there ("bad
 * sha1 file", "garbage found") on each gc or count-objects after. */
#define BLOCKED_FOLDER "sluice-blocked"

/* name in dir (folder, of the common directory) moved into the common
 * directory's BLOCKED_FOLDER (made on the first), as base.sluice-blocked;
 * where that cannot be (the command made the name a link, another file
 * system), set aside where it lies. Its new name, relative to the common
 * directory, in aside; 0, or -errno. */
static int move_aside(const struct git_later *g, int dir, const char *folder, const char *name,
                      const char *base, char aside[PATH_MAX])
{
	char to[NAME_MAX + 1];
	_cleanup_close_ int cfd = open(g->common, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cfd >= 0)
		(void)mkdirat(cfd, BLOCKED_FOLDER, 0700);
	_cleanup_close_ int bfd = cfd < 0 ? -1
	                                  : openat(cfd, BLOCKED_FOLDER,
	                                           O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int r = bfd < 0 ? -ENOTDIR
	                : protect_watch_set_aside_at(dir, name, bfd, base, to, sizeof(to));
	if (r == 0) {
		snprintf(aside, PATH_MAX, BLOCKED_FOLDER "/%s", to);
		return 0;
	}
	r = protect_watch_set_aside(dir, name, to, sizeof(to));
	if (r == 0)
		snprintf(aside, PATH_MAX, "%s/%s", folder, to);
	return r;
}

/* name in dir (folder, of the common directory) set aside and noted with
 * what: 1, or -errno (noted as the sweep's failure). */
static int set_aside(struct git_later *g, struct git_sweep *s, int dir, const char *folder,
                     const char *name, const char *what)
{
	char aside[PATH_MAX];
	int r = move_aside(g, dir, folder, name, name, aside);
	_cleanup_free_ char *path = NULL, *text = NULL;
	if (asprintf(&path, "%s/%s/%s", g->common, folder, name) < 0)
		return -ENOMEM;
	if (r < 0) {
		git_sweep_fail(
		        s,
		        "the check of what git would restore later: %s, %s, could not be set "
		        "aside: %s; remove it before git reset --hard, git checkout or git "
		        "switch",
		        path, what, strerror(-r));
		return r;
	}
	if (asprintf(&text, "%s; moved to %s/%s", what, g->common, aside) < 0)
		return -ENOMEM;
	git_sweep_note_item(s, path, text, NULL);
	return 1;
}

/* --- loose objects ------------------------------------------------------- */

/* Loose objects set aside, kept to be written again where the work tree
 * holds them, then noted. */
#define LOOSE_BAD_MAX 64
struct loose_bad {
	char hex[65];
	char aside[PATH_MAX]; /* relative to the common directory */
	char *path;           /* the work tree's file it was written again from (relative to
	              * the repository's work tree), or NULL */
};

struct loose_check {
	struct loose_bad bad[LOOSE_BAD_MAX];
	size_t n;
};

static void note_loose(struct git_later *g, struct git_sweep *s, const struct loose_bad *b)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	if (asprintf(&path, "%s/objects/%.2s/%s", g->common, b->hex, b->hex + 2) < 0 ||
	    asprintf(&text,
	             "the run wrote a loose object whose content is not the object its name "
	             "says (git reads it without checking: git reset --hard, checkout or "
	             "switch would write that content); moved to %s/%s%s%s%s%s",
	             g->common, b->aside, b->path ? ", the object written again from " : "",
	             b->path && g->prefix ? g->prefix : "", b->path && g->prefix ? "/" : "",
	             b->path ? b->path
	                     : " (git fsck names the object as missing if nothing else holds it)") <
	            0)
		return;
	git_sweep_note_item(s, path, text, NULL);
}

/* The loose objects of the fan-out folder d (called fan, "ab") made or
 * written since the run began (every one where ctime cannot tell),
 * checked, and those that fail set aside into c. A file written in place
 * leaves its folder's ctime as it was, so each file's own is read. */
static void check_fanout(struct git_later *g, struct git_sweep *s, DIR *d, const char *fan,
                         bool ctime_ok, struct loose_check *c)
{
	for (struct dirent *de; (de = readdir(d));) {
		if (!git_later_is_hex(de->d_name, g->hex_len - 2))
			continue; /* not an object git reads (tmp_obj_..., .sluice-blocked) */
		struct stat st;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || (ctime_ok && !git_sweep_ctime_since(&st, &s->since)))
			continue; /* gone, not a file (the sweep's), or the user's before */
		struct loose_bad b = { .path = NULL };
		snprintf(b.hex, sizeof(b.hex), "%s%.62s", fan, de->d_name);
		char folder[sizeof("objects/") + 2];
		snprintf(folder, sizeof(folder), "objects/%.2s", fan);
		int r = git_loose_object_check(dirfd(d), de->d_name, b.hex);
		if (r == 1 || r == -ENOENT)
			continue;
		if (r == 0)
			r = move_aside(g, dirfd(d), folder, de->d_name, b.hex, b.aside);
		if (r < 0) {
			git_sweep_fail(
			        s,
			        "the check of what git would restore later: the loose object "
			        "%s, which the run wrote, could not be checked or set aside: "
			        "%s; run git fsck before git reset --hard or git checkout",
			        b.hex, strerror(-r));
			continue;
		}
		if (c->n < LOOSE_BAD_MAX)
			c->bad[c->n++] = b;
		else { /* past the list: not written again */
			g->objects_lost = true;
			note_loose(g, s, &b);
		}
	}
}

/* The blobs set aside that a file of the work tree holds (an index entry
 * names the id, and the file hashes to it: most often a protected file,
 * which the command could not change) written again, so that the user's
 * git reset --hard finds them as they were. */
static void write_again(struct git_later *g, struct loose_check *c)
{
	struct git_output o = { .data = NULL };
	const char *ls[] = { "ls-files", "-s", "-z", NULL };
	if (git_later_run(g, ls, -1, &o) < 0 || !WIFEXITED(o.status) || WEXITSTATUS(o.status)) {
		git_output_done(&o);
		return;
	}
	/* "MODE ID STAGE\tPATH\0" */
	for (char *p = o.data, *end = o.data + o.len; p < end; p += strlen(p) + 1) {
		char *tab = strchr(p, '\t');
		if (!tab || strncmp(p, "100", 3) != 0 || (size_t)(tab - p) < 7 + g->hex_len)
			continue;
		for (size_t i = 0; i < c->n; i++) {
			struct loose_bad *b = &c->bad[i];
			if (b->path || strncmp(p + 7, b->hex, g->hex_len) != 0)
				continue;
			struct git_output h = { .data = NULL };
			const char *args[] = { "hash-object", "-w",    "--no-filters",
				               "--",          tab + 1, NULL };
			if (git_later_run(g, args, -1, &h) == 0 && WIFEXITED(h.status) &&
			    WEXITSTATUS(h.status) == 0 && h.len >= g->hex_len &&
			    strncmp(h.data, b->hex, g->hex_len) == 0)
				b->path = strdup(tab + 1);
			git_output_done(&h);
		}
	}
	git_output_done(&o);
}

static int check_loose(struct git_later *g, struct git_sweep *s, int cfd)
{
	_cleanup_closedir_ DIR *objects = open_dir(cfd, "objects");
	if (!objects)
		return 0;
	bool ctime_ok = git_sweep_ctime_trusted(dirfd(objects));
	struct loose_check *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	/* the fan-out folders there are (one readdir, not 256 opens) */
	for (struct dirent *de; (de = readdir(objects));) {
		if (!git_later_is_hex(de->d_name, 2))
			continue;
		_cleanup_closedir_ DIR *fan = open_dir(dirfd(objects), de->d_name);
		if (fan)
			check_fanout(g, s, fan, de->d_name, ctime_ok, c);
	}
	if (c->n)
		write_again(g, c);
	int found = (int)c->n;
	for (size_t i = 0; i < c->n; i++) {
		g->objects_lost |= !c->bad[i].path;
		note_loose(g, s, &c->bad[i]);
		free(c->bad[i].path);
	}
	free(c);
	return found;
}

/* --- what git verifies ---------------------------------------------------- */

/* git ARGS in the repository: 1 when it says all is well, 0 when not (its
 * first words of stderr in why), -errno when it could not tell. */
static int git_says_ok(struct git_later *g, const char *const args[], char why[200])
{
	struct git_output o = { .data = NULL };
	int r = git_later_run(g, args, -1, &o);
	if (r == 0 && !WIFEXITED(o.status))
		r = -EINTR; /* killed */
	else if (r == 0 && WEXITSTATUS(o.status) == 0)
		r = 1;
	else if (r == 0) {
		snprintf(why, 200, "%s", o.err[0] ? o.err : "it failed");
		why[strcspn(why, "\n")] = '\0';
	}
	git_output_done(&o);
	return r;
}

static void could_not_verify(struct git_sweep *s, const char *what, int r)
{
	git_sweep_fail(s,
	               "the check of what git would restore later: %s, which the run wrote, "
	               "could not be verified (%s); run git fsck before git reset --hard or "
	               "git checkout",
	               what, strerror(-r));
}

/* Each pack whose .pack or .idx the run made or changed verified; one
 * that fails set aside, its index first (without it git reads no pack). */
static int check_packs(struct git_later *g, struct git_sweep *s, int cfd)
{
	_cleanup_closedir_ DIR *d = open_dir(cfd, folders[OBJECTS_PACK]);
	int found = 0;
	for (struct dirent *de; d && (de = readdir(d));) {
		size_t len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".idx") != 0 ||
		    strncmp(de->d_name, "pack-", 5) != 0)
			continue;
		char pack[NAME_MAX + 1];
		snprintf(pack, sizeof(pack), "%.*s.pack", (int)(len - 4), de->d_name);
		struct stat st;
		if (fstatat(dirfd(d), pack, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue; /* an index with no pack: git reads neither */
		if (!changed(g, OBJECTS_PACK, dirfd(d), de->d_name) &&
		    !changed(g, OBJECTS_PACK, dirfd(d), pack))
			continue;
		_cleanup_free_ char *path = NULL;
		if (asprintf(&path, "%s/%s/%s", g->common, folders[OBJECTS_PACK], pack) < 0)
			return -ENOMEM;
		const char *args[] = { "index-pack", "--verify", path, NULL };
		char why[200] = "";
		int r = git_says_ok(g, args, why);
		if (r < 0)
			could_not_verify(s, path, r);
		if (r != 0)
			continue;
		char what[400];
		snprintf(what, sizeof(what),
		         "the run wrote a pack whose objects are not what its index names (git "
		         "index-pack --verify: %s; git reads them without checking)",
		         why);
		r = set_aside(g, s, dirfd(d), folders[OBJECTS_PACK], de->d_name, what);
		/* the user's own pack, written over: its objects are gone */
		g->objects_lost |=
		        r > 0 && folder_snapshot_find(&g->objects.folder[OBJECTS_PACK], de->d_name);
		if (r > 0) {
			found++;
			(void)set_aside(g, s, dirfd(d), folders[OBJECTS_PACK], pack,
			                "the pack of that index");
		}
	}
	return found;
}

/* One of git's caches that say what an object holds or where it lies,
 * made or changed by the run, verified by git (verb verify), set aside
 * when it fails: git reads the objects themselves without it. */
struct object_cache {
	const char *verb; /* git VERB verify */
	unsigned folder;
	const char *name;
	const char *what, *then; /* the item: what, git's words, then */
};

static const struct object_cache caches[] = {
	{ "commit-graph", OBJECTS_INFO, "commit-graph",
	  "the run wrote a commit-graph that does not match the commits (git commit-graph "
	  "verify: ",
	  "; git reads a commit's tree from it, and git reset --hard would write that tree)" },
	{ "commit-graph", OBJECTS_INFO, "commit-graphs",
	  "the run wrote commit-graphs that do not match the commits (git commit-graph verify: ",
	  "; git reads a commit's tree from them, and git reset --hard would write that tree)" },
	{ "multi-pack-index", OBJECTS_PACK, "multi-pack-index",
	  "the run wrote a multi-pack-index that does not match the packs (git "
	  "multi-pack-index verify: ",
	  "; git finds objects through it)" },
};

/* Whether objects/info/commit-graphs has an entry the run made or
 * changed (written in place, one leaves the folder as it was). */
static bool graphs_changed(const struct git_later *g, int cfd)
{
	_cleanup_closedir_ DIR *d = open_dir(cfd, folders[OBJECTS_GRAPHS]);
	for (struct dirent *de; d && (de = readdir(d));)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 &&
		    changed(g, OBJECTS_GRAPHS, dirfd(d), de->d_name))
			return true;
	return false;
}

static int check_caches(struct git_later *g, struct git_sweep *s, int cfd)
{
	int found = 0;
	for (size_t i = 0; i < ELEMENTSOF(caches); i++) {
		const struct object_cache *c = &caches[i];
		_cleanup_close_ int dir = openat(cfd, folders[c->folder],
		                                 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (dir < 0 || fstatat(dir, c->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		bool graphs = strcmp(c->name, "commit-graphs") == 0;
		if (!(graphs && graphs_changed(g, cfd)) && !changed(g, c->folder, dir, c->name))
			continue;
		const char *args[] = { c->verb, "verify", NULL };
		char why[200] = "", what[600];
		int r = git_says_ok(g, args, why);
		if (r < 0)
			could_not_verify(s, c->name, r);
		if (r != 0)
			continue;
		snprintf(what, sizeof(what), "%s%s%s", c->what, why, c->then);
		found += set_aside(g, s, dir, folders[c->folder], c->name, what) > 0;
	}
	return found;
}

int git_later_objects_end(struct git_later *g, struct git_sweep *s)
{
	_cleanup_close_ int cfd = open(g->common, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cfd < 0)
		return 0;
	/* the objects first: git's verifications below read them */
	int found = 0, r = check_loose(g, s, cfd);
	found += r > 0 ? r : 0;
	r = check_packs(g, s, cfd);
	found += r > 0 ? r : 0;
	r = check_caches(g, s, cfd);
	found += r > 0 ? r : 0;
	return found;
}
