/* SPDX-License-Identifier: MIT */
/*
 * The tokens of an interpreter's code (interp-lang.h): dotted names, string
 * literals decoded with the language's quoting and escapes (and marked
 * dynamic where they interpolate), and single punctuation. Comments and
 * regular expressions are skipped so that a quote in them does not start a
 * string. Approximate on purpose: enough to find calls and their literal
 * arguments, never a parser.
 * Not for: deciding what the tokens mean (interp-reader.c).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/interp-lang.h"
#include "util/strbuf.h"

struct lexer {
	const struct interp_lang *lang;
	const char *s;
	size_t len, at;
	bool shell_expanded;
	bool line_start;
	struct interp_tokens *out;
	int error;
};

static bool is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

static bool has(const struct lexer *lx, uint32_t flag)
{
	return (lx->lang->lex & flag) != 0;
}

static char peek(const struct lexer *lx, size_t ahead)
{
	return lx->at + ahead < lx->len ? lx->s[lx->at + ahead] : '\0';
}

/* Append a token (text consumed). */
static struct interp_token *push(struct lexer *lx, enum interp_token_type type, char *text)
{
	struct interp_tokens *t = lx->out;
	if (t->n >= INTERP_MAX_TOKENS) {
		t->truncated = true;
		free(text);
		return NULL;
	}
	if (t->n == t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : 64;
		struct interp_token *v = realloc(t->v, alloc * sizeof(*v));
		if (!v) {
			lx->error = -ENOMEM;
			free(text);
			return NULL;
		}
		t->v = v;
		t->alloc = alloc;
	}
	struct interp_token *tok = &t->v[t->n++];
	*tok = (struct interp_token){ .type = (uint8_t)type,
		                      .line_start = lx->line_start,
		                      .text = text };
	lx->line_start = false;
	return tok;
}

/* Can a value start here (so that / begins a regular expression)? */
static bool value_may_start(const struct lexer *lx)
{
	if (lx->out->n == 0)
		return true;
	const struct interp_token *prev = &lx->out->v[lx->out->n - 1];
	if (prev->type == TOK_STRING)
		return false;
	if (prev->type == TOK_NAME) {
		/* perl: `print if /x/`, `split /,/`: a keyword before it */
		static const char *const keywords[] = { "if",   "unless", "and",   "or",
			                                "not",  "return", "split", "grep",
			                                "when", "print",  "while", "until" };
		for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
			if (strcmp(prev->text, keywords[i]) == 0)
				return true;
		return false;
	}
	return prev->punct != ')' && prev->punct != ']' && prev->punct != '}';
}

static char closing(char open)
{
	switch (open) {
	case '(':
		return ')';
	case '[':
		return ']';
	case '{':
		return '}';
	case '<':
		return '>';
	default:
		return open;
	}
}

/* Skip a delimited body from lx->at (just after its opening delim), nested
 * brackets counted; lx->at ends after the closing one. */
static void skip_delimited(struct lexer *lx, char open)
{
	char close = closing(open);
	int depth = 1;
	while (lx->at < lx->len) {
		char c = lx->s[lx->at++];
		if (c == '\\' && lx->at < lx->len) {
			lx->at++;
			continue;
		}
		if (c == close && open != close && --depth == 0)
			return;
		if (c == close && open == close)
			return;
		if (c == open && open != close)
			depth++;
	}
}

/* Does raw[0..n) of a string interpolate? */
static bool interpolates(const struct lexer *lx, const char *raw, size_t n, char quote,
                         bool fstring)
{
	for (size_t i = 0; i < n; i++) {
		char c = raw[i], next = i + 1 < n ? raw[i + 1] : '\0';
		if (c == '\\') {
			i++;
			continue;
		}
		if (lx->shell_expanded && (c == '$' || c == '`'))
			return true;
		if (fstring && c == '{' && next != '{')
			return true;
		if (quote == '`' && has(lx, LEX_TEMPLATE) && c == '$' && next == '{')
			return true;
		if (quote == '\'')
			continue;
		if (has(lx, LEX_DOLLAR_INTERP) && (c == '$' || c == '@') &&
		    (is_name_start(next) || next == '{' ||
		     (c == '$' && next >= '0' && next <= '9')))
			return true;
		if (has(lx, LEX_JULIA_INTERP) && c == '$' && (is_name_start(next) || next == '('))
			return true;
		if (has(lx, LEX_HASH_INTERP) && c == '#' &&
		    (next == '{' || next == '$' || next == '@'))
			return true;
	}
	return false;
}

/* A string that interpolates the home and nothing more, at its start:
 * perl's "$ENV{HOME}/.bashrc", ruby's "#{Dir.home}/.ssh" and "#{ENV['HOME']}".
 * Its text becomes "~" and the literal rest ("~/.bashrc"), marked home. */
static void home_string(struct lexer *lx, struct interp_token *tok, char quote, bool fstring)
{
	static const char *const forms[] = { "$ENV{HOME}",  "${ENV{HOME}}",   "$ENV{'HOME'}",
		                             "#{Dir.home}", "#{ENV['HOME']}", "#{ENV[\"HOME\"]}",
		                             NULL };
	for (const char *const *f = forms; *f; f++) {
		size_t n = strlen(*f);
		const char *rest = tok->text + n;
		if (strncmp(tok->text, *f, n) != 0 || (*rest && *rest != '/') ||
		    interpolates(lx, rest, strlen(rest), quote, fstring))
			continue;
		if ((f[0][0] == '$') != has(lx, LEX_DOLLAR_INTERP))
			return; /* perl's form in perl, ruby's in ruby */
		memmove(tok->text + 1, rest, strlen(rest) + 1);
		tok->text[0] = '~';
		tok->dynamic = false;
		tok->home = true;
		return;
	}
}

/* The value of raw[0..n): escapes decoded unless raw. */
static char *decode(const char *raw, size_t n, bool escapes, bool only_quote_escapes, char quote)
{
	struct strbuf sb = strbuf_init(n + 1);
	for (size_t i = 0; i < n; i++) {
		char c = raw[i];
		if (c != '\\' || !escapes || i + 1 >= n) {
			(void)strbuf_append_char(&sb, c);
			continue;
		}
		char e = raw[++i];
		if (only_quote_escapes) {
			if (e != '\\' && e != quote)
				(void)strbuf_append_char(&sb, '\\');
			(void)strbuf_append_char(&sb, e);
			continue;
		}
		switch (e) {
		case 'n':
			(void)strbuf_append_char(&sb, '\n');
			break;
		case 't':
			(void)strbuf_append_char(&sb, '\t');
			break;
		case 'r':
			(void)strbuf_append_char(&sb, '\r');
			break;
		case '\n':
			break; /* a continued line */
		case '\\':
		case '\'':
		case '"':
		case '`':
		case '$':
		case '/':
			(void)strbuf_append_char(&sb, e);
			break;
		default: /* kept as written: "\d" in a pattern */
			(void)strbuf_append_char(&sb, '\\');
			(void)strbuf_append_char(&sb, e);
			break;
		}
	}
	return strbuf_take(&sb);
}

/* A string literal whose body starts at lx->at, up to close (triple: three
 * of it). Pushes the token. */
static void read_string(struct lexer *lx, char open, char close, bool triple, bool raw,
                        bool fstring, bool command)
{
	size_t start = lx->at, end = start;
	int depth = 1;
	for (;;) {
		if (lx->at >= lx->len) {
			end = lx->len;
			break;
		}
		char c = lx->s[lx->at];
		if (c == '\\' && lx->at + 1 < lx->len) {
			lx->at += 2;
			continue;
		}
		if (open != close && c == open) {
			depth++;
		} else if (c == close) {
			if (open != close && --depth > 0) {
				lx->at++;
				continue;
			}
			if (!triple) {
				end = lx->at++;
				break;
			}
			if (peek(lx, 1) == close && peek(lx, 2) == close) {
				end = lx->at;
				lx->at += 3;
				break;
			}
		}
		lx->at++;
	}
	bool single = close == '\'' || (open != close && !command && !fstring && raw);
	bool only_quote = raw && has(lx, LEX_RAW_SINGLE) && close == '\'';
	bool escapes = !raw || only_quote;
	char *text = decode(lx->s + start, end - start, escapes, only_quote, close);
	if (!text) {
		lx->error = -ENOMEM;
		return;
	}
	struct interp_token *tok = push(lx, TOK_STRING, text);
	if (tok) {
		tok->dynamic = interpolates(lx, lx->s + start, end - start, single ? '\'' : close,
		                            fstring);
		tok->command = command;
		if (tok->dynamic && !command && !lx->shell_expanded)
			home_string(lx, tok, single ? '\'' : close, fstring);
	}
}

/* python: r"", b'', f"", rb'', and their triple-quoted forms. */
static bool python_prefixed(struct lexer *lx)
{
	size_t k = 0;
	bool raw = false, fstring = false;
	while (k < 2 && strchr("rRbBuUfF", peek(lx, k)) && peek(lx, k) != '\0') {
		char c = peek(lx, k);
		raw |= c == 'r' || c == 'R';
		fstring |= c == 'f' || c == 'F';
		k++;
	}
	char q = peek(lx, k);
	if (k == 0 || (q != '\'' && q != '"'))
		return false;
	lx->at += k;
	bool triple = peek(lx, 1) == q && peek(lx, 2) == q;
	lx->at += triple ? 3 : 1;
	read_string(lx, q, q, triple, raw, fstring, false);
	return true;
}

/* perl: q qq qx qw (strings), m qr s tr y (patterns, skipped). */
static bool perl_quote_like(struct lexer *lx, const char *name, size_t n)
{
	size_t k = n;
	while (peek(lx, k) == ' ')
		k++;
	char d = peek(lx, k);
	if (d == '\0' || is_name_char(d) || strchr(" \t\n=,;)", d) || (d == '>' && k == n))
		return false;
	bool string =
	        (n == 1 && name[0] == 'q') || (n == 2 && name[0] == 'q' && strchr("qxw", name[1]));
	bool pattern = (n == 1 && strchr("msy", name[0])) ||
	               (n == 2 && strncmp(name, "qr", 2) == 0) ||
	               (n == 2 && strncmp(name, "tr", 2) == 0);
	if (!string && !pattern)
		return false;
	lx->at += k + 1;
	if (string) {
		bool raw = n == 1 || name[1] == 'w';
		read_string(lx, d, closing(d), false, raw, false, n == 2 && name[1] == 'x');
		return true;
	}
	skip_delimited(lx, d);
	if (strchr("sy", name[0]) || name[0] == 't') { /* a second part */
		if (closing(d) != d) {
			while (lx->at < lx->len && strchr(" \t\n", lx->s[lx->at]))
				lx->at++;
			if (lx->at < lx->len)
				skip_delimited(lx, lx->s[lx->at++]);
		} else {
			skip_delimited(lx, d);
		}
	}
	while (lx->at < lx->len && is_name_char(lx->s[lx->at]))
		lx->at++; /* flags: /gi */
	return true;
}

/* ruby: %q() %Q() %() %x() %w() %i(). */
static bool ruby_percent(struct lexer *lx)
{
	if (!value_may_start(lx))
		return false;
	char kind = peek(lx, 1), d = kind;
	size_t k = 1;
	if (strchr("qQxwWiI", kind) && kind != '\0') {
		d = peek(lx, 2);
		k = 2;
	} else {
		kind = 'Q';
	}
	if (!strchr("([{<|!/", d) || d == '\0')
		return false;
	lx->at += k + 1;
	read_string(lx, d, closing(d), false, kind == 'q' || kind == 'w' || kind == 'i', false,
	            kind == 'x');
	return true;
}

/* A dotted name from lx->at: a.b, A::B, a->b. lead: it starts with '.'. */
static void read_name(struct lexer *lx, bool lead)
{
	struct strbuf sb = strbuf_init(256);
	if (lead) {
		(void)strbuf_append_char(&sb, '.');
		lx->at++;
	}
	for (;;) {
		size_t from = lx->at;
		if (has(lx, LEX_SIGILS) && (peek(lx, 0) == '$' || peek(lx, 0) == '@'))
			lx->at++;
		while (lx->at < lx->len && is_name_char(lx->s[lx->at]))
			lx->at++;
		(void)strbuf_append(&sb, lx->s + from, lx->at - from);
		size_t sep = peek(lx, 0) == '.' ? 1
		             : (peek(lx, 0) == ':' && peek(lx, 1) == ':') ||
		                             (peek(lx, 0) == '-' && peek(lx, 1) == '>')
		                     ? 2
		                     : 0;
		if (!sep || !is_name_start(peek(lx, sep)))
			break;
		lx->at += sep;
		(void)strbuf_append_char(&sb, '.');
	}
	char *text = strbuf_take(&sb);
	if (!text) {
		lx->error = -ENOMEM;
		return;
	}
	push(lx, TOK_NAME, text);
}

/* require('fs').rmSync: the four tokens before ".rmSync" become "fs".
 * python's __import__('shutil').rmtree is the same shape (importer). */
static void fold_require(struct lexer *lx, const char *importer)
{
	struct interp_tokens *t = lx->out;
	if (t->n < 5)
		return;
	struct interp_token *v = &t->v[t->n - 5];
	if (v[0].type != TOK_NAME || strcmp(v[0].text, importer) != 0 || v[1].punct != '(' ||
	    v[2].type != TOK_STRING || v[2].dynamic || v[3].punct != ')' || v[4].type != TOK_NAME ||
	    v[4].text[0] != '.')
		return;
	const char *module = v[2].text;
	if (strncmp(module, "node:", 5) == 0)
		module += 5;
	if (strcmp(module, "fs/promises") == 0)
		module = "promises"; /* require('fs/promises').rm is fs.promises.rm */
	struct strbuf sb = strbuf_init(256);
	(void)strbuf_append_str(&sb, module);
	(void)strbuf_append_str(&sb, v[4].text);
	char *text = strbuf_take(&sb);
	if (!text) {
		lx->error = -ENOMEM;
		return;
	}
	bool line_start = v[0].line_start;
	for (size_t i = 0; i < 5; i++)
		free(v[i].text);
	v[0] = (struct interp_token){ .type = TOK_NAME, .line_start = line_start, .text = text };
	t->n -= 4;
}

static void skip_line(struct lexer *lx)
{
	while (lx->at < lx->len && lx->s[lx->at] != '\n')
		lx->at++;
}

/* Skip the space, line end, comment or pattern literal at lx->at, if
 * there is one there (a newline starts a line). */
static bool skip_blank(struct lexer *lx)
{
	char c = lx->s[lx->at], next = peek(lx, 1);
	if (c == '\n') {
		lx->line_start = true;
		lx->at++;
	} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
		lx->at++;
	} else if ((c == '#' && has(lx, LEX_HASH_COMMENT)) ||
	           (c == '/' && has(lx, LEX_SLASH_COMMENT) && next == '/')) {
		skip_line(lx);
	} else if (c == '/' && has(lx, LEX_SLASH_COMMENT) && next == '*') {
		const char *end = memmem(lx->s + lx->at + 2, lx->len - lx->at - 2, "*/", 2);
		lx->at = end ? (size_t)(end - lx->s) + 2 : lx->len;
	} else if (c == '/' && has(lx, LEX_REGEX) && value_may_start(lx)) {
		lx->at++;
		skip_delimited(lx, '/');
		while (lx->at < lx->len && is_name_char(lx->s[lx->at]))
			lx->at++;
	} else {
		return false;
	}
	return true;
}

/* One token (or a skipped comment or space) at lx->at. */
static void lex_one(struct lexer *lx)
{
	char c = lx->s[lx->at], next = peek(lx, 1);
	if (skip_blank(lx))
		return;
	if (has(lx, LEX_PY_STRINGS) && python_prefixed(lx))
		return;
	if (c == '"' || (c == '\'' && !has(lx, LEX_NO_SINGLE))) {
		bool triple = has(lx, LEX_PY_STRINGS) && next == c && peek(lx, 2) == c;
		lx->at += triple ? 3 : 1;
		read_string(lx, c, c, triple, c == '\'' && has(lx, LEX_RAW_SINGLE), false, false);
		return;
	}
	if (c == '`' && (has(lx, LEX_TEMPLATE) || has(lx, LEX_BACKTICK_SHELL))) {
		lx->at++;
		read_string(lx, '`', '`', false, false, false, has(lx, LEX_BACKTICK_SHELL));
		return;
	}
	if (c == '%' && has(lx, LEX_RUBY_PERCENT) && ruby_percent(lx))
		return;
	if (is_name_start(c) && has(lx, LEX_PERL_QUOTES)) {
		size_t n = 0;
		while (is_name_char(peek(lx, n)))
			n++;
		if (n <= 2 && perl_quote_like(lx, lx->s + lx->at, n))
			return;
	}
	bool sigil = has(lx, LEX_SIGILS) && (c == '$' || c == '@') &&
	             (is_name_char(next) || (c == '$' && next == '#'));
	if (sigil && next == '#') { /* perl's $#array: the last index */
		lx->at += 2;
		return;
	}
	bool lead = c == '.' && is_name_start(next) && lx->out->n > 0 && !value_may_start(lx);
	if (is_name_start(c) || sigil || lead) {
		read_name(lx, lead);
		if (lead && has(lx, LEX_REQUIRE))
			fold_require(lx, "require");
		else if (lead && has(lx, LEX_PY_STRINGS))
			fold_require(lx, "__import__");
		return;
	}
	if (c >= '0' && c <= '9') {
		size_t from = lx->at;
		while (lx->at < lx->len && (is_name_char(lx->s[lx->at]) || lx->s[lx->at] == '.'))
			lx->at++;
		char *text = strndup(lx->s + from, lx->at - from);
		if (!text)
			lx->error = -ENOMEM;
		else
			push(lx, TOK_NAME, text);
		return;
	}
	if (c == '$' || c == '`')
		lx->out->shell_leftover |= lx->shell_expanded;
	struct interp_token *tok = push(lx, TOK_PUNCT, NULL);
	if (tok)
		tok->punct = c;
	lx->at++;
}

int interp_lex(const struct interp_lang *lang, const char *code, size_t len, bool shell_expanded,
               struct interp_tokens *ret)
{
	*ret = (struct interp_tokens){ 0 };
	struct lexer lx = { .lang = lang,
		            .s = code,
		            .len = len,
		            .shell_expanded = shell_expanded,
		            .line_start = true,
		            .out = ret };
	while (lx.at < lx.len && !lx.error && !ret->truncated)
		lex_one(&lx);
	if (lx.error) {
		interp_tokens_done(ret);
		return lx.error;
	}
	return 0;
}

void interp_tokens_done(struct interp_tokens *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].text);
	free(t->v);
	*t = (struct interp_tokens){ 0 };
}
