/* SPDX-License-Identifier: MIT */
/*
 * The tree-sitter adapter: parses with the compiled-in bash grammar and copies
 * the syntax tree into struct shell_node, mapping grammar symbols to our
 * kinds through one table. The only file that includes tree_sitter/api.h.
 * Not for: interpreting the tree (command-model does).
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

#include "shell/bash-language.h"
#include "cleanup.h"
#include "monotonic.h"
#include "shell/shell-parse.h"

/* Grammar name -> kind, sorted by name (bsearch). Named symbols only. */
static const struct {
	const char *name;
	enum shell_node_kind kind;
} kind_table[] = {
	{ "ERROR", SN_ERROR },
	{ "ansi_c_string", SN_ANSI_C_STRING },
	{ "arithmetic_expansion", SN_ARITH_EXPANSION },
	{ "array", SN_ARRAY },
	{ "brace_expression", SN_BRACE_EXPRESSION },
	{ "c_style_for_statement", SN_C_FOR },
	{ "case_item", SN_CASE_ITEM },
	{ "case_statement", SN_CASE },
	{ "command", SN_COMMAND },
	{ "command_name", SN_COMMAND_NAME },
	{ "command_substitution", SN_CMD_SUBST },
	{ "comment", SN_COMMENT },
	{ "compound_statement", SN_COMPOUND },
	{ "concatenation", SN_CONCATENATION },
	{ "declaration_command", SN_DECLARATION },
	{ "do_group", SN_DO_GROUP },
	{ "elif_clause", SN_ELIF },
	{ "else_clause", SN_ELSE },
	{ "expansion", SN_EXPANSION },
	{ "extglob_pattern", SN_EXTGLOB },
	{ "file_descriptor", SN_FILE_DESCRIPTOR },
	{ "file_redirect", SN_FILE_REDIRECT },
	{ "for_statement", SN_FOR },
	{ "function_definition", SN_FUNCTION },
	{ "heredoc_body", SN_HEREDOC_BODY },
	{ "heredoc_content", SN_HEREDOC_CONTENT },
	{ "heredoc_end", SN_HEREDOC_END },
	{ "heredoc_redirect", SN_HEREDOC_REDIRECT },
	{ "heredoc_start", SN_HEREDOC_START },
	{ "herestring_redirect", SN_HERESTRING_REDIRECT },
	{ "if_statement", SN_IF },
	{ "list", SN_LIST },
	{ "negated_command", SN_NEGATED },
	{ "number", SN_NUMBER },
	{ "pipeline", SN_PIPELINE },
	{ "process_substitution", SN_PROC_SUBST },
	{ "program", SN_PROGRAM },
	{ "raw_string", SN_RAW_STRING },
	{ "redirected_statement", SN_REDIRECTED },
	{ "simple_expansion", SN_SIMPLE_EXPANSION },
	{ "special_variable_name", SN_SPECIAL_VAR },
	{ "string", SN_STRING },
	{ "string_content", SN_STRING_CONTENT },
	{ "subshell", SN_SUBSHELL },
	{ "test_command", SN_TEST },
	{ "translated_string", SN_TRANSLATED_STRING },
	{ "unset_command", SN_UNSET },
	{ "variable_assignment", SN_VAR_ASSIGN },
	{ "variable_assignments", SN_VAR_ASSIGNS },
	{ "variable_name", SN_VAR_NAME },
	{ "while_statement", SN_WHILE },
	{ "word", SN_WORD },
};

struct shell_parser {
	TSParser *ts;
	uint32_t n_symbols;
	uint16_t *symbol_kind; /* symbol id -> enum shell_node_kind */
};

static int kind_cmp(const void *key, const void *elem)
{
	const char *name = key;
	const char *const *entry = elem; /* first member of the table row */
	return strcmp(name, *entry);
}

static enum shell_node_kind kind_for_name(const char *name)
{
	const void *hit =
	        bsearch(name, kind_table, ELEMENTSOF(kind_table), sizeof(kind_table[0]), kind_cmp);
	if (!hit)
		return SN_OTHER;
	return ((const __typeof__(kind_table[0]) *)hit)->kind;
}

struct shell_parser *shell_parser_free(struct shell_parser *p)
{
	if (!p)
		return NULL;
	if (p->ts)
		ts_parser_delete(p->ts);
	free(p->symbol_kind);
	free(p);
	return NULL;
}

int shell_parser_new(struct shell_parser **ret)
{
	struct shell_parser *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	const TSLanguage *lang = tree_sitter_bash();
	p->ts = ts_parser_new();
	if (!p->ts) {
		shell_parser_free(p);
		return -ENOMEM;
	}
	if (!ts_parser_set_language(p->ts, lang)) {
		shell_parser_free(p);
		return -EPROTO;
	}
	p->n_symbols = ts_language_symbol_count(lang);
	p->symbol_kind = calloc(p->n_symbols ? p->n_symbols : 1, sizeof(*p->symbol_kind));
	if (!p->symbol_kind) {
		shell_parser_free(p);
		return -ENOMEM;
	}
	for (uint32_t s = 0; s < p->n_symbols; s++) {
		TSSymbolType type = ts_language_symbol_type(lang, (TSSymbol)s);
		const char *name = ts_language_symbol_name(lang, (TSSymbol)s);
		if (type == TSSymbolTypeRegular && name)
			p->symbol_kind[s] = (uint16_t)kind_for_name(name);
		else
			p->symbol_kind[s] = SN_TOKEN;
	}
	*ret = p;
	return 0;
}

/* The node arrays of one tree, carved from a few growing blocks: a parse
 * makes one allocation per block instead of one per node. */
struct shell_arena {
	struct shell_arena *next;
	size_t size, used;
	max_align_t data[];
};

#define ARENA_FIRST_BLOCK 4096

static void *arena_alloc(struct shell_tree *tree, size_t bytes)
{
	struct shell_arena *a = tree->arena;
	bytes = (bytes + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!a || a->size - a->used < bytes) {
		size_t size = a ? a->size * 2 : ARENA_FIRST_BLOCK;
		while (size < bytes)
			size *= 2;
		struct shell_arena *b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		*b = (struct shell_arena){ .next = a, .size = size };
		tree->arena = a = b;
	}
	void *p = (char *)a->data + a->used;
	a->used += bytes;
	memset(p, 0, bytes);
	return p;
}

void shell_tree_done(struct shell_tree *tree)
{
	while (tree->arena) {
		struct shell_arena *next = tree->arena->next;
		free(tree->arena);
		tree->arena = next;
	}
	tree->root.children = NULL;
	tree->root.n_children = 0;
}

struct copy_state {
	const struct shell_parser *p;
	struct shell_tree *tree;
	unsigned max_depth;
	const char *text;
	uint32_t covered; /* the text up to here is in a token or was checked */
};

/* The bytes between tokens, text[covered..start): only the blanks bash
 * also takes for blanks (space, tab, newline) may be there unflagged. */
static void check_gap(struct copy_state *st, uint32_t start)
{
	for (uint32_t i = st->covered; i < start; i++) {
		char c = st->text[i];
		if (c == '\r' || c == '\f' || c == '\v')
			st->tree->blank_control = true;
		else if (c == '\\' && i + 1 < start && st->text[i + 1] == '\n')
			i++; /* a line continuation */
		else if (c != ' ' && c != '\t' && c != '\n' && st->tree->dropped_at == UINT32_MAX)
			st->tree->dropped_at = i;
	}
	if (start > st->covered)
		st->covered = start;
}

/* A node whose text is taken whole: a token, or one the depth cap cut. */
static void cover(struct copy_state *st, const struct shell_node *n)
{
	check_gap(st, n->start);
	if (n->end > st->covered)
		st->covered = n->end;
}

bool shell_gap_is_continuation(const char *text, uint32_t from, uint32_t to)
{
	if (from >= to || (to - from) % 2)
		return false;
	for (uint32_t i = from; i < to; i += 2)
		if (text[i] != '\\' || text[i + 1] != '\n')
			return false;
	return true;
}

/* The word of n that a word right after it continues: n itself, the word
 * inside a command name, or the value of NAME=VALUE (NULL when it has none:
 * then the grammar ended the assignment at the continuation). */
static struct shell_node *continued_word(struct shell_node *n)
{
	if (shell_node_is_word(n))
		return n;
	if (n->kind == SN_COMMAND_NAME && n->n_children == 1 && shell_node_is_word(&n->children[0]))
		return &n->children[0];
	if (n->kind == SN_VAR_ASSIGN && n->n_children >= 2) {
		struct shell_node *v = &n->children[n->n_children - 1];
		return shell_node_is_word(v) && v->start > n->children[0].end ? v : NULL;
	}
	return NULL;
}

/* A word continued on the next line by a backslash-newline (`r\<newline>m`)
 * is split in two by the grammar, which takes the continuation for a blank;
 * bash removes it before it reads words and sees one word (`rm`). Each such
 * pair of children of n becomes one: the second is appended to the first
 * (as a concatenation) and leaves n. */
static int join_continued_words(struct copy_state *st, struct shell_node *n)
{
	for (uint32_t i = 0; i + 1 < n->n_children;) {
		struct shell_node *a = &n->children[i], *b = &n->children[i + 1];
		struct shell_node *word = continued_word(a);
		/* nothing between an assignment and a word: one word to bash too
		 * (the grammar can end `A=\a$'\t'\b` before the `\b`) */
		bool touching = a->kind == SN_VAR_ASSIGN && a->end == b->start;
		bool joins = word &&
		             (shell_node_is_word(b) || b->kind == SN_COMMAND_NAME ||
		              (b->kind == SN_VAR_NAME && n->kind == SN_DECLARATION)) &&
		             (touching || shell_gap_is_continuation(st->text, a->end, b->start));
		if (!joins) {
			i++;
			continue;
		}
		struct shell_node *second =
		        b->kind == SN_COMMAND_NAME && b->n_children == 1 ? &b->children[0] : b;
		bool extend = word->kind == SN_CONCATENATION;
		uint32_t parts = extend ? word->n_children + 1 : 2;
		struct shell_node *kids = arena_alloc(st->tree, parts * sizeof(*kids));
		if (!kids)
			return -ENOMEM;
		if (extend)
			memcpy(kids, word->children, word->n_children * sizeof(*kids));
		else
			kids[0] = *word;
		kids[parts - 1] = *second;
		*word = (struct shell_node){ .kind = SN_CONCATENATION,
			                     .error = word->error || second->error,
			                     .start = word->start,
			                     .end = second->end,
			                     .n_children = parts,
			                     .children = kids };
		a->end = second->end;
		memmove(b, b + 1, (n->n_children - i - 2) * sizeof(*b));
		n->n_children--;
	}
	return 0;
}

/* Copy the cursor's node and, below the depth cap, its children; the cursor
 * is back on the node when this returns. One cursor walks the whole tree
 * (a cursor per node would cost an allocation each). The recursion is
 * bounded by max_depth; deeper nodes are dropped and counted. in_quotes:
 * the text before the node, after its previous sibling, is a quoted
 * string's (not blanks). */
static int copy_node(struct copy_state *st, TSTreeCursor *cursor, struct shell_node *out,
                     unsigned depth, bool in_quotes)
{
	TSNode ts = ts_tree_cursor_current_node(cursor);
	TSSymbol sym = ts_node_symbol(ts);
	if (sym == (TSSymbol)-1) /* tree-sitter's builtin ERROR symbol */
		out->kind = SN_ERROR;
	else if (!ts_node_is_named(ts))
		out->kind = SN_TOKEN;
	else
		out->kind = sym < st->p->n_symbols ? st->p->symbol_kind[sym] : SN_OTHER;
	if (ts_node_is_missing(ts) || out->kind == SN_ERROR) {
		out->error = true;
		st->tree->has_error = true;
	}
	out->start = ts_node_start_byte(ts);
	out->end = ts_node_end_byte(ts);
	if (out->end < out->start)
		out->end = out->start;
	if (in_quotes && out->start > st->covered)
		st->covered = out->start;

	uint32_t n = ts_node_child_count(ts);
	if (n == 0) {
		cover(st, out);
		return 0;
	}
	if (depth >= st->max_depth) {
		st->tree->depth_limited = true;
		cover(st, out);
		return 0;
	}
	out->children = arena_alloc(st->tree, (size_t)n * sizeof(*out->children));
	if (!out->children)
		return -ENOMEM;
	out->n_children = n;
	int r = 0;
	/* between a double-quoted string's parts is its literal text */
	bool quoted = out->kind == SN_STRING || out->kind == SN_TRANSLATED_STRING ||
	              out->kind == SN_HEREDOC_BODY;
	if (ts_tree_cursor_goto_first_child(cursor)) {
		uint32_t i = 0;
		do {
			r = copy_node(st, cursor, &out->children[i], depth + 1, quoted);
			i++;
		} while (r >= 0 && i < n && ts_tree_cursor_goto_next_sibling(cursor));
		(void)ts_tree_cursor_goto_parent(cursor);
	}
	if (quoted && out->end > st->covered)
		st->covered = out->end;
	if (r >= 0 && !quoted)
		r = join_continued_words(st, out);
	return r;
}

/* Does n hold an ERROR or MISSING node? */
static bool has_error_node(const struct shell_node *n)
{
	if (n->error)
		return true;
	for (uint32_t i = 0; i < n->n_children; i++)
		if (has_error_node(&n->children[i]))
			return true;
	return false;
}

/* The operator an ERROR node is made of alone (`|`, `;`, `&&` ...), or NULL. */
static const char *error_operator(const char *text, const struct shell_node *n)
{
	static const char *const ops[] = { "|", "|&", ";", "&&", "||", "&" };
	if (n->kind != SN_ERROR || n->n_children != 1 || n->children[0].kind != SN_TOKEN)
		return NULL;
	for (size_t i = 0; i < ELEMENTSOF(ops); i++)
		if (shell_node_text_is(text, &n->children[0], ops[i]))
			return ops[i];
	return NULL;
}

/* `cat <<EOF 2>&1 | tee log`: after a heredoc's start, the grammar takes a
 * file redirection, then reads an operator there as an error and the words
 * after it as more of the redirection's. Bash reads the rest of the line
 * as it would without the heredoc: the redirection ends at the operator,
 * and the words are a command after it (in a pipeline for `|`), as the
 * grammar has it when nothing stands between (`cat <<EOF | tee log`). */
static int repair_heredoc_tail(struct shell_tree *tree, const char *text, struct shell_node *hd)
{
	for (uint32_t i = 0; i < hd->n_children; i++) {
		struct shell_node *f = &hd->children[i];
		if (f->kind != SN_FILE_REDIRECT)
			continue;
		uint32_t e = 0;
		while (e < f->n_children && !error_operator(text, &f->children[e]))
			e++;
		if (e == 0 || e + 1 >= f->n_children)
			continue;
		bool words = true;
		for (uint32_t k = e + 1; k < f->n_children; k++)
			words &= shell_node_is_word(&f->children[k]);
		if (!words)
			continue;
		const char *op = error_operator(text, &f->children[e]);
		uint32_t n_words = f->n_children - e - 1;
		bool piped = op[0] == '|' && strcmp(op, "||") != 0;
		/* the command: its name, then its words */
		struct shell_node *cmd_kids = arena_alloc(tree, n_words * sizeof(*cmd_kids));
		struct shell_node *name = arena_alloc(tree, sizeof(*name));
		struct shell_node *tail = arena_alloc(tree, 2 * sizeof(*tail));
		struct shell_node *kids = arena_alloc(tree, (hd->n_children + 2) * sizeof(*kids));
		if (!cmd_kids || !name || !tail || !kids)
			return -ENOMEM;
		const struct shell_node *w = &f->children[e + 1];
		*name = *w;
		cmd_kids[0] = (struct shell_node){ .kind = SN_COMMAND_NAME,
			                           .start = w->start,
			                           .end = w->end,
			                           .n_children = 1,
			                           .children = name };
		memcpy(cmd_kids + 1, w + 1, (n_words - 1) * sizeof(*cmd_kids));
		tail[0] = f->children[e].children[0]; /* the operator, a token */
		tail[1] = (struct shell_node){ .kind = SN_COMMAND,
			                       .start = w->start,
			                       .end = f->children[f->n_children - 1].end,
			                       .n_children = n_words,
			                       .children = cmd_kids };
		/* the heredoc's children: up to f, f cut at the operator, the
		 * operator and the command (in a pipeline for |), the rest */
		uint32_t n = 0;
		memcpy(kids, hd->children, (i + 1) * sizeof(*kids));
		n = i + 1;
		kids[i].n_children = e;
		kids[i].end = f->children[e - 1].end;
		if (piped) {
			kids[n++] = (struct shell_node){ .kind = SN_PIPELINE,
				                         .start = tail[0].start,
				                         .end = tail[1].end,
				                         .n_children = 2,
				                         .children = tail };
		} else {
			kids[n++] = tail[0];
			kids[n++] = tail[1];
		}
		memcpy(kids + n, hd->children + i + 1, (hd->n_children - i - 1) * sizeof(*kids));
		n += hd->n_children - i - 1;
		hd->children = kids;
		hd->n_children = n;
		return 1;
	}
	return 0;
}

/* Every heredoc redirection below n repaired (repair_heredoc_tail).
 * Returns how many were, or -ENOMEM. */
static int repair_heredocs(struct shell_tree *tree, const char *text, struct shell_node *n)
{
	int count = 0;
	if (n->kind == SN_HEREDOC_REDIRECT) {
		int r = repair_heredoc_tail(tree, text, n);
		if (r < 0)
			return r;
		count += r;
	}
	for (uint32_t i = 0; i < n->n_children; i++) {
		int r = repair_heredocs(tree, text, &n->children[i]);
		if (r < 0)
			return r;
		count += r;
	}
	return count;
}

bool shell_budget_spent(struct shell_budget *b, size_t work)
{
	if (!b->cpu_us)
		return false;
	b->work += work;
	if (b->work < SHELL_BUDGET_CHECK_BYTES)
		return false;
	b->work = 0;
	uint64_t now = thread_cpu_us();
	if (!b->deadline)
		b->deadline = now + b->cpu_us;
	return now >= b->deadline;
}

/* The text handed to tree-sitter in pieces, so that the work done is
 * counted while it works (tree-sitter's own timeout is on the clock). */
struct parse_input {
	const char *text;
	uint32_t len;
	struct shell_budget *budget; /* NULL: none */
	size_t cancel;               /* tree-sitter's cancellation flag */
};

/* Bytes handed out per read: tree-sitter reads again as it lexes on (and
 * again when it goes back), so the reads count the work. */
#define PARSE_CHUNK 256

static const char *read_text(void *payload, uint32_t byte, TSPoint point, uint32_t *n)
{
	(void)point;
	struct parse_input *in = payload;
	if (byte >= in->len) {
		*n = 0;
		return "";
	}
	*n = in->len - byte < PARSE_CHUNK ? in->len - byte : PARSE_CHUNK;
	if (in->budget && shell_budget_spent(in->budget, *n))
		__atomic_store_n(&in->cancel, 1, __ATOMIC_RELAXED);
	return in->text + byte;
}

/* One parse of text into *tree (see shell_parse); words are read from text. */
static int parse_once(struct shell_parser *p, const char *text, size_t len,
                      struct shell_budget *budget, unsigned max_depth, struct shell_tree *tree)
{
	memset(tree, 0, sizeof(*tree));
	tree->dropped_at = UINT32_MAX;
	ts_parser_reset(p->ts);
	struct parse_input in = { .text = text, .len = (uint32_t)len, .budget = budget };
	ts_parser_set_cancellation_flag(p->ts, &in.cancel);
	TSInput input = { .payload = &in, .read = read_text, .encoding = TSInputEncodingUTF8 };
	TSTree *ts = ts_parser_parse(p->ts, NULL, input);
	ts_parser_set_cancellation_flag(p->ts, NULL);
	if (!ts) {
		/* The CPU time ran out (the language is always set): leave the
		 * parser clean for the next text. */
		ts_parser_reset(p->ts);
		tree->timed_out = true;
		tree->root.kind = SN_PROGRAM;
		tree->root.end = (uint32_t)len;
		return 0;
	}
	struct copy_state st = {
		.p = p, .tree = tree, .max_depth = max_depth ? max_depth : 1, .text = text
	};
	TSNode root = ts_tree_root_node(ts);
	TSTreeCursor cursor = ts_tree_cursor_new(root);
	int r = copy_node(&st, &cursor, &tree->root, 0, false);
	ts_tree_cursor_delete(&cursor);
	check_gap(&st, (uint32_t)len);
	if (ts_node_has_error(root))
		tree->has_error = true;
	ts_tree_delete(ts);
	if (r >= 0 && tree->has_error) {
		int repaired = repair_heredocs(tree, text, &tree->root);
		if (repaired < 0)
			r = repaired;
		else if (repaired > 0)
			tree->has_error = has_error_node(&tree->root);
	}
	if (r < 0)
		shell_tree_done(tree);
	return r;
}

/* Words bash reads as the start of a compound command (or as the `!` or
 * `time` of a pipeline) when they come first. */
static bool is_compound_start(const char *src, const struct shell_node *n)
{
	static const char *const words[] = { "!",  "[[",     "case",  "coproc", "for", "function",
		                             "if", "select", "until", "while",  "{",   "((" };
	if (n->kind != SN_WORD)
		return false;
	for (size_t i = 0; i < ELEMENTSOF(words); i++)
		if (shell_node_text_is(src, n, words[i]))
			return true;
	return false;
}

/* The `time [-p] [--]` in front of a compound command, which the grammar
 * does not know: it reads `time if a; then b; fi` as the commands
 * `time if a`, `then b` and `fi`, and `time ( a )` as a command with a
 * subshell in it. Into [*start, *end) for the first one found below n. */
static bool find_time_keyword(const char *src, const struct shell_node *n, uint32_t *start,
                              uint32_t *end)
{
	if (n->kind == SN_COMMAND && n->n_children >= 2 && n->children[0].kind == SN_COMMAND_NAME &&
	    n->children[0].n_children == 1 && n->children[0].children[0].kind == SN_WORD &&
	    shell_node_text_is(src, &n->children[0].children[0], "time")) {
		uint32_t i = 1, last = n->children[0].end;
		while (i < n->n_children && n->children[i].kind == SN_WORD &&
		       (shell_node_text_is(src, &n->children[i], "-p") ||
		        shell_node_text_is(src, &n->children[i], "--")))
			last = n->children[i++].end;
		if (i < n->n_children && (shell_node_is_statement(&n->children[i]) ||
		                          is_compound_start(src, &n->children[i]))) {
			*start = n->start;
			*end = last;
			return true;
		}
	}
	for (uint32_t i = 0; i < n->n_children; i++)
		if (find_time_keyword(src, &n->children[i], start, end))
			return true;
	return false;
}

/* A place where the grammar reads the text otherwise than bash, and how
 * to change the text, without moving a byte, so that it reads it as bash
 * does: text[start, end) becomes fill. */
struct misreading {
	uint32_t start, end;
	char fill;
	bool read_write; /* `<>`: the `<` token is given its `>` back after */
};

/* After `$`, what makes it an expansion; after anything else it is a `$`. */
static bool starts_expansion(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("_{('\"[@*#?$!-", c));
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* A compound command: after one, bash needs no `;` before a closing keyword. */
static bool is_compound(const struct shell_node *n)
{
	switch ((enum shell_node_kind)n->kind) {
	case SN_SUBSHELL:
	case SN_COMPOUND:
	case SN_IF:
	case SN_WHILE:
	case SN_FOR:
	case SN_C_FOR:
	case SN_CASE:
		return true;
	default:
		return false;
	}
}

/* Is text[at] a blank, after which (and more blanks) comes a keyword that
 * closes a compound command (`}`, `done`, `fi`, `esac`) as a word of its own? */
static bool closes_after_blank(const char *text, size_t len, uint32_t at)
{
	static const char *const words[] = { "}", "done", "fi", "esac" };
	if (at >= len || !is_blank(text[at]))
		return false;
	size_t i = at;
	while (i < len && is_blank(text[i]))
		i++;
	for (size_t k = 0; k < ELEMENTSOF(words); k++) {
		size_t n = strlen(words[k]);
		if (i + n <= len && memcmp(text + i, words[k], n) == 0 &&
		    (i + n == len || strchr(" \t\n;&|)", text[i + n])))
			return true;
	}
	return false;
}

/* The misreadings that show as an ERROR or MISSING node n (child of parent):
 * - `a$.b`, `$%`: a `$` that starts no expansion is a character to bash;
 *   the grammar fails on it: it becomes `_` (the words are read from the
 *   text as written, so they keep their `$`);
 * - `cat <> f`: the grammar knows no `<>`: its `>` is blanked, and the
 *   `<` is given it back once parsed;
 * - `do (a) done`, `{ for ...; done }`: bash needs no `;` after a compound
 *   command before the keyword that closes another; the blank before that
 *   keyword becomes `;`. */
static bool find_error_misreading(const char *text, size_t len, const struct shell_node *parent,
                                  uint32_t i, struct misreading *out)
{
	const struct shell_node *n = &parent->children[i];
	bool broken = n->kind == SN_ERROR ||
	              (n->kind == SN_SIMPLE_EXPANSION && shell_node_find(n, SN_ERROR));
	if (broken && n->end > n->start && text[n->start] == '$' &&
	    (n->start + 1 >= len || !starts_expansion(text[n->start + 1]))) {
		*out = (struct misreading){ n->start, n->start + 1, '_', false };
		return true;
	}
	if (n->kind == SN_ERROR && parent->kind == SN_FILE_REDIRECT && i > 0 &&
	    shell_node_text_is(text, n, ">") &&
	    shell_node_is_token(text, &parent->children[i - 1], "<") &&
	    parent->children[i - 1].end == n->start) {
		*out = (struct misreading){ n->start, n->end, ' ', true };
		return true;
	}
	if (n->kind == SN_ERROR && n->n_children == 1 && is_compound(&n->children[0]) &&
	    closes_after_blank(text, len, n->end)) {
		*out = (struct misreading){ n->end, n->end + 1, ';', false };
		return true;
	}
	if (n->kind == SN_TOKEN && n->error && n->start == n->end && i > 0 &&
	    is_compound(&parent->children[i - 1]) && closes_after_blank(text, len, n->start)) {
		*out = (struct misreading){ n->start, n->start + 1, ';', false }; /* MISSING ; */
		return true;
	}
	return false;
}

/* A newline, not escaped, in text[from, to): its offset, or UINT32_MAX. */
static uint32_t bare_newline(const char *text, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++)
		if (text[i] == '\n' && !(i > 0 && text[i - 1] == '\\'))
			return i;
	return UINT32_MAX;
}

/* Does a newline between n's children end a command, to bash? */
static bool ends_at_newline(const struct shell_node *n)
{
	return n->kind == SN_COMMAND || n->kind == SN_DECLARATION || n->kind == SN_FILE_REDIRECT ||
	       n->kind == SN_REDIRECTED;
}

/* The first misreading below n: the error ones above, a `time` before a
 * compound command (blanked), a newline inside one simple command (the
 * grammar can read `x<newline>\rm` or `s'ed'<newline>else ...` as words of
 * one command, bash reads two: the newline becomes `;`). */
static bool find_misreading_in(const char *text, size_t len, const struct shell_node *n,
                               bool errors, struct misreading *out)
{
	if (n->kind == SN_WORD && n->end > n->start && text[n->start] == '\n') {
		*out = (struct misreading){ n->start, n->start + 1, ';', false };
		return true;
	}
	for (uint32_t i = 0; ends_at_newline(n) && i + 1 < n->n_children; i++) {
		uint32_t at = bare_newline(text, n->children[i].end, n->children[i + 1].start);
		if (at != UINT32_MAX) {
			*out = (struct misreading){ at, at + 1, ';', false };
			return true;
		}
	}
	for (uint32_t i = 0; i < n->n_children; i++) {
		if (errors && find_error_misreading(text, len, n, i, out))
			return true;
		if (find_misreading_in(text, len, &n->children[i], errors, out))
			return true;
	}
	return false;
}

static bool find_misreading(const char *text, size_t len, const struct shell_tree *tree,
                            struct misreading *out)
{
	/* a `-` the grammar dropped (`cat - 2>f`): `_` is read as a word, the
	 * word's text is read from the text as written */
	uint32_t d = tree->dropped_at;
	if (d != UINT32_MAX && text[d] == '-' && d > 0 && is_blank(text[d - 1]) &&
	    (d + 1 >= len || is_blank(text[d + 1]))) {
		*out = (struct misreading){ d, d + 1, '_', false };
		return true;
	}
	/* each kind needs a byte it starts with: most texts are not walked */
	if (memmem(text, len, "time", 4) &&
	    find_time_keyword(text, &tree->root, &out->start, &out->end)) {
		out->fill = ' ';
		out->read_write = false;
		return true;
	}
	if (!tree->has_error && !memchr(text, '\n', len))
		return false;
	return find_misreading_in(text, len, &tree->root, tree->has_error, out);
}

/* The `<` tokens before a blanked `>` (at the positions in at[0..n)) take
 * it back: their text is `<>` again. */
static void restore_read_write(struct shell_node *node, const uint32_t *at, size_t n)
{
	if (node->kind == SN_TOKEN && node->end == node->start + 1)
		for (size_t i = 0; i < n; i++)
			if (node->end == at[i])
				node->end++;
	for (uint32_t i = 0; i < node->n_children; i++)
		restore_read_write(&node->children[i], at, n);
}

/* Re-parses for misreadings found one after the other, at most. */
#define MAX_REREADINGS 8

int shell_parse(struct shell_parser *p, const char *text, size_t len, struct shell_budget *budget,
                unsigned max_depth, struct shell_tree *tree)
{
	if (len > UINT32_MAX)
		return -E2BIG;
	int r = parse_once(p, text, len, budget, max_depth, tree);
	struct misreading m;
	if (r < 0 || tree->timed_out || !find_misreading(text, len, tree, &m)) {
		if (r >= 0 && tree->dropped_at != UINT32_MAX)
			tree->has_error = true; /* text the grammar did not read */
		return r;
	}
	_cleanup_free_ char *fixed = malloc(len + 1);
	if (!fixed) {
		shell_tree_done(tree);
		return -ENOMEM;
	}
	memcpy(fixed, text, len);
	fixed[len] = '\0';
	uint32_t read_write[MAX_REREADINGS];
	size_t n_read_write = 0;
	for (unsigned k = 0; k < MAX_REREADINGS; k++) {
		memset(fixed + m.start, m.fill, m.end - m.start);
		if (m.read_write)
			read_write[n_read_write++] = m.start;
		shell_tree_done(tree);
		r = parse_once(p, fixed, len, budget, max_depth, tree);
		if (r < 0 || tree->timed_out)
			return r;
		if (!find_misreading(fixed, len, tree, &m)) {
			restore_read_write(&tree->root, read_write, n_read_write);
			if (tree->dropped_at != UINT32_MAX)
				tree->has_error = true;
			return 0;
		}
	}
	tree->has_error = true; /* more than that: not all were read */
	return 0;
}

const struct shell_node *shell_node_find(const struct shell_node *n, enum shell_node_kind kind)
{
	for (uint32_t i = 0; i < n->n_children; i++)
		if (n->children[i].kind == kind)
			return &n->children[i];
	return NULL;
}

bool shell_node_is_word(const struct shell_node *n)
{
	switch ((enum shell_node_kind)n->kind) {
	case SN_WORD:
	case SN_NUMBER:
	case SN_STRING:
	case SN_RAW_STRING:
	case SN_ANSI_C_STRING:
	case SN_TRANSLATED_STRING:
	case SN_CONCATENATION:
	case SN_SIMPLE_EXPANSION:
	case SN_EXPANSION:
	case SN_CMD_SUBST:
	case SN_PROC_SUBST:
	case SN_ARITH_EXPANSION:
	case SN_BRACE_EXPRESSION:
	case SN_EXTGLOB:
		return true;
	default:
		return false;
	}
}

bool shell_node_is_statement(const struct shell_node *n)
{
	switch ((enum shell_node_kind)n->kind) {
	case SN_COMMAND:
	case SN_LIST:
	case SN_PIPELINE:
	case SN_SUBSHELL:
	case SN_COMPOUND:
	case SN_REDIRECTED:
	case SN_NEGATED:
	case SN_IF:
	case SN_WHILE:
	case SN_FOR:
	case SN_C_FOR:
	case SN_CASE:
	case SN_FUNCTION:
	case SN_DECLARATION:
	case SN_UNSET:
	case SN_TEST:
	case SN_VAR_ASSIGN:
	case SN_VAR_ASSIGNS:
		return true;
	default:
		return false;
	}
}
