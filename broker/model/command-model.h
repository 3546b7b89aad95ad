/* SPDX-License-Identifier: MIT */
/*
 * The command model: a shell command as bash will run it, for policies that
 * must not know the grammar. Every simple command at any depth (lists,
 * pipelines, subshells, compound bodies, functions, $(...), <(...), and the
 * strings handed to a nested shell), its argv after quote removal, per-word
 * expansion flags, the wrappers it ran under, redirections, assignments and
 * the literal `cd` in effect. Read-only once built; opaque; accessors only.
 * Not for: deciding anything (policies do), or printing (display.c, cmd-check.c).
 *
 * Ownership: every string and handle returned by an accessor is BORROWED from
 * the model and stays valid until command_model_free(). Accessors never fail:
 * an index out of range gives NULL / 0 / -1 as documented, never a crash.
 * Stability: this API only grows; the values of the enums and flag bits
 * below are their twins' in the plugin ABI (sluice/policy.h), which are
 * fixed forever: the ABI forwards them unchanged.
 */
#ifndef SLUICE_COMMAND_MODEL_H
#define SLUICE_COMMAND_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errors.h"
#include "shell/shell-words.h" /* enum shell_word_flag */
#include "sluice/policy.h"     /* the SLUICE_CMD_* and SLUICE_FRAME_* values */

struct command_model;  /* one parsed command line (opaque) */
struct simple_command; /* one simple command inside it (opaque) */

/* ------------------------------------------------------------- building */

/* Caps on everything that grows. A cap reached is never an error: the model
 * is still built from what fit, and command_model_limits_reached() says which
 * cap it was (a verdict built from such a model must not be "allow"). */
struct command_model_limits {
	size_t max_command_bytes; /* the text itself (default 64 KiB) */
	unsigned max_depth;       /* nesting frames per command (default 24) */
	/* total parse time, nested shells included, in CPU time of the calling
	 * thread, so that the load of the machine never changes a model
	 * (default 200 ms) */
	uint64_t parse_timeout_us;
	size_t max_commands; /* simple commands in the model (default 512) */
	size_t max_words;    /* words per simple command (default 1024) */
};

/* The defaults above. */
#define COMMAND_MODEL_DEFAULT_MAX_COMMAND_BYTES ((size_t)64 * 1024)
#define COMMAND_MODEL_DEFAULT_MAX_DEPTH 24u
#define COMMAND_MODEL_DEFAULT_PARSE_TIMEOUT_US ((uint64_t)200 * 1000)
#define COMMAND_MODEL_DEFAULT_MAX_COMMANDS ((size_t)512)
#define COMMAND_MODEL_DEFAULT_MAX_WORDS ((size_t)1024)

/* Fill limits with the defaults. */
void command_model_limits_default(struct command_model_limits *limits);

/* A reusable parser (holds the tree-sitter parser; cheap to keep for a batch).
 * Not thread-safe: one per thread. */
struct command_model_parser;

/* -ENOMEM on failure. */
int command_model_parser_new(struct command_model_parser **ret);
/* Accepts NULL; returns NULL. */
struct command_model_parser *command_model_parser_free(struct command_model_parser *p);
/* The limits command_model_parse() uses with this parser when given none
 * (a new parser has the defaults); copied. */
void command_model_parser_set_limits(struct command_model_parser *p,
                                     const struct command_model_limits *limits);

/*
 * Parse text[0..len) (it need not be NUL-terminated and may hold newlines)
 * into a new model in *ret (owned by the caller; free with
 * command_model_free). parser may be NULL (a temporary one is made). limits
 * may be NULL (the parser's, else the defaults). The text is copied; the caller's buffer may go.
 * Returns 0, or -ENOMEM / -EINVAL (NUL byte in text) with reterr filled.
 * Syntax errors and reached limits are NOT errors: they are flags on the
 * model (command_model_is_partial, command_model_limits_reached).
 */
int command_model_parse(struct command_model_parser *parser, const char *text, size_t len,
                        const struct command_model_limits *limits, struct command_model **ret,
                        struct sluice_error *reterr);

/* Accepts NULL; returns NULL. */
struct command_model *command_model_free(struct command_model *m);
static inline void command_model_freep(struct command_model **m)
{
	command_model_free(*m);
}

/* ---------------------------------------------------------- whole model */

/* The caps that were reached, as a set of bits. */
enum command_model_limit {
	COMMAND_MODEL_LIMIT_SIZE = 1u << 0,     /* max_command_bytes: nothing was parsed */
	COMMAND_MODEL_LIMIT_DEPTH = 1u << 1,    /* max_depth: deeper parts left out */
	COMMAND_MODEL_LIMIT_TIME = 1u << 2,     /* parse_timeout_us: (part) not parsed */
	COMMAND_MODEL_LIMIT_COMMANDS = 1u << 3, /* max_commands: later commands left out */
	COMMAND_MODEL_LIMIT_WORDS = 1u << 4,    /* max_words: a command's argv was cut */
};

/* Bitwise OR of enum command_model_limit; 0 when every part fit. */
uint32_t command_model_limits_reached(const struct command_model *m);

/* A stable name for one limit bit ("max-command-size", "max-nesting-depth",
 * "parse-time-limit", "max-commands", "max-words"), or NULL for an unknown bit. */
const char *command_model_limit_name(uint32_t limit_bit);

/* True when the parser met syntax it could not understand (an ERROR or
 * MISSING node, here or in a nested shell string), or syntax it reads
 * otherwise than bash (enum command_model_partial_cause): what could be
 * extracted is still in the model, but a policy should be conservative. */
bool command_model_is_partial(const struct command_model *m);

/* Why a model is partial, as a set of bits. */
enum command_model_partial_cause {
	COMMAND_MODEL_PARTIAL_SYNTAX = 1u << 0, /* an ERROR or MISSING node */
	/* a carriage return, form feed or vertical tab outside quotes: bash
	 * reads it as part of a word where the parser saw a blank (so a `#`
	 * after it starts no comment) */
	COMMAND_MODEL_PARTIAL_BLANK_CONTROL = 1u << 1,
	/* `coproc`: the parser takes it for a command name and does not follow
	 * what it runs (a compound command after it is split apart) */
	COMMAND_MODEL_PARTIAL_COPROC = 1u << 2,
};

/* Bitwise OR of enum command_model_partial_cause; 0 when not partial. */
uint32_t command_model_partial_causes(const struct command_model *m);

/* The text as given (NUL-terminated copy) and its length. */
const char *command_model_source(const struct command_model *m);
size_t command_model_source_len(const struct command_model *m);

/* Number of simple commands, in source order (outer before inner when one
 * holds another: `echo $(rm x)` gives echo, then rm). */
size_t command_model_count(const struct command_model *m);

/* The i-th simple command, or NULL when i >= count. */
const struct simple_command *command_model_get(const struct command_model *m, size_t i);

/* -------------------------------------------------- one simple command */

/* Its index in the model (command_model_get(m, i) has index i). */
size_t simple_command_index(const struct simple_command *c);

/* The command that holds this one (the command whose word holds the $(...),
 * the `bash -c` / `eval` / `find -exec` / `xargs` it came from), as an index,
 * or -1 for a command that is not held by another. */
long simple_command_parent(const struct simple_command *c);

/* --- argv: the REAL command, after the wrappers were taken off --- */

/* Number of words (argv[0] is the command name); 0 for a command made only of
 * assignments or redirections. */
size_t simple_command_argc(const struct simple_command *c);

/* Word i after quote removal ('g'it -> git, "a b" -> a b, $'\n' -> newline,
 * r\m -> rm). Static parts are exact; a dynamic part is kept as its source
 * text (`"$HOME"/x` -> `$HOME/x`, `$(pwd)` stays `$(pwd)`); see the word
 * flags to tell which. A variable resolved from an earlier literal assignment
 * (`G=git; $G`) is replaced by its value. NULL when i >= argc. */
const char *simple_command_arg(const struct simple_command *c, size_t i);

/* Word i exactly as written in the source (quotes kept), or NULL. */
const char *simple_command_arg_source(const struct simple_command *c, size_t i);

/* The bits of a word (enum shell_word_flag, WORD_DYNAMIC_MASK) are the shell
 * layer's: see shell/shell-words.h. */

/* enum shell_word_flag bits of word i, or 0 when out of range. */
uint32_t simple_command_arg_flags(const struct simple_command *c, size_t i);

/* True when word i is exactly what bash passes (no WORD_DYNAMIC_MASK bit). */
bool simple_command_arg_is_static(const struct simple_command *c, size_t i);

/* The variables word i expands ($HOME, ${HOME}, "$HOME"/x -> "HOME"; $1 ->
 * "1"; $@ -> "@"), in order, at most 8 per word (more are dropped but the
 * WORD_PARAM bit stays). Names are without `$` and braces. */
size_t simple_command_arg_var_count(const struct simple_command *c, size_t i);
const char *simple_command_arg_var(const struct simple_command *c, size_t i, size_t j);

/* The command name: argv[0] with any directory removed (/usr/bin/git -> git),
 * after unwrapping and variable resolution; "" when argc is 0. */
const char *simple_command_name(const struct simple_command *c);

/* Per-command facts, as bits. */
enum simple_command_flag {
	/* the name is not static ($CMD, "$(which rm)", *) */
	CMD_NAME_DYNAMIC = SLUICE_CMD_NAME_DYNAMIC,
	/* argv is partly supplied at run time (xargs, find {}) */
	CMD_ARGV_INCOMPLETE = SLUICE_CMD_ARGV_INCOMPLETE,
	/* an ERROR / MISSING node inside this command */
	CMD_PARTIAL = SLUICE_CMD_PARTIAL,
	/* under `!` */
	CMD_NEGATED = SLUICE_CMD_NEGATED,
	/* ends in `&` */
	CMD_BACKGROUND = SLUICE_CMD_BACKGROUND,
	/* an earlier cd had a dynamic target: cwd unknown */
	CMD_CWD_UNKNOWN = SLUICE_CMD_CWD_UNKNOWN,
	/* a shell/eval whose script is not static (bash -c "$X") */
	CMD_NESTED_DYNAMIC = SLUICE_CMD_NESTED_DYNAMIC,
	/* a shell/eval whose script was not parsed (depth/time) */
	CMD_NESTED_UNPARSED = SLUICE_CMD_NESTED_UNPARSED,
	/* a wrapper option not in the table: unwrapped by guess */
	CMD_WRAPPER_UNKNOWN_OPT = SLUICE_CMD_WRAPPER_GUESSED,
	/* the name is a function defined earlier in the text */
	CMD_FUNCTION_CALL = SLUICE_CMD_FUNCTION_CALL,
	/* a shell whose language is not bash's (fish -c, csh -c): its script
	 * is read as bash all the same, which it may not be */
	CMD_NESTED_FOREIGN = SLUICE_CMD_NESTED_FOREIGN,
};

/* enum simple_command_flag bits. */
uint32_t simple_command_flags(const struct simple_command *c);

/* Why sluice did not read the code this interpreter runs, as the end of a
 * sentence about it ("calls shutil.rmtree on a value sluice cannot read"),
 * or NULL: nothing it reads removes or runs a shell unread (interp.h). */
const char *simple_command_interp_unread(const struct simple_command *c);

/* A stable name for one flag bit, or NULL for an unknown bit:
 * word flags: "param", "tilde", "glob", "command-substitution",
 * "process-substitution", "arithmetic", "brace", "quoted", "resolved",
 * "unknown", "split", "ansi-c", "translated";
 * command flags: "name-dynamic", "argv-incomplete", "partial", "negated",
 * "background", "cwd-unknown", "nested-dynamic", "nested-unparsed",
 * "wrapper-unknown-option", "function-call", "nested-foreign". */
const char *shell_word_flag_name(uint32_t flag_bit);
const char *simple_command_flag_name(uint32_t flag_bit);

/* --- nesting: where the command sits, outermost first --- */

enum command_frame {
	/* an && / || list (a run of lists is one frame) */
	FRAME_LIST = SLUICE_FRAME_LIST,
	/* a | pipeline */
	FRAME_PIPELINE = SLUICE_FRAME_PIPELINE,
	/* ( ... ) */
	FRAME_SUBSHELL = SLUICE_FRAME_SUBSHELL,
	/* { ...; } */
	FRAME_GROUP = SLUICE_FRAME_GROUP,
	/* if / elif / else, condition or body */
	FRAME_IF = SLUICE_FRAME_IF,
	/* while / until / for / select / for (( )) */
	FRAME_LOOP = SLUICE_FRAME_LOOP,
	/* case ... esac */
	FRAME_CASE = SLUICE_FRAME_CASE,
	/* a function body */
	FRAME_FUNCTION = SLUICE_FRAME_FUNCTION,
	/* $(...) or `...` */
	FRAME_CMDSUBST = SLUICE_FRAME_CMDSUBST,
	/* <(...) or >(...) */
	FRAME_PROCSUBST = SLUICE_FRAME_PROCSUBST,
	/* the string of bash -c / sh -c / eval / watch / a heredoc or here-string fed to a shell */
	FRAME_NESTED_SHELL = SLUICE_FRAME_NESTED_SHELL,
	/* a compound statement with redirections ({ ...; } > f) */
	FRAME_REDIRECTED = SLUICE_FRAME_REDIRECTED,
	/* the condition part of if / while / until */
	FRAME_CONDITION = SLUICE_FRAME_CONDITION,
	/* the command run by find -exec / xargs (argv partly unknown) */
	FRAME_WRAPPER_EXEC = SLUICE_FRAME_WRAPPER_EXEC,
};

/* Number of frames around the command; this is its depth (0 = a plain
 * top-level command). */
size_t simple_command_depth(const struct simple_command *c);

/* Frame i (0 = outermost) as enum command_frame, or 0 when out of range. */
int simple_command_frame(const struct simple_command *c, size_t i);

/* A short name for a frame value ("list", "pipeline", "subshell", "group",
 * "if", "loop", "case", "function", "command-substitution",
 * "process-substitution", "nested-shell", "redirected", "condition",
 * "wrapper-exec"), or NULL. */
const char *command_frame_name(int frame);

/* The innermost pipeline one of whose parts holds c (its subshell,
 * function or nested shell too): a number shared by the commands of that
 * pipeline and no other in the model, or -1 when c is in none. A heredoc's
 * command at the head of a pipeline (`cat <<EOF | sh`) is in none; the
 * parts after it count from 1. */
long simple_command_pipeline(const struct simple_command *c);
/* c's part in that pipeline (0: the first, which reads no pipe) and the
 * number of parts; 0 and 0 when c is in none. */
size_t simple_command_pipeline_position(const struct simple_command *c);
size_t simple_command_pipeline_length(const struct simple_command *c);

/* True when any frame around c is `frame`. */
bool simple_command_in(const struct simple_command *c, int frame);

/* The name of the innermost function whose body holds c, or NULL. */
const char *simple_command_function(const struct simple_command *c);

/* --- wrappers: outermost first --- */

/* Number of wrappers the command was found under (`sudo -u root env A=1 rm`
 * has 2: sudo, env). */
size_t simple_command_wrapper_count(const struct simple_command *c);

/* Wrapper i's name ("sudo", "env", "find", ...; the table's name, directory
 * removed), or NULL. */
const char *simple_command_wrapper_name(const struct simple_command *c, size_t i);

/* Wrapper i's own words, quote-removed, its name first (`sudo -u root`):
 * count and word j; NULL when out of range. */
size_t simple_command_wrapper_argc(const struct simple_command *c, size_t i);
const char *simple_command_wrapper_arg(const struct simple_command *c, size_t i, size_t j);

/* --- assignments: NAME=VALUE prefixes, and env's NAME=VALUE --- */

size_t simple_command_assign_count(const struct simple_command *c);
/* The NAME, or NULL. */
const char *simple_command_assign_name(const struct simple_command *c, size_t i);
/* The VALUE after quote removal (dynamic parts as source text), or NULL. */
const char *simple_command_assign_value(const struct simple_command *c, size_t i);
/* enum shell_word_flag bits of the value. */
uint32_t simple_command_assign_flags(const struct simple_command *c, size_t i);

/* --- redirections: the command's own, then those of enclosing compound
 * statements (`{ a; b; } >f` gives both a and b the `>f`) --- */

size_t simple_command_redirect_count(const struct simple_command *c);

/* The operator as written: ">", ">>", "<", "&>", "&>>", ">&", "<&", ">|",
 * "<>", "<<", "<<-", "<<<"; NULL when out of range. */
const char *simple_command_redirect_op(const struct simple_command *c, size_t i);

/* The file descriptor written before the operator (2 in 2>x), or -1 when
 * none was written (the operator's default applies). */
int simple_command_redirect_fd(const struct simple_command *c, size_t i);

/* The target after quote removal: a file, "&1"-style duplications give "1",
 * a heredoc gives its delimiter, a here-string its word. NULL out of range. */
const char *simple_command_redirect_target(const struct simple_command *c, size_t i);

/* enum shell_word_flag bits of the target. */
uint32_t simple_command_redirect_target_flags(const struct simple_command *c, size_t i);

/* The body of a heredoc, or the value of a here-string; NULL otherwise. */
const char *simple_command_redirect_body(const struct simple_command *c, size_t i);

/* --- where it runs --- */

/* The directory the command runs in, from the literal `cd` / `pushd` steps
 * before it in the same list (`cd ~ && rm -rf *` -> "~"; `cd a && cd b && x`
 * -> "a/b"; `env -C d cmd` too). Not normalised: relative to the directory
 * the whole command starts in, "~" kept. NULL when no cd is in effect (or it
 * is unknown: see CMD_CWD_UNKNOWN). */
const char *simple_command_cwd(const struct simple_command *c);

/* --- text --- */

/* Byte offsets [start, end) of the command in command_model_source(). For a
 * command from a nested shell string, the span of the word that holds that
 * string. */
void simple_command_span(const struct simple_command *c, size_t *start, size_t *end);

/* The command's own text as written (in its nested string when nested). */
const char *simple_command_text(const struct simple_command *c);

/* A normalised text for pattern rules: the wrappers' words, then the
 * assignments, then argv, each quote-removed and joined by one space; a word
 * that holds whitespace or is empty is wrapped in single quotes. Example:
 * `sudo -u root  'g'it push  -f` -> `sudo -u root git push -f`. */
const char *simple_command_normalized(const struct simple_command *c);

#endif
