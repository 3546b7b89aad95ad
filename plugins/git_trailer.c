/* SPDX-License-Identifier: MIT */
/*
 * git_trailer (off by default): add a configured trailer, such as
 * `Co-authored-by: Agent <agent@example.com>`, to every top-level
 * `git commit` by rewriting the command: ` --trailer 'TRAILER'` is appended
 * to that simple command. A commit that already carries the trailer is left
 * alone (so the rewrite is stable when it is checked again).
 * Not for: commits inside nested shells, substitutions or after `--` or with
 * a heredoc (left unchanged; the plugin never refuses anything).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin-util.h"
#include "sluice/policy.h"

static const char *const commit_names[] = { "commit", NULL };

#define MAX_COMMAND (64 * 1024)

struct state {
	const char *trailer;
};

static struct state the_state;

static bool has_trailer(const struct sluice_simple_command *sc, size_t from, const char *t)
{
	for (size_t i = from; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (strcmp(a, "--trailer") == 0 && i + 1 < sluice_argc(sc) &&
		    strcmp(sluice_arg(sc, i + 1), t) == 0)
			return true;
		if (strncmp(a, "--trailer=", 10) == 0 && strcmp(a + 10, t) == 0)
			return true;
	}
	return false;
}

/* Can the trailer be appended to this commit's text safely? */
static bool rewritable(const struct sluice_simple_command *sc, size_t sub)
{
	for (size_t i = 0; i < sluice_depth(sc); i++)
		if (sluice_frame(sc, i) != SLUICE_FRAME_LIST)
			return false; /* nested, piped, substituted: leave it */
	for (size_t i = sub + 1; i < sluice_argc(sc); i++)
		if (strcmp(sluice_arg(sc, i), "--") == 0)
			return false;
	for (size_t i = 0; i < sluice_redirect_count(sc); i++) {
		const char *op = sluice_redirect_op(sc, i);
		if (op && strncmp(op, "<<", 2) == 0)
			return false;
	}
	return true;
}

/* Append s to buf (cap MAX_COMMAND); false when it does not fit. */
static bool put(char *buf, size_t *len, const char *s, size_t n)
{
	if (*len + n >= MAX_COMMAND)
		return false;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
	return true;
}

/* " --trailer 'T'" with T single-quoted for the shell. */
static bool put_option(char *buf, size_t *len, const char *t)
{
	if (!put(buf, len, " --trailer '", 12))
		return false;
	for (const char *p = t; *p; p++) {
		if (*p == '\'') {
			if (!put(buf, len, "'\\''", 4))
				return false;
		} else if (!put(buf, len, p, 1)) {
			return false;
		}
	}
	return put(buf, len, "'", 1);
}

static int gt_open(const struct sluice_host *host, const struct sluice_settings *settings,
                   void **ret_state)
{
	sluice_init(host);
	the_state.trailer = sluice_settings_get(settings, "trailer");
	if (!the_state.trailer || !strchr(the_state.trailer, ':')) {
		sluice_settings_error(settings, (size_t)-1,
		                      "git_trailer needs 'trailer = Key: value' (for example "
		                      "Co-authored-by: Name <mail>)");
		return -EINVAL;
	}
	*ret_state = &the_state;
	return 0;
}

static int gt_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	const struct state *st = state;
	const char *src = sluice_command_source(cmd);
	char *out = malloc(MAX_COMMAND);
	if (!out)
		return -ENOMEM;
	size_t len = 0, copied = 0, changes = 0;
	out[0] = '\0';
	bool ok = true;
	for (size_t i = 0; i < sluice_command_count(cmd) && ok; i++) {
		const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
		size_t sub = git_subcommand_is(sc, commit_names);
		if (!sub || has_trailer(sc, sub + 1, st->trailer) || !rewritable(sc, sub))
			continue;
		size_t start, end;
		sluice_span(sc, &start, &end);
		if (end < copied || end > strlen(src))
			continue;
		ok = put(out, &len, src + copied, end - copied) &&
		     put_option(out, &len, st->trailer);
		copied = end;
		changes++;
	}
	int r = SLUICE_ALLOW;
	if (ok && changes > 0 && put(out, &len, src + copied, strlen(src + copied))) {
		r = sluice_verdict_rewrite(v, out);
		if (r >= 0) {
			char msg[512];
			snprintf(msg, sizeof(msg), "added the trailer '%s' to git commit",
			         st->trailer);
			r = sluice_verdict_add(v, SLUICE_ALLOW, msg, NULL);
		}
	}
	free(out);
	return r;
}

static const struct sluice_key keys[] = {
	{ "trailer", 0 },
	{ NULL, 0 },
};

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "git_trailer",
	.description = "adds a configured trailer to git commit, by rewrite (off by default)",
	.keys = keys,
	.open = gt_open,
	.check = gt_check,
};
