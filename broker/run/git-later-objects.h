/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the object store (git-later-objects.c). git
 * names an object by its content's hash but reads it without checking
 * that hash, and the run may write `objects/`. So a command can write the
 * loose object file of a tree or a blob of HEAD's (or of any branch's)
 * over with its own content, leaving every ref, the index and the pre-run
 * HEAD's id as they were; the user's `git reset --hard`, `git checkout`
 * or `git switch` then writes the command's file at a protected name.
 * A pack whose index names an object of the user's at the command's
 * content does the same, and so does a commit-graph or a multi-pack-index
 * (git reads a commit's tree from the one, an object's place from the
 * other). After the run, before the rest of the check reads any object:
 * each loose object file made or changed since the run began (its ctime,
 * which no process can set back) is inflated and hashed; each pack, and
 * the commit-graph and multi-pack-index, made or changed (against a list
 * of their folders taken before the run) is verified by git (`git
 * index-pack --verify`, `git commit-graph verify`, `git multi-pack-index
 * verify`). What does not hold what its name says is moved into the
 * common directory's sluice-blocked/ (NAME.sluice-blocked), where git
 * neither reads it nor warns of it, and reported.
 * Not for: anyone but git-later.c.
 */
#ifndef SLUICE_GIT_LATER_OBJECTS_H
#define SLUICE_GIT_LATER_OBJECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "run/folder-snapshot.h"

struct git_later;
struct git_sweep;

enum git_later_object_folder {
	OBJECTS_PACK,   /* objects/pack */
	OBJECTS_INFO,   /* objects/info */
	OBJECTS_GRAPHS, /* objects/info/commit-graphs */
	OBJECTS_FOLDERS
};

struct git_later_objects {
	struct folder_snapshot folder[OBJECTS_FOLDERS];
};

/* Before the run, in the common directory cfd: the folders' entries.
 * 0, or -ENOMEM. */
int git_later_objects_take(struct git_later_objects *o, int cfd);

/* After the run: what the run made or changed in the object store that
 * does not hold what its name says set aside, each noted in s's items.
 * Returns the number. */
int git_later_objects_end(struct git_later *g, struct git_sweep *s);

void git_later_objects_done(struct git_later_objects *o);

#endif
