/* SPDX-License-Identifier: MIT */
/*
 * The command model's storage: its structs and their destructors
 * (model-storage.c, which calls nothing else of the model). Shared by
 * command-model.c (the accessors), the builder that fills it
 * (model-builder.c, model-command.c) and display.c.
 * Not for: anyone else; policies and plugins use command-model.h only.
 */
#ifndef SLUICE_MODEL_STORAGE_H
#define SLUICE_MODEL_STORAGE_H

#include "model/command-model.h"
#include "shell/shell-parse.h"
#include "shell/shell-words.h"

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
	long pipeline;                     /* the innermost pipeline holding it, or -1 */
	size_t pipe_position, pipe_length; /* its part in that pipeline, and how many */
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
	/* why the code an interpreter runs is not read ("calls shutil.rmtree on
	 * a value sluice cannot read"), or NULL (interp.h) */
	char *interp_unread;
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
/* Frees a word's text and source (also a half-built one). */
void model_word_done(struct model_word *w);
/* Frees a wrapper's name and words (also a half-built one) and zeroes it. */
void model_wrapper_done(struct model_wrapper *w);
/* command_model_free() (command-model.h) is defined with these. */

#endif
