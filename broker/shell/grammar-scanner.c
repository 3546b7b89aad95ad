/* SPDX-License-Identifier: MIT */
/*
 * Compiles the fetched tree-sitter-bash external scanner into the broker.
 */
#include <scanner.c>
