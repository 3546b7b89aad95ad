/* SPDX-License-Identifier: MIT */
/*
 * The model builder: the tree walk (model-builder.c), the building of one
 * simple command (model-command.c), what it changes for the commands after
 * it (model-effects.c), the scripts inside a text (model-scripts.c), what a
 * command starts (model-started.c) and what an xargs reads (model-xargs.c),
 * with the state they share.
 * These files are ONE unit and call each other on purpose: the walk meets
 * a command and builds it (builder_command), and a command that runs a
 * shell string (`bash -c '...'`, eval, a heredoc fed to sh, find -exec) is
 * walked again (builder_walk_nested). That recursion is the shell's own;
 * both sit on the model's storage (model-storage.h) and nothing else of
 * the model calls back into them but command_model_parse().
 * Not for: anyone outside the command model.
 */
#ifndef SLUICE_MODEL_BUILDER_H
#define SLUICE_MODEL_BUILDER_H

#include "model/model-storage.h"
#include "model/model-state.h"

#define BUILDER_MAX_FRAMES 255
#define BUILDER_MAX_INHERITED 16
#define BUILDER_MAX_PREFIX 16
#define BUILDER_MAX_FUNCTIONS 64
#define BUILDER_MAX_CLAUSES 8
#define BUILDER_MAX_GIT_CONFIG 16
/* Levels of syntax nodes kept from one parse (normal commands use ~15). */
#define BUILDER_TREE_DEPTH 200
/* Bytes of literal variable values substituted into words, per model. */
#define BUILDER_RESOLVE_BUDGET ((size_t)1024 * 1024)

/* A redirection of a compound statement, applied to the commands inside. */
struct inherited_redirect {
	const char *src;                 /* the text node's offsets refer to */
	const struct shell_node *node;   /* the redirect */
	const struct shell_node *target; /* applies inside this node; NULL: everywhere */
	bool active;
};

struct builder {
	struct command_model *m;
	const struct command_model_limits *lim;
	struct shell_parser *parser;
	struct shell_budget budget; /* the CPU time all parses of the command may take */
	uint8_t frames[BUILDER_MAX_FRAMES];
	size_t depth;
	/* the innermost pipeline being walked: its number (-1: none), the
	 * part being walked and how many parts it has */
	long pipeline;
	size_t pipe_position, pipe_length;
	long n_pipelines;
	const char *function; /* innermost function being walked (borrowed) */
	struct inherited_redirect inherited[BUILDER_MAX_INHERITED];
	size_t n_inherited;
	/* the first one that applies: a nested shell's commands do not get
	 * the redirections around the command that started it (they are the
	 * shell's), and the ones below stay for after it */
	size_t inherited_base;
	/* wrappers of the command whose nested shell / exec clause is walked */
	const struct model_wrapper *prefix[BUILDER_MAX_PREFIX];
	size_t n_prefix;
	char *functions[BUILDER_MAX_FUNCTIONS]; /* names defined so far (owned) */
	/* each one's definition, and the text its offsets refer to */
	const struct shell_node *function_nodes[BUILDER_MAX_FUNCTIONS];
	const char *function_srcs[BUILDER_MAX_FUNCTIONS];
	bool function_active[BUILDER_MAX_FUNCTIONS]; /* its body is being walked for a call */
	size_t n_functions;
	/* "KEY=VALUE" of the git config keys that matter (git.h) set by a
	 * `git config` walked so far (owned): a file outside the shell, so
	 * they hold for every later git, in a subshell or not */
	char *git_config[BUILDER_MAX_GIT_CONFIG];
	size_t n_git_config;
	bool git_config_unknown; /* one was set to a value not known */
	size_t resolve_budget;   /* bytes of variable values still to substitute */
	int error;               /* first -errno; stops the walk */
};

/* Where the walk is. Passed by value into deeper levels. */
struct walk_ctx {
	const char *src;             /* the text the current tree's offsets refer to */
	bool nested;                 /* src is a nested shell's string */
	size_t span_start, span_end; /* nested: the outer word's span in the model's source */
	long parent;                 /* index of the holding command, or -1 */
	bool negated, background, stdin_piped;
	/* the pipeline's part before, when it is one simple command (`echo a
	 * b | xargs rm`: the echo); borrowed from the model, or NULL */
	const struct simple_command *stdin_writer;
	bool has_error; /* the current tree has an ERROR / MISSING node */
};

/* The entry: walk the tree parsed from m->source and fill m; the parses
 * take at most limits->parse_timeout_us of this thread's CPU time.
 * Returns 0 or -ENOMEM. */
int model_build(struct command_model *m, struct shell_parser *parser,
                const struct command_model_limits *limits);

bool builder_push_frame(struct builder *b, enum command_frame frame);
/* The commands walked from now on are under c's wrappers (which begin with
 * the ones c inherited), then extra (when not NULL). Returns what to give
 * builder_restore_prefix() after. */
size_t builder_set_prefix(struct builder *b, const struct simple_command *c,
                          const struct model_wrapper *extra);
void builder_restore_prefix(struct builder *b, size_t saved);
void builder_pop_frame(struct builder *b);
bool builder_subtree_has_error(const struct shell_node *n);
/* The partial causes a parsed tree gives its model (enum
 * command_model_partial_cause). */
uint32_t builder_partial_causes(const struct shell_tree *tree);

/* Forget the variables assigned (and the cd directory, if changed) anywhere
 * in n: used where n may run in an order or a number of times not known
 * (model-loops.c). A variable only read there ($d, ${d}) is kept; the
 * positional parameters go when n has a shift or a set. */
void builder_forget_assigned(const struct walk_ctx *ctx, const struct shell_node *n,
                             struct model_state *st);
/* A while or until loop n's first rounds walked in order from st, the
 * state before it (model-loops.c); walk_loop() calls it only when
 * builder_forget_assigned() forgot something st knew (else the rounds are
 * the walk already done). */
void builder_loop_rounds(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                         const struct model_state *st);
void builder_walk_statement(struct builder *b, const struct walk_ctx *ctx,
                            const struct shell_node *n, struct model_state *st);

void builder_walk_statements(struct builder *b, const struct walk_ctx *ctx,
                             const struct shell_node *n, struct model_state *st);
void builder_walk_substitutions(struct builder *b, const struct walk_ctx *ctx,
                                const struct shell_node *n, const struct model_state *st,
                                long parent);
/* Does the redirection hold words after its target (`> f x`, `3>&- x`)? */
bool builder_redirect_has_words(const char *src, const struct shell_node *redirect);
void builder_walk_heredoc_tail(struct builder *b, const struct walk_ctx *ctx,
                               const struct shell_node *redirect, struct model_state *st);

/* Parse text as a nested shell held by cmd and walk it with st; its commands
 * inherit cmd's wrappers (and extra, when not NULL). text[0..len) is read in
 * place (not copied): it must stay as it is until this returns. */
int builder_walk_nested(struct builder *b, const struct walk_ctx *ctx, struct simple_command *cmd,
                        const char *text, size_t len, struct model_state *st,
                        const struct model_wrapper *extra);

/* --- one command (model-command.c) --- */

static inline bool builder_word_is_static(const struct model_word *w)
{
	return (w->w.flags & WORD_DYNAMIC_MASK) == 0;
}

/* Set name in st to what the word w (expanded) holds when it is known
 * before bash runs: a static word, a home (`~`, `~/x`, `"$HOME"/x`: kept
 * as `~...` and marked, model_state_set_tilde); anything else makes name
 * unknown. 0 or -ENOMEM. */
int builder_state_assign(struct model_state *st, const char *name, const struct shell_word *w);
/* The same for a word bash made with pathname expansion (an array's
 * element, a loop's value): a
 * glob, after a home or not, is kept and marked as the names it matched
 * (model_state_set_marked), so `a=(*); rm -rf "${a[@]}"` is `rm -rf *`.
 * A scalar assignment (`x=*`) does not expand a glob: not for it. */
int builder_state_assign_expanded(struct model_state *st, const char *name,
                                  const struct shell_word *w);

/* The positional parameters are now words[0..n) (`set --`, a function's
 * call, `bash -c STRING $0 ARGS`): $1 ... $9 as builder_state_assign()
 * sets them, and their count, for "$@" (model-effects.c). 0 or -ENOMEM. */
int builder_set_positional(struct model_state *st, const struct model_word *words, size_t n);

/* A new command at the current point of the walk (n: its node in
 * ctx->src), appended to the model; NULL when the model is full (flagged)
 * or on -ENOMEM (b->error). */
struct simple_command *builder_command_new(struct builder *b, const struct walk_ctx *ctx,
                                           const struct shell_node *n);
/* A wrapper made of argv[0..argc) (copied) with the name name. -ENOMEM. */
int builder_copy_wrapper(struct model_wrapper *dst, const char *name, char *const *argv,
                         size_t argc);
/* A word of text (copied) with flags; a copy of a word. 0 or -ENOMEM. */
int builder_word_from_text(struct model_word *out, const char *text, uint32_t flags);
int builder_word_copy(struct model_word *out, const struct model_word *in);
/* Append w (consumed) to c's argv; past max_words dropped and flagged. */
int builder_push_arg(struct builder *b, struct simple_command *c, size_t *alloc,
                     struct model_word *w);
/* Take the wrappers off c, name it, and walk what it starts; its effects
 * on st (cd, variables) follow. inherited_chdir: the directory a wrapper
 * of the command that started it changed to (find -exec), or NULL. */
void builder_finish_command(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                            struct model_state *st, const char *inherited_chdir);

/* c runs under xargs: append the words it reads when they are known,
 * from writer (the pipeline's part before, or NULL) or c's here-string,
 * and c's argv is then complete (model-xargs.c). 0 or -ENOMEM. */
int builder_xargs_input(struct builder *b, struct simple_command *c,
                        const struct simple_command *writer);

/* What c changes for the commands after it in st (model-effects.c). */
void builder_effects(struct builder *b, struct simple_command *c, struct model_state *st);

/* What c (finished, texts its words) starts in turn (model-started.c). */
void builder_started(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                     char *const *texts, struct model_state *st);

/* c calls a function defined earlier in the same text: its body is walked
 * again as it runs there, with st's variables and directory and c's
 * static words as $1 ... (model-builder.c). */
void builder_call_function(struct builder *b, const struct walk_ctx *ctx,
                           const struct simple_command *c, const struct model_state *st);

/* --- a command's words (model-words.c) --- */

/* Where the words of a command being built stand: argv's allocation, and
 * the source span of the last word (a word right after it joins it). */
struct word_cursor {
	size_t alloc;
	uint32_t prev_start, prev_end;
	bool words_only; /* a list of words (a loop's): none is an assignment */
};

/* The word node n of ctx->src expanded with the variables st knows, into
 * *out (its source text kept). 0 or -ENOMEM. */
int builder_word_from_node(struct builder *b, struct model_word *out, const struct walk_ctx *ctx,
                           const struct shell_node *n, struct model_state *st);
/* Append the word node wn to c's argv: a word of its own, or the rest of
 * the word before it when nothing separates them (the grammar splits
 * `${A}-$1`); "$@" and "${NAME[@]}" as the words they are. 0 or -ENOMEM. */
int builder_push_word_node(struct builder *b, struct simple_command *c, const struct walk_ctx *ctx,
                           const struct shell_node *wn, struct model_state *st,
                           struct word_cursor *wc);
/* Brace expansion of c's argv, as bash does first (`git push {-f,}`). */
int builder_expand_braces(struct builder *b, struct simple_command *c, size_t *alloc);
/* The word nodes list[0..n) of one line (a `for` loop's list) expanded as
 * bash expands a command's arguments, with what st knows: variables,
 * "$@", "${NAME[@]}", braces. *ret: a scratch command whose argv holds
 * them (free it with simple_command_free; NULL on error). 0 or -ENOMEM. */
int builder_expand_words(struct builder *b, const struct walk_ctx *ctx,
                         const struct shell_node *const *list, size_t n, struct model_state *st,
                         struct simple_command **ret);

/* --- assignments (model-assign.c) --- */

/* The name under which model_state keeps element k of array var
 * ("a[0]"), or its count (k < 0: "a[#]"), in buf; returns buf. */
const char *builder_array_slot(const char *var, long k, char *buf, size_t size);
/* Add NAME (name[0..name_len)) = value (consumed) to c's assignments. */
int builder_add_assign(struct simple_command *c, const char *name, size_t name_len,
                       struct model_word *value);
/* A NAME=VALUE node n: c's assignment (c may be NULL); persist: a
 * statement of its own, so st holds the variable for what follows. */
int builder_assignment_node(struct builder *b, struct simple_command *c, const struct walk_ctx *ctx,
                            const struct shell_node *n, struct model_state *st, bool persist);
/* The length of NAME when w, before any command word, is an assignment to
 * bash (NAME=VALUE, NAME and = unquoted), else 0. */
size_t builder_assignment_word(const struct model_word *w);
/* The assignment word w (NAME name_len bytes) as one of c's prefixes;
 * consumes w. */
int builder_add_assign_word(struct simple_command *c, struct model_word *w, size_t name_len);

/* --- redirections (model-redirect.c) --- */

/* The redirection node n of src as c's, read with st; fd: its descriptor
 * when a word before it gave one (builder_fd_written_before()), or -1. */
int builder_add_redirect(struct builder *b, struct simple_command *c, const char *src,
                         const struct shell_node *n, struct model_state *st, int fd);
/* The all-digit word of c right before redirect (`cat 0<f`), taken off
 * argv as its descriptor; -1 when there is none. */
int builder_fd_written_before(struct simple_command *c, const char *src,
                              const struct shell_node *redirect, uint32_t prev_end);
/* The words the grammar gives redirect after its target, pushed onto c
 * as bash gives them to the command. */
int builder_push_redirect_words(struct builder *b, struct simple_command *c,
                                const struct walk_ctx *ctx, const struct shell_node *redirect,
                                struct model_state *st, struct word_cursor *wc);

/* --- one command (model-command.c) --- */

/* Grow an array of elem-sized items to hold one more. 0 or -ENOMEM. */
int builder_grow(void **array, size_t n, size_t *alloc, size_t elem);
/* A `command` node. */
void builder_command(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                     struct model_state *st);

/* export / declare / local / readonly / unset / NAME=VALUE statements. */
void builder_declaration(struct builder *b, const struct walk_ctx *ctx, const struct shell_node *n,
                         struct model_state *st);

#endif
