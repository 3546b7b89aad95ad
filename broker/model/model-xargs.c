/* SPDX-License-Identifier: MIT */
/*
 * What an xargs reads, when it is known before it runs, as the words it
 * appends to its command: what the pipeline's part before it writes (echo
 * of static words, printf '%s\n' or '%s\0' of them), or its own
 * here-string (`xargs rm -rf <<< ~`). A home written with a tilde stays a
 * home (`echo ~` writes the home directory's path). Part of the model
 * builder (model-builder.h).
 * -n, -P, -L and -s only say how many items go to one run: the items
 * are the same. Not for: an xargs whose options change how it reads
 * (-I, -d, -a, -E ...): its command stays incomplete (CMD_ARGV_INCOMPLETE).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "model/model-builder.h"

/* How xargs splits what it reads: at blanks and newlines (reading quotes
 * and backslashes, which the model leaves unknown), or at NUL bytes. */
enum xargs_split {
	XARGS_UNKNOWN,
	XARGS_BLANKS,
	XARGS_NUL,
};

static enum xargs_split xargs_split_of(const struct model_wrapper *xargs)
{
	static const char *const plain[] = { "-r", "-t", "-x", "--no-run-if-empty", "--verbose" };
	/* how many items or lines go to one run, and how many run at once:
	 * the same items, read the same way (`xargs -n1 rm -rf`) */
	static const char *const counts[] = { "-n", "-P", "-L", "-s" };
	static const char *const long_counts[] = { "--max-args=", "--max-procs=", "--max-lines=",
		                                   "--max-chars=" };
	enum xargs_split split = XARGS_BLANKS;
	for (size_t i = 1; i < xargs->argc; i++) {
		const char *o = xargs->argv[i];
		bool ok = false;
		for (size_t k = 0; k < ELEMENTSOF(plain); k++)
			ok |= strcmp(o, plain[k]) == 0;
		for (size_t k = 0; k < ELEMENTSOF(counts); k++)
			if (strncmp(o, counts[k], 2) == 0) {
				ok = true;
				i += o[2] == '\0'; /* -n 1: the count is the next word */
			}
		for (size_t k = 0; k < ELEMENTSOF(long_counts); k++)
			ok |= strncmp(o, long_counts[k], strlen(long_counts[k])) == 0;
		if (strcmp(o, "-0") == 0 || strcmp(o, "--null") == 0) {
			split = XARGS_NUL;
			ok = true;
		}
		if (!ok)
			return XARGS_UNKNOWN;
	}
	return split;
}

/* A word whose value is known: static, or a home bash expands (`~/x`). */
static bool word_known(const struct model_word *w)
{
	uint32_t dynamic = w->w.flags & WORD_DYNAMIC_MASK;
	return dynamic == 0 || dynamic == WORD_TILDE;
}

/* Append the words xargs makes of value (a home when tilde) to c. */
static int push_items(struct builder *b, struct simple_command *c, size_t *alloc, const char *value,
                      bool tilde, enum xargs_split split)
{
	_cleanup_free_ char *copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	const char *seps = split == XARGS_NUL ? "" : " \t\n";
	int r = 0;
	bool first = true;
	for (char *save = NULL, *tok = strtok_r(copy, seps, &save); tok && r >= 0;
	     tok = strtok_r(NULL, seps, &save), first = false) {
		if (split == XARGS_NUL && !tok[0])
			continue;
		struct model_word w;
		r = builder_word_from_text(&w, tok, tilde && first ? WORD_TILDE : 0);
		if (r >= 0)
			r = builder_push_arg(b, c, alloc, &w);
		else
			model_word_done(&w);
	}
	return r;
}

/* The values writer writes, one per word from *from on, each followed by
 * what *sep says (blank or NUL): echo WORDS, printf '%s\n' WORDS, printf
 * '%s\0' WORDS. False for anything else. */
static bool writer_values(const struct simple_command *writer, size_t *from, enum xargs_split *sep)
{
	if (!writer || writer->argc < 2 || writer->n_wrappers || writer->n_redirects ||
	    writer->flags & CMD_NAME_DYNAMIC)
		return false;
	size_t i = 1;
	if (strcmp(writer->name, "echo") == 0) {
		while (i < writer->argc && (strcmp(writer->argv[i].w.text, "-n") == 0 ||
		                            strcmp(writer->argv[i].w.text, "-E") == 0))
			i++;
		*sep = XARGS_BLANKS;
	} else if (strcmp(writer->name, "printf") == 0 &&
	           builder_word_is_static(&writer->argv[1])) {
		const char *format = writer->argv[1].w.text;
		if (strcmp(format, "%s\\0") == 0)
			*sep = XARGS_NUL;
		else if (strcmp(format, "%s\\n") == 0 || strcmp(format, "%s ") == 0)
			*sep = XARGS_BLANKS;
		else
			return false;
		i = 2;
	} else {
		return false;
	}
	for (size_t k = i; k < writer->argc; k++)
		if (!word_known(&writer->argv[k]) || writer->argv[k].w.text[0] == '-')
			return false; /* echo -e, and what an option would change */
	*from = i;
	return true;
}

int builder_xargs_input(struct builder *b, struct simple_command *c,
                        const struct simple_command *writer)
{
	const struct model_wrapper *xargs = NULL;
	for (size_t i = c->n_inherited_wrappers; i < c->n_wrappers; i++)
		if (strcmp(c->wrappers[i].name, "xargs") == 0)
			xargs = &c->wrappers[i];
	enum xargs_split split = xargs ? xargs_split_of(xargs) : XARGS_UNKNOWN;
	if (split == XARGS_UNKNOWN)
		return 0;
	const struct model_redirect *here = NULL;
	for (size_t i = 0; i < c->n_redirects; i++)
		if (strcmp(c->redirects[i].op, "<<<") == 0 && c->redirects[i].fd <= 0)
			here = &c->redirects[i];
	size_t alloc = c->argc;
	int r = 0;
	if (here) {
		/* bash ends it with a newline: one item with -0 */
		if (!word_known(&here->target) || split != XARGS_BLANKS)
			return 0;
		r = push_items(b, c, &alloc, here->target.w.text, here->target.w.flags & WORD_TILDE,
		               split);
	} else {
		size_t from;
		enum xargs_split sep;
		if (!writer_values(writer, &from, &sep) || sep != split)
			return 0;
		for (size_t k = from; k < writer->argc && r >= 0; k++) {
			const struct model_word *w = &writer->argv[k];
			if (split == XARGS_BLANKS && w->w.text[strcspn(w->w.text, "'\"\\")])
				return 0; /* xargs reads quotes and backslashes */
			r = push_items(b, c, &alloc, w->w.text, w->w.flags & WORD_TILDE, split);
		}
	}
	if (r >= 0)
		c->flags &= ~(uint32_t)CMD_ARGV_INCOMPLETE;
	return r;
}
