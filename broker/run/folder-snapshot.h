/* SPDX-License-Identifier: MIT */
/*
 * A folder's entries as they were before a run, to tell after it which
 * ones the run made or changed (folder-snapshot.c): each entry's name and
 * stat(2), whose ctime every write, rename, link or mode change sets and
 * no process can set back. The checks after a run that must not trust a
 * clock (a rebase-apply session, git's packs and their caches) compare
 * against it.
 * Not for: walking a tree (one folder, its entries only).
 */
#ifndef SLUICE_FOLDER_SNAPSHOT_H
#define SLUICE_FOLDER_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>

struct folder_entry {
	char *name; /* malloc'd */
	struct stat st;
};

struct folder_snapshot {
	int error;      /* 0, or the folder's stat's -errno */
	struct stat st; /* the folder's own */
	/* every entry is in entry: not past the bound, none gone while read */
	bool listed;
	struct folder_entry *entry;
	size_t n;
};

/* The folder path of at, into f: its stat, and its entries' (at most max;
 * past them, or where it cannot be read, f->listed is false). 0, or
 * -ENOMEM. */
int folder_snapshot_take(int at, const char *path, size_t max, struct folder_snapshot *f);

void folder_snapshot_done(struct folder_snapshot *f);

/* The entry called name when f was taken, or NULL. */
const struct folder_entry *folder_snapshot_find(const struct folder_snapshot *f, const char *name);

/* Whether the entry name, whose stat is now st, is not as it was when f
 * was taken: where f is listed, another inode, size, time or mode, or no
 * such entry then; where not, its ctime not before since (since NULL:
 * every entry counts as changed). */
bool folder_snapshot_changed(const struct folder_snapshot *f, const char *name,
                             const struct stat *st, const struct timespec *since);

#endif
