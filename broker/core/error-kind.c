/* SPDX-License-Identifier: MIT */
/*
 * The error-kind table of the interface contract.
 */
#include "config.h"

#include "cleanup.h"
#include "core/error-kind.h"

static const struct {
	const char *name;
	int exit_status;
} kinds[ERROR_KIND_COUNT_] = {
	[ERROR_KIND_NONE] = { "", 0 },
	[ERROR_KIND_INVALID_REQUEST] = { "invalid_request", EXIT_SLUICE_ERROR },
	[ERROR_KIND_OUTSIDE_WORKSPACE] = { "outside_workspace", EXIT_SLUICE_ERROR },
	[ERROR_KIND_INVALID_WORKING_DIR] = { "invalid_working_dir", EXIT_SLUICE_ERROR },
	[ERROR_KIND_PERMISSION_DENIED] = { "permission_denied", EXIT_POLICY_DENIED },
	[ERROR_KIND_TIMEOUT] = { "timeout", EXIT_TIMED_OUT },
	[ERROR_KIND_COMMAND_FAILED] = { "command_failed", EXIT_SLUICE_ERROR },
	[ERROR_KIND_SANDBOX_UNAVAILABLE] = { "sandbox_unavailable", EXIT_SLUICE_ERROR },
	[ERROR_KIND_CONFIG_ERROR] = { "config_error", EXIT_SLUICE_ERROR },
};

const char *error_kind_name(enum error_kind kind)
{
	return (unsigned)kind < ELEMENTSOF(kinds) ? kinds[kind].name : "";
}

int error_kind_exit_status(enum error_kind kind)
{
	return (unsigned)kind < ELEMENTSOF(kinds) ? kinds[kind].exit_status : EXIT_SLUICE_ERROR;
}
