/* SPDX-License-Identifier: MIT */
/*
 * The command model's storage: the destructors of the structs in
 * model-storage.h. It calls nothing else of the model, so the accessors
 * (command-model.c) and the builder (model-builder.c, model-command.c) both
 * sit on top of it without calling each other in a circle.
 * Not for: building or reading a model.
 */
#include "config.h"

#include <stdlib.h>

#include "model/model-storage.h"

void model_word_done(struct model_word *w)
{
	shell_word_done(&w->w);
	free(w->source);
	w->source = NULL;
}

void model_wrapper_done(struct model_wrapper *w)
{
	for (size_t i = 0; i < w->argc; i++)
		free(w->argv[i]);
	free(w->argv);
	free(w->name);
	*w = (struct model_wrapper){ 0 };
}

void simple_command_free(struct simple_command *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->argc; i++)
		model_word_done(&c->argv[i]);
	free(c->argv);
	free(c->name);
	free(c->frames);
	free(c->function);
	for (size_t i = 0; i < c->n_wrappers; i++)
		model_wrapper_done(&c->wrappers[i]);
	free(c->wrappers);
	for (size_t i = 0; i < c->n_assigns; i++) {
		free(c->assigns[i].name);
		model_word_done(&c->assigns[i].value);
	}
	free(c->assigns);
	for (size_t i = 0; i < c->n_redirects; i++) {
		free(c->redirects[i].op);
		free(c->redirects[i].body);
		model_word_done(&c->redirects[i].target);
	}
	free(c->redirects);
	free(c->cwd);
	free(c->interp_unread);
	free(c->text);
	free(c->normalized);
	free(c);
}

struct command_model *command_model_free(struct command_model *m)
{
	if (!m)
		return NULL;
	for (size_t i = 0; i < m->n_commands; i++)
		simple_command_free(m->commands[i]);
	free(m->commands);
	shell_tree_done(&m->tree); /* a no-op on a zeroed tree */
	free(m->source);
	free(m);
	return NULL;
}
