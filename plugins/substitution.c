/* SPDX-License-Identifier: MIT */
/*
 * substitution (off by default): refuse command substitution ($(...) and
 * backticks) and process substitution (<(...), >(...)) anywhere in the
 * command, because their output becomes part of another command unseen.
 * `action` chooses deny (default) or ask.
 * Not for: parameter expansion ($HOME) or arithmetic ($((1+2))).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "plugin-util.h"
#include "sluice/policy.h"

struct state {
	int action;
};

static struct state the_state;

static const char *kind_of(const struct sluice_simple_command *sc)
{
	for (size_t i = 0; i < sluice_depth(sc); i++) {
		int32_t f = sluice_frame(sc, i);
		if (f == SLUICE_FRAME_CMDSUBST)
			return "command substitution ($(...) or backticks)";
		if (f == SLUICE_FRAME_PROCSUBST)
			return "process substitution (<(...) or >(...))";
	}
	uint32_t all = 0;
	for (size_t i = 0; i < sluice_argc(sc); i++)
		all |= sluice_arg_flags(sc, i);
	for (size_t i = 0; i < sluice_redirect_count(sc); i++)
		all |= sluice_redirect_flags(sc, i);
	for (size_t i = 0; i < sluice_assign_count(sc); i++)
		all |= sluice_assign_flags(sc, i);
	if (all & SLUICE_WORD_CMDSUBST)
		return "command substitution ($(...) or backticks)";
	if (all & SLUICE_WORD_PROCSUBST)
		return "process substitution (<(...) or >(...))";
	return NULL;
}

/* Skip a heredoc body whose delimiter was quoted (no expansion inside):
 * from the line after p up to the line that is exactly the delimiter. */
static const char *skip_quoted_heredoc(const char *p, const char *delim, size_t n)
{
	const char *line = strchr(p, '\n');
	while (line) {
		line++;
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		if (len == n && strncmp(line, delim, n) == 0)
			return line + len;
		line = end;
	}
	return p + strlen(p);
}

/* The text itself, for substitutions the model holds no command for (in
 * a for list, a case word, ...): $( but not $((, backticks, <( and >(,
 * outside single quotes and escapes. Conservative: it may also see them in
 * places bash would not run them, which for an opt-in refusal is the safe
 * side. */
static const char *scan_text(const char *s)
{
	bool dq = false;
	for (const char *p = s; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (!dq && *p == '\'') {
			const char *q = strchr(p + 1, '\'');
			if (!q)
				return NULL;
			p = q;
			continue;
		}
		if (*p == '"') {
			dq = !dq;
			continue;
		}
		if (*p == '$' && p[1] == '(' && p[2] != '(')
			return "command substitution ($(...) or backticks)";
		if (*p == '`')
			return "command substitution ($(...) or backticks)";
		if (!dq && (*p == '<' || *p == '>') && p[1] == '(')
			return "process substitution (<(...) or >(...))";
		if (!dq && *p == '<' && p[1] == '<' && p[2] != '<') {
			/* <<'EOF', <<"EOF", <<\EOF: the body is not expanded */
			const char *d = p + 2 + (p[2] == '-');
			while (*d == ' ' || *d == '\t')
				d++;
			char quote = *d == '\'' || *d == '"' ? *d : (*d == '\\' ? '\\' : 0);
			if (quote) {
				const char *start = d + 1;
				size_t n =
				        strcspn(start, quote == '\\' ? " \t\n;&|<>"
				                                     : (quote == '"' ? "\"" : "'"));
				p = skip_quoted_heredoc(start + n, start, n);
				if (!*p)
					return NULL;
			}
		}
	}
	return NULL;
}

static int sb_open(const struct sluice_host *host, const struct sluice_settings *settings,
                   void **ret_state)
{
	sluice_init(host);
	int r = read_choice(settings, "action", SLUICE_DENY, SLUICE_ASK, &the_state.action);
	if (r < 0)
		return r;
	*ret_state = &the_state;
	return 0;
}

static int sb_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	const struct state *st = state;
	for (size_t i = 0; i <= sluice_command_count(cmd); i++) {
		const char *kind = i < sluice_command_count(cmd)
		                           ? kind_of(sluice_command_get(cmd, i))
		                           : scan_text(sluice_command_source(cmd));
		if (kind) {
			char msg[256];
			snprintf(msg, sizeof(msg), "%s is not allowed here", kind);
			return sluice_verdict_add(
			        v, st->action, msg,
			        "run the inner command on its own first, then use "
			        "its output");
		}
	}
	return SLUICE_ALLOW;
}

static const struct sluice_key keys[] = {
	{ "action", 0 },
	{ NULL, 0 },
};

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "substitution",
	.description = "refuses $(...), backticks, <(...) and >(...) (off by default)",
	.keys = keys,
	.open = sb_open,
	.check = sb_check,
};
