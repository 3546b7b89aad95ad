/* SPDX-License-Identifier: MIT */
/*
 * The command model's public entry point and its accessors (see
 * command-model.h). The walk that fills it lives in model-builder.c, its
 * storage and destructors in model-storage.c.
 * Not for: policy decisions or printing.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "model/model-builder.h"
#include "model/model-storage.h"

struct command_model_parser {
	struct shell_parser *sp;
	struct command_model_limits limits;
};

void command_model_limits_default(struct command_model_limits *limits)
{
	*limits = (struct command_model_limits){
		.max_command_bytes = COMMAND_MODEL_DEFAULT_MAX_COMMAND_BYTES,
		.max_depth = COMMAND_MODEL_DEFAULT_MAX_DEPTH,
		.parse_timeout_us = COMMAND_MODEL_DEFAULT_PARSE_TIMEOUT_US,
		.max_commands = COMMAND_MODEL_DEFAULT_MAX_COMMANDS,
		.max_words = COMMAND_MODEL_DEFAULT_MAX_WORDS,
	};
}

int command_model_parser_new(struct command_model_parser **ret)
{
	struct command_model_parser *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	int r = shell_parser_new(&p->sp);
	if (r < 0) {
		free(p);
		return r;
	}
	command_model_limits_default(&p->limits);
	*ret = p;
	return 0;
}

void command_model_parser_set_limits(struct command_model_parser *p,
                                     const struct command_model_limits *limits)
{
	p->limits = *limits;
}

struct command_model_parser *command_model_parser_free(struct command_model_parser *p)
{
	if (!p)
		return NULL;
	shell_parser_free(p->sp);
	free(p);
	return NULL;
}

int command_model_parse(struct command_model_parser *parser, const char *text, size_t len,
                        const struct command_model_limits *limits, struct command_model **ret,
                        struct sluice_error *reterr)
{
	struct command_model_limits defaults;
	if (!limits && parser)
		limits = &parser->limits;
	if (!limits) {
		command_model_limits_default(&defaults);
		limits = &defaults;
	}
	if (memchr(text, '\0', len))
		return sluice_error_set(reterr, -EINVAL, "the command holds a NUL byte");

	_cleanup_(command_model_freep) struct command_model *m = calloc(1, sizeof(*m));
	if (!m)
		return sluice_error_set(reterr, -ENOMEM, "allocating the command model");
	if (len > limits->max_command_bytes) {
		/* Nothing is parsed; the flag makes the verdict say why. */
		m->limits_reached |= COMMAND_MODEL_LIMIT_SIZE;
		m->source = strdup("");
		if (!m->source)
			return sluice_error_set(reterr, -ENOMEM, "copying the command");
		*ret = TAKE_PTR(m);
		return 0;
	}
	m->source = strndup(text, len);
	if (!m->source)
		return sluice_error_set(reterr, -ENOMEM, "copying the command");
	m->len = len;

	struct command_model_parser *own = NULL;
	if (!parser) {
		int r = command_model_parser_new(&own);
		if (r < 0)
			return sluice_error_set(reterr, r, "creating the shell parser");
		parser = own;
	}
	/* the parse limit is CPU time, not the clock (shell_budget): the same
	 * text gets the same model however busy the machine is */
	int r = model_build(m, parser->sp, limits);
	command_model_parser_free(own);
	if (r < 0)
		return sluice_error_set(reterr, r, "building the command model");
	*ret = TAKE_PTR(m);
	return 0;
}

/* ------------------------------------------------------------ accessors */

static const char *const limit_names[] = {
	"max-command-size", "max-nesting-depth", "parse-time-limit", "max-commands", "max-words",
};

static const char *bit_name(const char *const *names, size_t n, uint32_t bit);

const char *command_model_limit_name(uint32_t limit_bit)
{
	return bit_name(limit_names, ELEMENTSOF(limit_names), limit_bit);
}

uint32_t command_model_limits_reached(const struct command_model *m)
{
	return m->limits_reached;
}

bool command_model_is_partial(const struct command_model *m)
{
	return m->partial_causes != 0;
}

uint32_t command_model_partial_causes(const struct command_model *m)
{
	return m->partial_causes;
}

const char *command_model_source(const struct command_model *m)
{
	return m->source;
}

size_t command_model_source_len(const struct command_model *m)
{
	return m->len;
}

size_t command_model_count(const struct command_model *m)
{
	return m->n_commands;
}

const struct simple_command *command_model_get(const struct command_model *m, size_t i)
{
	return i < m->n_commands ? m->commands[i] : NULL;
}

size_t simple_command_index(const struct simple_command *c)
{
	return c->index;
}

long simple_command_parent(const struct simple_command *c)
{
	return c->parent;
}

size_t simple_command_argc(const struct simple_command *c)
{
	return c->argc;
}

const char *simple_command_arg(const struct simple_command *c, size_t i)
{
	return i < c->argc ? c->argv[i].w.text : NULL;
}

const char *simple_command_arg_source(const struct simple_command *c, size_t i)
{
	return i < c->argc ? c->argv[i].source : NULL;
}

uint32_t simple_command_arg_flags(const struct simple_command *c, size_t i)
{
	return i < c->argc ? c->argv[i].w.flags : 0;
}

bool simple_command_arg_is_static(const struct simple_command *c, size_t i)
{
	return i < c->argc && (c->argv[i].w.flags & WORD_DYNAMIC_MASK) == 0;
}

size_t simple_command_arg_var_count(const struct simple_command *c, size_t i)
{
	return i < c->argc ? c->argv[i].w.n_vars : 0;
}

const char *simple_command_arg_var(const struct simple_command *c, size_t i, size_t j)
{
	return i < c->argc && j < c->argv[i].w.n_vars ? c->argv[i].w.vars[j] : NULL;
}

const char *simple_command_name(const struct simple_command *c)
{
	return c->name ? c->name : "";
}

const char *simple_command_interp_unread(const struct simple_command *c)
{
	return c->interp_unread;
}

uint32_t simple_command_flags(const struct simple_command *c)
{
	return c->flags;
}

static const char *const word_flag_names[] = {
	"param",
	"tilde",
	"glob",
	"command-substitution",
	"process-substitution",
	"arithmetic",
	"brace",
	"quoted",
	"resolved",
	"unknown",
	"split",
	"ansi-c",
	"translated",
};

static const char *const command_flag_names[] = {
	"name-dynamic",   "argv-incomplete", "partial",
	"negated",        "background",      "cwd-unknown",
	"nested-dynamic", "nested-unparsed", "wrapper-unknown-option",
	"function-call",  "nested-foreign",
};

static const char *bit_name(const char *const *names, size_t n, uint32_t bit)
{
	for (size_t i = 0; i < n; i++)
		if (bit == 1u << i)
			return names[i];
	return NULL;
}

const char *shell_word_flag_name(uint32_t flag_bit)
{
	return bit_name(word_flag_names, ELEMENTSOF(word_flag_names), flag_bit);
}

const char *simple_command_flag_name(uint32_t flag_bit)
{
	return bit_name(command_flag_names, ELEMENTSOF(command_flag_names), flag_bit);
}

size_t simple_command_depth(const struct simple_command *c)
{
	return c->depth;
}

int simple_command_frame(const struct simple_command *c, size_t i)
{
	return i < c->depth ? c->frames[i] : 0;
}

long simple_command_pipeline(const struct simple_command *c)
{
	return c->pipeline;
}

size_t simple_command_pipeline_position(const struct simple_command *c)
{
	return c->pipeline < 0 ? 0 : c->pipe_position;
}

size_t simple_command_pipeline_length(const struct simple_command *c)
{
	return c->pipeline < 0 ? 0 : c->pipe_length;
}

static const char *const frame_names[] = {
	[FRAME_LIST] = "list",
	[FRAME_PIPELINE] = "pipeline",
	[FRAME_SUBSHELL] = "subshell",
	[FRAME_GROUP] = "group",
	[FRAME_IF] = "if",
	[FRAME_LOOP] = "loop",
	[FRAME_CASE] = "case",
	[FRAME_FUNCTION] = "function",
	[FRAME_CMDSUBST] = "command-substitution",
	[FRAME_PROCSUBST] = "process-substitution",
	[FRAME_NESTED_SHELL] = "nested-shell",
	[FRAME_REDIRECTED] = "redirected",
	[FRAME_CONDITION] = "condition",
	[FRAME_WRAPPER_EXEC] = "wrapper-exec",
};

const char *command_frame_name(int frame)
{
	if (frame <= 0 || (size_t)frame >= ELEMENTSOF(frame_names))
		return NULL;
	return frame_names[frame];
}

bool simple_command_in(const struct simple_command *c, int frame)
{
	for (size_t i = 0; i < c->depth; i++)
		if (c->frames[i] == frame)
			return true;
	return false;
}

const char *simple_command_function(const struct simple_command *c)
{
	return c->function;
}

size_t simple_command_wrapper_count(const struct simple_command *c)
{
	return c->n_wrappers;
}

const char *simple_command_wrapper_name(const struct simple_command *c, size_t i)
{
	return i < c->n_wrappers ? c->wrappers[i].name : NULL;
}

size_t simple_command_wrapper_argc(const struct simple_command *c, size_t i)
{
	return i < c->n_wrappers ? c->wrappers[i].argc : 0;
}

const char *simple_command_wrapper_arg(const struct simple_command *c, size_t i, size_t j)
{
	return i < c->n_wrappers && j < c->wrappers[i].argc ? c->wrappers[i].argv[j] : NULL;
}

size_t simple_command_assign_count(const struct simple_command *c)
{
	return c->n_assigns;
}

const char *simple_command_assign_name(const struct simple_command *c, size_t i)
{
	return i < c->n_assigns ? c->assigns[i].name : NULL;
}

const char *simple_command_assign_value(const struct simple_command *c, size_t i)
{
	return i < c->n_assigns ? c->assigns[i].value.w.text : NULL;
}

uint32_t simple_command_assign_flags(const struct simple_command *c, size_t i)
{
	return i < c->n_assigns ? c->assigns[i].value.w.flags : 0;
}

size_t simple_command_redirect_count(const struct simple_command *c)
{
	return c->n_redirects;
}

const char *simple_command_redirect_op(const struct simple_command *c, size_t i)
{
	return i < c->n_redirects ? c->redirects[i].op : NULL;
}

int simple_command_redirect_fd(const struct simple_command *c, size_t i)
{
	return i < c->n_redirects ? c->redirects[i].fd : -1;
}

const char *simple_command_redirect_target(const struct simple_command *c, size_t i)
{
	return i < c->n_redirects ? c->redirects[i].target.w.text : NULL;
}

uint32_t simple_command_redirect_target_flags(const struct simple_command *c, size_t i)
{
	return i < c->n_redirects ? c->redirects[i].target.w.flags : 0;
}

const char *simple_command_redirect_body(const struct simple_command *c, size_t i)
{
	return i < c->n_redirects ? c->redirects[i].body : NULL;
}

const char *simple_command_cwd(const struct simple_command *c)
{
	return c->cwd;
}

void simple_command_span(const struct simple_command *c, size_t *start, size_t *end)
{
	*start = c->span_start;
	*end = c->span_end;
}

const char *simple_command_text(const struct simple_command *c)
{
	return c->text ? c->text : "";
}

const char *simple_command_normalized(const struct simple_command *c)
{
	return c->normalized ? c->normalized : "";
}
