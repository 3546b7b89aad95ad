/* SPDX-License-Identifier: MIT */
/*
 * What git restores later: a paused rebase's or cherry-pick's todo list
 * (rebase-merge/git-rebase-todo, sequencer/todo), whose pick, reword,
 * edit, squash and fixup lines name the commits `git rebase --continue` or
 * `git cherry-pick --continue` applies next (git-later-todo.c). A name
 * there is any revision git resolves (an abbreviated id, a tag, `X~0`), so
 * git resolves them, in that worktree (red team 49, 11). The lines whose
 * commit plants a name that runs later are made `drop <id>`, git's own
 * verb for a commit left out. (The exec lines the sweep comments out:
 * git-sweep-defuse.c.)
 * Not for: anyone but git-later-pointers.c.
 */
#ifndef SLUICE_GIT_LATER_TODO_H
#define SLUICE_GIT_LATER_TODO_H

#include <stddef.h>

struct git_later;
struct git_sweep;

/* The commits the lines of text (a todo list of the worktree whose gitdir
 * is gitdir) pick, appended to *ids (those not there yet): 0 or -errno
 * (noted in s). */
int git_later_todo_ids(struct git_later *g, struct git_sweep *s, const char *gitdir,
                       const char *text, char ***ids);

/* text with each line that picks a commit of planting made `drop ID`,
 * into *ret (malloc'd): 0 or -errno (noted in s). */
int git_later_todo_drop(struct git_later *g, struct git_sweep *s, const char *gitdir,
                        const char *text, char **planting, char **ret);

#endif
