/* SPDX-License-Identifier: MIT */
/*
 * The interface's error kinds (invalid_request, timeout, ...) as one table:
 * each kind's name in JSON and the exit status `sluice` returns for it.
 * Only the verb layer maps internal errors to these.
 */
#ifndef SLUICE_ERROR_KIND_H
#define SLUICE_ERROR_KIND_H

/* Values are indexes into the table in error-kind.c. */
enum error_kind {
	ERROR_KIND_NONE = 0,
	ERROR_KIND_INVALID_REQUEST,
	ERROR_KIND_OUTSIDE_WORKSPACE,
	ERROR_KIND_INVALID_WORKING_DIR,
	ERROR_KIND_PERMISSION_DENIED,
	ERROR_KIND_TIMEOUT,
	ERROR_KIND_COMMAND_FAILED,
	ERROR_KIND_SANDBOX_UNAVAILABLE,
	ERROR_KIND_CONFIG_ERROR,
	ERROR_KIND_COUNT_
};

/* Exit statuses of the interface. */
#define EXIT_POLICY_DENIED 77
#define EXIT_TIMED_OUT 124
#define EXIT_SLUICE_ERROR 125

/* The JSON name ("invalid_request"); "" for ERROR_KIND_NONE. Static. */
const char *error_kind_name(enum error_kind kind);

/* The exit status of `sluice run` for an error of this kind. */
int error_kind_exit_status(enum error_kind kind);

#endif
