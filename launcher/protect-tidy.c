/* SPDX-License-Identifier: MIT */
/*
 * The removal of the launcher's empty protected folders once no run holds
 * them (protect-tidy.h says why and when).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "launch-spec.h"
#include "protect-tidy.h"

/* Whether fd (a folder) carries the launcher's mark. */
static bool marked(int fd)
{
	char value[sizeof(LAUNCH_MADE_XATTR_VALUE)];
	ssize_t n = fgetxattr(fd, LAUNCH_MADE_XATTR, value, sizeof(value));
	return n == (ssize_t)strlen(LAUNCH_MADE_XATTR_VALUE) &&
	       memcmp(value, LAUNCH_MADE_XATTR_VALUE, (size_t)n) == 0;
}

/* The name of entry's folder ("NAME/" or "DIR/NAME/", no pattern) in
 * name, and the length of its "DIR/" part in *ret_dir_len; false for
 * another entry. */
static bool folder_entry(const char *entry, char *name, size_t size, size_t *ret_dir_len)
{
	size_t len = strlen(entry);
	if (len < 2 || entry[len - 1] != '/' || strpbrk(entry, "*?["))
		return false;
	size_t start = len - 1;
	while (start > 0 && entry[start - 1] != '/')
		start--;
	if (len - 1 - start >= size)
		return false;
	memcpy(name, entry + start, len - 1 - start);
	name[len - 1 - start] = '\0';
	*ret_dir_len = start;
	return true;
}

/* The folder entries of spec whose "DIR/" part is that of entry first
 * (the first of them), their folders removed when the launcher marked
 * them and they are empty, all under one exclusive lock of DIR taken
 * without waiting: a run that covers one holds DIR shared
 * (protected-paths.c). */
static void remove_group(const struct launch_spec *spec, unsigned first)
{
	char name[NAME_MAX + 1];
	size_t dir_len;
	(void)folder_entry(spec->protect[first], name, sizeof(name), &dir_len);
	/* DIR opened from the workspace without following a symlink (one
	 * made there leads elsewhere: left alone), then as a folder to lock */
	char folder[PATH_MAX];
	size_t folder_len = strlen(spec->protect[first]) - 1; /* without its "/" */
	if (folder_len >= sizeof(folder))
		return;
	memcpy(folder, spec->protect[first], folder_len);
	folder[folder_len] = '\0';
	_cleanup_close_ int path_fd = open_entry_folder(spec->workspace, folder);
	_cleanup_close_ int dir =
	        path_fd < 0 ? -1 : openat(path_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0 || flock(dir, LOCK_EX | LOCK_NB) < 0)
		return; /* gone, or a run covers its folders */
	for (unsigned i = first; i < spec->n_protect; i++) {
		size_t len;
		if (!folder_entry(spec->protect[i], name, sizeof(name), &len) || len != dir_len ||
		    strncmp(spec->protect[i], spec->protect[first], dir_len) != 0)
			continue;
		_cleanup_close_ int fd =
		        openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		/* not marked: the user's; not empty: the user's files now */
		if (fd >= 0 && marked(fd))
			(void)unlinkat(dir, name, AT_REMOVEDIR);
	}
}

/* Whether an earlier folder entry of spec has the "DIR/" part of entry i
 * (its group was removed with that one). */
static bool grouped_before(const struct launch_spec *spec, unsigned i, size_t dir_len)
{
	char name[NAME_MAX + 1];
	for (unsigned j = 0; j < i; j++) {
		size_t len;
		if (folder_entry(spec->protect[j], name, sizeof(name), &len) && len == dir_len &&
		    strncmp(spec->protect[j], spec->protect[i], dir_len) == 0)
			return true;
	}
	return false;
}

/* Every group of folder entries, unless a run of the same jobs directory
 * holds the runs' lock (--protect-lock): taken exclusively without
 * waiting, and held while the folders go. */
static void remove_all(const struct launch_spec *spec)
{
	_cleanup_close_ int runs = -1;
	if (spec->protect_lock) {
		runs = open(spec->protect_lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (runs < 0 || flock(runs, LOCK_EX | LOCK_NB) < 0)
			return; /* a run covers them */
	}
	char name[NAME_MAX + 1];
	for (unsigned i = 0; i < spec->n_protect; i++) {
		size_t dir_len;
		if (folder_entry(spec->protect[i], name, sizeof(name), &dir_len) &&
		    !grouped_before(spec, i, dir_len))
			remove_group(spec, i);
	}
}

/* The forked tidier: apart from its caller's session, streams and
 * descriptors, it waits, lets go of lock, removes, and ends. */
static _Noreturn void tidier(const struct launch_spec *spec, int lock)
{
	(void)setsid();
	sigset_t none;
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	(void)chdir("/");
	int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (int fd = 0; null_fd >= 0 && fd <= 2; fd++)
		(void)dup2(null_fd, fd);
	int keep[] = { lock };
	(void)fd_close_from_except(3, keep, 1);
	uint64_t ms = spec->tidy_after_ms;
	struct timespec left = { .tv_sec = (time_t)(ms / 1000),
		                 .tv_nsec = (long)(ms % 1000) * 1000000 };
	while (nanosleep(&left, &left) < 0 && errno == EINTR)
		;
	(void)close(lock);
	remove_all(spec);
	_exit(0);
}

int protect_tidy(const struct launch_spec *spec, struct sluice_error *err)
{
	_cleanup_close_ int lock =
	        open(spec->tidy_lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (lock < 0)
		return sluice_error_set(err, neg_errno(), "the lock file '%s'", spec->tidy_lock);
	if (flock(lock, LOCK_EX | LOCK_NB) < 0)
		return errno == EWOULDBLOCK ? 0 /* a tidier waits already */
		                            : sluice_error_set(err, neg_errno(), "locking '%s'",
		                                               spec->tidy_lock);
	if (spec->tidy_after_ms == 0) {
		remove_all(spec);
		return 0;
	}
	pid_t pid = fork();
	if (pid < 0)
		return sluice_error_set(err, neg_errno(), "starting the tidier");
	if (pid == 0)
		tidier(spec, lock);
	return 0;
}
