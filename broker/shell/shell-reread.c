/* SPDX-License-Identifier: MIT */
/*
 * Where the grammar reads shell text otherwise than bash (see
 * shell-reread.h): words split by a line continuation joined again, a
 * heredoc's line repaired, and the places that are read right once the text
 * is changed without moving a byte. Works on struct shell_node only.
 * Not for: parsing (shell-parse.c) or meaning (the command model).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "cleanup.h"
#include "shell/shell-reread.h"

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
int shell_reread_join_words(struct shell_tree *tree, const char *text, struct shell_node *n)
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
		             (touching || shell_gap_is_continuation(text, a->end, b->start));
		if (!joins) {
			i++;
			continue;
		}
		struct shell_node *second =
		        b->kind == SN_COMMAND_NAME && b->n_children == 1 ? &b->children[0] : b;
		bool extend = word->kind == SN_CONCATENATION;
		uint32_t parts = extend ? word->n_children + 1 : 2;
		struct shell_node *kids = shell_tree_alloc(tree, parts * sizeof(*kids));
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
		struct shell_node *cmd_kids = shell_tree_alloc(tree, n_words * sizeof(*cmd_kids));
		struct shell_node *name = shell_tree_alloc(tree, sizeof(*name));
		struct shell_node *tail = shell_tree_alloc(tree, 2 * sizeof(*tail));
		struct shell_node *kids =
		        shell_tree_alloc(tree, (hd->n_children + 2) * sizeof(*kids));
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

int shell_reread_repair(struct shell_tree *tree, const char *text)
{
	int repaired = repair_heredocs(tree, text, &tree->root);
	if (repaired < 0)
		return repaired;
	if (repaired > 0)
		tree->has_error = has_error_node(&tree->root);
	return 0;
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
                                  uint32_t i, struct shell_misreading *out)
{
	const struct shell_node *n = &parent->children[i];
	bool broken = n->kind == SN_ERROR ||
	              (n->kind == SN_SIMPLE_EXPANSION && shell_node_find(n, SN_ERROR));
	if (broken && n->end > n->start && text[n->start] == '$' &&
	    (n->start + 1 >= len || !starts_expansion(text[n->start + 1]))) {
		*out = (struct shell_misreading){ n->start, n->start + 1, '_', false };
		return true;
	}
	if (n->kind == SN_ERROR && parent->kind == SN_FILE_REDIRECT && i > 0 &&
	    shell_node_text_is(text, n, ">") &&
	    shell_node_is_token(text, &parent->children[i - 1], "<") &&
	    parent->children[i - 1].end == n->start) {
		*out = (struct shell_misreading){ n->start, n->end, ' ', true };
		return true;
	}
	if (n->kind == SN_ERROR && n->n_children == 1 && is_compound(&n->children[0]) &&
	    closes_after_blank(text, len, n->end)) {
		*out = (struct shell_misreading){ n->end, n->end + 1, ';', false };
		return true;
	}
	if (n->kind == SN_TOKEN && n->error && n->start == n->end && i > 0 &&
	    is_compound(&parent->children[i - 1]) && closes_after_blank(text, len, n->start)) {
		*out = (struct shell_misreading){ n->start, n->start + 1, ';',
			                          false }; /* MISSING ; */
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
                               bool errors, struct shell_misreading *out)
{
	if (shell_node_is_token(text, n, "``")) {
		/* an empty backquoted substitution, which the grammar takes for a
		 * token and joins words across: nothing to bash. `""` where it
		 * touches a word (`st``tus` is sttus), blanks where it stands
		 * alone (`echo `` a` is echo a) */
		bool touches = (n->start > 0 && !is_blank(text[n->start - 1]) &&
		                text[n->start - 1] != '\n') ||
		               (n->end < len && !is_blank(text[n->end]) && text[n->end] != '\n');
		*out = (struct shell_misreading){ n->start, n->end, touches ? '"' : ' ', false };
		return true;
	}
	if (n->kind == SN_WORD && n->end > n->start && text[n->start] == '\n') {
		*out = (struct shell_misreading){ n->start, n->start + 1, ';', false };
		return true;
	}
	for (uint32_t i = 0; ends_at_newline(n) && i + 1 < n->n_children; i++) {
		uint32_t at = bare_newline(text, n->children[i].end, n->children[i + 1].start);
		if (at != UINT32_MAX) {
			*out = (struct shell_misreading){ at, at + 1, ';', false };
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

bool shell_reread_find(const char *text, size_t len, const struct shell_tree *tree,
                       struct shell_misreading *out)
{
	/* a `-` the grammar dropped (`cat - 2>f`): `_` is read as a word, the
	 * word's text is read from the text as written */
	uint32_t d = tree->dropped_at;
	if (d != UINT32_MAX && text[d] == '-' && d > 0 && is_blank(text[d - 1]) &&
	    (d + 1 >= len || is_blank(text[d + 1]))) {
		*out = (struct shell_misreading){ d, d + 1, '_', false };
		return true;
	}
	/* each kind needs a byte it starts with: most texts are not walked */
	if (memmem(text, len, "time", 4) &&
	    find_time_keyword(text, &tree->root, &out->start, &out->end)) {
		out->fill = ' ';
		out->read_write = false;
		return true;
	}
	if (!tree->has_error && !memchr(text, '\n', len) && !memmem(text, len, "``", 2))
		return false;
	return find_misreading_in(text, len, &tree->root, tree->has_error, out);
}

/* The `<` tokens before a blanked `>` (at the positions in at[0..n)) take
 * it back: their text is `<>` again. */
void shell_reread_restore_read_write(struct shell_node *node, const uint32_t *at, size_t n)
{
	if (node->kind == SN_TOKEN && node->end == node->start + 1)
		for (size_t i = 0; i < n; i++)
			if (node->end == at[i])
				node->end++;
	for (uint32_t i = 0; i < node->n_children; i++)
		shell_reread_restore_read_write(&node->children[i], at, n);
}

/* A heredoc start with an unquoted metacharacter in it, below n? */
static bool greedy_delimiter(const char *text, const struct shell_node *n)
{
	if (n->kind == SN_HEREDOC_START) {
		char quote = 0;
		for (uint32_t i = n->start; i < n->end; i++) {
			char c = text[i];
			if (quote) {
				quote = c == quote ? 0 : quote;
			} else if (c == '\'' || c == '"') {
				quote = c;
			} else if (c == '\\') {
				i++;
			} else if (strchr(";|&()<> \t\n", c)) {
				return true;
			}
		}
		return false;
	}
	for (uint32_t i = 0; i < n->n_children; i++)
		if (greedy_delimiter(text, &n->children[i]))
			return true;
	return false;
}

void shell_reread_check(struct shell_tree *tree, const char *text, size_t len)
{
	if (memmem(text, len, "<<", 2) && greedy_delimiter(text, &tree->root))
		tree->has_error = true;
}

/* The first statement child of n (its index into *at), or NULL. */
static struct shell_node *first_child_statement(struct shell_node *n)
{
	for (uint32_t i = 0; i < n->n_children; i++)
		if (shell_node_is_statement(&n->children[i]))
			return &n->children[i];
	return NULL;
}

int shell_reread_pipeline(struct shell_tree *tree, struct shell_node *p)
{
	if (p->kind != SN_PIPELINE || p->n_children < 2)
		return 0;
	struct shell_node *list = &p->children[p->n_children - 1];
	if (list->kind != SN_LIST)
		return 0;
	/* the list's first operand, at the bottom of its left-nested lists */
	struct shell_node *first = first_child_statement(list);
	while (first && first->kind == SN_LIST) {
		first->start = p->start;
		first = first_child_statement(first);
	}
	if (!first)
		return 0;
	bool flat = first->kind == SN_PIPELINE;
	uint32_t n = p->n_children - 1 + (flat ? first->n_children : 1);
	struct shell_node *kids = shell_tree_alloc(tree, n * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	memcpy(kids, p->children, (p->n_children - 1) * sizeof(*kids));
	if (flat)
		memcpy(kids + p->n_children - 1, first->children,
		       first->n_children * sizeof(*kids));
	else
		kids[p->n_children - 1] = *first;
	*first = (struct shell_node){ .kind = SN_PIPELINE,
		                      .error = p->error,
		                      .start = p->start,
		                      .end = first->end,
		                      .n_children = n,
		                      .children = kids };
	list->start = p->start;
	*p = *list;
	return 0;
}
