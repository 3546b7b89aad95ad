/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the files that name a commit the user's git
 * goes to later (git-later-pointers.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "errors.h"
#include "fd-util.h"
#include "strv.h"
#include "run/git-later-diff.h"
#include "run/git-later-git.h"
#include "run/git-later-pointers.h"
#include "run/git-later-refs.h"
#include "run/git-later-todo.h"
#include "run/git-later.h"
#include "run/git-sweep-state.h"

/* What is read of one at most, and the commits checked at most: past
 * them, every commit named counts as planting (fail closed). */
#define POINTER_READ_MAX (8 * 1024 * 1024)
#define POINTER_IDS_MAX 256

static const char *const files[POINTERS] = {
	[POINTER_ORIG_HEAD] = "ORIG_HEAD",
	[POINTER_FETCH_HEAD] = "FETCH_HEAD",
	[POINTER_BISECT_START] = "BISECT_START",
	[POINTER_REBASE_MERGE] = "rebase-merge/orig-head",
	[POINTER_REBASE_APPLY] = "rebase-apply/orig-head",
	[POINTER_SEQUENCER] = "sequencer/head",
	[POINTER_REBASE_MERGE_AUTOSTASH] = "rebase-merge/autostash",
	[POINTER_REBASE_APPLY_AUTOSTASH] = "rebase-apply/autostash",
	[POINTER_MERGE_AUTOSTASH] = "MERGE_AUTOSTASH",
	[POINTER_REBASE_TODO] = "rebase-merge/git-rebase-todo",
	[POINTER_SEQUENCER_TODO] = "sequencer/todo",
	[POINTER_BISECT_BAD] = "refs/bisect/bad",
	[POINTER_HEAD_LOG] = "logs/HEAD",
};

/* What the user's git does with each, for the report. */
static const char *const uses[POINTERS] = {
	[POINTER_ORIG_HEAD] = "git reset --hard ORIG_HEAD",
	[POINTER_FETCH_HEAD] = "git merge FETCH_HEAD",
	[POINTER_BISECT_START] = "git bisect reset",
	[POINTER_REBASE_MERGE] = "git rebase --abort",
	[POINTER_REBASE_APPLY] = "git rebase --abort",
	[POINTER_SEQUENCER] = "git cherry-pick --abort",
	[POINTER_REBASE_MERGE_AUTOSTASH] = "git rebase --abort or --continue",
	[POINTER_REBASE_APPLY_AUTOSTASH] = "git rebase --abort or --continue",
	[POINTER_MERGE_AUTOSTASH] = "git merge --abort or git commit",
	[POINTER_REBASE_TODO] = "git rebase --continue",
	[POINTER_SEQUENCER_TODO] = "git cherry-pick --continue",
	[POINTER_BISECT_BAD] = "git bisect good or bad",
	[POINTER_HEAD_LOG] = "git reset --hard HEAD@{1} or git checkout -",
};

/* The files of the gitdir gfd into site (its HEAD already there): 0 or
 * -ENOMEM. */
static int take_site(struct git_later_pointer_site *site, int gfd)
{
	for (int i = 0; i < POINTERS; i++)
		if (fstatat(gfd, files[i], &site->st[i], AT_SYMLINK_NOFOLLOW) < 0)
			site->error[i] = neg_errno();
	if (git_later_am_take(gfd, &site->am) < 0)
		return -ENOMEM;
	const struct stat *log = &site->st[POINTER_HEAD_LOG];
	if (site->error[POINTER_HEAD_LOG] || !S_ISREG(log->st_mode) || log->st_size == 0)
		return 0;
	_cleanup_close_ int fd = openat(gfd, files[POINTER_HEAD_LOG],
	                                O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	return git_later_log_take(&site->log, fd, log);
}

/* Another worktree's files that only the user's git writes during a run. */
static const char *const users[2] = { "index", "HEAD" };

/* The worktree whose gitdir is dir in parent (its path path), other than
 * the run's (own: its gitdir's stat), added to p when it has a HEAD. */
static int add_other(struct git_later *g, int cfd, int parent, const char *dir, const char *path,
                     const struct stat *own)
{
	struct git_later_pointers *p = &g->pointers;
	_cleanup_close_ int fd = openat(parent, dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (p->n >= POINTER_SITES_MAX || fd < 0 || fstat(fd, &st) < 0 ||
	    (st.st_dev == own->st_dev && st.st_ino == own->st_ino))
		return 0;
	struct git_later_pointer_site *site = &p->site[p->n];
	*site = (struct git_later_pointer_site){ .gitdir = NULL };
	/* no HEAD: not a worktree git would use; one not read as git writes
	 * it (a reftable repository's, a packed-refs past what is read) is
	 * kept, and read by git after the run where its files changed */
	if (git_later_read_head(g, fd, cfd, &site->head) < 0)
		return 0;
	site->gitdir = strdup(path);
	if (!site->gitdir)
		return -ENOMEM;
	if (take_site(site, fd) < 0) {
		git_later_log_done(&site->log);
		git_later_am_done(&site->am);
		free(site->gitdir);
		return -ENOMEM;
	}
	for (int i = 0; i < 2; i++)
		if (fstatat(fd, users[i], &site->own_st[i], AT_SYMLINK_NOFOLLOW) < 0)
			site->own_error[i] = neg_errno();
	p->n++;
	return 0;
}

int git_later_pointers_take(struct git_later *g, int gfd, int cfd)
{
	struct git_later_pointers *p = &g->pointers;
	struct stat own;
	*p = (struct git_later_pointers){ .n = 1 };
	p->site[0].head = g->head;
	p->site[0].gitdir = strdup(g->gitdir);
	if (!p->site[0].gitdir)
		return -ENOMEM;
	if (take_site(&p->site[0], gfd) < 0)
		return -ENOMEM;
	if (fstat(gfd, &own) < 0)
		return 0;
	/* the main worktree's gitdir is the common directory */
	int r = add_other(g, cfd, cfd, ".", g->common, &own);
	int wfd = openat(cfd, "worktrees", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = wfd < 0 ? NULL : fdopendir(wfd);
	if (!d) {
		safe_close(wfd);
		return r;
	}
	struct dirent *de;
	while (r == 0 && (de = readdir(d)) != NULL) {
		char *path = NULL;
		if (de->d_name[0] == '.')
			continue; /* ".", "..": git names no worktree so */
		if (asprintf(&path, "%s/worktrees/%s", g->common, de->d_name) < 0)
			r = -ENOMEM;
		else
			r = add_other(g, cfd, dirfd(d), de->d_name, path, &own);
		free(path);
	}
	closedir(d);
	return r;
}

void git_later_pointers_done(struct git_later_pointers *p)
{
	for (size_t k = 0; k < p->n; k++) {
		free(p->site[k].gitdir);
		git_later_log_done(&p->site[k].log);
		git_later_am_done(&p->site[k].am);
	}
	*p = (struct git_later_pointers){ .n = 0 };
}

/* Whether the user's git worked in site (not the run's) while the run
 * lasted: its index or HEAD, there before, is another file now or changed.
 * One that was not there (an index `git worktree add --no-checkout` left
 * out, writable in the run) tells nothing. */
static bool user_worked(const struct git_later_pointer_site *site)
{
	_cleanup_close_ int gfd = open(site->gitdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (int i = 0; gfd >= 0 && i < 2; i++) {
		struct stat st;
		if (site->own_error[i] || fstatat(gfd, users[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (!git_later_same_file(0, &st, 0, &site->own_st[i]))
			return true;
	}
	return false;
}

bool git_later_pointers_users_branch(const struct git_later *g, const char *ref)
{
	for (size_t k = 1; k < g->pointers.n; k++) {
		const struct git_later_pointer_site *site = &g->pointers.site[k];
		if (site->head.ref[0] && strcmp(site->head.ref, ref) == 0 && user_worked(site))
			return true;
	}
	return false;
}

/* Whether a file of site changed since the run began. */
static bool site_changed(const struct git_later *g, const struct git_later_pointer_site *site)
{
	_cleanup_close_ int gfd = open(site->gitdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (gfd < 0)
		return true;
	if (git_later_am_changed(gfd, &site->am, &g->started))
		return true;
	for (int i = 0; i < POINTERS; i++) {
		struct stat st;
		int e = fstatat(gfd, files[i], &st, AT_SYMLINK_NOFOLLOW) < 0 ? neg_errno() : 0;
		if (!git_later_same_file(e, &st, site->error[i], &site->st[i]))
			return true;
	}
	return false;
}

bool git_later_pointers_changed(const struct git_later *g)
{
	for (size_t k = 0; k < g->pointers.n; k++)
		if (site_changed(g, &g->pointers.site[k]))
			return true;
	return false;
}

/* The whole of files[i] in gfd (a NUL, which git's reading skips, taken
 * as a line's end), into *ret; 0 with *ret NULL where it is gone. */
static int read_text(int gfd, int i, char **ret, size_t *len, struct stat *st)
{
	*ret = NULL;
	_cleanup_close_ int fd =
	        openat(gfd, files[i], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : neg_errno();
	int r = git_later_read_small(fd, POINTER_READ_MAX, st, ret, len);
	if (r == 0)
		git_later_nul_to_newline(*ret, *len);
	return r;
}

/* Whether files[i] is an autostash: a stash-like commit git applies. */
static bool autostash(int i)
{
	return i == POINTER_REBASE_MERGE_AUTOSTASH || i == POINTER_REBASE_APPLY_AUTOSTASH ||
	       i == POINTER_MERGE_AUTOSTASH;
}

/* The autostash id's second and third parents (the index and the
 * untracked files `git stash apply` also writes), appended to *ids; one
 * that is no commit adds none (git applies nothing: the id itself is then
 * taken as planting, as git cannot compare it). */
static int stash_parents(struct git_later *g, const char *id, char ***ids)
{
	struct git_output o;
	const char *args[] = { "rev-list", "--no-walk", "--parents", id, NULL };
	int r = git_later_run(g, args, -1, &o);
	bool commit = r == 0 && WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0;
	size_t k = 0;
	char *save = NULL;
	for (char *p = commit ? strtok_r(o.data, " \n", &save) : NULL; p && r == 0;
	     p = strtok_r(NULL, " \n", &save), k++)
		if ((k == 2 || k == 3) && git_later_is_hex(p, g->hex_len) &&
		    !git_later_listed(*ids, p) && strv_extend(ids, p) < 0)
			r = -ENOMEM;
	git_output_done(&o);
	return r < 0 ? r : 0;
}

/* The commits a bisect checks out next: between its bad commit (bad, a
 * name) and its good ones (refs/bisect/good-*, of the worktree whose gitdir
 * is gitdir), at most POINTER_IDS_MAX + 1 of them (past that, all count as
 * planting), appended to *ids. */
static int bisect_range(struct git_later *g, struct git_sweep *s, const char *gitdir,
                        const char *bad, char ***ids)
{
	char max[32];
	snprintf(max, sizeof(max), "--max-count=%d", POINTER_IDS_MAX + 1);
	const char *args[] = { "rev-list", max, bad, "--not", "--glob=refs/bisect/good-*",
		               "--",       NULL };
	struct git_output o;
	int r = git_later_ok_in(g, s, gitdir, "git rev-list (a bisect's range)", args, -1, &o);
	char *save = NULL;
	for (char *p = r == 0 ? strtok_r(o.data, "\n", &save) : NULL; p && r == 0;
	     p = strtok_r(NULL, "\n", &save))
		if (git_later_is_hex(p, g->hex_len) && !git_later_listed(*ids, p) &&
		    strv_extend(ids, p) < 0)
			r = -ENOMEM;
	git_output_done(&o);
	if (r != -EIO)
		return r;
	/* git could not walk it (a broken good ref): the null id, which git
	 * cannot compare, makes all the worktree's ids count (fail closed) */
	char null_id[65];
	memset(null_id, '0', g->hex_len);
	null_id[g->hex_len] = '\0';
	return git_later_listed(*ids, null_id) ? 0 : strv_extend(ids, null_id);
}

/* The commit ids files[i] names now (from its lines the run added, for
 * the reflog: their new ids and the commits "checkout: moving from X"
 * names), appended to *ids; *lines: how many lines that was. */
static int ids_of(struct git_later *g, struct git_sweep *s,
                  const struct git_later_pointer_site *site, int gfd, int i, char ***ids,
                  size_t *lines)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	struct stat st;
	*lines = 0;
	int r = read_text(gfd, i, &text, &len, &st);
	if (r < 0 || !text)
		return r;
	if (i == POINTER_REBASE_TODO || i == POINTER_SEQUENCER_TODO)
		return git_later_todo_ids(g, s, site->gitdir, text, ids);
	bool rewritten = false;
	size_t from = i != POINTER_HEAD_LOG
	                      ? 0
	                      : git_later_log_new_from(&site->log, !site->error[i], &site->st[i],
	                                               text, len, &st, &rewritten);
	/* a rewritten log's newest checkout line, wherever it lies: the one
	 * `git checkout -` (@{-1}) takes; the lines between it and the
	 * newest are counted, not read (*lines: how deep the run's go) */
	size_t checkout = rewritten ? git_later_log_newest_checkout(text, len) : len;
	for (char *line = text + (checkout < from ? checkout : from); line && *line;) {
		char *nl = strchr(line, '\n');
		size_t at = (size_t)(line - text);
		if (nl)
			*nl = '\0';
		(*lines)++;
		if ((at < from && at != checkout) ||
		    (rewritten && git_later_log_was_there(&site->log, line, strlen(line)))) {
			line = nl ? nl + 1 : NULL; /* the user's, kept by the rewrite */
			continue;
		}
		char *fields[2] = { NULL, NULL };
		/* anywhere in the line: git reads the message after the time
		 * zone, and a name the command wrote may hold a tab */
		char *moving = strstr(line, "\tcheckout: moving from ");
		char *msg = strchr(line, '\t'), *save = NULL;
		if (msg)
			*msg++ = '\0';
		fields[0] = strtok_r(line, " \t", &save);
		fields[1] = fields[0] ? strtok_r(NULL, " \t", &save) : NULL;
		/* the reflog: "OLD NEW WHO <MAIL> TIME TZ\tMSG"; the others: "ID
		 * ..."; FETCH_HEAD's lines that git merge FETCH_HEAD takes only */
		char *id = i == POINTER_HEAD_LOG ? fields[1] : fields[0];
		/* the old id too: what HEAD@{N+1} reads (not the null id) */
		if (i == POINTER_HEAD_LOG && fields[0] && git_later_is_hex(fields[0], g->hex_len) &&
		    strspn(fields[0], "0") < g->hex_len && !git_later_listed(*ids, fields[0]) &&
		    strv_extend(ids, fields[0]) < 0)
			return -ENOMEM;
		if (i == POINTER_FETCH_HEAD && msg && strncmp(msg, "not-for-merge", 13) == 0)
			id = NULL;
		if (id && git_later_is_hex(id, g->hex_len) && !git_later_listed(*ids, id) &&
		    strv_extend(ids, id) < 0)
			return -ENOMEM;
		if (i == POINTER_HEAD_LOG && moving) {
			char *x = moving + strlen("\tcheckout: moving from ");
			x[strcspn(x, " ")] = '\0';
			if (git_later_is_hex(x, g->hex_len) && !git_later_listed(*ids, x) &&
			    strv_extend(ids, x) < 0)
				return -ENOMEM;
		}
		line = nl ? nl + 1 : NULL;
		if (autostash(i) && id && git_later_is_hex(id, g->hex_len))
			return stash_parents(g, id, ids); /* git reads its first line */
		if (i == POINTER_BISECT_BAD && id && git_later_is_hex(id, g->hex_len))
			return bisect_range(g, s, site->gitdir, id, ids);
	}
	return 0;
}

/* files[i] written with text (as git writes it), or removed where text is
 * NULL. */
static int put(int gfd, int i, const char *text)
{
	if (!text)
		return unlinkat(gfd, files[i], 0) < 0 && errno != ENOENT ? neg_errno() : 0;
	return git_later_write_file(gfd, files[i], text, strlen(text));
}

/* The HEAD reflog's entries among the newest lines (the run's) that name
 * a planting commit, deleted by git (git reflog delete, its numbering:
 * the oldest first, so that the newer keep theirs). */
static int drop_log_lines(struct git_later *g, struct git_sweep *s,
                          const struct git_later_pointer_site *site, size_t lines, char **planting)
{
	struct git_output o;
	const char *show[] = { "reflog", "show", "--format=%H%x09%gs", "HEAD", "--", NULL };
	int r = git_later_ok_in(g, s, site->gitdir, "git reflog show HEAD", show, -1, &o);
	_cleanup_strv_free_ char **entries = NULL;
	for (char *p = r == 0 ? strtok(o.data, "\n") : NULL; p && r == 0; p = strtok(NULL, "\n"))
		r = strv_extend(&entries, p);
	git_output_done(&o);
	size_t n = strv_length(entries);
	for (size_t k = n < lines ? n : lines; r == 0 && k-- > 0;) {
		bool drop = false;
		for (size_t j = 0; planting[j] && !drop; j++)
			drop = strncmp(entries[k], planting[j], g->hex_len) == 0 ||
			       strstr(entries[k], planting[j]) != NULL;
		if (!drop)
			continue;
		char entry[64];
		snprintf(entry, sizeof(entry), "HEAD@{%zu}", k);
		const char *del[] = { "reflog", "delete", "--rewrite", entry, NULL };
		r = git_later_ok_in(g, s, site->gitdir, "git reflog delete HEAD@{N}", del, -1, &o);
		git_output_done(&o);
	}
	return r;
}

/* files[i], which names the planting commits, undone: put back to where
 * the run started, removed, or its reflog lines deleted. */
static int undo(struct git_later *g, struct git_sweep *s, const struct git_later_pointer_site *site,
                int gfd, int i, size_t lines, char **planting)
{
	const struct git_later_head *head = &site->head;
	const char *branch = strncmp(head->ref, "refs/heads/", 11) == 0 ? head->ref + 11 : NULL;
	_cleanup_free_ char *text = NULL;
	switch (i) {
	case POINTER_ORIG_HEAD:
	case POINTER_FETCH_HEAD:
	case POINTER_REBASE_MERGE_AUTOSTASH:
	case POINTER_REBASE_APPLY_AUTOSTASH:
	case POINTER_MERGE_AUTOSTASH:
	case POINTER_BISECT_BAD:
		return put(gfd, i, NULL); /* git writes them again; a stash dropped */
	case POINTER_BISECT_START:
		if (asprintf(&text, "%s\n", branch ? branch : head->id) < 0)
			return -ENOMEM;
		return put(gfd, i, text);
	case POINTER_HEAD_LOG: {
		_cleanup_close_ int fd = openat(
		        gfd, files[i], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		struct stat st;
		size_t len = 0;
		int r = fd < 0 ? neg_errno()
		               : git_later_read_small(fd, POINTER_READ_MAX, &st, &text, &len);
		if (r == 0 && git_later_log_unname_old(text, len, planting, g->hex_len) > 0)
			r = git_later_write_file(gfd, files[i], text, len);
		return r < 0 ? r : drop_log_lines(g, s, site, lines, planting);
	}
	case POINTER_REBASE_TODO:
	case POINTER_SEQUENCER_TODO: {
		_cleanup_free_ char *was = NULL;
		size_t len;
		struct stat st;
		int r = read_text(gfd, i, &was, &len, &st);
		if (r == 0 && was)
			r = git_later_todo_drop(g, s, site->gitdir, was, planting, &text);
		return r < 0 || !text ? r : put(gfd, i, text);
	}
	default: /* a rebase's or cherry-pick's: abort to where the run began */
		if (!head->id[0])
			return put(gfd, i, NULL);
		if (asprintf(&text, "%s\n", head->id) < 0)
			return -ENOMEM;
		return put(gfd, i, text);
	}
}

/* The report of files[i]: what it named, where that is kept. */
static void report(struct git_sweep *s, const struct git_later_pointer_site *site, int i,
                   char **mine, char **held)
{
	_cleanup_free_ char *path = NULL, *what = NULL, *ids = NULL, *kept = NULL;
	for (size_t k = 0; mine && mine[k]; k++) {
		char *more = NULL, *more_kept = NULL;
		if (asprintf(&more, "%s%s%.12s", ids ? ids : "", ids ? ", " : "", mine[k]) < 0 ||
		    asprintf(&more_kept, "%s%s%s", kept ? kept : "", kept ? ", " : "", held[k]) <
		            0) {
			free(more);
			return;
		}
		free(ids);
		free(kept);
		ids = more;
		kept = more_kept;
	}
	const char *done = i == POINTER_HEAD_LOG
	                           ? "its lines deleted (an old id: set to the line before's new)"
	                   : autostash(i) ? "removed (the autostash dropped: git applies nothing)"
	                   : i == POINTER_REBASE_TODO || i == POINTER_SEQUENCER_TODO
	                           ? "its lines that name it made drop (a pick) or commented "
	                             "out (a reset, a merge)"
	                   : i == POINTER_BISECT_BAD
	                           ? "removed (git bisect checks out nothing until a bad commit is "
	                             "marked again)"
	                   : i == POINTER_ORIG_HEAD || i == POINTER_FETCH_HEAD
	                           ? "removed (git writes it again)"
	                           : "put back to where the run began";
	if (asprintf(&path, "%s/%s", site->gitdir, files[i]) < 0 ||
	    asprintf(&what,
	             "the command left it naming a commit with content at names that run later "
	             "(%s), where the user's %s would go; %s, the commit kept at %s",
	             ids ? ids : "", uses[i], done, kept ? kept : "") < 0)
		return;
	git_sweep_note_item(s, path, what, held && held[0] ? held[0] : NULL);
}

/* git_later_pointers_end() in one worktree: the number undone, or -errno. */
static int end_site(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                    char **pathspecs, const struct git_later_pointer_site *site)
{
	_cleanup_close_ int gfd = open(site->gitdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (gfd < 0)
		return 0;
	char **named[POINTERS] = { NULL };
	_cleanup_strv_free_ char **all = NULL, **planting = NULL, **held_ids = NULL,
	                         **held_refs = NULL;
	size_t lines[POINTERS] = { 0 };
	int r = 0, found = 0;
	for (int i = 0; r == 0 && i < POINTERS; i++) {
		struct stat st;
		int e = fstatat(gfd, files[i], &st, AT_SYMLINK_NOFOLLOW) < 0 ? neg_errno() : 0;
		if (git_later_same_file(e, &st, site->error[i], &site->st[i]) || e)
			continue;
		r = ids_of(g, s, site, gfd, i, &named[i], &lines[i]);
		for (size_t k = 0; r == 0 && named[i] && named[i][k]; k++)
			if (!git_later_listed(all, named[i][k]))
				r = strv_extend(&all, named[i][k]);
	}
	if (r == 0 && strv_length(all) > 0 &&
	    (strv_length(all) > POINTER_IDS_MAX ||
	     git_later_ids_plant(g, s, w, all, pathspecs, site->head.id, &planting) < 0)) {
		/* git could not tell (an id that is no commit, too many): all */
		planting = strv_free(planting);
		for (size_t k = 0; all[k] && r == 0; k++)
			r = strv_extend(&planting, all[k]);
	}
	for (int i = 0; r == 0 && planting && i < POINTERS; i++) {
		_cleanup_strv_free_ char **mine = NULL, **kept = NULL;
		for (size_t k = 0; r == 0 && named[i] && named[i][k]; k++) {
			if (!git_later_listed(planting, named[i][k]))
				continue;
			size_t at = 0;
			while (held_ids && held_ids[at] && strcmp(held_ids[at], named[i][k]) != 0)
				at++;
			char held[96];
			if (!held_ids || !held_ids[at]) { /* each commit held once */
				r = git_later_hold(g, s, named[i][k], held);
				if (r == 0 && (strv_extend(&held_ids, named[i][k]) < 0 ||
				               strv_extend(&held_refs, held) < 0))
					r = -ENOMEM;
			}
			if (r == 0 && (strv_extend(&mine, named[i][k]) < 0 ||
			               strv_extend(&kept, held_refs[at]) < 0))
				r = -ENOMEM;
		}
		if (r < 0 || !mine)
			continue;
		r = undo(g, s, site, gfd, i, lines[i], mine);
		if (r < 0) {
			git_sweep_fail(s,
			               "the check of what git would restore later: %s/%s could not "
			               "be undone: %s",
			               site->gitdir, files[i], strerror(-r));
			continue;
		}
		report(s, site, i, mine, kept);
		found++;
	}
	for (int i = 0; i < POINTERS; i++)
		strv_free(named[i]);
	return r < 0 ? r : found;
}

/* The HEAD of site not read before the run (reftable, a large
 * packed-refs), read by git now (GIT_DIR its gitdir: the commit its HEAD
 * names), as head_by_git() in git-later.c: 0, or -EIO noted in s where git
 * cannot tell either (fail closed: the sweep's error, never silence). */
static int site_head_by_git(struct git_later *g, struct git_sweep *s,
                            struct git_later_pointer_site *site)
{
	struct git_output o = { .data = NULL };
	const char *args[] = { "rev-parse", "-q", "--verify", "HEAD^{commit}", NULL };
	int r = git_later_ok_in(g, s, site->gitdir, "git rev-parse HEAD (another worktree's)", args,
	                        -1, &o);
	if (r == 0 && o.len >= g->hex_len && g->hex_len < sizeof(site->head.id)) {
		memcpy(site->head.id, o.data, g->hex_len);
		site->head.id[g->hex_len] = '\0';
		site->head.ok = git_later_is_hex(site->head.id, g->hex_len);
	}
	git_output_done(&o);
	if (site->head.ok)
		return 0;
	git_sweep_fail(s,
	               "the check of what git would restore later: the HEAD of %s could not be "
	               "read, so the files there that name a commit were not checked",
	               site->gitdir);
	return -EIO;
}

/* git_later_am_end() in site. */
static int am_end(struct git_later *g, struct git_sweep *s,
                  const struct git_later_pointer_site *site)
{
	_cleanup_close_ int gfd = open(site->gitdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (gfd < 0)
		return 0;
	return git_later_am_end(s, gfd, site->gitdir, &site->am, &g->started);
}

int git_later_pointers_end(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                           char **pathspecs)
{
	int found = 0, r = 0;
	for (size_t k = 0; k < g->pointers.n; k++) {
		struct git_later_pointer_site *site = &g->pointers.site[k];
		if (!site_changed(g, site) || (k > 0 && user_worked(site)))
			continue;
		if (!site->head.ok && site_head_by_git(g, s, site) < 0) {
			r = -EIO;
			continue;
		}
		int n = end_site(g, s, w, pathspecs, site);
		found += n > 0 ? n : 0;
		r = n < 0 ? n : r;
		/* after its orig-head and autostash: moved aside with them */
		n = am_end(g, s, site);
		found += n > 0 ? n : 0;
		r = n < 0 ? n : r;
	}
	return r < 0 ? r : found;
}
