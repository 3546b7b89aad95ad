/* SPDX-License-Identifier: MIT */
/*
 * Redirections of one simple command of the model: their operator,
 * descriptor and target word (a heredoc's body kept), the digits the
 * grammar leaves as a word before them (`cat 0<f`), and the words the
 * grammar gives a redirection that bash gives the command (`git push >
 * /dev/null --force`).
 * Not for: walking what a redirection's target runs (model-builder.c).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "model/model-builder.h"
/* `>&-` and `<&-` close a descriptor: they take no target word. */
static bool redirect_closes(const char *src, const struct shell_node *redirect)
{
	for (uint32_t i = 0; i < redirect->n_children; i++)
		if (shell_node_is_token(src, &redirect->children[i], ">&-") ||
		    shell_node_is_token(src, &redirect->children[i], "<&-"))
			return true;
	return false;
}

/* The text a heredoc (body, its node) or a here-string of redirect n
 * feeds the command, into rd->body; the flags of what stays live in it on
 * rd->target. 0 or -ENOMEM. */
static int redirect_body(struct model_redirect *rd, const char *src, const struct shell_node *n,
                         const struct shell_node *body, bool quoted_delim)
{
	if (n->kind == SN_HERESTRING_REDIRECT && !body) {
		rd->body = strdup(rd->target.w.text);
		return rd->body ? 0 : -ENOMEM;
	}
	if (!body)
		return 0;
	rd->body = strndup(src + body->start, body->end - body->start);
	if (!rd->body)
		return -ENOMEM;
	/* an unquoted delimiter leaves $X, $(...) and `...` live in the body,
	 * and bash reads its backslashes as in "..." (what a shell fed the
	 * body reads) */
	size_t bq_start, bq_end;
	if (!quoted_delim) {
		for (uint32_t i = 0; i < body->n_children; i++)
			if (body->children[i].kind != SN_HEREDOC_CONTENT)
				rd->target.w.flags |= WORD_PARAM;
		if (shell_backquote_find(rd->body, strlen(rd->body), &bq_start, &bq_end))
			rd->target.w.flags |= WORD_CMDSUBST;
		shell_heredoc_unescape(rd->body);
	}
	return 0;
}

int builder_add_redirect(struct builder *b, struct simple_command *c, const char *src,
                         const struct shell_node *n, struct model_state *st, int fd)
{
	struct model_redirect rd = { .fd = fd };
	struct walk_ctx wctx = { .src = src };
	const struct shell_node *target = NULL, *body = NULL;
	bool quoted_delim = false;
	for (uint32_t i = 0; i < n->n_children; i++) {
		const struct shell_node *k = &n->children[i];
		if (k->kind == SN_FILE_DESCRIPTOR) {
			rd.fd = atoi(src + k->start);
		} else if (k->kind == SN_TOKEN && !rd.op) {
			rd.op = strndup(src + k->start, k->end - k->start);
			if (!rd.op)
				goto fail;
		} else if (k->kind == SN_HEREDOC_START) {
			target = k;
			quoted_delim = shell_heredoc_is_quoted(src, n);
		} else if (k->kind == SN_HEREDOC_BODY) {
			body = k;
		} else if (!target && shell_node_is_word(k) && !redirect_closes(src, n)) {
			target = k;
		}
	}
	if (!rd.op && !(rd.op = strdup("")))
		goto fail;
	if (redirect_closes(src, n)) {
		if (builder_word_from_text(&rd.target, "-", 0) < 0)
			goto fail;
	} else if (target) {
		/* a heredoc's delimiter is a word: expanding it removes its quotes */
		struct shell_node as_word = *target;
		if (as_word.kind == SN_HEREDOC_START)
			as_word.kind = SN_WORD;
		if (builder_word_from_node(b, &rd.target, &wctx, &as_word, st) < 0)
			goto fail;
		if (target->kind == SN_HEREDOC_START) {
			/* the delimiter, its quotes removed; the body stays literal if quoted */
			char *d = rd.target.w.text;
			size_t o = 0;
			for (size_t i = 0; d[i]; i++)
				if (d[i] != '\'' && d[i] != '"' && d[i] != '\\')
					d[o++] = d[i];
			d[o] = '\0';
			rd.target.w.flags = quoted_delim ? WORD_QUOTED : 0;
		}
	} else if (builder_word_from_text(&rd.target, "", WORD_UNKNOWN) < 0) {
		goto fail;
	}
	if (redirect_body(&rd, src, n, body, quoted_delim) < 0)
		goto fail;
	struct model_redirect *arr = reallocarray(c->redirects, c->n_redirects + 1, sizeof(*arr));
	if (!arr)
		goto fail;
	c->redirects = arr;
	c->redirects[c->n_redirects++] = rd;
	return 0;
fail:
	free(rd.op);
	free(rd.body);
	model_word_done(&rd.target);
	return -ENOMEM;
}

/* The grammar reads "0<" as a word 0 and a redirection "<" (a 3< is a
 * descriptor): a redirection without one that starts right where c's
 * last word, all digits, ends (prev_end) takes that word as its
 * descriptor, as bash does. The word leaves argv; -1 when there is none. */
int builder_fd_written_before(struct simple_command *c, const char *src,
                              const struct shell_node *redirect, uint32_t prev_end)
{
	bool touching = redirect->start == prev_end ||
	                (prev_end != UINT32_MAX &&
	                 shell_gap_is_continuation(src, prev_end, redirect->start));
	if (c->argc < 1 || !touching || shell_node_find(redirect, SN_FILE_DESCRIPTOR))
		return -1;
	struct model_word *w = &c->argv[c->argc - 1];
	const char *t = w->w.text;
	size_t len = strlen(t);
	if (!builder_word_is_static(w) || len == 0 || len > 4 || strspn(t, "0123456789") != len)
		return -1;
	int fd = atoi(t);
	model_word_done(w);
	c->argc--;
	return fd;
}

/* The grammar gives a redirection the words that follow its target
 * (`git push > /dev/null --force`, `cat <<EOF x`); bash gives them to the
 * command, after the words before them. */
int builder_push_redirect_words(struct builder *b, struct simple_command *c,
                                const struct walk_ctx *ctx, const struct shell_node *redirect,
                                struct model_state *st, struct word_cursor *wc)
{
	bool after_target = redirect_closes(ctx->src, redirect);
	for (uint32_t i = 0; i < redirect->n_children; i++) {
		const struct shell_node *k = &redirect->children[i];
		if (k->kind == SN_HEREDOC_START || (!after_target && shell_node_is_word(k))) {
			after_target = true;
			continue;
		}
		if (after_target && shell_node_is_word(k)) {
			int r = builder_push_word_node(b, c, ctx, k, st, wc);
			if (r < 0)
				return r;
		} else if (after_target && k->kind == SN_ERROR) {
			/* words the grammar could not place (`3>&- x`): still words */
			for (uint32_t j = 0; j < k->n_children; j++) {
				int r = shell_node_is_word(&k->children[j])
				                ? builder_push_word_node(b, c, ctx, &k->children[j],
				                                         st, wc)
				                : 0;
				if (r < 0)
					return r;
			}
		}
	}
	return 0;
}
