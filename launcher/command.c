/* SPDX-License-Identifier: MIT */
/*
 * Step "command": the deferred last argument (see command.h and
 * LAUNCH_COMMAND_MAX in launch-spec.h for the format).
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "command.h"
#include "fd-util.h"
#include "launch-spec.h"
#include "options.h"
#include "protections.h"
#include "strv.h"

int apply_command(const struct launch_spec *spec, struct launch_state *state,
                  struct sluice_error *err)
{
	if (spec->command_fd < 0)
		return 0;
	/* the whole message, and one byte to notice more */
	size_t cap = LAUNCH_COMMAND_MESSAGE_MAX + 1;
	_cleanup_free_ char *buf = malloc(cap + 1);
	if (!buf)
		return sluice_error_set(err, -ENOMEM, "descriptor %d", spec->command_fd);
	ssize_t n = read_full(spec->command_fd, buf, cap);
	(void)close(spec->command_fd);
	if (n < 0)
		return sluice_error_set(err, (int)n, "reading descriptor %d", spec->command_fd);
	if (n == 0)
		return sluice_error_set(err, -ECANCELED,
		                        "nothing arrived on descriptor %d: the caller withdrew",
		                        spec->command_fd);
	buf[n] = '\0';
	char *sep = memchr(buf, '\0', (size_t)n);
	if (!sep && (size_t)n == cap)
		return sluice_error_set(err, -E2BIG, "no NUL byte after the directory");
	const char *text = sep ? sep + 1 : buf + n;
	size_t rest = (size_t)n - (size_t)(text - buf);
	size_t len = strnlen(text, rest);
	if (len > LAUNCH_COMMAND_MAX)
		return sluice_error_set(err, -E2BIG, "the command is longer than %d bytes",
		                        LAUNCH_COMMAND_MAX);
	/* Only the final NUL proves the caller sent all it meant to: end of
	 * file anywhere else is a caller that died mid-message, and a prefix of
	 * the command must not run. */
	if (!sep || len == rest)
		return sluice_error_set(
		        err, -EPIPE,
		        "the command is incomplete: the caller withdrew or died while "
		        "sending it");
	if (len + 1 < rest)
		return sluice_error_set(err, -EINVAL, "the command holds a NUL byte");
	size_t argc = strv_length(spec->argv);
	char **argv = calloc(argc + 2, sizeof(*argv));
	if (!argv)
		return sluice_error_set(err, -ENOMEM, "the command's arguments");
	memcpy(argv, spec->argv, argc * sizeof(*argv));
	argv[argc] = (char *)text;
	state->argv = argv;
	/* buf (the directory and the command) and argv live until exec */
	char *dir = TAKE_PTR(buf);
	if (dir[0])
		state->chdir = dir;
	return 0;
}
