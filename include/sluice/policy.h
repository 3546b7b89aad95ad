/* SPDX-License-Identifier: MIT */
/*
 * sluice/policy.h -- the policy plugin ABI of sluice. This header is the
 * manual: read it top to bottom.
 *
 * WHAT A PLUGIN IS
 *   A shared object that exports exactly one symbol, `sluice_policy_plugin`,
 *   a struct sluice_policy_plugin. For every command an agent asks to run,
 *   sluice parses the shell text into a model (every simple command at any
 *   depth: lists, pipelines, subshells, $(...), bash -c '...', under sudo,
 *   env, xargs ...) and asks each enabled plugin for a verdict: allow, ask
 *   (a human must approve) or deny, with a message for the model and a
 *   suggestion of the safer alternative. Verdicts combine deny > ask > allow.
 *
 * LIFECYCLE
 *   dlopen(RTLD_NOW | RTLD_LOCAL) -> the descriptor is checked (ABI major,
 *   struct_size, required members, keys of the plugin's INI section) ->
 *   open(host, settings, &state) -> check(state, cmd, verdict) -> close(state)
 *   -> dlclose. open/check/close run in a child process that sluice forks
 *   for one request: state never outlives a request, and a crash, a hang
 *   (past [broker] plugin_timeout) or a bad return makes sluice refuse the
 *   command, naming the plugin (fail closed). A server (sluice mcp) may fork
 *   that child, and call open in it, before its request arrives: open must
 *   depend on the settings only, never on the command. A one-shot sluice
 *   loads the plugin in that child only. Never rely on state kept between
 *   requests, and never write to stdout/stderr. The child leads a process
 *   group of its own: a process a plugin starts is killed with it.
 *
 * VERSIONING
 *   abi_version is major << 16 | minor. A plugin built for another MAJOR is
 *   refused. Members are only ever appended, with "Added in 1.N" comments;
 *   values of constants are fixed forever (retired ones stay reserved).
 *   - The host reads a plugin member only when the plugin's struct_size
 *     covers it (a shorter, older descriptor means "old behaviour"). A
 *     descriptor larger than the host knows is accepted only when the bytes
 *     the host does not know are all zero.
 *   - Before calling a host function added after 1.0, check
 *     SLUICE_HOST_HAS(host, member): an older sluice has no such member
 *     (the sluice_pipeline() wrappers below check it for you).
 *
 * CHANGES
 *   1.0  the first ABI.
 *        SLUICE_CMD_NESTED_FOREIGN (a value only: a host of any 1.x may
 *        set it; a 1.0 plugin that does not know it sees an unknown bit).
 *   1.1  sluice_host: pipeline, pipeline_position, pipeline_length: which
 *        pipeline a simple command is in, and where, so that a rule about
 *        `curl ... | sh` reads the model instead of the raw text.
 *        Header only, no change to the ABI: the wrappers' host table is
 *        one per module instead of one per source file (see "Wrappers").
 *
 * OWNERSHIP
 *   Every string and handle sluice passes to a plugin is BORROWED for the
 *   duration of the call (settings: until close). Strings a plugin hands to
 *   sluice (verdict messages, rewrites) are COPIED by sluice before the call
 *   returns; the plugin keeps ownership of its own memory. Nothing is ever
 *   freed by the other side.
 *
 * THREADING
 *   One thread. open, check and close of one plugin are never called
 *   concurrently.
 *
 * ERRORS
 *   Every int-returning function returns >= 0 on success and -errno on
 *   failure. check() returns SLUICE_ALLOW, SLUICE_ASK or SLUICE_DENY, or
 *   -errno; anything else is treated as an error, and an error denies.
 *
 * BUILDING A PLUGIN (see plugins/example/ and docs/writing-plugins.md)
 *   cc -shared -fPIC -fvisibility=hidden $(pkg-config --cflags sluice-policy) \
 *      -o no_curl.so no_curl.c
 *
 *   #include <string.h>
 *   #include <sluice/policy.h>
 *
 *   static int nc_open(const struct sluice_host *host,
 *                      const struct sluice_settings *settings, void **state)
 *   {
 *           sluice_init(host);      // once, before any sluice_*() call
 *           (void)settings;
 *           *state = NULL;
 *           return 0;
 *   }
 *
 *   static int nc_check(void *state, const struct sluice_command *cmd,
 *                       struct sluice_verdict *v)
 *   {
 *           int verdict = SLUICE_ALLOW;
 *           for (size_t i = 0; i < sluice_command_count(cmd); i++) {
 *                   const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
 *                   if (strcmp(sluice_name(sc), "curl") == 0)
 *                           verdict = sluice_verdict_add(v, SLUICE_DENY,
 *                                   "curl is not allowed here", "use the http_get tool");
 *           }
 *           (void)state;
 *           return verdict;
 *   }
 *
 *   SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin sluice_policy_plugin = {
 *           .abi_version = SLUICE_POLICY_ABI_VERSION,
 *           .struct_size = sizeof(struct sluice_policy_plugin),
 *           .name = "no_curl",
 *           .open = nc_open,
 *           .check = nc_check,
 *   };
 */
#ifndef SLUICE_POLICY_H
#define SLUICE_POLICY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SLUICE_POLICY_ABI_MAJOR 1
#define SLUICE_POLICY_ABI_MINOR 1
#define SLUICE_POLICY_ABI_VERSION \
	(((uint32_t)SLUICE_POLICY_ABI_MAJOR << 16) | (uint32_t)SLUICE_POLICY_ABI_MINOR)
#define SLUICE_ABI_MAJOR_OF(v) ((uint32_t)(v) >> 16)
#define SLUICE_ABI_MINOR_OF(v) ((uint32_t)(v)&0xffffu)

/* Give the descriptor default visibility when building with
 * -fvisibility=hidden (which you should: export nothing else). */
#if defined(__GNUC__) || defined(__clang__)
#define SLUICE_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define SLUICE_PLUGIN_EXPORT
#endif

/* Opaque handles: declared, never defined here, so that sluice's parser can
 * change without breaking any plugin. */
struct sluice_command;        /* one request: the whole command line      */
struct sluice_simple_command; /* one simple command inside it              */
struct sluice_settings;       /* the plugin's [plugin NAME] section        */
struct sluice_verdict;        /* where a check writes reasons and rewrites */

/* Verdicts. Values fixed forever. */
#define SLUICE_ALLOW 0
#define SLUICE_ASK 1
#define SLUICE_DENY 2

/* sluice_command_flags() bits. */
/* syntax the parser did not understand, or reads otherwise than bash: a CR,
 * FF or VT between words (bash reads those as part of a word; the parser
 * skipped them), `coproc` (taken for a command name) */
#define SLUICE_COMMAND_PARTIAL (1u << 0)
#define SLUICE_COMMAND_LIMITED (1u << 1) /* a parse cap was reached: parts are missing */

/* sluice_arg_flags() bits: what a word holds (0: fully static). */
#define SLUICE_WORD_PARAM (1u << 0)     /* $X, ${X}, $1, $@ */
#define SLUICE_WORD_TILDE (1u << 1)     /* unquoted leading ~ */
#define SLUICE_WORD_GLOB (1u << 2)      /* unquoted * ? [ ] */
#define SLUICE_WORD_CMDSUBST (1u << 3)  /* $(...) or `...` */
#define SLUICE_WORD_PROCSUBST (1u << 4) /* <(...) or >(...) */
#define SLUICE_WORD_ARITH (1u << 5)     /* $((...)) */
/* {a,b} or {1..3} left as written: its expansion passed the word cap
 * (otherwise the word is already the words bash expands it to) */
#define SLUICE_WORD_BRACE (1u << 6)
#define SLUICE_WORD_QUOTED (1u << 7)      /* some part was quoted (informative) */
#define SLUICE_WORD_RESOLVED (1u << 8)    /* a variable replaced by an earlier literal value */
#define SLUICE_WORD_UNKNOWN (1u << 9)     /* content not known (unparsable) */
#define SLUICE_WORD_SPLIT (1u << 10)      /* unquoted expansion: may become several words */
#define SLUICE_WORD_ANSI_C (1u << 11)     /* held $'...' (informative) */
#define SLUICE_WORD_TRANSLATED (1u << 12) /* held $"..." (informative) */
/* The bits that make a word's final value unknown before bash runs it. */
#define SLUICE_WORD_DYNAMIC                                                                \
	(SLUICE_WORD_PARAM | SLUICE_WORD_TILDE | SLUICE_WORD_GLOB | SLUICE_WORD_CMDSUBST | \
	 SLUICE_WORD_PROCSUBST | SLUICE_WORD_ARITH | SLUICE_WORD_BRACE | SLUICE_WORD_UNKNOWN)

/* sluice_flags() bits: facts about one simple command. */
#define SLUICE_CMD_NAME_DYNAMIC (1u << 0)    /* the name is not static ($CMD args) */
#define SLUICE_CMD_ARGV_INCOMPLETE (1u << 1) /* argv partly supplied at run time (xargs) */
#define SLUICE_CMD_PARTIAL (1u << 2)         /* syntax not understood inside it */
#define SLUICE_CMD_NEGATED (1u << 3)         /* under ! */
#define SLUICE_CMD_BACKGROUND (1u << 4)      /* ends in & */
#define SLUICE_CMD_CWD_UNKNOWN (1u << 5)     /* an earlier cd had a dynamic target */
#define SLUICE_CMD_NESTED_DYNAMIC (1u << 6)  /* bash -c "$X": the script is not static */
#define SLUICE_CMD_NESTED_UNPARSED (1u << 7) /* a nested script was not parsed (caps) */
#define SLUICE_CMD_WRAPPER_GUESSED (1u << 8) /* a wrapper option unknown: unwrapped by guess */
#define SLUICE_CMD_FUNCTION_CALL (1u << 9)   /* calls a function defined earlier */
/* a shell whose language is not bash's (fish -c, csh -c): its script is
 * read as bash all the same (a value only: hosts of any 1.x may set it) */
#define SLUICE_CMD_NESTED_FOREIGN (1u << 10)

/* sluice_frame() values: what surrounds a simple command, outermost first. */
#define SLUICE_FRAME_LIST 1
#define SLUICE_FRAME_PIPELINE 2
#define SLUICE_FRAME_SUBSHELL 3
#define SLUICE_FRAME_GROUP 4
#define SLUICE_FRAME_IF 5
#define SLUICE_FRAME_LOOP 6
#define SLUICE_FRAME_CASE 7
#define SLUICE_FRAME_FUNCTION 8
#define SLUICE_FRAME_CMDSUBST 9
#define SLUICE_FRAME_PROCSUBST 10
#define SLUICE_FRAME_NESTED_SHELL 11 /* bash -c / sh -c / eval string, heredoc fed to a shell */
#define SLUICE_FRAME_REDIRECTED 12
#define SLUICE_FRAME_CONDITION 13
#define SLUICE_FRAME_WRAPPER_EXEC 14 /* run by find -exec / xargs */

/* struct sluice_key flags. */
#define SLUICE_KEY_REPEATABLE (1u << 0) /* may appear many times; every value is kept */
#define SLUICE_KEY_JOINABLE (1u << 1)   /* indented continuation lines are joined to it */

/* One key a plugin accepts in its [plugin NAME] section. */
struct sluice_key {
	const char *name;
	uint32_t flags; /* SLUICE_KEY_* */
};

/*
 * The host's function table, filled by sluice and passed to open(). Valid
 * until close(). Members are only appended; check SLUICE_HOST_HAS() before
 * using one added after 1.0. Call them through the sluice_*() wrappers below.
 * All strings returned are borrowed (see OWNERSHIP); out-of-range indexes
 * return NULL / 0 / -1, never crash.
 */
struct sluice_host {
	uint32_t abi_version; /* SLUICE_POLICY_ABI_VERSION of the running sluice */
	uint32_t struct_size; /* sizeof(struct sluice_host) in the running sluice */

	/* --- the whole command (Added in 1.0) --- */
	/* The text as the agent sent it. */
	const char *(*command_source)(const struct sluice_command *cmd);
	/* SLUICE_COMMAND_* bits. A plugin should not allow what it could not see. */
	uint32_t (*command_flags)(const struct sluice_command *cmd);
	/* Number of simple commands, in source order (outer before inner). */
	size_t (*command_count)(const struct sluice_command *cmd);
	/* Simple command i, or NULL. */
	const struct sluice_simple_command *(*command_get)(const struct sluice_command *cmd,
	                                                   size_t i);

	/* --- one simple command: argv after the wrappers (Added in 1.0) --- */
	/* Number of words; argv[0] is the real command (sudo, env ... removed). */
	size_t (*argc)(const struct sluice_simple_command *sc);
	/* Word i after quote removal; a dynamic part is kept as source text. */
	const char *(*arg)(const struct sluice_simple_command *sc, size_t i);
	/* SLUICE_WORD_* bits of word i. */
	uint32_t (*arg_flags)(const struct sluice_simple_command *sc, size_t i);
	/* The command name: argv[0] without directory (/usr/bin/git -> git). */
	const char *(*name)(const struct sluice_simple_command *sc);
	/* SLUICE_CMD_* bits. */
	uint32_t (*flags)(const struct sluice_simple_command *sc);
	/* Number of frames around it (0: top level) and frame i (SLUICE_FRAME_*). */
	size_t (*depth)(const struct sluice_simple_command *sc);
	int32_t (*frame)(const struct sluice_simple_command *sc, size_t i);
	/* Index of the command holding this one ($(...), bash -c), or -1. */
	int64_t (*parent)(const struct sluice_simple_command *sc);
	/* The name of the innermost function whose body holds it, or NULL. */
	const char *(*function)(const struct sluice_simple_command *sc);
	/* Wrappers it ran under, outermost first, and their own words. */
	size_t (*wrapper_count)(const struct sluice_simple_command *sc);
	const char *(*wrapper_name)(const struct sluice_simple_command *sc, size_t i);
	size_t (*wrapper_argc)(const struct sluice_simple_command *sc, size_t i);
	const char *(*wrapper_arg)(const struct sluice_simple_command *sc, size_t i, size_t j);
	/* NAME=VALUE prefixes (and env's). */
	size_t (*assign_count)(const struct sluice_simple_command *sc);
	const char *(*assign_name)(const struct sluice_simple_command *sc, size_t i);
	const char *(*assign_value)(const struct sluice_simple_command *sc, size_t i);
	uint32_t (*assign_flags)(const struct sluice_simple_command *sc, size_t i);
	/* Redirections, its own then those of enclosing compound commands:
	 * operator (">", ">>", "&>", "<", ...), fd written before it or -1,
	 * target after quote removal, the target's SLUICE_WORD_* bits. */
	size_t (*redirect_count)(const struct sluice_simple_command *sc);
	const char *(*redirect_op)(const struct sluice_simple_command *sc, size_t i);
	int32_t (*redirect_fd)(const struct sluice_simple_command *sc, size_t i);
	const char *(*redirect_target)(const struct sluice_simple_command *sc, size_t i);
	uint32_t (*redirect_flags)(const struct sluice_simple_command *sc, size_t i);
	/* The directory a literal cd earlier in the list moved to ("~", "a/b"),
	 * relative to where the command starts; NULL when none. */
	const char *(*cwd)(const struct sluice_simple_command *sc);
	/* Byte offsets [start, end) in command_source(); for a command inside a
	 * bash -c string, the span of that string's word. */
	void (*span)(const struct sluice_simple_command *sc, size_t *start, size_t *end);
	/* Its text as written, and a normalised text (wrappers, assignments and
	 * argv quote-removed, one space apart) for pattern rules. */
	const char *(*text)(const struct sluice_simple_command *sc);
	const char *(*normalized)(const struct sluice_simple_command *sc);

	/* --- helpers for common questions (Added in 1.0) --- */
	/* The index of the first word after argv[0] that is not an option,
	 * skipping the arguments of the options listed in options_with_value
	 * (NULL-terminated; "-C" also matches "-Cdir", "--git-dir" also
	 * "--git-dir=x"). `git -C d -c k=v push` with {"-C","-c",NULL} gives 5
	 * (push). 0 when there is none. */
	size_t (*subcommand)(const struct sluice_simple_command *sc,
	                     const char *const *options_with_value);
	/* 1 when a short-option word at index >= from, before "--", holds letter
	 * (-f, -rf, -vfr), else 0. */
	int32_t (*has_short_flag)(const struct sluice_simple_command *sc, size_t from, char letter);
	/* For "--name" at index >= from, before "--": "" when given alone, the
	 * text after '=' for "--name=value"; NULL when absent. */
	const char *(*long_option)(const struct sluice_simple_command *sc, size_t from,
	                           const char *name);

	/* --- settings: the [plugin NAME] keys, in file order (Added in 1.0) --- */
	size_t (*settings_count)(const struct sluice_settings *s);
	const char *(*settings_key)(const struct sluice_settings *s, size_t i);
	const char *(*settings_value)(const struct sluice_settings *s, size_t i);
	/* The last value of key, or NULL. */
	const char *(*settings_get)(const struct sluice_settings *s, const char *key);
	/* Report that setting i is wrong; sluice prefixes FILE:LINE and the
	 * plugin's name. Return an error from open() afterwards. */
	void (*settings_error)(const struct sluice_settings *s, size_t i, const char *message);

	/* --- the answer (Added in 1.0) --- */
	/* Add a reason: verdict (SLUICE_*), a message for the model, and a
	 * suggestion (may be NULL). Both strings are copied (each cut at 1 KiB,
	 * visibly). Returns verdict, so check() can `return sluice_verdict_add(..)`,
	 * or -EINVAL for a bad verdict value. */
	int (*verdict_add)(struct sluice_verdict *v, int32_t verdict, const char *message,
	                   const char *suggestion);
	/* Propose the whole command line rewritten (copied). The rewrite is
	 * checked again by every plugin before it runs. At most one per plugin;
	 * returns 0, or -EEXIST / -E2BIG. */
	int (*verdict_rewrite)(struct sluice_verdict *v, const char *command);

	/* --- pipelines (Added in 1.1; check SLUICE_HOST_HAS) --- */
	/* The innermost `a | b | c` one of whose parts holds sc (also inside
	 * that part's subshell, function or nested shell): a number shared by
	 * the commands of that pipeline and by no other in the request, or -1
	 * when sc is in no pipeline. `curl URL | sh`: both get the same number,
	 * curl position 0, sh position 1, length 2. A heredoc's command at the
	 * head (`cat <<EOF | sh`) is in none; the parts after it count from 1. */
	int64_t (*pipeline)(const struct sluice_simple_command *sc);
	/* sc's part in that pipeline (0: the first, which reads no pipe), and
	 * the number of parts; 0 and 0 in none. */
	size_t (*pipeline_position)(const struct sluice_simple_command *sc);
	size_t (*pipeline_length)(const struct sluice_simple_command *sc);

	/* Added in 1.2: new members go below this line only. */
};

/* True when the running sluice's host table has member. */
#define SLUICE_HOST_HAS(host, member)                                                            \
	((host)->struct_size >= offsetof(struct sluice_host, member) + sizeof((host)->member) && \
	 (host)->member != NULL)

/* The descriptor every plugin exports as `sluice_policy_plugin`. */
struct sluice_policy_plugin {
	uint32_t abi_version;    /* SLUICE_POLICY_ABI_VERSION the plugin was built with */
	uint32_t struct_size;    /* sizeof(struct sluice_policy_plugin) */
	const char *name;        /* should match its [plugin NAME] */
	const char *description; /* one line, for `sluice plugins` (may be NULL) */
	/* The keys it accepts, ended by { NULL, 0 }; NULL: none. Any other key
	 * in its section is refused with FILE:LINE before open() is called. */
	const struct sluice_key *keys;
	/* Required. Read settings, build state (*ret_state, may stay NULL).
	 * Returns 0 or -errno (after settings_error() for a bad value). */
	int (*open)(const struct sluice_host *host, const struct sluice_settings *settings,
	            void **ret_state);
	/* Required. Returns SLUICE_ALLOW / SLUICE_ASK / SLUICE_DENY or -errno.
	 * The plugin's verdict is the highest of this and its reasons'. A DENY
	 * or ASK without a reason gets a generic message naming the plugin. */
	int (*check)(void *state, const struct sluice_command *cmd, struct sluice_verdict *verdict);
	/* Optional. Release state. */
	void (*close)(void *state);

	/* Added in 1.2: new members go below this line only. */
};

/* ------------------------------------------------------------------------
 * Wrappers, so that plugin code reads sluice_name(sc). Call sluice_init(host)
 * once, in open(), before any of them: it serves every source file of the
 * plugin.
 *
 * The table they call through is one per plugin module, shared by all its
 * source files: each file that includes this header holds a weak definition,
 * and the linker makes them one (so a second file of a plugin cannot be left
 * with a pointer nobody set). It is hidden, so that it is never shared
 * between two modules. A compiler without these attributes gets one pointer
 * per file, and every file must then call sluice_init.
 */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((weak, visibility("hidden"))) const struct sluice_host *sluice_host_api_;
#else
static const struct sluice_host *sluice_host_api_;
#endif

static inline void sluice_init(const struct sluice_host *host)
{
	sluice_host_api_ = host;
}
static inline const char *sluice_command_source(const struct sluice_command *c)
{
	return sluice_host_api_->command_source(c);
}
static inline uint32_t sluice_command_flags(const struct sluice_command *c)
{
	return sluice_host_api_->command_flags(c);
}
static inline size_t sluice_command_count(const struct sluice_command *c)
{
	return sluice_host_api_->command_count(c);
}
static inline const struct sluice_simple_command *sluice_command_get(const struct sluice_command *c,
                                                                     size_t i)
{
	return sluice_host_api_->command_get(c, i);
}
static inline size_t sluice_argc(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->argc(sc);
}
static inline const char *sluice_arg(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->arg(sc, i);
}
static inline uint32_t sluice_arg_flags(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->arg_flags(sc, i);
}
static inline const char *sluice_name(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->name(sc);
}
static inline uint32_t sluice_flags(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->flags(sc);
}
static inline size_t sluice_depth(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->depth(sc);
}
static inline int32_t sluice_frame(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->frame(sc, i);
}
static inline int64_t sluice_parent(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->parent(sc);
}
/* Added in 1.1; on an older sluice: -1 (in no pipeline, as far as it can
 * tell) and 0. */
static inline int64_t sluice_pipeline(const struct sluice_simple_command *sc)
{
	return SLUICE_HOST_HAS(sluice_host_api_, pipeline) ? sluice_host_api_->pipeline(sc) : -1;
}
static inline size_t sluice_pipeline_position(const struct sluice_simple_command *sc)
{
	return SLUICE_HOST_HAS(sluice_host_api_, pipeline_position)
	               ? sluice_host_api_->pipeline_position(sc)
	               : 0;
}
static inline size_t sluice_pipeline_length(const struct sluice_simple_command *sc)
{
	return SLUICE_HOST_HAS(sluice_host_api_, pipeline_length)
	               ? sluice_host_api_->pipeline_length(sc)
	               : 0;
}
static inline const char *sluice_function(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->function(sc);
}
static inline size_t sluice_wrapper_count(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->wrapper_count(sc);
}
static inline const char *sluice_wrapper_name(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->wrapper_name(sc, i);
}
static inline size_t sluice_wrapper_argc(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->wrapper_argc(sc, i);
}
static inline const char *sluice_wrapper_arg(const struct sluice_simple_command *sc, size_t i,
                                             size_t j)
{
	return sluice_host_api_->wrapper_arg(sc, i, j);
}
static inline size_t sluice_assign_count(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->assign_count(sc);
}
static inline const char *sluice_assign_name(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->assign_name(sc, i);
}
static inline const char *sluice_assign_value(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->assign_value(sc, i);
}
static inline uint32_t sluice_assign_flags(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->assign_flags(sc, i);
}
static inline size_t sluice_redirect_count(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->redirect_count(sc);
}
static inline const char *sluice_redirect_op(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->redirect_op(sc, i);
}
static inline int32_t sluice_redirect_fd(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->redirect_fd(sc, i);
}
static inline const char *sluice_redirect_target(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->redirect_target(sc, i);
}
static inline uint32_t sluice_redirect_flags(const struct sluice_simple_command *sc, size_t i)
{
	return sluice_host_api_->redirect_flags(sc, i);
}
static inline const char *sluice_cwd(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->cwd(sc);
}
static inline void sluice_span(const struct sluice_simple_command *sc, size_t *start, size_t *end)
{
	sluice_host_api_->span(sc, start, end);
}
static inline const char *sluice_text(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->text(sc);
}
static inline const char *sluice_normalized(const struct sluice_simple_command *sc)
{
	return sluice_host_api_->normalized(sc);
}
static inline size_t sluice_subcommand(const struct sluice_simple_command *sc,
                                       const char *const *options_with_value)
{
	return sluice_host_api_->subcommand(sc, options_with_value);
}
static inline int32_t sluice_has_short_flag(const struct sluice_simple_command *sc, size_t from,
                                            char letter)
{
	return sluice_host_api_->has_short_flag(sc, from, letter);
}
static inline const char *sluice_long_option(const struct sluice_simple_command *sc, size_t from,
                                             const char *name)
{
	return sluice_host_api_->long_option(sc, from, name);
}
static inline size_t sluice_settings_count(const struct sluice_settings *s)
{
	return sluice_host_api_->settings_count(s);
}
static inline const char *sluice_settings_key(const struct sluice_settings *s, size_t i)
{
	return sluice_host_api_->settings_key(s, i);
}
static inline const char *sluice_settings_value(const struct sluice_settings *s, size_t i)
{
	return sluice_host_api_->settings_value(s, i);
}
static inline const char *sluice_settings_get(const struct sluice_settings *s, const char *key)
{
	return sluice_host_api_->settings_get(s, key);
}
static inline void sluice_settings_error(const struct sluice_settings *s, size_t i,
                                         const char *message)
{
	sluice_host_api_->settings_error(s, i, message);
}
static inline int sluice_verdict_add(struct sluice_verdict *v, int32_t verdict, const char *message,
                                     const char *suggestion)
{
	return sluice_host_api_->verdict_add(v, verdict, message, suggestion);
}
static inline int sluice_verdict_rewrite(struct sluice_verdict *v, const char *command)
{
	return sluice_host_api_->verdict_rewrite(v, command);
}

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_POLICY_H */
