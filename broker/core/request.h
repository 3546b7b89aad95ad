/* SPDX-License-Identifier: MIT */
/*
 * A request to run or check one command, from JSON (`sluice run --json`,
 * `sluice check --batch`, the MCP tool's arguments) or from the command line.
 * The one door for request fields: every type, size and encoding check of
 * the interface lives here, and a refusal names the field.
 * Not for: resolving the working directory against the workspace (that needs
 * the file system) or checking timeouts against the configured maximum.
 */
#ifndef SLUICE_REQUEST_H
#define SLUICE_REQUEST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errors.h"

enum run_mode {
	RUN_MODE_DEFAULT = 0,
	RUN_MODE_SLOW,
	RUN_MODE_BACKGROUND,
};

/* The largest description kept; a longer one is refused. */
#define REQUEST_DESCRIPTION_MAX 4096
/* The largest request document read from a stream. */
#define REQUEST_DOCUMENT_MAX (4u << 20)
/* The longest working directory accepted. */
#define REQUEST_DIRECTORY_MAX 4096

struct run_request {
	char *command;      /* owned; valid UTF-8 without NUL bytes */
	size_t command_len; /* strlen(command) */
	enum run_mode mode;
	char *directory;   /* owned, or NULL: relative to the workspace root */
	char *description; /* owned, or NULL */
	bool has_timeout;
	uint64_t timeout_ms; /* > 0 when has_timeout */
};

/* Release what *req owns and zero it; safe on a zeroed or half-filled one. */
void run_request_done(struct run_request *req);

/* "default", "slow", "background". */
const char *run_mode_name(enum run_mode mode);

/* RUN_MODE_* from its name; -EINVAL for anything else. */
int run_mode_from_name(const char *name, enum run_mode *ret);

/* Whether the request document obj asks for background mode, by `mode` or
 * its alias `background` (contradictions are request_from_json()'s to
 * refuse). */
bool request_json_asks_background(const json_t *obj);

/*
 * Fill *req from a JSON object. max_command_size bounds `command` in bytes.
 * Returns 0, or -EINVAL with reterr->detail naming the field
 * ("field 'mode' must be one of default, slow, background"). On failure
 * *req is left zeroed.
 */
int request_from_json(const json_t *obj, size_t max_command_size, struct run_request *req,
                      struct sluice_error *reterr);

/*
 * Parse text[0..len) as one JSON request document, then as request_from_json.
 * JSON syntax errors name the line and column.
 */
int request_parse(const char *text, size_t len, size_t max_command_size, struct run_request *req,
                  struct sluice_error *reterr);

/*
 * A request from the command line: command as given, the other fields
 * already parsed by the verb's options. Applies the same command checks as
 * JSON (size, UTF-8, emptiness).
 */
int request_from_command(const char *command, size_t max_command_size, struct run_request *req,
                         struct sluice_error *reterr);

#endif
