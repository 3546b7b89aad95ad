/* SPDX-License-Identifier: MIT */
/*
 * struct verdict: combining, bounded reasons, JSON and text (see verdict.h),
 * and the reasons the command model itself gives for asking.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "model/model-explain.h"
#include "util/terminal-text.h"
#include "policy/verdict.h"

void verdict_init(struct verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->kind = VERDICT_ALLOW;
}

void verdict_done(struct verdict *v)
{
	for (size_t i = 0; i < v->n_reasons; i++) {
		free(v->reasons[i].plugin);
		free(v->reasons[i].message);
		free(v->reasons[i].suggestion);
	}
	v->n_reasons = 0;
}

/* A copy cut at VERDICT_MAX_TEXT bytes, marked with "..." when cut. */
static char *copy_text(const char *s)
{
	size_t len = strnlen(s, VERDICT_MAX_TEXT + 1);
	if (len <= VERDICT_MAX_TEXT)
		return strndup(s, len);
	char *out = malloc(VERDICT_MAX_TEXT + 1);
	if (!out)
		return NULL;
	size_t keep = VERDICT_MAX_TEXT - 3;
	/* do not cut inside a UTF-8 sequence */
	while (keep > 0 && ((unsigned char)s[keep] & 0xc0) == 0x80)
		keep--;
	memcpy(out, s, keep);
	memcpy(out + keep, "...", 4);
	return out;
}

int verdict_add(struct verdict *v, enum verdict_kind kind, const char *plugin, const char *message,
                const char *suggestion)
{
	if (kind > v->kind)
		v->kind = kind;
	if (v->n_reasons >= VERDICT_MAX_REASONS) {
		v->dropped++;
		return 0;
	}
	struct verdict_reason r = {
		.kind = kind,
		.plugin = copy_text(plugin ? plugin : ""),
		.message = copy_text(message ? message : ""),
		.suggestion = suggestion ? copy_text(suggestion) : NULL,
	};
	if (!r.plugin || !r.message || (suggestion && !r.suggestion)) {
		free(r.plugin);
		free(r.message);
		free(r.suggestion);
		return -ENOMEM;
	}
	v->reasons[v->n_reasons++] = r;
	return 0;
}

static const char *const kind_names[] = {
	[VERDICT_ALLOW] = "allow",
	[VERDICT_ASK] = "ask",
	[VERDICT_DENY] = "deny",
};

const char *verdict_kind_name(enum verdict_kind kind)
{
	if ((size_t)kind >= ELEMENTSOF(kind_names))
		return "?";
	return kind_names[kind];
}

const struct verdict_reason *verdict_main_reason(const struct verdict *v)
{
	for (size_t i = 0; i < v->n_reasons; i++)
		if (v->reasons[i].kind == v->kind)
			return &v->reasons[i];
	return NULL;
}

int verdict_exit_status(const struct verdict *v)
{
	switch (v->kind) {
	case VERDICT_ALLOW:
		return 0;
	case VERDICT_DENY:
		return 1;
	default:
		return 2;
	}
}

json_t *verdict_to_json(const struct verdict *v)
{
	json_t *reasons = json_array();
	if (!reasons)
		return NULL;
	for (size_t i = 0; i < v->n_reasons; i++) {
		const struct verdict_reason *r = &v->reasons[i];
		json_t *o =
		        json_pack("{s:o, s:o, s:o}", "plugin", explain_json_string(r->plugin),
		                  "message", explain_json_string(r->message), "suggestion",
		                  r->suggestion ? explain_json_string(r->suggestion) : json_null());
		if (!o || json_array_append_new(reasons, o) < 0) {
			json_decref(reasons);
			return NULL;
		}
	}
	if (v->dropped) {
		char msg[96];
		snprintf(msg, sizeof(msg), "%zu more reasons were left out", v->dropped);
		json_array_append_new(reasons, json_pack("{s:s, s:s, s:n}", "plugin", "sluice",
		                                         "message", msg, "suggestion"));
	}
	return json_pack("{s:s, s:o}", "verdict", verdict_kind_name(v->kind), "reasons", reasons);
}

int verdict_print_text(const struct verdict *v, FILE *out)
{
	fprintf(out, "%s\n", verdict_kind_name(v->kind));
	for (size_t i = 0; i < v->n_reasons; i++) {
		const struct verdict_reason *r = &v->reasons[i];
		/* a message may quote the command: nothing in it a terminal obeys */
		fprintf(out, "  %s: ", verdict_kind_name(r->kind));
		terminal_safe_write(out, r->plugin);
		fputs(": ", out);
		terminal_safe_write(out, r->message);
		if (r->suggestion) {
			fputs(" (suggestion: ", out);
			terminal_safe_write(out, r->suggestion);
			fputc(')', out);
		}
		fputc('\n', out);
	}
	if (v->dropped)
		fprintf(out, "  (%zu more reasons left out)\n", v->dropped);
	return ferror(out) ? -EIO : 0;
}

/* One row per command flag that makes the model ask. */
static const struct {
	uint32_t flag;
	const char *before, *after; /* the message around the command's name */
	const char *suggestion;
} ask_flags[] = {
	{ CMD_NAME_DYNAMIC, "the command name is only known when it runs: '", "'",
	  "write the command name literally" },
	{ CMD_NESTED_DYNAMIC, "'", "' runs a shell script that is only known when it runs",
	  "pass the script as a literal string" },
	{ CMD_NESTED_UNPARSED, "the script given to '", "' was not examined (a limit was reached)",
	  "run the inner commands directly" },
	{ CMD_NESTED_FOREIGN, "'",
	  "' runs a script in a shell language other than bash's, "
	  "which sluice reads as bash",
	  "run the script with bash -c" },
};

/* A wrapper with an option the model does not know: where its command
 * starts is a guess, so what runs is not known (`sudo --frobnicate X`). */
static int ask_wrapper_unknown(struct verdict *v, const struct simple_command *c)
{
	const char *wrapper = NULL;
	for (size_t i = simple_command_wrapper_count(c); i > 0 && !wrapper; i--)
		wrapper = simple_command_wrapper_name(c, i - 1);
	char msg[VERDICT_MAX_TEXT];
	snprintf(msg, sizeof(msg),
	         "'%.100s' has an option sluice does not know, so what it runs ('%.200s') is a "
	         "guess",
	         wrapper ? wrapper : "a wrapper", simple_command_name(c));
	return verdict_add(v, VERDICT_ASK, "sluice", msg,
	                   "leave out the option, or run the command without the wrapper");
}

/* One row per reason a model is partial. */
static const struct {
	uint32_t cause;
	const char *message, *suggestion;
} partial_causes[] = {
	{ COMMAND_MODEL_PARTIAL_SYNTAX,
	  "the command is only partially understood (a syntax error?)",
	  "check the quoting and the syntax" },
	{ COMMAND_MODEL_PARTIAL_BLANK_CONTROL,
	  "the command has a carriage return, form feed or vertical tab outside quotes, which "
	  "bash reads as part of a word",
	  "remove it (a CRLF line ending?) or quote it" },
	{ COMMAND_MODEL_PARTIAL_COPROC, "'coproc' is not examined: what it runs is not followed",
	  "run the command directly, or in background mode" },
};

int verdict_from_model(struct verdict *v, const struct command_model *m)
{
	int r = 0;
	uint32_t limits = command_model_limits_reached(m);
	for (uint32_t bit = 1; bit; bit <<= 1) {
		if (!(limits & bit))
			continue;
		char msg[160];
		snprintf(msg, sizeof(msg), "the command was not fully examined: limit reached: %s",
		         command_model_limit_name(bit));
		r = verdict_add(v, VERDICT_ASK, "sluice", msg,
		                "split the command into smaller ones");
		if (r < 0)
			return r;
	}
	uint32_t causes = command_model_partial_causes(m);
	for (size_t k = 0; k < ELEMENTSOF(partial_causes); k++) {
		if (!(causes & partial_causes[k].cause))
			continue;
		r = verdict_add(v, VERDICT_ASK, "sluice", partial_causes[k].message,
		                partial_causes[k].suggestion);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < command_model_count(m); i++) {
		const struct simple_command *c = command_model_get(m, i);
		if (simple_command_flags(c) & CMD_WRAPPER_UNKNOWN_OPT) {
			r = ask_wrapper_unknown(v, c);
			if (r < 0)
				return r;
		}
		const char *unread = simple_command_interp_unread(c);
		if (unread) {
			char msg[VERDICT_MAX_TEXT];
			snprintf(msg, sizeof(msg), "'%.100s' %s", simple_command_name(c), unread);
			r = verdict_add(v, VERDICT_ASK, "sluice", msg,
			                "write its paths and commands as literal strings, or run "
			                "the shell command directly");
			if (r < 0)
				return r;
		}
		for (size_t k = 0; k < ELEMENTSOF(ask_flags); k++) {
			if (!(simple_command_flags(c) & ask_flags[k].flag))
				continue;
			char msg[VERDICT_MAX_TEXT];
			const char *name = simple_command_argc(c) ? simple_command_arg_source(c, 0)
			                                          : simple_command_name(c);
			snprintf(msg, sizeof(msg), "%s%.200s%s", ask_flags[k].before, name,
			         ask_flags[k].after);
			r = verdict_add(v, VERDICT_ASK, "sluice", msg, ask_flags[k].suggestion);
			if (r < 0)
				return r;
		}
	}
	return 0;
}
