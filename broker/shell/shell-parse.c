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
#include "shell/shell-reread.h"

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
	out->children = shell_tree_alloc(st->tree, (size_t)n * sizeof(*out->children));
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
		r = shell_reread_join_words(st->tree, st->text, out);
	if (r >= 0 && out->kind == SN_PIPELINE)
		r = shell_reread_pipeline(st->tree, out);
	return r;
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
	if (r >= 0 && tree->has_error)
		r = shell_reread_repair(tree, text);
	if (r >= 0)
		shell_reread_check(tree, text, len);
	if (r < 0)
		shell_tree_done(tree);
	return r;
}

/* Re-parses for misreadings found one after the other, at most. */
#define MAX_REREADINGS 8

int shell_parse(struct shell_parser *p, const char *text, size_t len, struct shell_budget *budget,
                unsigned max_depth, struct shell_tree *tree)
{
	if (len > UINT32_MAX)
		return -E2BIG;
	int r = parse_once(p, text, len, budget, max_depth, tree);
	struct shell_misreading m;
	if (r < 0 || tree->timed_out || !shell_reread_find(text, len, tree, &m)) {
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
		if (!shell_reread_find(fixed, len, tree, &m)) {
			shell_reread_restore_read_write(&tree->root, read_write, n_read_write);
			if (tree->dropped_at != UINT32_MAX)
				tree->has_error = true;
			return 0;
		}
	}
	tree->has_error = true; /* more than that: not all were read */
	return 0;
}
