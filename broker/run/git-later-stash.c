/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: the stash (git-later-stash.h).
 */
#include "config.h"

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
#include "run/git-later-refs.h"
#include "run/git-later-stash.h"
#include "run/git-sweep-state.h"

/* The reflog read at most, and the run's entries checked at most (each
 * costs up to three git diffs); past either the check says it could not
 * look. */
#define STASH_LOG_MAX (1024 * 1024)
#define STASH_CHECK_MAX 32

static const char stash_ref[] = "refs/stash", stash_log[] = "logs/refs/stash";

static void take(int cfd, const char *name, struct git_later_stash_file *f)
{
	*f = (struct git_later_stash_file){ 0 };
	if (fstatat(cfd, name, &f->st, AT_SYMLINK_NOFOLLOW) < 0)
		f->error = neg_errno();
}

/* The new ids of the reflog's lines ("OLD NEW NAME <MAIL> TIME TZ\tMSG"),
 * oldest first, into *l (none without a reflog). */
static int read_log(int cfd, char ***l)
{
	*l = NULL;
	_cleanup_close_ int fd =
	        openat(cfd, stash_log, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	_cleanup_free_ char *text = NULL;
	size_t len;
	if (fd < 0)
		return errno == ENOENT ? 0 : neg_errno();
	int r = git_later_read_small(fd, STASH_LOG_MAX, &st, &text, &len);
	if (r < 0)
		return r;
	/* by length, as git reads it */
	git_later_nul_to_newline(text, len);
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *id = strchr(line, ' ');
		if (id) {
			id++;
			id[strcspn(id, " \t")] = '\0';
			if (strv_extend(l, id) < 0)
				return -ENOMEM;
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* refs/stash's text ("" without one) and the reflog's ids into *l. */
static int read_entries(int cfd, char **ref_text, char ***log)
{
	char text[320];
	int r = read_first_line_at(cfd, stash_ref, false, text, sizeof(text));
	if (r == -ENOENT)
		text[0] = '\0';
	else if (r < 0)
		snprintf(text, sizeof(text), "(unreadable)");
	*ref_text = strdup(text);
	if (!*ref_text)
		return -ENOMEM;
	return read_log(cfd, log);
}

void git_later_stash_begin(struct git_later_stash *t, int cfd)
{
	*t = (struct git_later_stash){ .unknown = false };
	take(cfd, stash_ref, &t->ref);
	take(cfd, stash_log, &t->log);
	if (t->ref.error == -ENOENT && t->log.error == -ENOENT)
		return; /* no stash: most runs */
	_cleanup_free_ char *ref_text = NULL;
	if (read_entries(cfd, &ref_text, &t->before) < 0 ||
	    (ref_text[0] && strv_extend(&t->before, ref_text) < 0))
		t->unknown = true;
}

/* Whether the commit id (with its second and third parents: the index and
 * the untracked files `git stash pop` also writes) plants a name against
 * the pre-run HEAD; the names into *names. */
static int entry_plants(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                        const char *id, char **pathspecs, char **names)
{
	*names = NULL;
	struct git_output o;
	const char *args[] = { "rev-list", "--no-walk", "--parents", id, NULL };
	int r = git_later_run(g, args, -1, &o);
	bool commit = r == 0 && WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0;
	_cleanup_strv_free_ char **parts = NULL;
	for (char *p = commit ? strtok(o.data, " \n") : NULL; p && r >= 0; p = strtok(NULL, " \n"))
		r = strv_extend(&parts, p);
	git_output_done(&o);
	if (r < 0)
		return r;
	if (!commit) /* not a commit: git stash pop refuses it */
		return 0;
	size_t n = strv_length(parts);
	for (size_t i = 0; i < n && i < 4 && !*names; i++) {
		if (i == 1) /* the stash's base, which pop does not write */
			continue;
		r = git_later_commit_plants(g, s, w, NULL, parts[i], pathspecs, names);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The stash's entries as git numbers them (stash@{0} first: git skips a
 * reflog line it cannot read, and counts only the others), into *ids. */
static int git_entries(struct git_later *g, struct git_sweep *s, char ***ids)
{
	*ids = NULL;
	struct git_output o;
	const char *args[] = { "reflog", "show", "--format=%H", stash_ref, "--", NULL };
	int r = git_later_ok(g, s, "git reflog show refs/stash", args, -1, &o);
	for (char *p = r == 0 ? strtok(o.data, "\n") : NULL; p && r == 0; p = strtok(NULL, "\n"))
		r = strv_extend(ids, p);
	git_output_done(&o);
	return r;
}

/* refs/stash set to the reflog's newest entry, written as git writes a
 * ref (a lock file renamed onto it) so that the reflog gets no line of
 * its own, or deleted where the reflog has none (*any: whether it had). */
static int set_to_newest(struct git_later *g, struct git_sweep *s, int cfd, bool *any)
{
	_cleanup_strv_free_ char **log = NULL;
	int r = git_entries(g, s, &log);
	size_t m = strv_length(log);
	if (any)
		*any = m > 0;
	if (r == 0 && m > 0) {
		_cleanup_free_ char *text = NULL;
		if (asprintf(&text, "%s\n", log[0]) < 0)
			return -ENOMEM;
		r = git_later_write_file(cfd, stash_ref, text, strlen(text));
		if (r < 0)
			git_sweep_fail(
			        s,
			        "the check of what git would restore later: refs/stash could "
			        "not be set back: %s",
			        strerror(-r));
		return r;
	}
	struct git_output o = { .data = NULL };
	const char *del[] = { "update-ref", "--no-deref", "-d", stash_ref, NULL };
	if (r == 0)
		r = git_later_ok(g, s, "git update-ref -d refs/stash", del, -1, &o);
	git_output_done(&o);
	return r;
}

/* The entry id dropped: each reflog line that names it (the oldest first,
 * so that the newer ones keep their numbers), refs/stash set to what is
 * left where it still names it; id kept at held first. */
static int drop(struct git_later *g, struct git_sweep *s, int cfd, const char *id)
{
	_cleanup_strv_free_ char **log = NULL;
	int r = git_entries(g, s, &log);
	size_t n = strv_length(log);
	struct git_output o = { .data = NULL };
	/* the oldest first: dropping one leaves the newer ones' numbers */
	for (size_t k = n; r >= 0 && k-- > 0;) {
		if (strcmp(log[k], id) != 0)
			continue;
		char entry[64];
		snprintf(entry, sizeof(entry), "refs/stash@{%zu}", k);
		const char *args[] = {
			"reflog", "delete", "--updateref", "--rewrite", entry, NULL
		};
		r = git_later_ok(g, s, "git reflog delete (a stash entry of the run's)", args, -1,
		                 &o);
		git_output_done(&o);
	}
	if (r < 0)
		return r;
	char text[320];
	if (read_first_line_at(cfd, stash_ref, false, text, sizeof(text)) < 0 ||
	    strcmp(text, id) != 0)
		return 0;
	/* written without a reflog line */
	return set_to_newest(g, s, cfd, NULL);
}

/* refs/stash, left by the run as no id (text), set to the reflog's newest
 * entry, or deleted where there is none. */
static int set_back_ref(struct git_later *g, struct git_sweep *s, int cfd, const char *text)
{
	bool any = false;
	int r = set_to_newest(g, s, cfd, &any);
	if (r < 0)
		return r;
	_cleanup_free_ char *path = NULL, *what = NULL;
	if (asprintf(&path, "%s/%s", g->common, stash_ref) < 0 ||
	    asprintf(&what,
	             "the command left refs/stash as \"%s\", which git stash pop would follow; "
	             "%s",
	             text, any ? "set back to the stash's newest entry" : "removed") < 0)
		return -ENOMEM;
	git_sweep_note_item(s, path, what, NULL);
	return 1;
}

bool git_later_stash_changed(const struct git_later *g)
{
	_cleanup_close_ int cfd = open(g->common, O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct git_later_stash_file ref, log;
	take(cfd, stash_ref, &ref);
	take(cfd, stash_log, &log);
	return cfd < 0 ||
	       !git_later_same_file(ref.error, &ref.st, g->stash.ref.error, &g->stash.ref.st) ||
	       !git_later_same_file(log.error, &log.st, g->stash.log.error, &g->stash.log.st);
}

/* One entry of the run's that plants: held, dropped, reported. */
static int drop_planting(struct git_later *g, struct git_sweep *s, int cfd, const char *id,
                         const char *names)
{
	char held[96];
	int r = git_later_hold(g, s, id, held);
	if (r == 0)
		r = drop(g, s, cfd, id);
	if (r < 0)
		return r;
	char shown[13];
	git_later_short_id(id, shown);
	_cleanup_free_ char *path = NULL, *what = NULL;
	if (asprintf(&path, "%s/%s", g->common, stash_ref) < 0 ||
	    asprintf(&what,
	             "the command stashed content at names that run later (%s), which the "
	             "user's git stash pop would write; the stash entry %s dropped, kept at %s",
	             names, shown, held) < 0)
		return -ENOMEM;
	git_sweep_note_item(s, path, what, held);
	return 1;
}

int git_later_stash_end(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                        char **pathspecs)
{
	const struct git_later_stash *t = &g->stash;
	_cleanup_close_ int cfd = open(g->common, O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_free_ char *ref_text = NULL;
	_cleanup_strv_free_ char **now = NULL, **fresh = NULL;
	int r = cfd < 0 ? neg_errno() : read_entries(cfd, &ref_text, &now);
	if (r == 0 && ref_text[0])
		r = strv_extend(&now, ref_text);
	STRV_FOREACH (x, now)
		if (r == 0 && (t->unknown || !git_later_listed(t->before, *x)) &&
		    !git_later_listed(fresh, *x))
			r = strv_extend(&fresh, *x);
	/* past the cap, every new entry is dropped unread (fail closed) */
	bool unread = strv_length(fresh) > STASH_CHECK_MAX;
	if (r < 0) {
		git_sweep_fail(s,
		               "the check of what git would restore later: the stash could not be "
		               "read: %s; look at it (git stash list) before git stash pop",
		               strerror(-r));
		return r;
	}
	int found = 0;
	STRV_FOREACH (x, fresh) {
		_cleanup_free_ char *names = NULL;
		if (!git_later_is_hex(*x, g->hex_len)) {
			/* refs/stash made symbolic ("ref: refs/heads/..."), which git
			 * stash pop follows, or made unreadable */
			r = strcmp(*x, ref_text) == 0 ? set_back_ref(g, s, cfd, *x) : 0;
			if (r < 0)
				return r;
			found += r > 0;
			continue;
		}
		r = unread ? ((names = strdup("not read: more new entries than the check reads"))
		                      ? 0
		                      : -ENOMEM)
		           : entry_plants(g, s, w, *x, pathspecs, &names);
		if (r >= 0 && names)
			r = drop_planting(g, s, cfd, *x, names);
		if (r < 0)
			return r;
		found += r > 0;
	}
	return found;
}

void git_later_stash_done(struct git_later_stash *t)
{
	t->before = strv_free(t->before);
}
