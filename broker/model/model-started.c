/* SPDX-License-Identifier: MIT */
/*
 * What one simple command starts in turn, as more commands of the model:
 * the string of a nested shell (bash -c, a heredoc or here-string fed to a
 * shell, su -c, env -S, watch, eval, trap, alias), what an interpreter's
 * code removes, writes or hands to a shell (python3 -c, node -e, perl -e,
 * awk's program: interp.h), find's -exec clauses,
 * and what git runs besides itself (git.h), with the config an earlier
 * `git config` of the line set (a file: it holds for every later git,
 * walked or nested). Part of the model builder
 * (model-builder.h): called when a command is finished, it walks what it
 * finds with the builder.
 * Not for: the command's own words (model-command.c).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cleanup.h"
#include "model/git.h"
#include "model/interp.h"
#include "model/model-builder.h"
#include "model/wrappers.h"
#include "strv.h"
#include "util/strbuf.h"

static char *join_words(const struct simple_command *c, size_t from, size_t to, bool *dynamic)
{
	struct strbuf sb = strbuf_init(SHELL_WORD_MAX_BYTES * 4);
	*dynamic = false;
	for (size_t i = from; i < to; i++) {
		if (i > from)
			(void)strbuf_append_char(&sb, ' ');
		(void)strbuf_append_str(&sb, c->argv[i].w.text);
		if (!builder_word_is_static(&c->argv[i]))
			*dynamic = true;
	}
	if (sb.capped)
		*dynamic = true;
	return strbuf_take(&sb);
}

/* A command that c starts with words of its own argv [from, to) (find
 * -exec, git bisect run), or with the static words strings[0..n_strings)
 * (a git alias), in a wrapper-exec frame; c's wrappers then self (when
 * not NULL) are its wrappers. braces: a "{}" in a word is filled in when it
 * runs (find). */
static void run_under(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                      struct model_state *st, const struct model_wrapper *self, size_t from,
                      size_t to, char *const *strings, size_t n_strings, bool braces)
{
	size_t saved = builder_set_prefix(b, c, self);
	if (builder_push_frame(b, FRAME_WRAPPER_EXEC)) {
		struct walk_ctx cctx = *ctx;
		cctx.parent = (long)c->index;
		cctx.negated = cctx.background = cctx.stdin_piped = false;
		cctx.src = c->text;
		cctx.nested = true;
		cctx.span_start = c->span_start;
		cctx.span_end = c->span_end;
		cctx.has_error = false;
		struct shell_node span = { .start = 0, .end = (uint32_t)strlen(c->text) };
		struct simple_command *e = builder_command_new(b, &cctx, &span);
		size_t alloc = 0;
		for (size_t i = from; e && i < to + n_strings && !b->error; i++) {
			struct model_word w;
			b->error = i < to ? builder_word_copy(&w, &c->argv[i])
			                  : builder_word_from_text(&w, strings[i - to], 0);
			if (!b->error && braces && strstr(w.w.text, "{}"))
				e->flags |= CMD_ARGV_INCOMPLETE;
			if (!b->error)
				b->error = builder_push_arg(b, e, &alloc, &w);
			else
				model_word_done(&w);
		}
		if (e && !b->error) {
			struct model_state copy;
			b->error = model_state_copy(&copy, st);
			if (!b->error)
				builder_finish_command(b, &cctx, e, &copy, c->cwd);
			model_state_done(&copy);
		}
		builder_pop_frame(b);
	}
	builder_restore_prefix(b, saved);
}

/* find ... -exec CMD {} ; : each clause is a command of its own. */
static void exec_clauses(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                         char *const *texts, struct model_state *st)
{
	struct wrapper_clause clauses[BUILDER_MAX_CLAUSES];
	size_t n = wrapper_exec_clauses((const char *const *)texts, c->argc, 0, clauses,
	                                BUILDER_MAX_CLAUSES);
	if (n > BUILDER_MAX_CLAUSES) {
		b->m->limits_reached |= COMMAND_MODEL_LIMIT_COMMANDS;
		n = BUILDER_MAX_CLAUSES;
	}
	if (n == 0)
		return;
	struct model_wrapper self = { 0 };
	/* find's own words up to its first action */
	b->error = builder_copy_wrapper(&self, c->name, texts, clauses[0].begin - 1);
	for (size_t k = 0; k < n && !b->error; k++)
		run_under(b, ctx, c, st, &self, clauses[k].begin, clauses[k].end, NULL, 0, true);
	model_wrapper_done(&self);
}

/* trap's action: trap [-p|-l|--] ACTION SIGNAL...; the action runs in this
 * shell when a signal (or EXIT, ERR ...) comes. 0 when there is none ("-"
 * and "" reset or ignore). */
static size_t trap_action(const struct simple_command *c)
{
	size_t i = 1;
	if (i < c->argc && strcmp(c->argv[i].w.text, "--") == 0)
		i++;
	if (i + 1 >= c->argc || c->argv[i].w.text[0] == '-' || c->argv[i].w.text[0] == '\0')
		return 0;
	return i;
}

/* alias NAME=VALUE...: each VALUE kept in st as "alias NAME" (no
 * variable has a blank in its name), for a later command named NAME
 * (builder_expand_alias()); one whose value is not static is forgotten. 0
 * or -ENOMEM. */
static int record_aliases(const struct simple_command *c, struct model_state *st)
{
	for (size_t i = 1; i < c->argc; i++) {
		const char *text = c->argv[i].w.text, *eq = strchr(text, '=');
		if (!eq || eq == text || eq - text > 200)
			continue;
		char key[256];
		snprintf(key, sizeof(key), "alias %.*s", (int)(eq - text), text);
		if (!builder_word_is_static(&c->argv[i]))
			model_state_unset(st, key);
		else if (model_state_set(st, key, eq + 1) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The values of alias NAME=VALUE..., one per line: each runs where its name
 * is used. NULL (and no error) when there are none. */
static char *alias_values(const struct simple_command *c, bool *dynamic, int *error)
{
	struct strbuf sb = strbuf_init(SHELL_WORD_MAX_BYTES * 4);
	*dynamic = false;
	for (size_t i = 1; i < c->argc; i++) {
		const char *eq = strchr(c->argv[i].w.text, '=');
		if (!eq || eq == c->argv[i].w.text)
			continue;
		(void)strbuf_append_str(&sb, eq + 1);
		(void)strbuf_append_char(&sb, '\n');
		if (!builder_word_is_static(&c->argv[i]))
			*dynamic = true;
	}
	if (sb.capped)
		*dynamic = true; /* a part is missing: not known */
	if (sb.len == 0 && !sb.failed) {
		strbuf_done(&sb);
		return NULL;
	}
	char *values = strbuf_take(&sb);
	if (!values)
		*error = -ENOMEM;
	return values;
}

/* Give a new shell's positional parameters ($0, $1 ...) the static words
 * from c->argv[from] on (bash -c STRING NAME ARG...); none when find or
 * xargs completes the words when it runs (a "{}" or xargs -I's string is
 * replaced then). */
static int set_positional(struct model_state *fresh, const struct simple_command *c, size_t from)
{
	if (c->flags & CMD_ARGV_INCOMPLETE)
		return 0;
	if (from >= c->argc)
		return builder_set_positional(fresh, NULL, 0);
	int r = builder_state_assign(fresh, "0", &c->argv[from].w);
	return r < 0 ? r : builder_set_positional(fresh, c->argv + from + 1, c->argc - from - 1);
}

/* script run by a new shell that c starts: the cwd is inherited, unexported
 * variables are not; its $0, $1 ... are c's static words from
 * c->argv[positional] on (0: none). Its commands are under c's wrappers,
 * then extra (when not NULL). */
static void new_shell(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                      const char *script, size_t positional, const struct model_state *st,
                      const struct model_wrapper *extra)
{
	struct model_state fresh = { 0 };
	fresh.cwd_unknown = st->cwd_unknown;
	if (c->cwd && !(fresh.cwd = strdup(c->cwd)))
		b->error = -ENOMEM;
	if (!b->error && positional)
		b->error = set_positional(&fresh, c, positional);
	if (!b->error)
		b->error = builder_walk_nested(b, ctx, c, script, strlen(script), &fresh, extra);
	model_state_done(&fresh);
}

/* Does path name standard input (bash /dev/stdin reads its script there)? */
static bool is_stdin_path(const char *path)
{
	return strcmp(path, "/dev/stdin") == 0 || strcmp(path, "/dev/fd/0") == 0 ||
	       strcmp(path, "/proc/self/fd/0") == 0;
}

/* What writer, the one command before a pipe, writes when it is `echo`
 * of static words (no option: bash's echo then changes nothing) or
 * `printf` of one static format with no % or backslash: the code piped
 * into a shell or an interpreter (`echo "print(1)" | python3`), into
 * *script. False for anything else (its output is not known). */
static bool piped_literal(const struct simple_command *writer, char **script)
{
	if (!writer || writer->argc < 2 || writer->n_wrappers || writer->n_redirects ||
	    (writer->flags & CMD_NAME_DYNAMIC))
		return false;
	bool echo = strcmp(writer->name, "echo") == 0;
	if (!echo && (strcmp(writer->name, "printf") != 0 || writer->argc != 2 ||
	              strpbrk(writer->argv[1].w.text, "%\\")))
		return false;
	struct strbuf sb = strbuf_init(SHELL_WORD_MAX_BYTES);
	for (size_t i = 1; i < writer->argc; i++) {
		const char *t = writer->argv[i].w.text;
		if (!builder_word_is_static(&writer->argv[i]) || (echo && i == 1 && t[0] == '-')) {
			strbuf_done(&sb);
			return false;
		}
		if (i > 1)
			(void)strbuf_append_char(&sb, ' ');
		(void)strbuf_append_str(&sb, t);
	}
	if (echo)
		(void)strbuf_append_char(&sb, '\n');
	if (sb.capped) {
		strbuf_done(&sb);
		return false;
	}
	*script = strbuf_take(&sb);
	return true;
}

/* The script a shell reads on standard input: a heredoc or here-string
 * (into *script), or one not known before it runs, which marks c
 * nested-dynamic (curl ... | sh, sh < <(curl ...)). 0 or -ENOMEM. */
static int stdin_script(const struct walk_ctx *ctx, struct simple_command *c, char **script,
                        bool *dynamic)
{
	for (size_t i = c->n_redirects; i > 0; i--) {
		const struct model_redirect *rd = &c->redirects[i - 1];
		if (rd->fd != -1 && rd->fd != 0)
			continue;
		if (!rd->body) {
			if (strcmp(rd->op, "<") == 0 && (rd->target.w.flags & WORD_PROCSUBST)) {
				c->flags |= CMD_NESTED_DYNAMIC;
				return 0;
			}
			continue;
		}
		*script = strdup(rd->body);
		if (!*script)
			return -ENOMEM;
		*dynamic = (rd->target.w.flags & WORD_DYNAMIC_MASK & ~(uint32_t)WORD_PARAM) != 0 ||
		           (strcmp(rd->op, "<<<") == 0 && (rd->target.w.flags & WORD_DYNAMIC_MASK));
		return 0;
	}
	if (ctx->stdin_piped && !piped_literal(ctx->stdin_writer, script))
		c->flags |= CMD_NESTED_DYNAMIC; /* curl ... | sh */
	return *script || !ctx->stdin_piped || (c->flags & CMD_NESTED_DYNAMIC) ? 0 : -ENOMEM;
}

/* The code an interpreter runs (words or standard input) into *code;
 * *expanded: the shell expanded parts of it first. 0 or -ENOMEM. */
static int interpreter_code_text(const struct walk_ctx *ctx, struct simple_command *c,
                                 char *const *texts, const struct interp_invocation *inv,
                                 char **code, bool *expanded)
{
	*code = NULL;
	*expanded = false;
	if (inv->source == INTERP_CODE_STDIN)
		return stdin_script(ctx, c, code, expanded);
	struct strbuf sb = strbuf_init(SHELL_WORD_MAX_BYTES * 4);
	for (size_t k = 0; k < inv->n_code; k++) {
		size_t i = inv->code_words[k];
		if (k)
			(void)strbuf_append_char(&sb, '\n'); /* perl -e a -e b: two lines */
		(void)strbuf_append_str(&sb, texts[i] + inv->code_offsets[k]);
		if (!builder_word_is_static(&c->argv[i]))
			*expanded = true;
	}
	if (sb.capped)
		c->flags |= CMD_NESTED_UNPARSED;
	*code = strbuf_take(&sb);
	return *code ? 0 : -ENOMEM;
}

/* perl -i / ruby -i: the files named after the code are written; each is
 * `: > FILE` of its word as written (a glob stays one). */
static int in_place_files(const struct simple_command *c, const struct interp_invocation *inv,
                          struct strbuf *sb)
{
	for (size_t i = inv->files_from; inv->in_place && i < c->argc; i++) {
		(void)strbuf_append_str(sb, ": > ");
		(void)strbuf_append_str(sb, c->argv[i].source);
		(void)strbuf_append_char(sb, '\n');
	}
	return sb->failed ? -ENOMEM : 0;
}

/* What an interpreter's code does, as far as sluice reads it (interp.h),
 * walked as a new shell under the interpreter's own words; what it cannot
 * read in a call that removes or runs a shell is kept on c (an ask). */
static void interpreter_code(struct builder *b, const struct walk_ctx *ctx,
                             struct simple_command *c, char *const *texts,
                             const struct interp_invocation *inv, struct model_state *st)
{
	_cleanup_free_ char *code = NULL;
	bool expanded = false;
	if (inv->source == INTERP_CODE_NONE && !inv->in_place)
		return;
	if (inv->more_code)
		c->flags |= CMD_NESTED_UNPARSED;
	b->error = interpreter_code_text(ctx, c, texts, inv, &code, &expanded);
	if (b->error || (!code && !inv->in_place))
		return;
	struct interp_reading reading = { 0 };
	if (code)
		b->error = interp_read(inv->lang, code, strlen(code), expanded, &reading);
	struct strbuf sb = strbuf_init(SHELL_WORD_MAX_BYTES * 4);
	if (!b->error && reading.script)
		(void)strbuf_append_str(&sb, reading.script);
	if (!b->error)
		b->error = in_place_files(c, inv, &sb);
	if (!b->error && reading.reason[0] && !c->interp_unread &&
	    !(c->interp_unread = strdup(reading.reason)))
		b->error = -ENOMEM;
	_cleanup_free_ char *script = b->error ? NULL : strbuf_take(&sb);
	strbuf_done(&sb);
	interp_reading_done(&reading);
	if (b->error || !script || !script[0]) {
		if (!b->error && !script)
			b->error = -ENOMEM;
		return;
	}
	struct model_wrapper self = { 0 };
	b->error = builder_copy_wrapper(&self, c->name, texts, inv->first_option);
	if (!b->error)
		new_shell(b, ctx, c, script, 0, st, &self);
	model_wrapper_done(&self);
}

/* Does the wrapper w, whose name is texts[0], run a string (env -S STRING,
 * watch CMD)? Its words read into *m. A wrapper that does not is no
 * nested shell, and may be an interpreter (bun x CMD, bun -e CODE). */
static bool wrapper_runs_string(const struct wrapper *w, char *const *texts, size_t n,
                                struct wrapper_match *m)
{
	wrapper_match(w, (const char *const *)texts, n, 0, m);
	return m->string_word >= 0 || (m->shell_join && m->end < n);
}

/* The script a command hands a nested shell, as nested_shells() finds it. */
struct nested_script {
	char *script;              /* owned; NULL: none */
	bool dynamic;              /* not static: not known */
	bool same_shell;           /* runs in this shell (eval): its effects stay */
	size_t positional;         /* the word that is $0 of a new shell, or 0 */
	struct model_wrapper self; /* the command itself, as a wrapper of it */
	bool with_self;
};

/* The string a wrapper w runs (env -S STRING, watch CMD, script -c CMD),
 * its words read into m: into ns, with the wrapper itself. 0 or -ENOMEM. */
static int wrapper_string(struct simple_command *c, const struct wrapper *w, char *const *texts,
                          const struct wrapper_match *m, struct nested_script *ns)
{
	size_t from = m->end, to = c->argc;
	if (m->string_word >= 0) {
		/* env -S 'a b' rest: the string, then the rest;
		 * script -c CMD FILE: the string alone */
		from = (size_t)m->string_word;
		if (!(w->flags & WRAP_STRING_ARGS))
			to = from + 1;
	}
	ns->script = join_words(c, from, to, &ns->dynamic);
	if (!ns->script)
		return -ENOMEM;
	if (m->string_word >= 0 && m->string_offset > 0)
		memmove(ns->script, ns->script + m->string_offset,
		        strlen(ns->script + m->string_offset) + 1); /* "-Sstring" */
	ns->with_self = true;
	return builder_copy_wrapper(&ns->self, w->name, texts, from);
}

/* The script of a shell c runs (bash -c STRING, su -c CMD, a heredoc or a
 * here-string fed to a shell, bash /dev/stdin), into ns; a script file from
 * a process substitution (bash <(curl ...)) is dynamic. 0 or -ENOMEM. */
static int shell_invocation(const struct walk_ctx *ctx, struct simple_command *c,
                            char *const *texts, struct nested_script *ns)
{
	size_t script_word = 0, offset = 0;
	enum shell_script_source source = wrapper_shell_script(c->name, (const char *const *)texts,
	                                                       c->argc, 0, &script_word, &offset);
	if ((source == SHELL_SCRIPT_ARG || source == SHELL_SCRIPT_STDIN) &&
	    wrapper_shell_is_foreign(c->name))
		c->flags |= CMD_NESTED_FOREIGN;
	switch (source) {
	case SHELL_SCRIPT_ARG:
		ns->dynamic = !builder_word_is_static(&c->argv[script_word]);
		ns->script = strdup(c->argv[script_word].w.text + offset);
		if (!ns->script)
			return -ENOMEM;
		if (!wrapper_is_user_switch(c->name)) {
			ns->positional = script_word + 1;
			return 0;
		}
		/* su -c CMD user: CMD runs under su, like sudo's */
		ns->with_self = true;
		return builder_copy_wrapper(&ns->self, c->name, texts,
		                            offset ? script_word : script_word - 1);
	case SHELL_SCRIPT_FILE:
		if (c->argv[script_word].w.flags & WORD_PROCSUBST)
			c->flags |= CMD_NESTED_DYNAMIC; /* bash <(curl ...) */
		else if (is_stdin_path(c->argv[script_word].w.text))
			return stdin_script(ctx, c, &ns->script, &ns->dynamic);
		return 0;
	case SHELL_SCRIPT_STDIN:
		return stdin_script(ctx, c, &ns->script, &ns->dynamic);
	default:
		return 0;
	}
}

/* The nested shell a command starts: bash -c STRING, eval ARGS, trap ACTION,
 * alias NAME=VALUE, a shell fed a heredoc or here-string, watch CMD, env -S
 * STRING; or the code an interpreter runs. A script file from a process
 * substitution (bash <(curl ...), source <(...)) is dynamic. w: the wrapper
 * row of c's name, or NULL. */
static void nested_shells(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                          const struct wrapper *w, char *const *texts, struct model_state *st)
{
	struct nested_script ns = { 0 };
	const char *name = c->name;
	size_t action;                 /* trap's */
	struct interp_invocation code; /* an interpreter's */
	struct wrapper_match m;        /* a wrapper's that runs a string */
	bool aliases = false;          /* alias NAME=VALUE: kept for later commands */

	/* a name with a slash runs a program (`/eval x`), never a builtin */
	bool builtin = !strchr(c->argv[0].w.text, '/');
	if (builtin && strcmp(name, "eval") == 0 && c->argc > 1) {
		ns.script = join_words(c, 1, c->argc, &ns.dynamic);
		if (!ns.script)
			b->error = -ENOMEM;
		ns.same_shell = true; /* eval runs in this shell: its effects stay */
	} else if (builtin && strcmp(name, "trap") == 0 && (action = trap_action(c)) > 0) {
		ns.dynamic = !builder_word_is_static(&c->argv[action]);
		ns.script = strdup(c->argv[action].w.text);
		if (!ns.script)
			b->error = -ENOMEM;
		ns.same_shell = true;
	} else if (builtin && strcmp(name, "alias") == 0) {
		ns.script = alias_values(c, &ns.dynamic, &b->error);
		ns.same_shell = true;
		aliases = true;
	} else if (builtin && (strcmp(name, "source") == 0 || strcmp(name, ".") == 0) &&
	           c->argc > 1) {
		size_t file = strcmp(c->argv[1].w.text, "--") == 0 ? 2 : 1;
		if (file < c->argc && (c->argv[file].w.flags & WORD_PROCSUBST))
			c->flags |= CMD_NESTED_DYNAMIC; /* source <(curl ...) */
	} else if (w && c->argc > 1 && wrapper_runs_string(w, texts, c->argc, &m)) {
		b->error = wrapper_string(c, w, texts, &m, &ns);
	} else if (interp_invocation_find(name, (const char *const *)texts, c->argc, &code)) {
		interpreter_code(b, ctx, c, texts, &code, st);
	} else {
		b->error = shell_invocation(ctx, c, texts, &ns);
	}
	if (!b->error && ns.script && ns.dynamic)
		c->flags |= CMD_NESTED_DYNAMIC;
	else if (!b->error && ns.script && ns.same_shell)
		b->error = builder_walk_nested(b, ctx, c, ns.script, strlen(ns.script), st, NULL);
	else if (!b->error && ns.script)
		new_shell(b, ctx, c, ns.script, ns.positional, st, ns.with_self ? &ns.self : NULL);
	if (!b->error && aliases) /* after its values: no alias is in its own */
		b->error = record_aliases(c, st);
	free(ns.script);
	model_wrapper_done(&ns.self);
}

/* A shell command git runs: a `!` alias gets the words after it as its
 * arguments (git runs `sh -c 'VALUE "$@"' VALUE ARGS...`); a config value
 * gets arguments only known when it runs ("$@": the file to edit, ssh's
 * host and command). */
static void git_script(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                       const char *value, const struct git_run *run, const struct model_state *st,
                       const struct model_wrapper *self)
{
	if (run->to <= run->from && !run->args_appended) {
		new_shell(b, ctx, c, value, 0, st, self);
		return;
	}
	struct strbuf sb = strbuf_init(SHELL_WORD_MAX_BYTES * 4);
	(void)strbuf_append_str(&sb, value);
	if (run->args_appended)
		(void)strbuf_append_str(&sb, " \"$@\"");
	for (size_t k = 1; run->to > run->from && k <= run->to - run->from && k <= 9; k++) {
		char ref[8];
		snprintf(ref, sizeof(ref), " \"$%zu\"", k);
		(void)strbuf_append_str(&sb, ref);
	}
	_cleanup_free_ char *script = strbuf_take(&sb);
	if (!script) {
		b->error = -ENOMEM;
		return;
	}
	new_shell(b, ctx, c, script, run->from - 1, st, self);
}

/* Does c's words hold `-c ENTRY`? */
static bool carries_config(char *const *texts, size_t argc, const char *entry)
{
	for (size_t i = 1; i + 1 < argc; i++)
		if (strcmp(texts[i], "-c") == 0 && strcmp(texts[i + 1], entry) == 0)
			return true;
	return false;
}

/* The config an earlier `git config` of the line set (b->git_config)
 * holds for this git too: it is walked once more as `git -c KEY=VALUE
 * ... ARGS`, where its aliases, commands and pushes are read as -c ones
 * are. The walk of that command carries them all and adds nothing. */
static void earlier_config(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                           char *const *texts, struct model_state *st)
{
	if (b->git_config_unknown) {
		c->flags |= CMD_NESTED_DYNAMIC;
		return;
	}
	if (b->n_git_config == 0)
		return;
	_cleanup_strv_free_ char **argv = NULL;
	bool added = false;
	if (strv_extend(&argv, texts[0]) < 0)
		goto oom;
	for (size_t i = 0; i < b->n_git_config; i++) {
		if (carries_config(texts, c->argc, b->git_config[i]))
			continue;
		if (strv_extend(&argv, "-c") < 0 || strv_extend(&argv, b->git_config[i]) < 0)
			goto oom;
		added = true;
	}
	if (!added)
		return;
	for (size_t i = 1; i < c->argc; i++)
		if (strv_extend(&argv, texts[i]) < 0)
			goto oom;
	run_under(b, ctx, c, st, NULL, 0, 0, argv, strv_length(argv), false);
	return;
oom:
	b->error = -ENOMEM;
}

/* A `git config KEY VALUE` whose key matters (git.h): kept for the git
 * commands after it, and judged at once by what it makes git run, as a
 * later command line would run it: an alias as `git -c alias.NAME=VALUE
 * NAME`, any other key as `git -c KEY=VALUE push` (a command it runs, a
 * mirror or forced refspec it pushes with); one that brings in hooks or
 * files (core.hooksPath) only for the commands after it. A key or value not known
 * makes what the later ones run not known. */
static void record_config(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                          char *const *texts, const bool *dynamic, struct model_state *st)
{
	size_t key, value;
	if (!git_config_sets((const char *const *)texts, c->argc, 0, &key, &value))
		return;
	if (dynamic[key]) {
		b->git_config_unknown = true;
		return;
	}
	if (!git_config_key_matters(texts[key], strlen(texts[key])))
		return;
	if (dynamic[value] || b->n_git_config >= BUILDER_MAX_GIT_CONFIG) {
		b->git_config_unknown = true;
		return;
	}
	char *entry = NULL;
	if (asprintf(&entry, "%s=%s", texts[key], texts[value]) < 0) {
		b->error = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < b->n_git_config; i++)
		if (strcmp(b->git_config[i], entry) == 0) {
			free(entry);
			return;
		}
	b->git_config[b->n_git_config++] = entry;
	if (git_config_key_opaque(texts[key], strlen(texts[key])))
		return; /* what it brings in runs later: the commands after it ask */
	const char *name = "push";
	_cleanup_free_ char *alias = NULL;
	if (strncasecmp(texts[key], "alias.", 6) == 0) {
		alias = strdup(texts[key] + 6);
		if (!alias) {
			b->error = -ENOMEM;
			return;
		}
		name = alias;
	}
	char *argv[] = { texts[0], (char *)"-c", entry, (char *)name };
	run_under(b, ctx, c, st, NULL, 0, 0, argv, ELEMENTSOF(argv), false);
}

/* What git runs besides itself (git.h), walked under git's own words:
 * a shell command as a nested shell, a command's words as one more
 * command, an alias's git command as one more git (whose aliases are read
 * in turn, within the nesting limit); what is not known asks. */
static void git_runs(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                     char *const *texts, struct model_state *st)
{
	_cleanup_free_ bool *dynamic = calloc(c->argc + 1, sizeof(bool));
	if (!dynamic) {
		b->error = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < c->argc; i++)
		dynamic[i] = !builder_word_is_static(&c->argv[i]);
	earlier_config(b, ctx, c, texts, st);
	if (b->error)
		return;
	record_config(b, ctx, c, texts, dynamic, st);
	if (b->error)
		return;
	struct git_runs runs;
	b->error = git_runs_find((const char *const *)texts, dynamic, c->argc, 0, &runs);
	if (runs.more)
		c->flags |= CMD_NESTED_UNPARSED;
	for (size_t i = 0; i < runs.n && !b->error; i++) {
		const struct git_run *run = &runs.v[i];
		struct model_wrapper self = { 0 };
		switch (run->kind) {
		case GIT_RUN_UNKNOWN:
			c->flags |= CMD_NESTED_DYNAMIC;
			break;
		case GIT_RUN_SCRIPT:
			b->error = builder_copy_wrapper(&self, "git", texts, run->word);
			if (!b->error)
				git_script(b, ctx, c, texts[run->word] + run->offset, run, st,
				           &self);
			break;
		case GIT_RUN_ARGV:
			b->error = builder_copy_wrapper(&self, "git", texts, run->from);
			if (!b->error)
				run_under(b, ctx, c, st, &self, run->from, run->to, NULL, 0, false);
			break;
		case GIT_RUN_GIT:
			run_under(b, ctx, c, st, NULL, 0, 0, run->argv, strv_length(run->argv),
			          false);
			break;
		}
		model_wrapper_done(&self);
	}
	git_runs_done(&runs);
	/* GIT_SSH_COMMAND=... git fetch: the variables git runs */
	for (size_t i = 0; i < c->n_assigns && !b->error; i++) {
		const struct model_assign *a = &c->assigns[i];
		int kind = git_env_run(a->name);
		if (kind < 0)
			continue;
		if (kind == GIT_RUN_UNKNOWN || !builder_word_is_static(&a->value)) {
			c->flags |= CMD_NESTED_DYNAMIC;
		} else if (kind == GIT_RUN_SCRIPT) {
			struct git_run run = { .kind = GIT_RUN_SCRIPT, .args_appended = true };
			git_script(b, ctx, c, a->value.w.text, &run, st, NULL);
		} else {
			char *argv[] = { a->value.w.text };
			run_under(b, ctx, c, st, NULL, 0, 0, argv, 1, false);
		}
	}
}

void builder_started(struct builder *b, const struct walk_ctx *ctx, struct simple_command *c,
                     char *const *texts, struct model_state *st)
{
	const struct wrapper *w = wrapper_find(c->name);
	if (w && w->flags & WRAP_EXEC_CLAUSES)
		exec_clauses(b, ctx, c, texts, st);
	else if (strcmp(c->name, "git") == 0)
		git_runs(b, ctx, c, texts, st);
	else
		nested_shells(b, ctx, c, w, texts, st);
}
