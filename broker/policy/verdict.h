/* SPDX-License-Identifier: MIT */
/*
 * The policy result shared by `sluice check`, `sluice run` and the plugin
 * chain: a verdict (allow / ask / deny; combined deny over ask over allow)
 * and a bounded list of reasons {plugin, message, suggestion}, rendered as
 * the interface's JSON ("policy" object) or as text.
 * Not for: deciding (plugins and verdict_from_model decide; this records).
 */
#ifndef SLUICE_VERDICT_H
#define SLUICE_VERDICT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/command-model.h"

/* Values match the plugin ABI's SLUICE_ALLOW / SLUICE_ASK / SLUICE_DENY and
 * are ordered: a larger value wins when verdicts combine. */
enum verdict_kind {
	VERDICT_ALLOW = 0,
	VERDICT_ASK = 1,
	VERDICT_DENY = 2,
};

#define VERDICT_MAX_REASONS 16
#define VERDICT_MAX_TEXT 1024 /* bytes per string; longer ones end in "..." */

struct verdict_reason {
	enum verdict_kind kind; /* what this reason asked for */
	char *plugin;           /* source: plugin name, or "sluice" for the model */
	char *message;
	char *suggestion; /* may be NULL */
};

struct verdict {
	enum verdict_kind kind;
	size_t n_reasons;
	struct verdict_reason reasons[VERDICT_MAX_REASONS];
	size_t dropped; /* reasons past VERDICT_MAX_REASONS (counted, not kept) */
};

/* An empty verdict: allow, no reasons. */
void verdict_init(struct verdict *v);

/* Release the reasons; v can be reused after verdict_init. */
void verdict_done(struct verdict *v);

/*
 * Combine kind into v (deny > ask > allow) and record a reason. The strings
 * are COPIED (cut at VERDICT_MAX_TEXT with "..."); suggestion may be NULL.
 * Past VERDICT_MAX_REASONS the verdict still combines and v->dropped counts
 * the reason. Returns 0 or -ENOMEM (the verdict has still been combined, so
 * an out-of-memory never loosens it).
 */
int verdict_add(struct verdict *v, enum verdict_kind kind, const char *plugin, const char *message,
                const char *suggestion);

/* "allow", "ask", "deny" (or "?" for another value). */
const char *verdict_kind_name(enum verdict_kind kind);

/* `sluice check`'s exit status: 0 allow, 1 deny, 2 ask. */
int verdict_exit_status(const struct verdict *v);

/* The first reason that asked for the verdict's own kind (the one a
 * one-line message names), or NULL when there is none (allow). Borrowed. */
const struct verdict_reason *verdict_main_reason(const struct verdict *v);

/* The interface's policy object {"verdict", "reasons": [{"plugin",
 * "message", "suggestion"}]}; a new reference, or NULL on -ENOMEM. */
json_t *verdict_to_json(const struct verdict *v);

/* Text: "allow" / "ask" / "deny" on the first line, then one line per
 * reason: "  plugin: message (suggestion: ...)", each written through
 * terminal_safe_write() (a message may quote the command). Returns 0 or
 * -EIO. */
int verdict_print_text(const struct verdict *v, FILE *out);

/*
 * The model's own concerns, before any plugin: a reached limit, a partially
 * understood command, a dynamic command name, a nested shell whose script is
 * not known or not parsed: each adds an `ask` reason from "sluice" naming
 * what it was. Never loosens v. Returns 0 or -ENOMEM.
 */
int verdict_from_model(struct verdict *v, const struct command_model *m);

#endif
