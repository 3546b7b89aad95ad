/* SPDX-License-Identifier: MIT */
/*
 * git as the check of what git restores later runs it (git-later-git.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "strv.h"
#include "run/git-later-git.h"
#include "run/git-sweep-state.h"

static int run_in(struct git_later *g, const char *gitdir, const char *const args[], int stdin_fd,
                  struct git_output *o)
{
	int r = git_command_run(g->workspace, gitdir, args, stdin_fd, o);
	if (o->spawned)
		g->gits++;
	return r;
}

int git_later_run(struct git_later *g, const char *const args[], int stdin_fd, struct git_output *o)
{
	return run_in(g, g->gitdir, args, stdin_fd, o);
}

int git_later_ok(struct git_later *g, struct git_sweep *s, const char *what,
                 const char *const args[], int stdin_fd, struct git_output *o)
{
	return git_later_ok_in(g, s, g->gitdir, what, args, stdin_fd, o);
}

int git_later_ok_in(struct git_later *g, struct git_sweep *s, const char *gitdir, const char *what,
                    const char *const args[], int stdin_fd, struct git_output *o)
{
	int r = run_in(g, gitdir, args, stdin_fd, o);
	if (r < 0) {
		git_sweep_fail(s, "the check of what git would restore later: %s: %s", what,
		               strerror(-r));
		return r;
	}
	if (!WIFEXITED(o->status) || WEXITSTATUS(o->status) != 0) {
		git_sweep_fail(s, "the check of what git would restore later: %s: %s", what,
		               o->err[0] ? o->err : "git failed");
		return -EIO;
	}
	return 0;
}

int git_later_hold(struct git_later *g, struct git_sweep *s, const char *id, char held[96])
{
	/* one ref for one id, whichever part of the check holds it again */
	size_t idl = strlen(id);
	for (size_t i = 0; g->held && g->held[i]; i++)
		if (strncmp(g->held[i], id, idl) == 0 && g->held[i][idl] == '\t') {
			snprintf(held, 96, "%s", g->held[i] + idl + 1);
			return 0;
		}
	char stamp[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	/* never over another run's (an MCP server's runs share its pid), nor
	 * over what this run held already: the old value of zeros makes git
	 * refuse a ref that exists, and the next number is tried */
	static const char zeros[65] =
	        "0000000000000000000000000000000000000000000000000000000000000000";
	char none[65];
	snprintf(none, sizeof(none), "%.*s", (int)g->hex_len, zeros);
	struct git_output o = { .data = NULL };
	int r = -EEXIST;
	for (int n = 1; n <= 99 && r < 0; n++) {
		if (n == 1)
			snprintf(held, 96, "refs/sluice/held/%s-%d", stamp, (int)getpid());
		else
			snprintf(held, 96, "refs/sluice/held/%s-%d-%d", stamp, (int)getpid(), n);
		const char *keep[] = { "update-ref", "-m", "sluice: the run's, held", held, id,
			               none,         NULL };
		git_output_done(&o);
		r = git_later_run(g, keep, -1, &o);
		if (r == 0 && (!WIFEXITED(o.status) || WEXITSTATUS(o.status) != 0))
			r = -EEXIST;
	}
	if (r < 0)
		git_sweep_fail(s,
		               "the check of what git would restore later: git update-ref "
		               "(holding the run's %s): %s",
		               id, o.err[0] ? o.err : strerror(-r));
	git_output_done(&o);
	char *pair = NULL;
	if (r == 0 && (asprintf(&pair, "%s\t%s", id, held) < 0 || strv_consume(&g->held, pair) < 0))
		return -ENOMEM;
	return r;
}

void git_later_short_id(const char *id, char out[13])
{
	snprintf(out, 13, "%.12s", id[0] ? id : "(none)");
}
