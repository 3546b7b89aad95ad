/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: any bytes -> parse -> command model -> every rendering
 * (explain text and JSON, display form, the model's verdict). Finds crashes,
 * leaks and hangs in the code that reads untrusted shell text.
 * Not for: checking meaning (tests/unit/test-command-model.c does that).
 */
#include "config.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/command-model.h"
#include "model/display.h"
#include "model/model-explain.h"
#include "policy/verdict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct command_model_limits limits;
	command_model_limits_default(&limits);
	limits.max_command_bytes = 16 * 1024;
	struct command_model *m = NULL;
	/* a parser per input: nothing survives between inputs, so libFuzzer can
	 * check for leaks after every one */
	if (command_model_parse(NULL, (const char *)data, size, &limits, &m, NULL) < 0)
		return 0; /* a NUL byte: refused, nothing to free */

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f) {
		(void)model_explain_text(m, f);
		fclose(f);
	}
	free(buf);
	json_t *j = model_explain_json(m);
	char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
	free(s);
	json_decref(j);
	char *display = NULL;
	if (display_form(m, "/tmp", &display) == 0)
		free(display);
	struct verdict v;
	verdict_init(&v);
	(void)verdict_from_model(&v, m);
	verdict_done(&v);
	command_model_free(m);
	return 0;
}
