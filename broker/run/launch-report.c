/* SPDX-License-Identifier: MIT */
/*
 * Reading the launcher's --report-fd lines (see launch-report.h).
 */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "run/launch-report.h"

#include "launch-spec.h"

/* One error line, {"error":STEP,"errno":N,"message":"...","detail":"..."},
 * into f: the text is put together as the launcher's log line is. */
static void take_error(json_t *line, struct launch_failure *f)
{
	const char *step = json_string_value(json_object_get(line, "error"));
	const char *detail = json_string_value(json_object_get(line, "detail"));
	const char *message = json_string_value(json_object_get(line, "message"));
	f->failed = true;
	f->unavailable = step && strcmp(step, LAUNCH_STEP_FEATURES) == 0;
	snprintf(f->message, sizeof(f->message), "%s: %s%s%s%s%s", LAUNCH_PROGRAM_NAME,
	         step ? step : "?", detail && detail[0] ? ": " : "", detail ? detail : "",
	         message && message[0] ? ": " : "", message ? message : "");
}

/* The next line of *text (*len bytes left) that is a JSON object, with
 * "error" or without as error says; a new reference, or NULL at the end. */
static json_t *next_object(const char **text, size_t *len, bool error)
{
	while (*len > 0) {
		const char *nl = memchr(*text, '\n', *len);
		size_t n = nl ? (size_t)(nl - *text) : *len;
		json_t *line = json_loadb(*text, n, 0, NULL);
		*text += n + (nl ? 1 : 0);
		*len -= n + (nl ? 1 : 0);
		if (json_is_object(line) && (json_object_get(line, "error") != NULL) == error)
			return line;
		json_decref(line);
	}
	return NULL;
}

json_t *launch_report_object(const char *text, size_t len)
{
	return next_object(&text, &len, false);
}

bool launch_report_enforced(const char *text, const char *protection)
{
	json_t *report = text ? launch_report_object(text, strlen(text)) : NULL;
	json_t *enforced = json_object_get(report, "enforced");
	bool found = false;
	for (size_t i = 0; !found && i < json_array_size(enforced); i++) {
		const char *name = json_string_value(json_array_get(enforced, i));
		found = name && strcmp(name, protection) == 0;
	}
	json_decref(report);
	return found;
}

void launch_report_failure(const char *text, size_t len, struct launch_failure *ret)
{
	*ret = (struct launch_failure){ 0 };
	json_t *line = next_object(&text, &len, true);
	if (line)
		take_error(line, ret);
	json_decref(line);
}

int launch_report_check_start(const char *text, size_t len, const char *profile,
                              const char *launcher, struct launch_failure *ret)
{
	launch_report_failure(text, len, ret);
	if (ret->failed)
		return -1;
	json_t *report = launch_report_object(text, len);
	const char *reported = json_string_value(json_object_get(report, "profile"));
	int r = 0;
	if (!report) {
		snprintf(ret->message, sizeof(ret->message),
		         "the launcher '%s' did not report starting the command: whether it ran, "
		         "and in which sandbox, is unknown",
		         launcher);
		r = -1;
	} else if (!reported || strcmp(reported, profile) != 0) {
		snprintf(ret->message, sizeof(ret->message),
		         "the launcher reported the sandbox '%s', not the '%s' asked for",
		         reported ? reported : "(none)", profile);
		ret->unavailable = true;
		r = -1;
	}
	ret->failed = r < 0;
	json_decref(report);
	return r;
}
