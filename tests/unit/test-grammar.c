/* SPDX-License-Identifier: MIT */
/*
 * The compiled-in bash grammar: the runtime from Debian accepts its language
 * ABI, and it parses bash into the node types the command model relies on.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "shell/bash-language.h"

Test(grammar, has_a_language_abi_the_runtime_accepts)
{
	uint32_t abi = ts_language_version(tree_sitter_bash());
	cr_assert(abi >= TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION &&
	                  abi <= TREE_SITTER_LANGUAGE_VERSION,
	          "grammar ABI %u outside the runtime's %d..%d", abi,
	          TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION, TREE_SITTER_LANGUAGE_VERSION);
	TSParser *parser = ts_parser_new();
	cr_assert(ts_parser_set_language(parser, tree_sitter_bash()));
	ts_parser_delete(parser);
}

Test(grammar, parses_a_list_into_commands)
{
	const char *src = "cd /tmp && git push --force origin main | cat";
	TSParser *parser = ts_parser_new();
	cr_assert(ts_parser_set_language(parser, tree_sitter_bash()));
	TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)strlen(src));
	cr_assert_not_null(tree);
	TSNode root = ts_tree_root_node(tree);
	cr_assert_str_eq(ts_node_type(root), "program");
	cr_assert_not(ts_node_has_error(root));
	char *sexp = ts_node_string(root);
	cr_assert_not_null(strstr(sexp, "(list (command"), "tree: %s", sexp);
	cr_assert_not_null(strstr(sexp, "(pipeline (command"), "tree: %s", sexp);
	free(sexp);
	ts_tree_delete(tree);
	ts_parser_delete(parser);
}

Test(grammar, marks_broken_syntax_as_an_error)
{
	const char *src = "if then fi (";
	TSParser *parser = ts_parser_new();
	cr_assert(ts_parser_set_language(parser, tree_sitter_bash()));
	TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)strlen(src));
	cr_assert_not_null(tree);
	cr_assert(ts_node_has_error(ts_tree_root_node(tree)));
	ts_tree_delete(tree);
	ts_parser_delete(parser);
}
