/* SPDX-License-Identifier: MIT */
/*
 * The command model's insides, shared by command-model.c (storage and
 * accessors), model-builder.c (the tree walk that fills it) and display.c.
 * Not for: anyone else; policies and plugins use command-model.h only.
 */
#ifndef SLUICE_COMMAND_MODEL_PRIVATE_H
#define SLUICE_COMMAND_MODEL_PRIVATE_H

#include "command-model.h"
#include "shell-parse.h"
#include "shell-words.h"

struct model_word {
	struct shell_word w; /* text, flags, variables (owned) */
	char *source;        /* as written (owned) */
};

struct model_wrapper {
	char *name;
	size_t argc;
	char **argv; /* owned strings */
};

struct model_assign {
	char *name;
	struct model_word value;
};

struct model_redirect {
	char *op;
	int fd;
	struct model_word target;
	char *body; /* heredoc body or here-string value, or NULL */
};

struct simple_command {
	size_t index;
	long parent;
	uint32_t flags;
	size_t argc;
	struct model_word *argv;
	char *name;
	size_t depth;
	uint8_t *frames;
	char *function;
	size_t n_wrappers;
	struct model_wrapper *wrappers;
	size_t n_inherited_wrappers; /* the first ones, from the shell that ran it */
	size_t n_assigns;
	struct model_assign *assigns;
	size_t n_redirects;
	struct model_redirect *redirects;
	char *cwd;
	size_t span_start, span_end;
	char *text;
	char *normalized;
};

struct command_model {
	char *source;
	size_t len;
	uint32_t limits_reached;
	uint32_t partial_causes; /* enum command_model_partial_cause */
	size_t n_commands;
	size_t alloc_commands;
	struct simple_command **commands;
	struct shell_tree tree; /* the top-level parse (display.c reads it); zeroed
	                           when nothing was parsed */
};

/* Frees one command (accepts NULL). */
void simple_command_free(struct simple_command *c);
void model_word_done(struct model_word *w);
/* Frees a wrapper's name and words (also a half-built one) and zeroes it. */
void model_wrapper_done(struct model_wrapper *w);

/* Walk tree (parsed from m->source) and fill m. Returns 0 or -ENOMEM. */
int model_build(struct command_model *m, struct shell_parser *parser,
                const struct command_model_limits *limits, uint64_t deadline_us);

#endif
