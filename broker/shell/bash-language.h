/* SPDX-License-Identifier: MIT */
/*
 * The compiled-in bash grammar's entry point (broker/shell/grammar-parser.c).
 * Only the parser module includes this.
 */
#ifndef SLUICE_BASH_LANGUAGE_H
#define SLUICE_BASH_LANGUAGE_H

#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_bash(void);

#endif
