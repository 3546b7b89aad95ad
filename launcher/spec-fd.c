/* SPDX-License-Identifier: MIT */
/*
 * Reading --spec-fd: words separated by NUL bytes, the options, an empty
 * word, the environment (see spec-fd.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "launch-spec.h"
#include "parse-number.h"
#include "spec-fd.h"

extern char **environ;

char *spec_fd_buffer;
char **spec_fd_options;

/* All of fd up to end of file, at most LAUNCH_SPEC_MAX bytes (one more is
 * read to notice more): as apply_command() reads its message. The buffer
 * is only reserved; the pages the spec does not reach are never touched. */
static ssize_t read_all(int fd, char **ret)
{
	_cleanup_free_ char *buf = malloc(LAUNCH_SPEC_MAX + 1);
	if (!buf)
		return -ENOMEM;
	ssize_t n = read_full(fd, buf, LAUNCH_SPEC_MAX + 1);
	if (n < 0)
		return n;
	if (n > LAUNCH_SPEC_MAX)
		return -E2BIG;
	*ret = TAKE_PTR(buf);
	return n;
}

/* The words of buf from *pos up to the next empty word or len (buf[len -
 * 1] is NUL), into a NULL-ended array with `before` free leading entries.
 * *pos ends past the empty word; *ret_ended says whether there was one. */
static char **split_words(char *buf, size_t len, size_t *pos, size_t before, size_t *ret_n,
                          bool *ret_ended)
{
	size_t n = 0, p = *pos;
	for (; p < len && buf[p] != '\0'; p += strlen(buf + p) + 1)
		n++;
	char **words = calloc(before + n + 1, sizeof(*words));
	if (!words)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		words[before + i] = buf + *pos;
		*pos += strlen(buf + *pos) + 1;
	}
	*ret_ended = *pos < len;
	if (*ret_ended)
		(*pos)++; /* the empty word */
	*ret_n = n;
	return words;
}

/* What is wrong with the split spec, or NULL. */
static const char *spec_problem(char **env, size_t n_env, bool options_ended, bool env_ended)
{
	if (!options_ended)
		return "no empty word after the options";
	if (env_ended)
		return "an empty word in the environment";
	for (size_t i = 0; i < n_env; i++) {
		const char *eq = strchr(env[i], '=');
		if (!eq || eq == env[i])
			return "an environment entry that is not NAME=VALUE";
	}
	return NULL;
}

int spec_fd_take(int *argc, char ***argv, struct sluice_error *err)
{
	if (*argc != 3 || strcmp((*argv)[1], LAUNCH_OPT_SPEC_FD) != 0)
		return 0;
	const char *arg = (*argv)[2];
	uint64_t fd;
	if (parse_uint64(arg, INT32_MAX, &fd) < 0 || fd <= 2)
		return sluice_error_set(err, -EINVAL, "%s: bad descriptor '%s'", LAUNCH_OPT_SPEC_FD,
		                        arg);
	_cleanup_free_ char *buf = NULL;
	ssize_t len = read_all((int)fd, &buf);
	(void)close((int)fd);
	if (len == -E2BIG)
		return sluice_error_set(err, -E2BIG, "%s: more than %d bytes on descriptor %s",
		                        LAUNCH_OPT_SPEC_FD, LAUNCH_SPEC_MAX, arg);
	if (len < 0)
		return sluice_error_set(err, (int)len, "%s: reading descriptor %s",
		                        LAUNCH_OPT_SPEC_FD, arg);
	if (len == 0)
		return sluice_error_set(err, -ECANCELED,
		                        "%s: nothing arrived on descriptor %s: the caller withdrew",
		                        LAUNCH_OPT_SPEC_FD, arg);
	size_t n = (size_t)len, pos = 0, n_options = 0, n_env = 0;
	/* Only the final NUL proves the caller sent all it meant to. */
	if (buf[n - 1] != '\0')
		return sluice_error_set(err, -EPIPE,
		                        "%s: descriptor %s ended mid-word: the caller withdrew or "
		                        "died while sending",
		                        LAUNCH_OPT_SPEC_FD, arg);
	bool options_ended = false, env_ended = false;
	_cleanup_free_ char **options = split_words(buf, n, &pos, 1, &n_options, &options_ended);
	_cleanup_free_ char **env =
	        options ? split_words(buf, n, &pos, 0, &n_env, &env_ended) : NULL;
	if (!env)
		return sluice_error_set(err, -ENOMEM, "%s", LAUNCH_OPT_SPEC_FD);
	const char *problem = spec_problem(env, n_env, options_ended, env_ended);
	if (problem)
		return sluice_error_set(err, -EINVAL, "%s: descriptor %s: %s", LAUNCH_OPT_SPEC_FD,
		                        arg, problem);
	options[0] = (*argv)[0];
	*argc = (int)(n_options + 1);
	*argv = spec_fd_options = TAKE_PTR(options);
	environ = TAKE_PTR(env);
	spec_fd_buffer = TAKE_PTR(buf); /* the words point into it */
	return 1;
}
