/* SPDX-License-Identifier: MIT */
/*
 * broker/run/run-tmpdir.c: a private TMPDIR is held while in use and taken for
 * abandoned only when nothing holds it; one made for another user is
 * theirs, and removing one another user owns runs as that user.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/jobs.h"
#include "run/run-tmpdir.h"
#include "scratch.h"

static char scratch[256];

static void setup(void)
{
	scratch_make(scratch, sizeof(scratch), "test-run-tmpdir");
}

static void teardown(void)
{
	scratch_remove(scratch);
}

TestSuite(run_tmpdir, .init = setup, .fini = teardown);

/* The uid and gid of nobody, or the test is skipped: it needs root. */
static const struct passwd *nobody_as_root(void)
{
	if (geteuid() != 0)
		cr_skip_test("needs root: only root can make a directory another user owns");
	const struct passwd *pw = getpwnam("nobody");
	if (!pw)
		cr_skip_test("this system has no user 'nobody'");
	return pw;
}

Test(run_tmpdir, a_held_tmpdir_is_not_abandoned_until_every_holder_lets_go)
{
	char *path = NULL;
	struct sluice_error err = { 0 };
	int hold = -1;
	cr_assert_eq(run_tmpdir_create(scratch, NULL, &path, &hold, &err), 0, "%s", err.detail);
	const char *name = strrchr(path, '/') + 1;
	cr_assert_eq(strncmp(name, RUN_TMPDIR_PREFIX, strlen(RUN_TMPDIR_PREFIX)), 0, "%s", name);
	int dir_fd = open(scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dir_fd, 0);
	cr_assert_geq(hold, 0, "it is held as it is made");
	/* a fork's copy holds it too (a background job's monitor) */
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		sleep(5);
		_exit(0);
	}
	close(hold);
	cr_assert(!run_tmpdir_abandoned(dir_fd, name), "the fork still holds it");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	cr_assert(run_tmpdir_abandoned(dir_fd, name));
	/* one its command made unreadable, too */
	cr_assert_eq(chmod(path, 0), 0);
	cr_assert(run_tmpdir_abandoned(dir_fd, name));
	cr_assert_eq(run_tmpdir_remove(path), 0);
	cr_assert_eq(access(path, F_OK), -1);
	close(dir_fd);
	free(path);
}

Test(run_tmpdir, one_made_for_another_user_is_theirs)
{
	const struct passwd *pw = nobody_as_root();
	char *path = NULL;
	struct sluice_error err = { 0 };
	int hold = -1;
	cr_assert_eq(run_tmpdir_create(scratch, "nobody", &path, &hold, &err), 0, "%s", err.detail);
	cr_assert_geq(hold, 0);
	close(hold);
	cr_assert_eq(strncmp(path, RUN_TMPDIR_USER_BASE "/" RUN_TMPDIR_USER_PREFIX,
	                     strlen(RUN_TMPDIR_USER_BASE "/" RUN_TMPDIR_USER_PREFIX)),
	             0, "%s", path);
	struct stat st;
	cr_assert_eq(lstat(path, &st), 0);
	cr_assert(S_ISDIR(st.st_mode));
	cr_assert_eq(st.st_uid, pw->pw_uid);
	cr_assert_eq(st.st_mode & 07777, 0700);
	cr_assert_eq(run_tmpdir_remove(path), 0);
	free(path);
	cr_assert_lt(run_tmpdir_create(scratch, "no-such-user-here", &path, &hold, &err), 0);
	cr_assert_null(path);
	cr_assert_eq(hold, -1);
	cr_assert(strstr(err.detail, "no user 'no-such-user-here'"), "%s", err.detail);
}

/* Root removing a directory another user owns does it as that user: what
 * only root could remove, planted inside, survives (a walk as root would
 * have taken it). */
Test(run_tmpdir, removing_another_users_directory_runs_as_that_user)
{
	const struct passwd *pw = nobody_as_root();
	char dir[512], inner[600], file[700];
	snprintf(dir, sizeof(dir), "%s/theirs", scratch);
	snprintf(inner, sizeof(inner), "%s/roots", dir);
	snprintf(file, sizeof(file), "%s/file", inner);
	cr_assert_eq(mkdir(dir, 0700), 0);
	cr_assert_eq(mkdir(inner, 0755), 0);
	int fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(chown(dir, pw->pw_uid, pw->pw_gid), 0);
	cr_assert_eq(chmod(scratch, 0755), 0); /* so that nobody reaches it */
	cr_assert_lt(run_tmpdir_remove(dir), 0);
	cr_assert_eq(access(file, F_OK), 0, "root's file inside was removed");
	/* root's own removal, with the directory given back, takes it all */
	cr_assert_eq(chown(dir, 0, 0), 0);
	cr_assert_eq(run_tmpdir_remove(dir), 0);
	cr_assert_eq(access(dir, F_OK), -1);
}

#define SWAP_FILES 20

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* A survivor of the command still runs while its TMPDIR is removed, and
 * swaps a directory full of files for a symlink to one outside, at the
 * worst moment: after the walk found the directory, before it opens it
 * (this test's build of run-tmpdir.c calls run_tmpdir_before_open_hook
 * there). The removal must not follow the symlink: opened by path, or
 * without O_NOFOLLOW, it empties the directory outside. */
static char swap_full[600], swap_moved[600], swap_victim[512];
static int swaps;

static void swap_for_symlink(int dir_fd, const char *name)
{
	(void)dir_fd;
	if (strcmp(name, "a") != 0 || swaps > 0)
		return;
	if (rename(swap_full, swap_moved) == 0 && symlink(swap_victim, swap_full) == 0)
		swaps++;
}

Test(run_tmpdir, a_directory_swapped_for_a_symlink_during_removal_is_not_followed)
{
	char dir[512], path[700];
	snprintf(dir, sizeof(dir), "%s/tmp", scratch);
	snprintf(swap_full, sizeof(swap_full), "%s/a", dir);
	snprintf(swap_moved, sizeof(swap_moved), "%s/a-moved", scratch);
	snprintf(swap_victim, sizeof(swap_victim), "%s/outside", scratch);
	cr_assert_eq(mkdir(dir, 0700), 0);
	cr_assert_eq(mkdir(swap_full, 0700), 0);
	cr_assert_eq(mkdir(swap_victim, 0700), 0);
	for (int i = 0; i < SWAP_FILES; i++) {
		snprintf(path, sizeof(path), "%s/f%d", swap_full, i);
		close(open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
		snprintf(path, sizeof(path), "%s/f%d", swap_victim, i);
		close(open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
	}
	swaps = 0;
	run_tmpdir_before_open_hook = swap_for_symlink;
	int r = run_tmpdir_remove(dir);
	run_tmpdir_before_open_hook = NULL;
	cr_assert_eq(swaps, 1, "the walk never came to open `a`: the swap was not made");
	cr_expect_eq(count_entries(swap_victim), SWAP_FILES,
	             "files outside were removed through the symlink");
	cr_expect_eq(r, 0, "the tree (the symlink left in the swap's place) was not removed: %d",
	             r);
	cr_expect_eq(access(dir, F_OK), -1);
}

/* ------------------------------------------------------------ the spare */

static char *spare_path(void)
{
	char *p = NULL;
	cr_assert_geq(asprintf(&p, "%s/" RUN_TMPDIR_SPARE, scratch), 0);
	return p;
}

static char *make_held(int *hold)
{
	char *path = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(run_tmpdir_create(scratch, NULL, &path, hold, &err), 0, "%s", err.detail);
	cr_assert_geq(*hold, 0);
	return path;
}

/* A run whose command never saw its TMPDIR leaves it as the spare, and the
 * next run takes that same directory, empty, 0700, held, under a new
 * tmp- name; nothing else is left in the jobs directory. */
Test(run_tmpdir, an_unseen_tmpdir_serves_the_next_run)
{
	int hold = -1;
	char *first = make_held(&hold);
	struct stat made, spare, again;
	cr_assert_eq(lstat(first, &made), 0);
	cr_assert_eq(run_tmpdir_release(first, true), 0);
	close(hold);
	char *sp = spare_path();
	cr_assert_eq(lstat(sp, &spare), 0, "no spare left: %s", strerror(errno));
	cr_assert_eq(spare.st_ino, made.st_ino);
	cr_assert_eq(access(first, F_OK), -1);
	/* a command of its own changed its mode; the next run gets 0700 back */
	cr_assert_eq(chmod(sp, 0755), 0);
	char *second = make_held(&hold);
	cr_assert_eq(lstat(second, &again), 0);
	cr_assert_eq(again.st_ino, made.st_ino, "the spare was not taken");
	cr_assert_eq(again.st_mode & 07777, 0700);
	cr_assert_neq(strcmp(first, second), 0, "a new name each time");
	cr_assert_eq(
	        strncmp(strrchr(second, '/') + 1, RUN_TMPDIR_PREFIX, strlen(RUN_TMPDIR_PREFIX)), 0,
	        "%s", second);
	cr_assert_eq(access(sp, F_OK), -1, "the spare is taken, not copied");
	int dir_fd = open(scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert(!run_tmpdir_abandoned(dir_fd, strrchr(second, '/') + 1), "not held");
	close(dir_fd);
	close(hold);
	cr_assert_eq(run_tmpdir_release(second, false), 0);
	cr_assert_eq(access(second, F_OK), -1, "one the command saw is removed");
	cr_assert_eq(access(sp, F_OK), -1, "and does not become the spare");
	free(first);
	free(second);
	free(sp);
}

/* One spare at most: a second unseen TMPDIR is removed. */
Test(run_tmpdir, one_spare_at_most)
{
	int h1 = -1, h2 = -1;
	char *a = make_held(&h1), *b = make_held(&h2);
	struct stat st_a, spare;
	cr_assert_eq(lstat(a, &st_a), 0);
	cr_assert_eq(run_tmpdir_release(a, true), 0);
	cr_assert_eq(run_tmpdir_release(b, true), 0);
	close(h1);
	close(h2);
	char *sp = spare_path();
	cr_assert_eq(lstat(sp, &spare), 0);
	cr_assert_eq(spare.st_ino, st_a.st_ino, "the first stays the spare");
	cr_assert_eq(access(b, F_OK), -1, "the second is removed");
	free(a);
	free(b);
	free(sp);
}

/* A spare that is not what it must be (not empty, a symlink, a file) is
 * never handed out: it is removed and a fresh TMPDIR made. */
Test(run_tmpdir, a_spare_that_is_not_empty_is_never_handed_out)
{
	char *sp = spare_path();
	char file[512];
	cr_assert_eq(mkdir(sp, 0700), 0);
	snprintf(file, sizeof(file), "%s/planted", sp);
	int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
	cr_assert_geq(fd, 0);
	close(fd);
	int hold = -1;
	char *path = make_held(&hold);
	int dir = open(path, O_RDONLY | O_DIRECTORY);
	cr_assert_geq(dir, 0);
	cr_assert_eq(faccessat(dir, "planted", F_OK, 0), -1, "a planted file reached the run");
	close(dir);
	cr_assert_eq(access(sp, F_OK), -1, "the bad spare is gone");
	close(hold);
	cr_assert_eq(run_tmpdir_release(path, false), 0);
	free(path);
	/* a symlink named as the spare, to a directory elsewhere */
	char target[512];
	snprintf(target, sizeof(target), "%s/elsewhere", scratch);
	cr_assert_eq(mkdir(target, 0700), 0);
	cr_assert_eq(symlink(target, sp), 0);
	path = make_held(&hold);
	struct stat st, t;
	cr_assert_eq(lstat(path, &st), 0);
	cr_assert_eq(stat(target, &t), 0, "the symlink's target was removed");
	cr_assert(S_ISDIR(st.st_mode));
	cr_assert_neq(st.st_ino, t.st_ino, "the symlink's target was handed out");
	close(hold);
	cr_assert_eq(run_tmpdir_release(path, false), 0);
	free(path);
	free(sp);
}

/* A spare of another group (the user's group changed since it was left) is
 * not handed out: the launcher gives its tmpfs the directory's group, which
 * a user namespace may not map. Needs root, to give it another group. */
Test(run_tmpdir, a_spare_of_another_group_is_never_handed_out)
{
	const struct passwd *pw = nobody_as_root();
	char *sp = spare_path();
	cr_assert_eq(mkdir(sp, 0700), 0);
	cr_assert_eq(chown(sp, (uid_t)-1, pw->pw_gid == getegid() ? pw->pw_gid + 1 : pw->pw_gid),
	             0);
	int hold = -1;
	char *path = make_held(&hold);
	struct stat st;
	cr_assert_eq(lstat(path, &st), 0);
	/* by its group, not its inode: a directory made after the spare was
	 * removed may get the same inode number */
	cr_assert_eq(st.st_gid, getegid(), "the spare of another group was handed out");
	cr_assert_eq(access(sp, F_OK), -1, "the bad spare is gone");
	close(hold);
	cr_assert_eq(run_tmpdir_release(path, false), 0);
	free(path);
	free(sp);
}

/* ------------------------------------------------- the shared mount point */

static char *share(char **fallback, int *hold)
{
	char *point = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(run_tmpdir_share(scratch, &point, fallback, hold, &err), 0, "%s", err.detail);
	cr_assert_geq(*hold, 0);
	return point;
}

/* The point is made once (0700), held while a run may use it, and the
 * fallback each run gets is a new name in it, not made. */
Test(run_tmpdir, the_shared_point_is_held_and_names_a_fresh_fallback_in_it)
{
	char *fb1 = NULL, *fb2 = NULL;
	int h1 = -1, h2 = -1;
	char *p1 = share(&fb1, &h1), *p2 = share(&fb2, &h2);
	struct stat st;
	cr_assert_eq(lstat(p1, &st), 0);
	cr_assert(S_ISDIR(st.st_mode));
	cr_assert_eq(st.st_mode & 07777, 0700);
	cr_assert_str_eq(p1, p2, "one point for every run");
	cr_assert_str_eq(strrchr(p1, '/') + 1, RUN_TMPDIR_SHARED);
	size_t n = strlen(p1);
	cr_assert(strncmp(fb1, p1, n) == 0 && fb1[n] == '/', "%s", fb1);
	cr_assert_eq(strncmp(fb1 + n + 1, RUN_TMPDIR_PREFIX, strlen(RUN_TMPDIR_PREFIX)), 0, "%s",
	             fb1);
	cr_assert_neq(strcmp(fb1, fb2), 0, "a new fallback name each time");
	cr_assert_eq(access(fb1, F_OK), -1, "the fallback is not made");
	int dir_fd = open(scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dir_fd, 0);
	close(h1);
	cr_assert(!run_tmpdir_abandoned(dir_fd, RUN_TMPDIR_SHARED), "the other run holds it");
	close(h2);
	cr_assert(run_tmpdir_abandoned(dir_fd, RUN_TMPDIR_SHARED), "nobody holds it");
	/* while the sweep claims it, no run takes it (each makes its own) */
	int claim = run_tmpdir_claim(dir_fd, RUN_TMPDIR_SHARED);
	cr_assert_geq(claim, 0, "%s", strerror(-claim));
	char *p3 = NULL, *fb3 = NULL;
	int h3 = -1;
	struct sluice_error err = { 0 };
	cr_assert_eq(run_tmpdir_share(scratch, &p3, &fb3, &h3, &err), -EWOULDBLOCK);
	cr_assert(p3 == NULL && fb3 == NULL && h3 == -1);
	close(claim);
	/* a command without a tmpfs over it may change its mode: 0700 again */
	cr_assert_eq(chmod(p1, 0500), 0);
	free(share(&fb3, &h3));
	cr_assert_eq(lstat(p1, &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0700);
	close(h3);
	free(fb3);
	close(dir_fd);
	free(p1), free(p2), free(fb1), free(fb2);
}

/* A point of another group is not used (the launcher gives its tmpfs the
 * point's group, which a user namespace may not map): the run then makes
 * its own TMPDIR. Needs root, to give it another group. */
Test(run_tmpdir, a_shared_point_of_another_group_is_not_used)
{
	const struct passwd *pw = nobody_as_root();
	char *point = NULL, *fallback = NULL;
	cr_assert_geq(asprintf(&point, "%s/" RUN_TMPDIR_SHARED, scratch), 0);
	cr_assert_eq(mkdir(point, 0700), 0);
	cr_assert_eq(chown(point, (uid_t)-1, pw->pw_gid == getegid() ? pw->pw_gid + 1 : pw->pw_gid),
	             0);
	char *got = NULL;
	int hold = -1;
	struct sluice_error err = { 0 };
	cr_assert_eq(run_tmpdir_share(scratch, &got, &fallback, &hold, &err), -ESTALE);
	cr_assert_null(got);
	cr_assert_null(fallback);
	cr_assert_eq(hold, -1);
	cr_assert(strstr(err.detail, "not this user's"), "%s", err.detail);
	free(point);
}

/* Set path's times to an hour ago. */
static void age_an_hour(const char *path)
{
	struct timespec ts[2];
	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec -= 3600;
	ts[1] = ts[0];
	cr_assert_eq(utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW), 0);
}

/* What a launcher made in the point (a killed run's fallback) goes at the
 * sweep, but only once no run holds the point and it is old enough; the
 * point itself stays. */
Test(run_tmpdir, fallbacks_are_swept_only_when_no_run_holds_the_point)
{
	char *old = NULL, *young = NULL;
	int hold = -1, hold2 = -1;
	char *point = share(&old, &hold);
	free(share(&young, &hold2));
	close(hold2);
	cr_assert_eq(mkdir(old, 0700), 0);
	cr_assert_eq(mkdir(young, 0700), 0);
	char *inside = NULL;
	cr_assert_geq(asprintf(&inside, "%s/left", old), 0);
	cr_assert_eq(close(open(inside, O_CREAT | O_WRONLY | O_CLOEXEC, 0600)), 0);
	age_an_hour(old);
	jobs_cleanup(scratch, 1000);
	cr_assert_eq(access(old, F_OK), 0, "removed while a run holds the point");
	close(hold);
	jobs_cleanup(scratch, 1000);
	cr_assert_eq(access(old, F_OK), -1, "an old fallback nothing holds stays");
	cr_assert_eq(access(young, F_OK), 0, "a young fallback is removed");
	cr_assert_eq(access(point, F_OK), 0, "the point itself is removed");
	free(point), free(old), free(young), free(inside);
}
