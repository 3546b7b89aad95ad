/* SPDX-License-Identifier: MIT */
/*
 * Text and JSON renderings of the command model (see model-explain.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/model-explain.h"
#include "utf8.h"

typedef const char *(*flag_name_fn)(uint32_t bit);

json_t *explain_json_string(const char *s)
{
	json_t *j = json_string(s ? s : "");
	if (j)
		return j;
	/* not UTF-8: the invalid bytes become U+FFFD (JSON must be UTF-8) */
	size_t len = 0;
	char *copy = utf8_sanitize(s, strlen(s), &len);
	if (!copy)
		return NULL;
	j = json_stringn(copy, len);
	free(copy);
	return j;
}

/* "a, b, c" for the set bits of flags. */
static void print_flags(FILE *out, uint32_t flags, flag_name_fn name)
{
	bool first = true;
	for (uint32_t bit = 1; bit; bit <<= 1) {
		if (!(flags & bit) || !name(bit))
			continue;
		fprintf(out, "%s%s", first ? "" : ", ", name(bit));
		first = false;
	}
}

static json_t *flags_json(uint32_t flags, flag_name_fn name)
{
	json_t *a = json_array();
	for (uint32_t bit = 1; a && bit; bit <<= 1)
		if (flags & bit && name(bit))
			json_array_append_new(a, explain_json_string(name(bit)));
	return a;
}

/* A word for people: as is when plain, else in single quotes with the
 * quotes and control characters escaped. */
static void print_word(FILE *out, const char *w)
{
	bool plain = w[0] != '\0';
	for (const char *p = w; *p && plain; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("-_./=:,+@%^~*?[]{}$()!#<>&|;`\"", *p) ||
		      (unsigned char)*p >= 0x80))
			plain = false;
	if (plain) {
		fputs(w, out);
		return;
	}
	fputc('\'', out);
	for (const char *p = w; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", (unsigned char)*p);
		else
			fputc(*p, out);
	}
	fputc('\'', out);
}

static void explain_words(const struct simple_command *c, FILE *out)
{
	bool any = false;
	for (size_t i = 0; i < simple_command_argc(c); i++) {
		uint32_t f = simple_command_arg_flags(c, i) & ~(uint32_t)WORD_QUOTED;
		if (!f)
			continue;
		fprintf(out, "%s", any ? "\n             " : "    words:   ");
		fprintf(out, "[%zu] ", i);
		print_word(out, simple_command_arg_source(c, i));
		fputs(": ", out);
		print_flags(out, f, shell_word_flag_name);
		size_t nv = simple_command_arg_var_count(c, i);
		for (size_t j = 0; j < nv; j++)
			fprintf(out, "%s%s", j ? " " : " (vars: ", simple_command_arg_var(c, i, j));
		if (nv)
			fputc(')', out);
		any = true;
	}
	if (any)
		fputc('\n', out);
}

static void explain_command(const struct simple_command *c, FILE *out)
{
	fprintf(out, "[%zu] ", simple_command_index(c));
	for (size_t i = 0; i < simple_command_argc(c); i++) {
		if (i)
			fputc(' ', out);
		print_word(out, simple_command_arg(c, i));
	}
	if (simple_command_argc(c) == 0)
		fputs("(no command)", out);
	fputc('\n', out);
	fprintf(out, "    name:    ");
	print_word(out, simple_command_name(c));
	fputc('\n', out);
	if (simple_command_depth(c)) {
		fputs("    nesting: ", out);
		for (size_t i = 0; i < simple_command_depth(c); i++)
			fprintf(out, "%s%s", i ? " > " : "",
			        command_frame_name(simple_command_frame(c, i)));
		fputc('\n', out);
	}
	if (simple_command_parent(c) >= 0)
		fprintf(out, "    parent:  [%ld]\n", simple_command_parent(c));
	if (simple_command_function(c))
		fprintf(out, "    in function: %s\n", simple_command_function(c));
	for (size_t i = 0; i < simple_command_wrapper_count(c); i++) {
		fputs("    wrapper: ", out);
		for (size_t j = 0; j < simple_command_wrapper_argc(c, i); j++) {
			if (j)
				fputc(' ', out);
			print_word(out, simple_command_wrapper_arg(c, i, j));
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < simple_command_assign_count(c); i++) {
		fprintf(out, "    assign:  %s=", simple_command_assign_name(c, i));
		print_word(out, simple_command_assign_value(c, i));
		fputc('\n', out);
	}
	for (size_t i = 0; i < simple_command_redirect_count(c); i++) {
		fputs("    redirect: ", out);
		if (simple_command_redirect_fd(c, i) >= 0)
			fprintf(out, "%d", simple_command_redirect_fd(c, i));
		fprintf(out, "%s ", simple_command_redirect_op(c, i));
		print_word(out, simple_command_redirect_target(c, i));
		if (simple_command_redirect_body(c, i)) {
			fputs(" body ", out);
			print_word(out, simple_command_redirect_body(c, i));
		}
		fputc('\n', out);
	}
	if (simple_command_cwd(c)) {
		fputs("    cwd:     ", out);
		print_word(out, simple_command_cwd(c));
		fputc('\n', out);
	}
	explain_words(c, out);
	if (simple_command_flags(c)) {
		fputs("    flags:   ", out);
		print_flags(out, simple_command_flags(c), simple_command_flag_name);
		fputc('\n', out);
	}
}

int model_explain_text(const struct command_model *m, FILE *out)
{
	size_t n = command_model_count(m);
	fprintf(out, "%zu simple command%s", n, n == 1 ? "" : "s");
	if (command_model_is_partial(m))
		fputs(", partially understood", out);
	uint32_t limits = command_model_limits_reached(m);
	for (uint32_t bit = 1; bit; bit <<= 1)
		if (limits & bit)
			fprintf(out, ", limit reached: %s", command_model_limit_name(bit));
	fputc('\n', out);
	for (size_t i = 0; i < n; i++)
		explain_command(command_model_get(m, i), out);
	return ferror(out) ? -EIO : 0;
}

static json_t *strings_json(size_t n, const char *(*get)(const struct simple_command *, size_t),
                            const struct simple_command *c)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, explain_json_string(get(c, i)));
	return a;
}

static json_t *command_json(const struct simple_command *c)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "name", explain_json_string(simple_command_name(c)));
	json_object_set_new(o, "argv", strings_json(simple_command_argc(c), simple_command_arg, c));
	json_t *words = json_array();
	for (size_t i = 0; words && i < simple_command_argc(c); i++) {
		json_t *w = json_object();
		json_object_set_new(w, "source",
		                    explain_json_string(simple_command_arg_source(c, i)));
		json_object_set_new(
		        w, "flags",
		        flags_json(simple_command_arg_flags(c, i), shell_word_flag_name));
		json_t *vars = json_array();
		for (size_t j = 0; vars && j < simple_command_arg_var_count(c, i); j++)
			json_array_append_new(vars,
			                      explain_json_string(simple_command_arg_var(c, i, j)));
		json_object_set_new(w, "vars", vars);
		json_array_append_new(words, w);
	}
	json_object_set_new(o, "words", words);
	json_t *frames = json_array();
	for (size_t i = 0; frames && i < simple_command_depth(c); i++)
		json_array_append_new(frames, explain_json_string(command_frame_name(
		                                      simple_command_frame(c, i))));
	json_object_set_new(o, "nesting", frames);
	json_object_set_new(o, "parent",
	                    simple_command_parent(c) >= 0 ? json_integer(simple_command_parent(c))
	                                                  : json_null());
	json_t *wrappers = json_array();
	for (size_t i = 0; wrappers && i < simple_command_wrapper_count(c); i++) {
		json_t *a = json_array();
		for (size_t j = 0; a && j < simple_command_wrapper_argc(c, i); j++)
			json_array_append_new(
			        a, explain_json_string(simple_command_wrapper_arg(c, i, j)));
		json_array_append_new(wrappers, a);
	}
	json_object_set_new(o, "wrappers", wrappers);
	json_t *assigns = json_array();
	for (size_t i = 0; assigns && i < simple_command_assign_count(c); i++)
		json_array_append_new(
		        assigns,
		        json_pack("{s:o, s:o, s:o}", "name",
		                  explain_json_string(simple_command_assign_name(c, i)), "value",
		                  explain_json_string(simple_command_assign_value(c, i)), "flags",
		                  flags_json(simple_command_assign_flags(c, i),
		                             shell_word_flag_name)));
	json_object_set_new(o, "assignments", assigns);
	json_t *redirects = json_array();
	for (size_t i = 0; redirects && i < simple_command_redirect_count(c); i++) {
		int fd = simple_command_redirect_fd(c, i);
		json_array_append_new(
		        redirects,
		        json_pack("{s:s, s:o, s:o, s:o}", "op", simple_command_redirect_op(c, i),
		                  "fd", fd >= 0 ? json_integer(fd) : json_null(), "target",
		                  explain_json_string(simple_command_redirect_target(c, i)),
		                  "flags",
		                  flags_json(simple_command_redirect_target_flags(c, i),
		                             shell_word_flag_name)));
	}
	json_object_set_new(o, "redirects", redirects);
	json_object_set_new(o, "cwd",
	                    simple_command_cwd(c) ? explain_json_string(simple_command_cwd(c))
	                                          : json_null());
	json_object_set_new(o, "flags",
	                    flags_json(simple_command_flags(c), simple_command_flag_name));
	json_object_set_new(o, "text", explain_json_string(simple_command_text(c)));
	json_object_set_new(o, "normalized", explain_json_string(simple_command_normalized(c)));
	return o;
}

json_t *model_explain_json(const struct command_model *m)
{
	json_t *commands = json_array();
	json_t *limits = json_array();
	uint32_t reached = command_model_limits_reached(m);
	for (uint32_t bit = 1; limits && bit; bit <<= 1)
		if (reached & bit)
			json_array_append_new(limits,
			                      explain_json_string(command_model_limit_name(bit)));
	for (size_t i = 0; commands && i < command_model_count(m); i++)
		json_array_append_new(commands, command_json(command_model_get(m, i)));
	return json_pack("{s:b, s:o, s:o}", "partial", command_model_is_partial(m), "limits",
	                 limits ? limits : json_array(), "commands",
	                 commands ? commands : json_array());
}
