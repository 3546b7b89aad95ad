/* SPDX-License-Identifier: MIT */
/*
 * What ran, as the model oracle reads it back: bash's own trace (set -x into
 * BASH_XTRACEFD, every simple command bash ran after expansion, builtins
 * included) and the stubs' exec records (every program started through PATH,
 * by bash or by any program bash started), each turned into an argv.
 * Not for: judging them (oracle-compare.c does).
 */
#ifndef SLUICE_ORACLE_TRACE_H
#define SLUICE_ORACLE_TRACE_H

#include <stddef.h>

/* The prefix the oracle gives bash's PS4: a '+' (repeated by bash for each
 * level of substitution), then a byte bash never writes raw in a traced
 * word (it quotes control characters as $'\036'), then a space. */
#define ORACLE_PS4_MARK '\x1e'

enum oracle_source {
	ORACLE_FROM_TRACE, /* bash's xtrace: a simple command bash ran */
	ORACLE_FROM_EXEC,  /* a stub's record: a program exec'd through PATH */
	ORACLE_FROM_GIT,   /* git's own trace: the git command an alias became */
};

struct oracle_record {
	char **argv; /* owned strv; never empty */
	enum oracle_source source;
};

struct oracle_records {
	struct oracle_record *v;
	size_t n, alloc;
	size_t unparsed; /* trace lines that were not words (for, case, (( ...)) */
};

/* Append the records of bash's trace text[0..len) to out. A record whose
 * words cannot be read (bash prints the heads of for, case, select, [[ and
 * (( as written) is counted in out->unparsed. 0 or -ENOMEM. */
int oracle_records_read_trace(const char *text, size_t len, struct oracle_records *out);

/* Append the stubs' records data[0..len) ("<count>\0word\0...") to out; a
 * record cut short (a process killed while writing) ends the reading.
 * 0 or -ENOMEM. */
int oracle_records_read_exec(const char *data, size_t len, struct oracle_records *out);

/* Append the git commands that aliases became, from git's trace text
 * (GIT_TRACE: an "alias expansion:" line, then the "built-in: git ..."
 * line of the command it runs). 0 or -ENOMEM. */
int oracle_records_read_git(const char *text, size_t len, struct oracle_records *out);

void oracle_records_done(struct oracle_records *r);

/* Decode one traced word: text[0..len) as bash's xtrace quotes it ('...',
 * $'...', \x) into a new string in *ret. 0, -EINVAL (unbalanced quotes),
 * or -ENOMEM. Exposed for the tests. */
int oracle_trace_words(const char *text, size_t len, char ***ret);

#endif
