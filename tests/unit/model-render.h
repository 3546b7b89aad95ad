/* SPDX-License-Identifier: MIT */
/*
 * A one-line-per-command rendering of the command model for the table tests:
 * "FRAMES: {ASSIGNS} (WRAPPER)... ARGV #CMDFLAGS @CWD", each word followed by
 * ^LETTERS for its dynamic flags. Written against the public accessors only.
 * Not for: the product (model-explain.c is the readable form).
 */
#ifndef SLUICE_TEST_MODEL_RENDER_H
#define SLUICE_TEST_MODEL_RENDER_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/command-model.h"

static const char frame_codes[] = " LPSGIWCF$<NR?X";

static void render_word(FILE *f, const char *w, uint32_t flags)
{
	static const struct {
		uint32_t bit;
		char code;
	} codes[] = {
		{ WORD_PARAM, 'P' },    { WORD_TILDE, 'T' },     { WORD_GLOB, 'G' },
		{ WORD_CMDSUBST, 'C' }, { WORD_PROCSUBST, 'S' }, { WORD_ARITH, 'A' },
		{ WORD_BRACE, 'B' },    { WORD_UNKNOWN, 'U' },
	};
	if (w[0] == '\0' || strpbrk(w, " \t\n"))
		fprintf(f, "<%s>", w);
	else
		fputs(w, f);
	if (flags & WORD_DYNAMIC_MASK) {
		fputc('^', f);
		for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
			if (flags & codes[i].bit)
				fputc(codes[i].code, f);
	}
}

static void render_command(FILE *f, const struct simple_command *c)
{
	static const char flag_codes[] = "DIXNBUYZOFL";
	size_t depth = simple_command_depth(c);
	for (size_t i = 0; i < depth; i++)
		fprintf(f, "%s%c", i ? ">" : "", frame_codes[simple_command_frame(c, i)]);
	if (depth)
		fputs(": ", f);
	bool sep = false; /* a space goes before every part but the first */
	size_t na = simple_command_assign_count(c);
	if (na) {
		fputc('{', f);
		for (size_t i = 0; i < na; i++) {
			fprintf(f, "%s%s=", i ? " " : "", simple_command_assign_name(c, i));
			render_word(f, simple_command_assign_value(c, i),
			            simple_command_assign_flags(c, i));
		}
		fputc('}', f);
		sep = true;
	}
	for (size_t i = 0; i < simple_command_wrapper_count(c); i++) {
		fputs(sep ? " (" : "(", f);
		for (size_t j = 0; j < simple_command_wrapper_argc(c, i); j++)
			fprintf(f, "%s%s", j ? " " : "", simple_command_wrapper_arg(c, i, j));
		fputc(')', f);
		sep = true;
	}
	for (size_t i = 0; i < simple_command_argc(c); i++) {
		if (sep)
			fputc(' ', f);
		render_word(f, simple_command_arg(c, i), simple_command_arg_flags(c, i));
		sep = true;
	}
	uint32_t flags = simple_command_flags(c);
	if (flags) {
		fputs(" #", f);
		for (size_t i = 0; flag_codes[i]; i++)
			if (flags & (1u << i))
				fputc(flag_codes[i], f);
	}
	if (simple_command_cwd(c))
		fprintf(f, " @%s", simple_command_cwd(c));
}

/* The whole model, commands joined by "\n"; a leading "!partial\n" and
 * "!limit=NAME\n" lines when set. Returns a malloc'd string. */
static inline char *render_model(const struct command_model *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (command_model_is_partial(m))
		fputs("!partial\n", f);
	uint32_t limits = command_model_limits_reached(m);
	for (uint32_t bit = 1; bit; bit <<= 1)
		if (limits & bit)
			fprintf(f, "!limit=%s\n", command_model_limit_name(bit));
	for (size_t i = 0; i < command_model_count(m); i++) {
		if (i)
			fputc('\n', f);
		render_command(f, command_model_get(m, i));
	}
	fclose(f);
	return buf;
}

#endif
