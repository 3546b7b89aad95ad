/* SPDX-License-Identifier: MIT */
/*
 * What sluice reads in an interpreter's code (interp.h): each call of the
 * language's table (interp-tables.c) found among the tokens
 * (interp-lexer.c), with its arguments read as values: a string literal, the
 * home directory, or not known. A known call becomes the shell command that
 * does the same (rm -rf, rm -f, rmdir, `: >`, or the shell string itself);
 * a call that removes or runs a shell with a value not known is the reason
 * to ask.
 * Not for: finding the code among a command's words (interp-invocation.c).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "model/interp-lang.h"
#include "model/interp.h"
#include "util/strbuf.h"

/* The script sluice writes for one piece of code. */
#define READER_SCRIPT_CAP ((size_t)64 * 1024)
/* The text of an expression compared with the home forms. */
#define CANONICAL_CAP 256
/* A path joined from parts. */
#define PATH_JOIN_CAP 4096
/* Arguments of one call read. */
#define READER_MAX_ARGS 16
/* Strings the reader joins (a home and a name after it) in one piece of
 * code; past this, a joined value is not known. */
#define READER_MAX_JOINED 64

/* The texts value_of() made by joining parts; freed with the reader. */
struct joined_texts {
	char *v[READER_MAX_JOINED];
	size_t n;
};

struct reader {
	const struct interp_lang *lang;
	const struct interp_tokens *t;
	struct strbuf script;
	struct interp_reading *out;
	struct joined_texts *joined;
};

struct range {
	size_t from, to; /* tokens [from, to) */
};

enum value_kind { VAL_UNKNOWN, VAL_TEXT, VAL_HOME };

struct value {
	enum value_kind kind;
	const char *text; /* TEXT: the literal; HOME: "~" or "~/rest" (borrowed) */
};

static void set_reason(struct reader *r, const char *text)
{
	if (r->out->reason[0])
		return; /* the first one says it */
	snprintf(r->out->reason, sizeof(r->out->reason), "%s", text);
}

static void unread(struct reader *r, const struct interp_call *call)
{
	if (r->out->reason[0])
		return;
	const char *name = call->name[0] == '.' ? call->name + 1 : call->name;
	snprintf(r->out->reason, sizeof(r->out->reason),
	         "calls %.100s on a value sluice cannot read", name);
}

static bool is_punct(const struct reader *r, size_t i, char c)
{
	return i < r->t->n && r->t->v[i].type == TOK_PUNCT && r->t->v[i].punct == c;
}

static bool name_in(const char *name, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

/* The token after the one that closes the bracket at open. */
static size_t after_close(const struct reader *r, size_t open)
{
	int depth = 0;
	for (size_t i = open; i < r->t->n; i++) {
		const struct interp_token *tok = &r->t->v[i];
		if (tok->type != TOK_PUNCT)
			continue;
		if (strchr("([{", tok->punct))
			depth++;
		else if (strchr(")]}", tok->punct) && --depth == 0)
			return i + 1;
	}
	return r->t->n;
}

/* Split [from, to) at the commas outside brackets. Returns how many. */
static size_t split_args(const struct reader *r, size_t from, size_t to, struct range *args)
{
	size_t n = 0, start = from;
	int depth = 0;
	for (size_t i = from; i <= to && n < READER_MAX_ARGS; i++) {
		const struct interp_token *tok = i < to ? &r->t->v[i] : NULL;
		if (tok && tok->type == TOK_PUNCT && strchr("([{", tok->punct))
			depth++;
		else if (tok && tok->type == TOK_PUNCT && strchr(")]}", tok->punct))
			depth--;
		/* julia's keyword arguments follow a ;: rm(p; recursive=true) */
		if (!tok || (depth == 0 && tok->type == TOK_PUNCT && strchr(",;", tok->punct))) {
			if (i > start)
				args[n++] = (struct range){ start, i };
			start = i + 1;
		}
	}
	return n;
}

/* Where the arguments of a call without parentheses end (perl, ruby:
 * `unlink $f or die`, `system "make" if $x`). */
static size_t bare_args_end(const struct reader *r, size_t from)
{
	static const char *const stops[] = { "or",      "and",   "if",    "unless", "for",
		                             "foreach", "while", "until", "do",     NULL };
	int depth = 0;
	for (size_t i = from; i < r->t->n; i++) {
		const struct interp_token *tok = &r->t->v[i];
		if (i > from && tok->line_start && depth == 0)
			return i;
		if (tok->type == TOK_NAME && depth == 0 && name_in(tok->text, stops))
			return i;
		if (tok->type != TOK_PUNCT)
			continue;
		if (strchr("([{", tok->punct))
			depth++;
		else if (strchr(")]}", tok->punct) && --depth < 0)
			return i;
		else if (depth == 0 && strchr(";|&", tok->punct))
			return i;
	}
	return r->t->n;
}

/* The expression's tokens written one way (home forms are compared so). */
static void canonical(const struct reader *r, struct range a, char *buf, size_t size)
{
	struct strbuf sb = strbuf_init(CANONICAL_CAP);
	for (size_t i = a.from; i < a.to; i++) {
		const struct interp_token *tok = &r->t->v[i];
		if (tok->type == TOK_PUNCT) {
			(void)strbuf_append_char(&sb, tok->punct);
		} else if (tok->type == TOK_NAME) {
			(void)strbuf_append_str(&sb, tok->text);
		} else {
			(void)strbuf_append_char(&sb, '\'');
			(void)strbuf_append_str(&sb, tok->dynamic ? "\x01" : tok->text);
			(void)strbuf_append_char(&sb, '\'');
		}
	}
	snprintf(buf, size, "%s", sb.capped || sb.failed ? "" : strbuf_str(&sb));
	strbuf_done(&sb);
}

static struct value value_of(const struct reader *r, struct range a);

/* Keep text (owned) as a joined value's; NULL when there is no room. */
static const char *keep_joined(const struct reader *r, struct strbuf *sb)
{
	if (sb->capped || sb->failed || r->joined->n >= READER_MAX_JOINED)
		return NULL;
	char *text = strbuf_take(sb);
	if (text)
		r->joined->v[r->joined->n++] = text;
	return text;
}

/* The parts of a as a value, one after the other: the first a literal or
 * the home, the others literals (a home in the middle of a path is not
 * one). slash: a / goes between parts that have none (a path join);
 * resolve: a part that starts with / starts the path again. */
static struct value join_parts(const struct reader *r, const struct range *parts, size_t n,
                               bool slash, bool resolve)
{
	struct value unknown = { VAL_UNKNOWN, NULL };
	struct strbuf sb = strbuf_init(PATH_JOIN_CAP);
	bool home = false;
	for (size_t i = 0; i < n; i++) {
		struct value v = value_of(r, parts[i]);
		if (v.kind == VAL_UNKNOWN || (v.kind == VAL_HOME && i > 0 && !resolve)) {
			strbuf_done(&sb);
			return unknown;
		}
		const char *text = v.text;
		if ((resolve && text[0] == '/') || v.kind == VAL_HOME) {
			strbuf_done(&sb);
			sb = strbuf_init(PATH_JOIN_CAP);
			home = v.kind == VAL_HOME;
		} else if (slash && sb.len > 0 && strbuf_str(&sb)[sb.len - 1] != '/' &&
		           text[0] != '/' && text[0]) {
			(void)strbuf_append_char(&sb, '/');
		}
		(void)strbuf_append_str(&sb, text);
	}
	const char *text = sb.failed || sb.capped ? NULL : strbuf_str(&sb);
	/* the home and a name joined without a / is another path (~x: /root.x) */
	if (!text || (home && text[1] && text[1] != '/')) {
		strbuf_done(&sb);
		return unknown;
	}
	const char *kept = keep_joined(r, &sb);
	strbuf_done(&sb);
	if (!kept)
		return unknown;
	return (struct value){ home ? VAL_HOME : VAL_TEXT, kept };
}

/* A value made of parts: a join call (os.path.join(A, B), path.join,
 * file.path), or parts joined by the language's operator (A + B, A .. B,
 * awk's A B). false: a is neither (*ret untouched). */
static bool joined_value(const struct reader *r, struct range a, struct value *ret)
{
	const struct interp_token *v = &r->t->v[a.from];
	size_t n = a.to - a.from;
	struct range parts[READER_MAX_ARGS + 1]; /* + 1: a receiver before a call's */
	if (n >= 4 && v[0].type == TOK_NAME && v[1].type == TOK_PUNCT && v[1].punct == '(' &&
	    after_close(r, a.from + 1) == a.to &&
	    (name_in(v[0].text, r->lang->join_calls) ||
	     name_in(v[0].text, r->lang->resolve_calls))) {
		size_t k = split_args(r, a.from + 2, a.to - 1, parts);
		*ret = k ? join_parts(r, parts, k, true, name_in(v[0].text, r->lang->resolve_calls))
		         : (struct value){ VAL_UNKNOWN, NULL };
		return true;
	}
	/* X.joinpath(A, B) (pathlib): X, then A and B as a path join does */
	for (size_t i = a.from + 1; i + 2 < a.to; i++)
		if (r->t->v[i].type == TOK_NAME && strcmp(r->t->v[i].text, ".joinpath") == 0 &&
		    is_punct(r, i + 1, '(') && after_close(r, i + 1) == a.to) {
			parts[0] = (struct range){ a.from, i };
			size_t k = split_args(r, i + 2, a.to - 1, parts + 1);
			*ret = k ? join_parts(r, parts, k + 1, true, true)
			         : (struct value){ VAL_UNKNOWN, NULL };
			return true;
		}
	const char *op = r->lang->concat;
	if (!op || n < 2)
		return false;
	/* split at the operator outside brackets; awk: before each literal and
	 * after each closing bracket or literal that another value follows */
	size_t k = 0, start = a.from;
	int depth = 0;
	for (size_t i = a.from; i < a.to && k < READER_MAX_ARGS - 1; i++) {
		const struct interp_token *tok = &r->t->v[i];
		if (tok->type == TOK_PUNCT && strchr("([{", tok->punct))
			depth++;
		else if (tok->type == TOK_PUNCT && strchr(")]}", tok->punct))
			depth--;
		if (depth != 0 || i == a.from)
			continue;
		size_t width = 0;
		if (op[0] == ' ') {
			const struct interp_token *prev = &r->t->v[i - 1];
			bool prev_ends = prev->type == TOK_STRING ||
			                 (prev->type == TOK_PUNCT && strchr(")]", prev->punct));
			bool starts = tok->type == TOK_STRING || tok->type == TOK_NAME;
			if (prev_ends && starts && i > start) {
				parts[k++] = (struct range){ start, i };
				start = i;
			}
			continue;
		}
		if (tok->type == TOK_PUNCT && tok->punct == op[0] &&
		    (!op[1] || is_punct(r, i + 1, op[1])))
			width = strlen(op);
		if (width) {
			if (i == start)
				return false;
			parts[k++] = (struct range){ start, i };
			start = i + width;
			i += width - 1;
		}
	}
	if (k == 0 || start >= a.to)
		return false;
	parts[k++] = (struct range){ start, a.to };
	*ret = join_parts(r, parts, k, false, false);
	return true;
}

static struct value value_of(const struct reader *r, struct range a)
{
	const struct interp_token *v = &r->t->v[a.from];
	size_t n = a.to - a.from;
	if (n == 1 && v[0].type == TOK_STRING && !v[0].dynamic && !v[0].command)
		return (struct value){ v[0].home ? VAL_HOME : VAL_TEXT, v[0].text };
	if (n == 4 && v[0].type == TOK_NAME && v[1].punct == '(' && v[2].type == TOK_STRING &&
	    !v[2].dynamic && v[3].punct == ')') {
		/* expanduser('~/x'), Path('build') */
		if (name_in(v[0].text, r->lang->tilde_calls) && v[2].text[0] == '~')
			return (struct value){ VAL_HOME, v[2].text };
		if (name_in(v[0].text, r->lang->path_ctors))
			return (struct value){ VAL_TEXT, v[2].text };
	}
	/* Path('~/x').expanduser(): the home with x after it */
	if (n == 7 && v[0].type == TOK_NAME && name_in(v[0].text, r->lang->path_ctors) &&
	    v[1].punct == '(' && v[2].type == TOK_STRING && !v[2].dynamic && v[3].punct == ')' &&
	    v[4].type == TOK_NAME && strcmp(v[4].text, ".expanduser") == 0 && v[5].punct == '(' &&
	    v[6].punct == ')' && v[2].text[0] == '~')
		return (struct value){ VAL_HOME, v[2].text };
	char text[CANONICAL_CAP + 1];
	canonical(r, a, text, sizeof(text));
	if (name_in(text, r->lang->home_forms))
		return (struct value){ VAL_HOME, "~" };
	struct value joined;
	if (joined_value(r, a, &joined))
		return joined;
	return (struct value){ VAL_UNKNOWN, NULL };
}

/* A value that a file call gets: in a language whose file calls expand a
 * leading ~ (R), "~" and "~/x" are the home's. */
static struct value file_value(const struct reader *r, struct range a)
{
	struct value v = value_of(r, a);
	if (v.kind == VAL_TEXT && r->lang->tilde_in_paths && v.text[0] == '~' &&
	    (v.text[1] == '\0' || v.text[1] == '/'))
		v.kind = VAL_HOME;
	return v;
}

void interp_shell_quote(struct strbuf *sb, const char *text)
{
	bool plain = *text != '\0' && *text != '~' && *text != '-';
	for (const char *p = text; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+,:@=",
		               *p) != NULL;
	if (plain) {
		(void)strbuf_append_str(sb, text);
		return;
	}
	(void)strbuf_append_char(sb, '\'');
	for (const char *p = text; *p; p++) {
		if (*p == '\'')
			(void)strbuf_append_str(sb, "'\\''");
		else
			(void)strbuf_append_char(sb, *p);
	}
	(void)strbuf_append_char(sb, '\'');
}

/* A value as a shell word: a literal quoted, the home directory as ~. */
static void emit_value(struct reader *r, struct value v)
{
	if (v.kind == VAL_HOME) {
		(void)strbuf_append_char(&r->script, '~');
		if (strncmp(v.text, "~/", 2) == 0 && v.text[2]) {
			(void)strbuf_append_char(&r->script, '/');
			interp_shell_quote(&r->script, v.text + 2);
		}
		return;
	}
	interp_shell_quote(&r->script, v.text);
}

/* "rm -rf -- ~" and the like: a command with one value. */
static void emit_command(struct reader *r, const char *prefix, struct value v)
{
	(void)strbuf_append_str(&r->script, prefix);
	emit_value(r, v);
	(void)strbuf_append_char(&r->script, '\n');
}

/* A shell command given as a string. */
static void emit_shell(struct reader *r, const char *text)
{
	(void)strbuf_append_str(&r->script, text);
	(void)strbuf_append_char(&r->script, '\n');
}

/* A program and its words, each a value; false when one is not known. */
static bool emit_argv(struct reader *r, const struct range *words, size_t n)
{
	struct value v[READER_MAX_ARGS];
	for (size_t i = 0; i < n; i++) {
		v[i] = value_of(r, words[i]);
		if (v[i].kind == VAL_UNKNOWN)
			return false;
	}
	for (size_t i = 0; i < n; i++) {
		if (i)
			(void)strbuf_append_char(&r->script, ' ');
		emit_value(r, v[i]);
	}
	if (n)
		(void)strbuf_append_char(&r->script, '\n');
	return true;
}

/* The elements of a list literal [a, b] / (a, b), or 0 when a is not one. */
static size_t list_elements(const struct reader *r, struct range a, struct range *out)
{
	/* R's c("-rf", "x") */
	if (strcmp(r->lang->name, "R") == 0 && a.to - a.from >= 3 &&
	    r->t->v[a.from].type == TOK_NAME && strcmp(r->t->v[a.from].text, "c") == 0 &&
	    is_punct(r, a.from + 1, '(') && after_close(r, a.from + 1) == a.to)
		return split_args(r, a.from + 2, a.to - 1, out);
	if (a.to - a.from < 2 || !(is_punct(r, a.from, '[') || is_punct(r, a.from, '(')) ||
	    after_close(r, a.from) != a.to)
		return 0;
	return split_args(r, a.from + 1, a.to - 1, out);
}

/* Is there an argument whose text is one of forms (shell=True)? */
static bool has_arg_form(const struct reader *r, const struct range *args, size_t n,
                         const char *needle)
{
	for (size_t i = 0; i < n; i++) {
		char text[CANONICAL_CAP + 1];
		canonical(r, args[i], text, sizeof(text));
		if (strstr(text, needle))
			return true;
	}
	return false;
}

static void read_shell_arg(struct reader *r, const struct interp_call *call, struct range a)
{
	struct value v = value_of(r, a);
	if (v.kind == VAL_TEXT)
		emit_shell(r, v.text);
	else
		unread(r, call);
}

/* python's subprocess: run(['rm', '-rf', p]) or run("cmd", shell=True). */
static void read_subprocess(struct reader *r, const struct interp_call *call,
                            const struct range *args, size_t n)
{
	struct range words[READER_MAX_ARGS];
	size_t k = list_elements(r, args[0], words);
	if (k) {
		if (!emit_argv(r, words, k))
			unread(r, call);
		return;
	}
	struct value v = value_of(r, args[0]);
	if (v.kind != VAL_TEXT) {
		unread(r, call);
		return;
	}
	if (has_arg_form(r, args + 1, n - 1, "shell=True"))
		emit_shell(r, v.text);
	else
		emit_command(r, "", v); /* the string names a program */
}

/* node's spawn / execFile: (program, [words], {shell: true}). */
static void read_program_args(struct reader *r, const struct interp_call *call,
                              const struct range *args, size_t n)
{
	struct range words[READER_MAX_ARGS];
	words[0] = args[0];
	size_t k = 1;
	if (n > 1) {
		size_t more = list_elements(r, args[1], words + 1);
		k += more;
	}
	if (has_arg_form(r, args + 1, n - 1, "shell:true")) {
		/* node joins the words with spaces for the shell */
		struct strbuf line = strbuf_init(READER_SCRIPT_CAP);
		for (size_t i = 0; i < k; i++) {
			struct value v = value_of(r, words[i]);
			if (v.kind != VAL_TEXT) {
				strbuf_done(&line);
				unread(r, call);
				return;
			}
			if (i)
				(void)strbuf_append_char(&line, ' ');
			(void)strbuf_append_str(&line, v.text);
		}
		emit_shell(r, strbuf_str(&line));
		strbuf_done(&line);
		return;
	}
	if (!emit_argv(r, words, k))
		unread(r, call);
}

/* The index of the name before the ( that matches the ) at end - 1, or
 * SIZE_MAX when there is none. */
static size_t call_start(const struct reader *r, size_t end)
{
	if (end < 2 || !is_punct(r, end - 1, ')'))
		return SIZE_MAX;
	int depth = 0;
	for (size_t i = end - 1; i > 0; i--) {
		const struct interp_token *tok = &r->t->v[i];
		if (tok->type == TOK_PUNCT && strchr(")]}", tok->punct))
			depth++;
		else if (tok->type == TOK_PUNCT && strchr("([{", tok->punct) && --depth == 0)
			return i - 1;
	}
	return SIZE_MAX;
}

/* PATH.unlink(): the receiver is Path('x'), Path('~/x').expanduser(),
 * Path.home().joinpath('x') (or not known). */
static struct value receiver(const struct reader *r, size_t at)
{
	size_t start = call_start(r, at);
	if (start == SIZE_MAX)
		return (struct value){ VAL_UNKNOWN, NULL };
	/* back over the methods chained before it (.expanduser(),
	 * .joinpath('x')) to what they are called on */
	while (r->t->v[start].type == TOK_NAME && r->t->v[start].text[0] == '.' &&
	       call_start(r, start) != SIZE_MAX)
		start = call_start(r, start);
	return value_of(r, (struct range){ start, at });
}

/* awk: print ... > FILE, print ... >> FILE, print ... | COMMAND. */
static void read_awk_output(struct reader *r, const struct interp_call *call, size_t from)
{
	/* the statement ends at ; } or the line's end, never at its | */
	size_t end = from;
	for (int depth = 0; end < r->t->n; end++) {
		const struct interp_token *tok = &r->t->v[end];
		if (end > from && tok->line_start && depth == 0)
			break;
		if (tok->type != TOK_PUNCT)
			continue;
		if (strchr("([{", tok->punct))
			depth++;
		else if (strchr(")]}", tok->punct) && --depth < 0)
			break;
		else if (depth == 0 && tok->punct == ';')
			break;
	}
	int depth = 0;
	for (size_t i = from; i < end; i++) {
		const struct interp_token *tok = &r->t->v[i];
		if (tok->type != TOK_PUNCT)
			continue;
		if (strchr("([{", tok->punct))
			depth++;
		else if (strchr(")]}", tok->punct))
			depth--;
		if (depth != 0 || (tok->punct != '>' && tok->punct != '|'))
			continue;
		bool append = tok->punct == '>' && is_punct(r, i + 1, '>');
		size_t target = i + (append ? 2 : 1);
		if (target >= end)
			return;
		struct value v = value_of(r, (struct range){ target, end });
		if (tok->punct == '|') {
			/* the command reads what awk prints: `print | "sh"` runs it */
			if (v.kind == VAL_TEXT) {
				(void)strbuf_append_str(&r->script, "true | ");
				emit_shell(r, v.text);
			} else
				unread(r, call);
		} else if (v.kind != VAL_UNKNOWN) {
			emit_command(r, append ? ": >> " : ": > ", v);
		}
		return;
	}
}

/* awk: "cmd" | getline. */
static void read_awk_getline(struct reader *r, const struct interp_call *call, size_t at)
{
	if (at < 2 || !is_punct(r, at - 1, '|'))
		return; /* getline from the input */
	const struct interp_token *cmd = &r->t->v[at - 2];
	const struct interp_token *before = at >= 3 ? &r->t->v[at - 3] : NULL;
	bool alone = !before || (before->type == TOK_PUNCT && !strchr(")]", before->punct)) ||
	             cmd->line_start;
	if (cmd->type == TOK_STRING && !cmd->dynamic && alone)
		emit_shell(r, cmd->text);
	else
		unread(r, call);
}

/* open(PATH, MODE) / open(PATH, mode='w'): the mode, when it is written. */
static const char *open_mode(const struct reader *r, const struct range *args, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct range a = args[i];
		if (a.to - a.from == 3 && r->t->v[a.from].type == TOK_NAME &&
		    strcmp(r->t->v[a.from].text, "mode") == 0 && is_punct(r, a.from + 1, '='))
			a.from += 2;
		else if (i != 1)
			continue;
		struct value v = value_of(r, a);
		if (v.kind == VAL_TEXT)
			return v.text;
	}
	return NULL;
}

/* A call on a path object (`Path(X).unlink()`, `.rmdir()`,
 * `.write_text()`): the command that does the same to X. A write to a path
 * not known is not an ask, as `> "$f"` is not. */
static void read_receiver_call(struct reader *r, const struct interp_call *call, size_t at)
{
	struct value v = receiver(r, at);
	if (v.kind != VAL_UNKNOWN)
		emit_command(r,
		             call->kind == CALL_RECEIVER_FILE  ? "rm -f -- "
		             : call->kind == CALL_RECEIVER_DIR ? "rmdir -- "
		                                               : ": > ",
		             v);
	else if (call->kind != CALL_RECEIVER_WRITE)
		unread(r, call);
}

/* R's unlink, julia's rm: a tree when an argument says recursive=TRUE. */
static void read_remove_maybe_tree(struct reader *r, const struct interp_call *call,
                                   const struct range *args, size_t n, struct value first)
{
	if (first.kind == VAL_UNKNOWN)
		unread(r, call);
	else
		emit_command(r,
		             has_arg_form(r, args + 1, n - 1, "recursive=T") ||
		                             has_arg_form(r, args + 1, n - 1, "recursive=true")
		                     ? "rm -rf -- "
		                     : "rm -f -- ",
		             first);
}

/* open(PATH, MODE) (python, lua, julia): written over when MODE has w,
 * appended to when it has a. */
static void read_open(struct reader *r, const struct range *args, size_t n, struct value first)
{
	const char *mode = open_mode(r, args, n);
	if (first.kind != VAL_UNKNOWN && mode && strpbrk(mode, "wa"))
		emit_command(r, strchr(mode, 'w') ? ": > " : ": >> ", first);
}

/* perl's open(my $f, '>', PATH) and '+>': PATH written over; '>>' appends,
 * and the two-argument open(F, ">PATH") is not read. */
static void read_perl_open(struct reader *r, const struct range *args, size_t n)
{
	if (n < 3)
		return;
	struct value mode = value_of(r, args[1]);
	struct value path = file_value(r, args[2]);
	if (mode.kind == VAL_TEXT && path.kind != VAL_UNKNOWN &&
	    (mode.text[0] == '>' || strncmp(mode.text, "+>", 2) == 0) &&
	    strncmp(mode.text, ">>", 2) != 0 && strncmp(mode.text, "+>>", 3) != 0)
		emit_command(r, ": > ", path);
}

static void read_call(struct reader *r, const struct interp_call *call, size_t at)
{
	if (call->kind == CALL_AWK_OUTPUT) {
		read_awk_output(r, call, at + 1);
		return;
	}
	if (call->kind == CALL_AWK_GETLINE) {
		read_awk_getline(r, call, at);
		return;
	}
	struct range args[READER_MAX_ARGS];
	size_t n;
	if (is_punct(r, at + 1, '(')) {
		size_t close = after_close(r, at + 1);
		n = split_args(r, at + 2, close > at + 2 ? close - 1 : at + 2, args);
	} else if (call->flags & CALL_NO_PARENS) {
		n = split_args(r, at + 1, bare_args_end(r, at + 1), args);
	} else {
		return; /* named, not called (a reference, a definition) */
	}
	if (call->kind == CALL_RECEIVER_FILE || call->kind == CALL_RECEIVER_DIR ||
	    call->kind == CALL_RECEIVER_WRITE) {
		read_receiver_call(r, call, at);
		return;
	}
	if (n == 0)
		return;
	struct value first = file_value(r, args[0]);
	switch (call->kind) {
	case CALL_REMOVE_MAYBE_TREE:
		read_remove_maybe_tree(r, call, args, n, first);
		break;
	case CALL_REMOVE_TREE:
	case CALL_REMOVE_DIR:
		if (first.kind == VAL_UNKNOWN)
			unread(r, call);
		else
			emit_command(r, call->kind == CALL_REMOVE_TREE ? "rm -rf -- " : "rmdir -- ",
			             first);
		break;
	case CALL_REMOVE_FILES:
		/* perl and ruby remove a list; fs.unlink(path, callback) one */
		for (size_t i = 0; i < ((call->flags & CALL_NO_PARENS) ? n : 1); i++) {
			struct value v = file_value(r, args[i]);
			if (v.kind == VAL_UNKNOWN)
				unread(r, call);
			else
				emit_command(r, "rm -f -- ", v);
		}
		break;
	case CALL_WRITE:
		if (first.kind != VAL_UNKNOWN)
			emit_command(r, ": > ", first);
		break;
	case CALL_OPEN: /* open(PATH, MODE): w writes over it, a appends */
		read_open(r, args, n, first);
		break;
	case CALL_PERL_OPEN:
		read_perl_open(r, args, n);
		break;
	case CALL_SHELL:
		read_shell_arg(r, call, args[0]);
		break;
	case CALL_SHELL_OR_ARGV:
		if (n == 1 && list_elements(r, args[0], args + 1) == 0)
			read_shell_arg(r, call, args[0]);
		else if (!emit_argv(r, args, n))
			unread(r, call);
		break;
	case CALL_SUBPROCESS:
		read_subprocess(r, call, args, n);
		break;
	case CALL_PROGRAM_ARGS:
		read_program_args(r, call, args, n);
		break;
	default:
		break;
	}
}

int interp_read(const struct interp_lang *lang, const char *code, size_t len, bool shell_expanded,
                struct interp_reading *ret)
{
	*ret = (struct interp_reading){ 0 };
	struct interp_tokens t;
	int e = interp_lex(lang, code, len, shell_expanded, &t);
	if (e >= 0)
		e = interp_resolve_aliases(lang, &t);
	if (e < 0) {
		interp_tokens_done(&t);
		return e;
	}
	struct joined_texts joined = { .n = 0 };
	struct reader r = { .lang = lang,
		            .t = &t,
		            .script = strbuf_init(READER_SCRIPT_CAP),
		            .out = ret,
		            .joined = &joined };
	if (t.truncated)
		set_reason(&r, "has more code than sluice reads");
	if (t.shell_leftover)
		set_reason(&r, "runs code that the shell fills in when it runs");
	for (size_t i = 0; i < t.n; i++) {
		const struct interp_token *tok = &t.v[i];
		if (tok->type == TOK_STRING && tok->command) {
			if (tok->dynamic)
				set_reason(&r, "runs a shell command in backquotes that sluice "
				               "cannot read");
			else
				emit_shell(&r, tok->text);
			continue;
		}
		if (tok->type != TOK_NAME)
			continue;
		const struct interp_call *call = interp_lang_call(lang, tok->text);
		if (call)
			read_call(&r, call, i);
	}
	if (r.script.capped)
		set_reason(&r, "has more code than sluice reads");
	int error = r.script.failed ? -ENOMEM : 0;
	if (!error && r.script.len > 0 && !(ret->script = strbuf_take(&r.script)))
		error = -ENOMEM;
	strbuf_done(&r.script);
	for (size_t i = 0; i < joined.n; i++)
		free(joined.v[i]);
	interp_tokens_done(&t);
	if (error)
		interp_reading_done(ret);
	return error;
}

void interp_reading_done(struct interp_reading *r)
{
	free(r->script);
	*r = (struct interp_reading){ 0 };
}
