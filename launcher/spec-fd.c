/* SPDX-License-Identifier: MIT */
/*
 * Reading --spec-fd: words separated by NUL bytes, the options, an empty
 * word, the environment (see spec-fd.h).
 */
#include "config.h"

#include <errno.h>
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

/* Read fd into buf (cap bytes) until what was read starts with
 * LAUNCH_SPEC_NAMESPACE_AHEAD and its NUL, or cannot (or end of file):
 * the caller sends that word alone, well before the rest. Returns the
 * length read, or -errno. */
static ssize_t read_first_word(int fd, char *buf, size_t cap)
{
	static const char word[] = LAUNCH_SPEC_NAMESPACE_AHEAD;
	size_t len = 0;
	while (len < sizeof(word) && memcmp(buf, word, len) == 0) {
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	return (ssize_t)len;
}

/* All of fd up to end of file, at most LAUNCH_SPEC_MAX bytes (one more is
 * read to notice more): as apply_command() reads its message, with
 * on_ahead(userdata) called as soon as LAUNCH_SPEC_NAMESPACE_AHEAD has
 * arrived; *ret_skip is then its length. The buffer is only reserved; the
 * pages the spec does not reach are never touched. */
static ssize_t read_all(int fd, char **ret, size_t *ret_skip, void (*on_ahead)(void *),
                        void *userdata)
{
	_cleanup_free_ char *buf = malloc(LAUNCH_SPEC_MAX + 1);
	if (!buf)
		return -ENOMEM;
	ssize_t first = read_first_word(fd, buf, LAUNCH_SPEC_MAX + 1);
	if (first < 0)
		return first;
	size_t len = (size_t)first;
	*ret_skip = 0;
	if (len >= sizeof(LAUNCH_SPEC_NAMESPACE_AHEAD) &&
	    memcmp(buf, LAUNCH_SPEC_NAMESPACE_AHEAD, sizeof(LAUNCH_SPEC_NAMESPACE_AHEAD)) == 0) {
		*ret_skip = sizeof(LAUNCH_SPEC_NAMESPACE_AHEAD);
		on_ahead(userdata);
	}
	ssize_t n = first == 0 ? 0 : read_full(fd, buf + len, LAUNCH_SPEC_MAX + 1 - len);
	if (n < 0)
		return n;
	len += (size_t)n;
	if (len > LAUNCH_SPEC_MAX)
		return -E2BIG;
	*ret = TAKE_PTR(buf);
	return (ssize_t)len;
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

int spec_fd_take(int *argc, char ***argv, void (*on_ahead)(void *), void *userdata,
                 struct sluice_error *err)
{
	if (*argc != 3 || strcmp((*argv)[1], LAUNCH_OPT_SPEC_FD) != 0)
		return 0;
	const char *arg = (*argv)[2];
	uint64_t fd;
	if (parse_uint64(arg, INT32_MAX, &fd) < 0 || fd <= 2)
		return sluice_error_set(err, -EINVAL, "%s: bad descriptor '%s'", LAUNCH_OPT_SPEC_FD,
		                        arg);
	_cleanup_free_ char *buf = NULL;
	size_t skip = 0;
	ssize_t len = read_all((int)fd, &buf, &skip, on_ahead, userdata);
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
	if ((size_t)len == skip)
		return sluice_error_set(
		        err, -ECANCELED,
		        "%s: no options arrived on descriptor %s after %s: the caller "
		        "withdrew",
		        LAUNCH_OPT_SPEC_FD, arg, LAUNCH_SPEC_NAMESPACE_AHEAD);
	size_t n = (size_t)len, pos = skip, n_options = 0, n_env = 0;
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
