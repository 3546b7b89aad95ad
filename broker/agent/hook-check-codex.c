/* SPDX-License-Identifier: MIT */
/*
 * Codex's check: asked of Codex itself. `codex app-server` speaks JSON-RPC
 * on its standard input and output; its `hooks/list` request lists, for a
 * working directory, every hook of every configuration layer Codex reads
 * there (CODEX_HOME's config.toml and hooks.json, a trusted project's
 * .codex/, the administrator's), each with its key, whether it is enabled,
 * the hash of its definition and its trust: "trusted" or "managed" hooks
 * run, "untrusted" and "modified" ones are skipped (silently under `codex
 * exec`). Computing the hash here instead would follow Codex's
 * serialization, which no document fixes.
 * Not for: other agents (hook-check-gemini.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent/hook-check.h"
#include "cleanup.h"
#include "fd-util.h"
#include "monotonic.h"

extern char **environ;

/* Codex starts in seconds, longer on a loaded machine. */
#define CODEX_ANSWER_TIMEOUT_MS (60 * 1000)
/* A hooks/list answer is a few KiB; a line past this is not one. */
#define CODEX_LINE_MAX (4 * 1024 * 1024)

struct app_server {
	pid_t pid;
	int in;        /* its standard input */
	int out;       /* its standard output */
	char *pending; /* what was read past the last whole line */
	size_t pending_len;
};

static void app_server_stop(struct app_server *s)
{
	if (s->in >= 0)
		close(s->in);
	if (s->out >= 0)
		close(s->out);
	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	free(s->pending);
	s->pending = NULL;
	s->in = s->out = -1;
	s->pid = 0;
}

static int app_server_start(const char *program, struct app_server *s, struct sluice_error *reterr)
{
	int to[2], from[2];
	if (pipe2(to, O_CLOEXEC) < 0)
		return sluice_error_set(reterr, neg_errno(), "a pipe to Codex");
	if (pipe2(from, O_CLOEXEC) < 0) {
		int r = neg_errno();
		close(to[0]);
		close(to[1]);
		return sluice_error_set(reterr, r, "a pipe from Codex");
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, to[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, from[1], STDOUT_FILENO);
	/* its warnings (e.g. about helper links) are not the check's */
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	/* SIGPIPE is ignored here (a Codex that ended is an error to report,
	 * not a death); Codex gets its default back */
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	sigset_t pipe_only;
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &pipe_only);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	char *argv[] = { (char *)program, (char *)"app-server", NULL };
	int e = posix_spawnp(&s->pid, program, &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(to[0]);
	close(from[1]);
	if (e != 0) {
		close(to[1]);
		close(from[0]);
		s->pid = 0;
		return sluice_error_set(reterr, -e,
		                        "starting `%s app-server` (name Codex's program with "
		                        "--program)",
		                        program);
	}
	s->in = to[1];
	s->out = from[0];
	s->pending = malloc(CODEX_LINE_MAX);
	if (!s->pending) {
		app_server_stop(s);
		return sluice_error_set(reterr, -ENOMEM, "a buffer for Codex's answers");
	}
	s->pending_len = 0;
	return 0;
}

static int send_message(struct app_server *s, json_t *msg, struct sluice_error *reterr)
{
	_cleanup_free_ char *text = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (!text)
		return sluice_error_set(reterr, -ENOMEM, "a request to Codex");
	size_t len = strlen(text);
	text[len] = '\n'; /* replaces the NUL: written by length */
	for (size_t done = 0; done <= len;) {
		ssize_t n = write(s->in, text + done, len + 1 - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sluice_error_set(reterr, neg_errno(),
			                        "writing to `codex app-server`");
		done += (size_t)n;
	}
	return 0;
}

/* The answer to request id, skipping Codex's notifications (a new
 * reference), or NULL with reterr. */
static json_t *read_answer(struct app_server *s, int id, struct sluice_error *reterr)
{
	uint64_t deadline = monotonic_ms() + CODEX_ANSWER_TIMEOUT_MS;
	for (;;) {
		char *nl;
		while (s->pending_len && (nl = memchr(s->pending, '\n', s->pending_len))) {
			size_t line = (size_t)(nl - s->pending);
			json_t *msg = json_loadb(s->pending, line, 0, NULL);
			s->pending_len -= line + 1;
			memmove(s->pending, nl + 1, s->pending_len);
			json_t *mid = json_object_get(msg, "id");
			if (json_is_integer(mid) && json_integer_value(mid) == id)
				return msg;
			json_decref(msg);
		}
		if (s->pending_len == CODEX_LINE_MAX) {
			sluice_error_set(reterr, -EPROTO,
			                 "`codex app-server` wrote a line over %d bytes",
			                 CODEX_LINE_MAX);
			return NULL;
		}
		uint64_t now = monotonic_ms();
		if (now >= deadline) {
			sluice_error_set(reterr, -ETIMEDOUT,
			                 "`codex app-server` gave no answer in %d s",
			                 CODEX_ANSWER_TIMEOUT_MS / 1000);
			return NULL;
		}
		struct pollfd p = { .fd = s->out, .events = POLLIN };
		int r = poll(&p, 1, (int)(deadline - now));
		if (r < 0 && errno != EINTR) {
			sluice_error_set(reterr, neg_errno(), "waiting for `codex app-server`");
			return NULL;
		}
		if (r <= 0)
			continue;
		ssize_t n =
		        read(s->out, s->pending + s->pending_len, CODEX_LINE_MAX - s->pending_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			sluice_error_set(reterr, n < 0 ? neg_errno() : -EPROTO,
			                 "`codex app-server` ended without answering (is it Codex "
			                 "0.171 or later?)");
			return NULL;
		}
		s->pending_len += (size_t)n;
	}
}

static json_t *request(int id, const char *method, json_t *params)
{
	return json_pack("{s:s, s:i, s:s, s:o}", "jsonrpc", "2.0", "id", id, "method", method,
	                 "params", params);
}

/* hooks/list's answer for directory, or NULL with reterr. */
static json_t *list_hooks(const char *program, const char *directory, struct sluice_error *reterr)
{
	struct app_server s = { .in = -1, .out = -1 };
	if (app_server_start(program, &s, reterr) < 0)
		return NULL;
	json_t *answer = NULL;
	if (send_message(&s,
	                 request(1, "initialize",
	                         json_pack("{s:{s:s, s:s}}", "clientInfo", "name", "sluice",
	                                   "version", PACKAGE_VERSION)),
	                 reterr) < 0)
		goto out;
	json_t *init = read_answer(&s, 1, reterr);
	if (!init)
		goto out;
	json_decref(init);
	if (send_message(&s, json_pack("{s:s, s:s}", "jsonrpc", "2.0", "method", "initialized"),
	                 reterr) < 0 ||
	    send_message(&s, request(2, "hooks/list", json_pack("{s:[s]}", "cwds", directory)),
	                 reterr) < 0)
		goto out;
	answer = read_answer(&s, 2, reterr);
out:
	app_server_stop(&s);
	return answer;
}

static const char *string_of(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* What one hook of sluice's is worth; a line about it on out. */
static bool hook_runs(json_t *hook, FILE *out)
{
	const char *trust = string_of(hook, "trustStatus");
	const char *matcher = json_string_value(json_object_get(hook, "matcher"));
	bool enabled = json_is_true(json_object_get(hook, "enabled"));
	bool covers = hook_check_matcher_covers(matcher, "Bash");
	bool trusted = strcmp(trust, "trusted") == 0 || strcmp(trust, "managed") == 0;
	fprintf(out, "codex: %s: `%s`, matcher %s%s%s, %s, %s\n", string_of(hook, "key"),
	        string_of(hook, "command"), matcher ? "\"" : "", matcher ? matcher : "none",
	        matcher ? "\"" : "", enabled ? "enabled" : "disabled", trust);
	if (!covers)
		fprintf(out,
		        "codex:   its matcher does not cover Bash, the name Codex gives its shell "
		        "tools in hooks\n");
	return enabled && covers && trusted;
}

/* What to do about a hook that is not trusted: Codex's own way, or the
 * record accepting it leaves (a changed hook has its table already: its
 * trusted_hash is replaced). */
static void how_to_trust(json_t *hook, const char *codex_home, FILE *out)
{
	bool changed = strcmp(string_of(hook, "trustStatus"), "modified") == 0;
	fprintf(out,
	        "codex:   Codex skips %s hook until it is trusted, silently under `codex exec`, "
	        "and then runs every command unchecked.\n"
	        "codex:   Trust it: start `codex` with this CODEX_HOME and accept the hook when "
	        "it asks (or in /hooks); or, having read the hook, record what accepting it "
	        "records, in %s/config.toml%s:\n"
	        "[hooks.state.\"%s\"]\n"
	        "trusted_hash = \"%s\"\n",
	        changed ? "a changed" : "this", codex_home,
	        changed ? " (the trusted_hash of this table replaced)" : "", string_of(hook, "key"),
	        string_of(hook, "currentHash"));
}

int hook_check_codex(const struct hook_check_request *req, FILE *out, struct sluice_error *reterr)
{
	const char *program = req->program ? req->program : "codex";
	_cleanup_free_ char *default_home = NULL;
	const char *codex_home = getenv("CODEX_HOME");
	if (!codex_home || !*codex_home) {
		const char *home = getenv("HOME");
		if (asprintf(&default_home, "%s/.codex", home ? home : "") < 0)
			return sluice_error_set(reterr, -ENOMEM, "CODEX_HOME");
		codex_home = default_home;
	}
	struct sigaction ignore = { .sa_handler = SIG_IGN }, old;
	sigaction(SIGPIPE, &ignore, &old);
	json_t *answer = list_hooks(program, req->directory, reterr);
	sigaction(SIGPIPE, &old, NULL);
	if (!answer)
		return reterr->code;
	json_t *error = json_object_get(answer, "error");
	if (error) {
		int r = sluice_error_set(reterr, -EPROTO, "Codex refused to list its hooks: %s",
		                         string_of(error, "message"));
		json_decref(answer);
		return r;
	}
	size_t i, j, found = 0, running = 0;
	json_t *entry, *hook, *note;
	json_array_foreach(json_object_get(json_object_get(answer, "result"), "data"), i, entry)
	{
		json_array_foreach(json_object_get(entry, "warnings"), j, note)
		        fprintf(out, "codex: warning: %s\n", json_string_value(note));
		json_array_foreach(json_object_get(entry, "errors"), j, note)
		        fprintf(out, "codex: error: %s\n",
		                json_is_string(note) ? json_string_value(note)
		                                     : string_of(note, "message"));
		json_array_foreach(json_object_get(entry, "hooks"), j, hook)
		{
			if (strcmp(string_of(hook, "eventName"), "preToolUse") != 0 ||
			    !hook_check_runs_sluice(string_of(hook, "command"), "codex"))
				continue;
			found++;
			if (hook_runs(hook, out)) {
				running++;
				continue;
			}
			const char *trust = string_of(hook, "trustStatus");
			if (strcmp(trust, "untrusted") == 0 || strcmp(trust, "modified") == 0)
				how_to_trust(hook, codex_home, out);
		}
	}
	json_decref(answer);
	if (running) {
		fprintf(out, "sluice hook codex: takes effect in %s (CODEX_HOME %s)\n",
		        req->directory, codex_home);
		return HOOK_CHECK_TAKES_EFFECT;
	}
	if (!found)
		fprintf(out,
		        "codex: no PreToolUse hook runs `sluice hook codex` in the configuration "
		        "Codex reads here (CODEX_HOME %s); docs/integrations.md shows one\n",
		        codex_home);
	fprintf(out,
	        "sluice hook codex: does NOT take effect in %s: Codex would run every command "
	        "unchecked\n",
	        req->directory);
	return HOOK_CHECK_NO_EFFECT;
}
