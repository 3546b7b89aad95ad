/* SPDX-License-Identifier: MIT */
/*
 * Compiles the fetched tree-sitter-bash parser (scripts/fetch-grammar.sh)
 * into the broker. Third-party code: see broker/Makemodule.am for its flags.
 */
#include <parser.c>
