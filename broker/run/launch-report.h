/* SPDX-License-Identifier: MIT */
/*
 * The launcher's --report-fd lines read as data (JSON, with jansson): the
 * report of what it enforced, and the error line of a step (or the exec)
 * that failed, which says what its stderr says.
 * Not for: the report's place in the result (result.c makes the result's
 * `sandbox` field of it).
 */
#ifndef SLUICE_LAUNCH_REPORT_H
#define SLUICE_LAUNCH_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The report, {"profile":...,"enforced":[...],"missing":[...]}: the first
 * line of text[0..len) that is a JSON object and no error line, as a new
 * reference, or NULL when there is none. */
json_t *launch_report_object(const char *text, size_t len);

/* Whether the report in text (as launch_report_object() finds it) names
 * protection (LAUNCH_PROT_*) among what was enforced. */
bool launch_report_enforced(const char *text, const char *protection);

/* What the lines said about the launcher's own failure. */
struct launch_failure {
	bool failed;      /* an error line: a step, or the exec, failed */
	bool unavailable; /* that step was "features": the profile cannot be enforced */
	/* "sluice-launch: STEP: DETAIL: MESSAGE", as the launcher's stderr has it */
	char message[512];
};

/* Read the lines text[0..len) (not NUL-terminated; a line that is not a
 * JSON object is skipped) into *ret. */
void launch_report_failure(const char *text, size_t len, struct launch_failure *ret);

/* Whether the lines text[0..len) say that the launcher (its path, for the
 * message) started the command in the sandbox profile asked for: 0 when
 * they do. Else -1 and *ret says why: an error line (a step failed; a
 * "features" one is unavailable), no report at all (a launcher that exits
 * at once, or runs the command bare: whether it ran, and how, is unknown),
 * or a report of another profile (unavailable). */
int launch_report_check_start(const char *text, size_t len, const char *profile,
                              const char *launcher, struct launch_failure *ret);

#endif
