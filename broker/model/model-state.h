/* SPDX-License-Identifier: MIT */
/*
 * What the model builder knows at one point of a command line: the variables
 * assigned a literal so far and the directory the literal `cd` steps lead to.
 * Copied into subshells, merged after branches (a value that differs between
 * two ways of getting there becomes unknown).
 * Not for: anything bash knows that sluice cannot (the environment).
 */
#ifndef SLUICE_MODEL_STATE_H
#define SLUICE_MODEL_STATE_H

#include <stdbool.h>
#include <stddef.h>

#define MODEL_STATE_MAX_VARS 32

struct model_var {
	char *name;
	char *value;
	bool tilde; /* the value began with a tilde bash expanded (D=~/x): a home */
	bool glob;  /* the value is a glob bash expanded when it made it (an
	             * array's element a=(*), a loop's value `for f in *`): it
	             * stands for the names that matched, quoted or not */
};

struct model_state {
	struct model_var vars[MODEL_STATE_MAX_VARS];
	size_t n_vars;
	char *cwd;        /* owned; NULL: the starting directory (or unknown) */
	bool cwd_unknown; /* a cd whose target is not known came before */
};

/* Deep copy; -ENOMEM leaves dst empty. */
int model_state_copy(struct model_state *dst, const struct model_state *src);
void model_state_done(struct model_state *s);

/* The value of name, or NULL. */
const char *model_state_get(const struct model_state *s, const char *name);

/* Set name to value (copied). Past MODEL_STATE_MAX_VARS the variable simply
 * stays unknown (a dynamic word, never a wrong value). */
int model_state_set(struct model_state *s, const char *name, const char *value);
/* The same, for a value whose leading `~` bash expanded when it assigned it
 * (D=~/x): the value is kept as written, and marked (model_state_tilde). */
int model_state_set_tilde(struct model_state *s, const char *name, const char *value);
/* The same with both marks given: tilde as model_state_set_tilde(); glob
 * for a glob bash expanded (struct model_var). */
int model_state_set_marked(struct model_state *s, const char *name, const char *value, bool tilde,
                           bool glob);
/* Was name's value assigned with a tilde that bash expanded? */
bool model_state_tilde(const struct model_state *s, const char *name);
/* Is name's value a glob bash expanded when it made it? */
bool model_state_glob(const struct model_state *s, const char *name);
/* Is one of the positional parameters $1 ... $last such a glob (set -- *
 * x)? Then how many words they hold is not known. last is 0 (none) to 9. */
bool model_state_positional_glob(const struct model_state *s, unsigned last);
/* Set to to the value of from, with its marks; from not set: to is
 * forgotten. 0 or -ENOMEM. */
int model_state_copy_var(struct model_state *s, const char *to, const char *from);
/* Forget name, and the elements of an array of that name (kept as
 * variables "name[0]" ..., their count as "name[#]"). */
void model_state_unset(struct model_state *s, const char *name);
/* The same for name[0..len) (need not be NUL-terminated); allocates nothing,
 * so a variable is always forgotten. */
void model_state_unset_n(struct model_state *s, const char *name, size_t len);
void model_state_forget_all(struct model_state *s);

/* Change directory to dir (relative to the current one; NULL: unknown). */
int model_state_cd(struct model_state *s, const char *dir);

/* Keep in s only what other agrees with. */
void model_state_merge(struct model_state *s, const struct model_state *other);
/* The same for the variables only (the directory stays s's). */
void model_state_merge_vars(struct model_state *s, const struct model_state *other);

/* dir joined onto base ("a" + "b" -> "a/b"; absolute or ~ dirs replace). */
char *model_state_join(const char *base, const char *dir);

#endif
