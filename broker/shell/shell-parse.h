/* SPDX-License-Identifier: MIT */
/*
 * Shell text -> a small syntax tree of our own (struct shell_node, in
 * shell-tree.h), through tree-sitter-bash. The only module that sees tree-sitter: the rest of the
 * broker walks shell_node, so the parser can change without touching them.
 * Not for: meaning (command-model builds that), quote removal (shell-words).
 */
#ifndef SLUICE_SHELL_PARSE_H
#define SLUICE_SHELL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shell/shell-tree.h"

struct shell_parser;

/* -ENOMEM, or -EPROTO when the grammar's ABI is not the runtime's. */
int shell_parser_new(struct shell_parser **ret);
struct shell_parser *shell_parser_free(struct shell_parser *p);

/* A limit on the CPU time of this thread that parses may take, shared by
 * the parses of one command (its nested shells too). CPU time, not the
 * clock: on a busy machine a parse takes longer but does the same work,
 * and a command gets the same model. The clock is read only once the text
 * read since it was last read passes SHELL_BUDGET_CHECK_BYTES, so a short
 * command costs no system call (the first bytes count for nothing: a
 * bounded amount of work). */
struct shell_budget {
	uint64_t cpu_us;   /* the limit; 0: none */
	uint64_t deadline; /* thread_cpu_us() to stop at; 0: not read yet */
	size_t work;       /* bytes read since the clock was last read */
};

#define SHELL_BUDGET_CHECK_BYTES 4096

static inline struct shell_budget shell_budget_init(uint64_t cpu_us)
{
	return (struct shell_budget){ .cpu_us = cpu_us };
}

/* Count work bytes more; true when the limit is reached. */
bool shell_budget_spent(struct shell_budget *b, size_t work);

/*
 * Parse text[0..len) within budget (NULL: no limit), keeping at most
 * max_depth levels of nodes. Fills *tree (release with shell_tree_done).
 * Reaching the limit is not an error: tree->timed_out is set and the root
 * is empty. Returns 0, -ENOMEM, or -E2BIG when len does not fit the parser
 * (4 GiB).
 */
int shell_parse(struct shell_parser *p, const char *text, size_t len, struct shell_budget *budget,
                unsigned max_depth, struct shell_tree *tree);

#endif
