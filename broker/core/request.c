/* SPDX-License-Identifier: MIT */
/*
 * Request validation. Every field of the interface's request object is
 * listed once in request_fields[]; an unknown field is refused rather than
 * ignored, because a misspelt "timeout_ms" silently ignored would run a
 * command under limits the caller did not ask for.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "util/json-locate.h"
#include "core/request.h"
#include "utf8.h"

static const char *const mode_names[] = {
	[RUN_MODE_DEFAULT] = "default",
	[RUN_MODE_SLOW] = "slow",
	[RUN_MODE_BACKGROUND] = "background",
};

const char *run_mode_name(enum run_mode mode)
{
	return (unsigned)mode < ELEMENTSOF(mode_names) ? mode_names[mode] : "default";
}

int run_mode_from_name(const char *name, enum run_mode *ret)
{
	for (size_t i = 0; i < ELEMENTSOF(mode_names); i++)
		if (strcmp(name, mode_names[i]) == 0) {
			*ret = (enum run_mode)i;
			return 0;
		}
	return -EINVAL;
}

void run_request_done(struct run_request *req)
{
	free(req->command);
	free(req->directory);
	free(req->description);
	memset(req, 0, sizeof(*req));
}

/* Shared by JSON and the command line: the command's own checks. */
static int take_command(const char *text, size_t len, size_t max, struct run_request *req,
                        struct sluice_error *reterr)
{
	if (memchr(text, '\0', len))
		return sluice_error_set(reterr, -EINVAL, "field 'command' contains a NUL byte");
	if (len > max)
		return sluice_error_set(
		        reterr, -EINVAL,
		        "field 'command' is %zu bytes, more than the maximum of %zu", len, max);
	if (!utf8_valid(text, len))
		return sluice_error_set(reterr, -EINVAL, "field 'command' is not valid UTF-8");
	if (strspn(text, " \t\r\n") == len)
		return sluice_error_set(reterr, -EINVAL, "field 'command' is empty");
	req->command = strndup(text, len);
	if (!req->command)
		return sluice_error_set(reterr, -ENOMEM, "copying field 'command'");
	req->command_len = len;
	return 0;
}

/* A string field: no NUL bytes, at most max bytes (0: no limit), copied. */
static int take_string(const json_t *value, const char *field, size_t max, char **ret,
                       struct sluice_error *reterr)
{
	if (!json_is_string(value))
		return sluice_error_set(reterr, -EINVAL, "field '%s' must be a string", field);
	size_t len = json_string_length(value);
	const char *s = json_string_value(value);
	if (memchr(s, '\0', len))
		return sluice_error_set(reterr, -EINVAL, "field '%s' contains a NUL byte", field);
	if (max && len > max)
		return sluice_error_set(reterr, -EINVAL,
		                        "field '%s' is %zu bytes, more than the maximum of %zu",
		                        field, len, max);
	*ret = strndup(s, len);
	if (!*ret)
		return sluice_error_set(reterr, -ENOMEM, "copying field '%s'", field);
	return 0;
}

/* What the request says about the mode, before the three ways of saying it
 * are reconciled. */
struct mode_claims {
	bool has_mode;
	enum run_mode mode;
	int slow_ok;    /* -1 absent, else 0/1 */
	int background; /* -1 absent, else 0/1 */
};

typedef int (*field_fn)(const json_t *value, size_t max_command_size, struct run_request *req,
                        struct mode_claims *claims, struct sluice_error *reterr);

static int field_command(const json_t *value, size_t max, struct run_request *req,
                         struct mode_claims *claims, struct sluice_error *reterr)
{
	(void)claims;
	if (!json_is_string(value))
		return sluice_error_set(reterr, -EINVAL, "field 'command' must be a string");
	return take_command(json_string_value(value), json_string_length(value), max, req, reterr);
}

static int field_mode(const json_t *value, size_t max, struct run_request *req,
                      struct mode_claims *claims, struct sluice_error *reterr)
{
	(void)max;
	(void)req;
	if (!json_is_string(value) ||
	    run_mode_from_name(json_string_value(value), &claims->mode) < 0)
		return sluice_error_set(reterr, -EINVAL,
		                        "field 'mode' must be one of default, slow, background");
	claims->has_mode = true;
	return 0;
}

static int field_boolean(const json_t *value, const char *field, int *ret,
                         struct sluice_error *reterr)
{
	if (!json_is_boolean(value))
		return sluice_error_set(reterr, -EINVAL, "field '%s' must be true or false", field);
	*ret = json_is_true(value);
	return 0;
}

static int field_slow_ok(const json_t *value, size_t max, struct run_request *req,
                         struct mode_claims *claims, struct sluice_error *reterr)
{
	(void)max;
	(void)req;
	return field_boolean(value, "slow_ok", &claims->slow_ok, reterr);
}

static int field_background(const json_t *value, size_t max, struct run_request *req,
                            struct mode_claims *claims, struct sluice_error *reterr)
{
	(void)max;
	(void)req;
	return field_boolean(value, "background", &claims->background, reterr);
}

static int field_directory(const json_t *value, size_t max, struct run_request *req,
                           struct mode_claims *claims, struct sluice_error *reterr)
{
	(void)max;
	(void)claims;
	int r = take_string(value, "directory", REQUEST_DIRECTORY_MAX, &req->directory, reterr);
	if (r < 0)
		return r;
	if (req->directory[0] == '\0')
		return sluice_error_set(reterr, -EINVAL, "field 'directory' is empty");
	return 0;
}

static int field_description(const json_t *value, size_t max, struct run_request *req,
                             struct mode_claims *claims, struct sluice_error *reterr)
{
	(void)max;
	(void)claims;
	return take_string(value, "description", REQUEST_DESCRIPTION_MAX, &req->description,
	                   reterr);
}

static int field_timeout_ms(const json_t *value, size_t max, struct run_request *req,
                            struct mode_claims *claims, struct sluice_error *reterr)
{
	(void)max;
	(void)claims;
	if (!json_is_integer(value) || json_integer_value(value) <= 0)
		return sluice_error_set(
		        reterr, -EINVAL,
		        "field 'timeout_ms' must be a positive integer (milliseconds)");
	req->has_timeout = true;
	req->timeout_ms = (uint64_t)json_integer_value(value);
	return 0;
}

static const struct {
	const char *name;
	field_fn take;
} request_fields[] = {
	{ "command", field_command },       { "mode", field_mode },
	{ "directory", field_directory },   { "description", field_description },
	{ "timeout_ms", field_timeout_ms }, { "slow_ok", field_slow_ok },
	{ "background", field_background },
};

/* One mode out of `mode`, `slow_ok` and `background`, refusing contradictions. */
static int reconcile_mode(const struct mode_claims *c, struct run_request *req,
                          struct sluice_error *reterr)
{
	if (c->slow_ok == 1 && c->background == 1)
		return sluice_error_set(
		        reterr, -EINVAL,
		        "fields 'slow_ok' and 'background' are both true; choose one");
	enum run_mode alias = c->background == 1 ? RUN_MODE_BACKGROUND
	                      : c->slow_ok == 1  ? RUN_MODE_SLOW
	                                         : RUN_MODE_DEFAULT;
	bool alias_set = c->background == 1 || c->slow_ok == 1;
	if (c->has_mode && alias_set && c->mode != alias)
		return sluice_error_set(reterr, -EINVAL, "field 'mode' is '%s' but '%s' is true",
		                        run_mode_name(c->mode),
		                        alias == RUN_MODE_BACKGROUND ? "background" : "slow_ok");
	req->mode = c->has_mode ? c->mode : alias;
	return 0;
}

bool request_json_asks_background(const json_t *obj)
{
	const char *name = json_string_value(json_object_get(obj, "mode"));
	enum run_mode mode;
	return (name && run_mode_from_name(name, &mode) == 0 && mode == RUN_MODE_BACKGROUND) ||
	       json_is_true(json_object_get(obj, "background"));
}

int request_from_json(const json_t *obj, size_t max_command_size, struct run_request *req,
                      struct sluice_error *reterr)
{
	memset(req, 0, sizeof(*req));
	if (!json_is_object(obj))
		return sluice_error_set(reterr, -EINVAL, "the request must be a JSON object");

	struct mode_claims claims = { .slow_ok = -1, .background = -1 };
	const char *key;
	json_t *value;
	int r = 0;
	json_object_foreach((json_t *)obj, key, value)
	{
		size_t i;
		for (i = 0; i < ELEMENTSOF(request_fields); i++)
			if (strcmp(key, request_fields[i].name) == 0)
				break;
		if (i == ELEMENTSOF(request_fields)) {
			r = sluice_error_set(reterr, -EINVAL, "unknown field '%s'", key);
			goto fail;
		}
		r = request_fields[i].take(value, max_command_size, req, &claims, reterr);
		if (r < 0)
			goto fail;
	}
	if (!req->command) {
		r = sluice_error_set(reterr, -EINVAL, "field 'command' is required");
		goto fail;
	}
	r = reconcile_mode(&claims, req, reterr);
	if (r < 0)
		goto fail;
	return 0;
fail:
	run_request_done(req);
	return r;
}

/* The error for a request jansson refused: a byte that is not UTF-8 is
 * reported by the field it is in, as every other bad field is. */
static int refuse_unparsed(const char *text, size_t len, const json_error_t *jerr,
                           struct sluice_error *reterr)
{
	char what[192];
	if (json_utf8_error_text(text, len, jerr, what, sizeof(what)))
		return sluice_error_set(reterr, -EINVAL, "%s (%s, line %d, column %d)", what,
		                        jerr->text, jerr->line, jerr->column);
	return sluice_error_set(reterr, -EINVAL,
	                        "the request is not valid JSON: %s (line %d, column %d)",
	                        jerr->text, jerr->line, jerr->column);
}

int request_parse(const char *text, size_t len, size_t max_command_size, struct run_request *req,
                  struct sluice_error *reterr)
{
	memset(req, 0, sizeof(*req));
	if (len > REQUEST_DOCUMENT_MAX)
		return sluice_error_set(reterr, -EINVAL,
		                        "the request is %zu bytes, more than the maximum of %u",
		                        len, REQUEST_DOCUMENT_MAX);
	json_error_t jerr;
	/* JSON_ALLOW_NUL: a "\u0000" is then refused by the field checks, with
	 * the field's name, instead of a bare syntax error. */
	json_t *obj = json_loadb(text, len,
	                         JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	if (!obj)
		return refuse_unparsed(text, len, &jerr, reterr);
	int r = request_from_json(obj, max_command_size, req, reterr);
	json_decref(obj);
	return r;
}

int request_from_command(const char *command, size_t max_command_size, struct run_request *req,
                         struct sluice_error *reterr)
{
	memset(req, 0, sizeof(*req));
	int r = take_command(command, strlen(command), max_command_size, req, reterr);
	if (r < 0)
		run_request_done(req);
	return r;
}
