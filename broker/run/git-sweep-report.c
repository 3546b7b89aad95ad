/* SPDX-License-Identifier: MIT */
/*
 * What the sweep did, told (git-sweep.h): the result's gitSweep object,
 * the lines a model reads, the audit line's summary; and an item noted
 * from outside the walk (git_sweep_note_item()).
 * Not for: the sweep itself (git-sweep.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/git-sweep.h"
#include "run/git-sweep-state.h"
#include "util/terminal-text.h"

void git_sweep_note_item(struct git_sweep *s, const char *path, const char *what, const char *kept)
{
	s->n_found++;
	if (s->n_items >= GIT_SWEEP_ITEMS_MAX)
		return;
	struct git_sweep_item *it = &s->items[s->n_items];
	it->path = strdup(path);
	it->what = strdup(what);
	it->kept = kept ? strdup(kept) : NULL;
	if (!it->path || !it->what || (kept && !it->kept)) {
		free(it->path);
		free(it->what);
		free(it->kept);
		*it = (struct git_sweep_item){ 0 };
		return;
	}
	s->n_items++;
}

json_t *git_sweep_to_json(const struct git_sweep *s)
{
	if (!s || !s->ran || (s->n_found == 0 && !s->error[0]))
		return json_null();
	json_t *items = json_array();
	for (size_t i = 0; items && i < s->n_items; i++)
		json_array_append_new(items, json_pack("{s:s, s:s, s:s?}", "path", s->items[i].path,
		                                       "what", s->items[i].what, "kept",
		                                       s->items[i].kept));
	json_t *o = json_pack("{s:I, s:o, s:s?, s:s?, s:I, s:I}", "found", (json_int_t)s->n_found,
	                      "items", items ? items : json_array(), "quarantine", s->quarantine,
	                      "error", s->error[0] ? s->error : NULL, "directories",
	                      (json_int_t)s->directories, "durationUs", (json_int_t)s->duration_us);
	return o ? o : json_null();
}

void git_sweep_write_text(const struct git_sweep *s, FILE *f)
{
	if (!s || !s->ran || (s->n_found == 0 && !s->error[0]))
		return;
	if (s->n_found > 0) {
		fprintf(f,
		        "[sluice: after the run, %zu thing%s the command left in the repository "
		        "would have made the user's own git write outside the workspace, hang, "
		        "run a program, or send the repository elsewhere; disabled",
		        s->n_found, s->n_found == 1 ? "" : "s");
		if (s->quarantine) {
			fputs(", a copy kept for the user in ", f);
			terminal_safe_write(f, s->quarantine);
		} else {
			fputs(" (each line says what became of it)", f);
		}
		fputs("]\n", f);
		for (size_t i = 0; i < s->n_items; i++) {
			fputs("[  ", f);
			terminal_safe_write(f, s->items[i].path);
			fputs(": ", f);
			terminal_safe_write(f, s->items[i].what);
			fputs("]\n", f);
		}
		if (s->n_found > s->n_items)
			fprintf(f, "[  ... and %zu more]\n", s->n_found - s->n_items);
		fputs("[do not make them again: git never needs them; tell the user what was "
		      "disabled]\n",
		      f);
	}
	if (s->error[0]) {
		fputs("[sluice: the sweep of the repository after the run was not complete: ", f);
		terminal_safe_write(f, s->error);
		fputs("]\n", f);
	}
}

int git_sweep_summary(const struct git_sweep *s, char *buf, size_t size)
{
	if (!s || !s->ran || (s->n_found == 0 && !s->error[0]))
		return snprintf(buf, size, "%s", "");
	return snprintf(buf, size, "%zu thing%s disabled in the repository%s%s%s%s", s->n_found,
	                s->n_found == 1 ? "" : "s", s->quarantine ? ", kept in " : "",
	                s->quarantine ? s->quarantine : "", s->error[0] ? "; incomplete: " : "",
	                s->error);
}
