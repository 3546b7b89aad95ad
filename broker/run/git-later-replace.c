/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: replace refs (git-later-replace.h).
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
#include "run/git-later-git.h"
#include "run/git-later-refs.h"
#include "run/git-later-replace.h"
#include "run/git-sweep-state.h"

/* One replace ref of the run's taken out: its object held where it names
 * one, then the ref deleted (by git, which takes packed and loose alike;
 * a loose one whose name git refuses removed here). */
static int take_out(struct git_later *g, struct git_sweep *s, const struct git_later_ref_change *c)
{
	const char *text = c->after;
	bool id = git_later_is_hex(text, g->hex_len);
	char held[96] = "";
	if (id && git_later_hold(g, s, text, held) < 0)
		return -EIO;
	struct git_output o = { .data = NULL };
	const char *del[] = { "update-ref", "--no-deref", "-d", c->name, NULL };
	int r = git_later_run(g, del, -1, &o);
	bool gone = r == 0 && WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0;
	git_output_done(&o);
	_cleanup_close_ int cfd = open(g->common, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (!gone && (cfd < 0 || unlinkat(cfd, c->name, 0) < 0) && errno != ENOENT) {
		git_sweep_fail(s,
		               "the check of what git would restore later: the replace ref %s "
		               "could not be taken out: %s",
		               c->name, strerror(errno));
		return -EIO;
	}
	_cleanup_free_ char *path = NULL, *what = NULL;
	char was[13];
	git_later_short_id(c->name + strlen("refs/replace/"), was);
	if (asprintf(&path, "%s/%s", g->common, c->name) < 0 ||
	    asprintf(&what,
	             "the command added a replace ref, which makes the user's git read %s in "
	             "place of object %s (git reset --hard or checkout would write it); taken "
	             "out%s%s",
	             text, was, held[0] ? ", its object kept at " : "", held) < 0)
		return -ENOMEM;
	git_sweep_note_item(s, path, what, held[0] ? held : NULL);
	return 1;
}

int git_later_replace_end(struct git_later *g, struct git_sweep *s,
                          const struct git_later_ref_change *changes, size_t n)
{
	int found = 0;
	for (size_t i = 0; i < n; i++) {
		const struct git_later_ref_change *c = &changes[i];
		if (strncmp(c->name, "refs/replace/", 13) != 0 || !c->after)
			continue;
		int r = take_out(g, s, c);
		if (r < 0)
			return r;
		found++;
	}
	return found;
}
