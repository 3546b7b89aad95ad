/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: refs the run moved (git-later-moved.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "run/git-later-diff.h"
#include "run/git-later-git.h"
#include "run/git-later-moved.h"
#include "run/git-later-pointers.h"
#include "run/git-later-refs.h"
#include "run/git-sweep-state.h"

/* git's order of finding a short name (git help revisions): a ref found
 * earlier takes the place of one found later. */
static const char *const dwim_prefixes[] = { "refs/", "refs/tags/", "refs/heads/",
	                                     "refs/remotes/" };

/* Whether the new ref name can stand for another ref of before, by a
 * short name both answer to. */
static bool shadows(const char *name, char **before)
{
	for (size_t p = 0; p < sizeof(dwim_prefixes) / sizeof(*dwim_prefixes); p++) {
		size_t pl = strlen(dwim_prefixes[p]);
		if (strncmp(name, dwim_prefixes[p], pl) != 0)
			continue;
		const char *shortname = name + pl;
		for (size_t i = 0; before && before[i]; i++) {
			if (strcmp(before[i], name) == 0)
				continue;
			for (size_t q = 0; q < sizeof(dwim_prefixes) / sizeof(*dwim_prefixes);
			     q++) {
				size_t ql = strlen(dwim_prefixes[q]);
				const char *b = before[i];
				if (strncmp(b, dwim_prefixes[q], ql) != 0)
					continue;
				b += ql;
				size_t sl = strlen(shortname);
				/* "X" also names refs/remotes/X/HEAD */
				if (strcmp(b, shortname) == 0 ||
				    (q == 3 && strncmp(b, shortname, sl) == 0 &&
				     strcmp(b + sl, "/HEAD") == 0))
					return true;
			}
		}
	}
	return false;
}

/* The ref c put back to its value before the run (a symbolic ref named
 * again), or deleted where it was not there (or is not known). */
static int put_back(struct git_later *g, struct git_sweep *s, const struct git_later_ref_change *c)
{
	struct git_output o = { .data = NULL };
	int r;
	if (c->before && git_later_is_hex(c->before, g->hex_len)) {
		const char *args[] = { "update-ref", "--no-deref",
			               "-m",         "sluice: put back where it was before a run",
			               c->name,      c->before,
			               NULL };
		r = git_later_ok(g, s, "git update-ref (a ref put back)", args, -1, &o);
	} else if (c->before && strncmp(c->before, "ref: refs/", 10) == 0) {
		const char *args[] = {
			"symbolic-ref", "-m",          "sluice: put back where it was before a run",
			c->name,        c->before + 5, NULL
		};
		r = git_later_ok(g, s, "git symbolic-ref (a ref put back)", args, -1, &o);
	} else {
		const char *args[] = { "update-ref", "--no-deref", "-d", c->name, NULL };
		r = git_later_ok(g, s, "git update-ref -d (a ref of the run's)", args, -1, &o);
	}
	git_output_done(&o);
	return r;
}

/* One ref of the run's that plants names: held, put back, reported. */
static int undo(struct git_later *g, struct git_sweep *s, const struct git_later_ref_change *c,
                const char *names)
{
	char held[96];
	int r = git_later_hold(g, s, c->name, held);
	if (r == 0)
		r = put_back(g, s, c);
	if (r < 0)
		return r;
	_cleanup_free_ char *path = NULL, *what = NULL;
	const char *before = !c->before     ? NULL
	                     : c->before[0] ? c->before
	                                    : "(not known: packed-refs was written in place)";
	if (asprintf(&path, "%s/%s", g->common, c->name) < 0 ||
	    (before ? asprintf(&what,
	                       "the command moved %s to a commit with content at names that run "
	                       "later (%s), which the user's git would write on a switch, merge, "
	                       "rebase or reset to it; put back to %s, the commit kept at %s",
	                       c->name, names, before, held)
	            : asprintf(&what,
	                       "the command made %s, which git takes for a ref of the user's by "
	                       "its short name, at a commit with content at names that run later "
	                       "(%s); deleted, the commit kept at %s",
	                       c->name, names, held)) < 0)
		return -ENOMEM;
	git_sweep_note_item(s, path, what, held);
	return 1;
}

int git_later_moved_end(struct git_later *g, struct git_sweep *s, const struct protect_watch *w,
                        char **pathspecs, const struct git_later_ref_change *changes, size_t n,
                        char **before)
{
	int found = 0;
	for (size_t i = 0; i < n; i++) {
		const struct git_later_ref_change *c = &changes[i];
		if (!c->after || strncmp(c->name, "refs/replace/", 13) == 0 ||
		    strcmp(c->name, "refs/stash") == 0 ||
		    (g->head.ref[0] && strcmp(c->name, g->head.ref) == 0) ||
		    git_later_pointers_users_branch(g, c->name))
			continue; /* the last: the user's merge there, as they left it */
		if (!c->before && !shadows(c->name, before))
			continue; /* a branch or tag of the run's own */
		/* against its own commit before the run; one not known (a
		 * symbolic ref, packed-refs written in place, a new ref): the
		 * pre-run HEAD */
		const char *base =
		        c->before && git_later_is_hex(c->before, g->hex_len) ? c->before : NULL;
		_cleanup_free_ char *names = NULL;
		int r = git_later_commit_plants(g, s, w, base, c->name, pathspecs, &names);
		if (r < 0)
			return r;
		if (!names)
			continue;
		r = undo(g, s, c, names);
		if (r < 0)
			return r;
		found++;
	}
	return found;
}
