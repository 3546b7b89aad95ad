/* SPDX-License-Identifier: MIT */
/*
 * A folder's entries before a run (folder-snapshot.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "run/folder-snapshot.h"
#include "run/git-later-refs.h"
#include "run/git-sweep-state.h"

int folder_snapshot_take(int at, const char *path, size_t max, struct folder_snapshot *f)
{
	*f = (struct folder_snapshot){ .entry = NULL };
	if (fstatat(at, path, &f->st, AT_SYMLINK_NOFOLLOW) < 0) {
		f->error = neg_errno();
		return 0;
	}
	int fd = openat(at, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_closedir_ DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		safe_close(fd);
		return 0; /* not listed */
	}
	f->listed = true;
	for (struct dirent *de; f->listed && (de = readdir(d));) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (f->n >= max) {
			f->listed = false;
			break;
		}
		if (f->n % 64 == 0) {
			struct folder_entry *e = reallocarray(f->entry, f->n + 64, sizeof(*e));
			if (!e)
				return -ENOMEM;
			f->entry = e;
		}
		struct folder_entry *e = &f->entry[f->n];
		if (fstatat(dirfd(d), de->d_name, &e->st, AT_SYMLINK_NOFOLLOW) < 0)
			f->listed = false; /* gone already */
		else if (!(e->name = strdup(de->d_name)))
			return -ENOMEM;
		else
			f->n++;
	}
	return 0;
}

void folder_snapshot_done(struct folder_snapshot *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->entry[i].name);
	free(f->entry);
	*f = (struct folder_snapshot){ .entry = NULL };
}

const struct folder_entry *folder_snapshot_find(const struct folder_snapshot *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->entry[i].name, name) == 0)
			return &f->entry[i];
	return NULL;
}

bool folder_snapshot_changed(const struct folder_snapshot *f, const char *name,
                             const struct stat *st, const struct timespec *since)
{
	if (!f->listed)
		return !since || git_sweep_ctime_since(st, since);
	const struct folder_entry *e = folder_snapshot_find(f, name);
	return !e || !git_later_same_file(0, st, 0, &e->st) || st->st_mode != e->st.st_mode;
}
