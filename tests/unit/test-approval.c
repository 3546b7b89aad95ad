/* SPDX-License-Identifier: MIT */
/*
 * broker/policy/approval.c: an ask is refused by default; a first asker (the
 * person at an MCP client) answers before the approver, which is asked only
 * when it left the question unanswered; an
 * approver program gets the request as JSON and approves only with exit
 * status 0; a silent approver is killed at the timeout, also while it leaves
 * the request unread; no terminal is no; on a terminal the question shows
 * the request with its control sequences written out, and a terminal whose
 * output is stopped is a no at the timeout.
 */
#define _GNU_SOURCE /* pipe2, memmem, ptsname_r */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "policy/approval.h"
#include "config/broker-config.h"
#include "monotonic.h"
#include "process-util.h"
#include "scratch.h"

static char tmp[256];

static void setup(void)
{
	scratch_make(tmp, sizeof(tmp), "sluice-approval");
}

static void teardown(void)
{
	scratch_remove(tmp);
}

TestSuite(approval, .init = setup, .fini = teardown, .timeout = 30);

/* An approver script at tmp/approve that runs body. */
static const char *approver(const char *body)
{
	static char path[400];
	snprintf(path, sizeof(path), "%s/approve", tmp);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0700);
	return path;
}

/* A first asker that answers reply, counting its questions. */
struct first_asker {
	enum approval_reply reply;
	int asked;
};

static enum approval_reply first_ask(void *userdata, const struct approval_request *req,
                                     char **ret_why)
{
	struct first_asker *f = userdata;
	f->asked++;
	cr_assert_str_eq(req->command, "npm publish");
	*ret_why = strdup(f->reply == APPROVAL_UNANSWERED ? "dismissed at the client"
	                  : f->reply == APPROVAL_YES      ? "accepted at the client"
	                  : f->reply == APPROVAL_NO       ? "declined at the client"
	                                                  : "the call was cancelled");
	return f->reply;
}

static int ask_first(struct first_asker *f, enum config_approval method, const char *program,
                     char **why, const char **by)
{
	struct broker_config *cfg = NULL;
	cr_assert_eq(config_new_defaults(&cfg), 0);
	cfg->approval_method = method;
	free(cfg->approval_program);
	cfg->approval_program = program ? strdup(program) : NULL;
	cfg->approval_timeout = 10000;
	struct verdict v;
	verdict_init(&v);
	verdict_add(&v, VERDICT_ASK, "regex", "publishing needs a human", "ask the user");
	struct approval_request req = { .command = "npm publish", .verdict = &v };
	struct approval_asker first = { .ask = first_ask, .userdata = f, .by = "mcp-client" };
	int r = approval_ask(cfg, &req, &first, why, by);
	verdict_done(&v);
	config_free(cfg);
	return r;
}

static int ask_command(enum config_approval method, const char *program, uint64_t timeout_ms,
                       const char *command, char **why)
{
	struct broker_config *cfg = NULL;
	cr_assert_eq(config_new_defaults(&cfg), 0);
	cfg->approval_method = method;
	free(cfg->approval_program);
	cfg->approval_program = program ? strdup(program) : NULL;
	cfg->approval_timeout = timeout_ms;
	struct verdict v;
	verdict_init(&v);
	verdict_add(&v, VERDICT_ASK, "regex", "publishing needs a human", "ask the user");
	struct approval_request req = { .command = command,
		                        .display = command,
		                        .description = "release 1.0",
		                        .cwd = "/work",
		                        .verdict = &v };
	int r = approval_ask(cfg, &req, NULL, why, NULL);
	verdict_done(&v);
	config_free(cfg);
	return r;
}

/* An approver that saves the request to tmp/request.json and approves. */
static const char *saving_approver(void)
{
	char body[600];
	snprintf(body, sizeof(body), "cat > '%s/request.json'; exit 0", tmp);
	return approver(body);
}

/* The request saving_approver() saved. */
static json_t *saved_request(void)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/request.json", tmp);
	json_error_t e;
	json_t *o = json_load_file(path, 0, &e);
	cr_assert_not_null(o, "%s", e.text);
	return o;
}

/* A command of len bytes, more than a pipe holds when len is large. */
static char *long_command(size_t len)
{
	char *command = malloc(len + 1);
	cr_assert_not_null(command);
	for (size_t i = 0; i < len; i++)
		command[i] = (char)('a' + i % 26);
	command[len] = '\0';
	return command;
}

static int ask(enum config_approval method, const char *program, uint64_t timeout_ms, char **why)
{
	return ask_command(method, program, timeout_ms, "npm publish", why);
}

Test(approval, refuses_by_default_naming_the_rule)
{
	char *why = NULL;
	cr_assert_eq(ask(CONFIG_APPROVAL_DENY, NULL, 1000, &why), 0);
	/* who answered, not the rule again: the caller names it */
	cr_assert_str_eq(why, "no approver is configured ([approval] method = deny)");
	free(why);
}

Test(approval, the_first_askers_yes_and_no_are_final)
{
	char *why = NULL;
	const char *by = NULL;
	struct first_asker f = { .reply = APPROVAL_YES };
	char body[600];
	snprintf(body, sizeof(body), "touch '%s/asked'; exit 0", tmp);
	cr_assert_eq(ask_first(&f, CONFIG_APPROVAL_PROGRAM, approver(body), &why, &by), 1);
	cr_assert_str_eq(why, "accepted at the client");
	cr_assert_str_eq(by, "mcp-client");
	free(why);
	f = (struct first_asker){ .reply = APPROVAL_NO };
	cr_assert_eq(ask_first(&f, CONFIG_APPROVAL_PROGRAM, approver(body), &why, &by), 0,
	             "a person's no is not overruled by an approver");
	cr_assert_str_eq(why, "declined at the client");
	cr_assert_str_eq(by, "mcp-client");
	free(why);
	char asked[600];
	snprintf(asked, sizeof(asked), "%s/asked", tmp);
	cr_assert_neq(access(asked, F_OK), 0, "the approver was never asked");
}

Test(approval, a_withdrawn_question_is_a_no_nobody_gave)
{
	char *why = NULL;
	const char *by = "?";
	struct first_asker f = { .reply = APPROVAL_WITHDRAWN };
	cr_assert_eq(ask_first(&f, CONFIG_APPROVAL_PROGRAM, approver("exit 0"), &why, &by), 0,
	             "the approver is not asked");
	cr_assert_null(by);
	free(why);
}

Test(approval, an_unanswered_question_goes_on_to_the_approver)
{
	char *why = NULL;
	const char *by = "?";
	struct first_asker f = { .reply = APPROVAL_UNANSWERED };
	cr_assert_eq(ask_first(&f, CONFIG_APPROVAL_DENY, NULL, &why, &by), 0);
	cr_assert_eq(f.asked, 1);
	cr_assert_str_eq(why, "dismissed at the client; no approver is configured ([approval] "
	                      "method = deny)");
	cr_assert_null(by, "nobody answered");
	free(why);
	cr_assert_eq(ask_first(&f, CONFIG_APPROVAL_PROGRAM, approver("exit 0"), &why, &by), 1);
	cr_assert_str_eq(by, "program");
	cr_assert(strstr(why, "dismissed at the client; approved by "), "%s", why);
	free(why);
	cr_assert_eq(ask_first(&f, CONFIG_APPROVAL_PROGRAM, approver("exit 1"), &why, &by), 0);
	cr_assert_str_eq(by, "program", "the approver answered, no");
	free(why);
}

Test(approval, a_program_gets_the_request_and_exit_zero_approves)
{
	char *why = NULL;
	const char *prog = saving_approver();
	cr_assert_eq(ask(CONFIG_APPROVAL_PROGRAM, prog, 10000, &why), 1, "%s", why);
	free(why);
	json_t *o = saved_request();
	cr_assert_str_eq(json_string_value(json_object_get(o, "command")), "npm publish");
	cr_assert_str_eq(json_string_value(json_object_get(o, "description")), "release 1.0");
	cr_assert_str_eq(json_string_value(json_object_get(o, "verdict")), "ask");
	json_t *reasons = json_object_get(o, "reasons");
	cr_assert_eq(json_array_size(reasons), 1);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(reasons, 0), "plugin")),
	                 "regex");
	json_decref(o);
}

Test(approval, a_program_that_reads_a_long_request_gets_it_whole)
{
	/* more than a pipe holds goes in pieces through the non-blocking pipe */
	char *command = long_command(256 * 1024);
	char *why = NULL;
	int r = ask_command(CONFIG_APPROVAL_PROGRAM, saving_approver(), 10000, command, &why);
	cr_assert_eq(r, 1, "%s", why);
	free(why);
	json_t *o = saved_request();
	cr_assert_str_eq(json_string_value(json_object_get(o, "command")), command);
	cr_assert_str_eq(json_string_value(json_object_get(o, "display")), command);
	json_decref(o);
	free(command);
}

Test(approval, a_program_that_exits_nonzero_refuses)
{
	char *why = NULL;
	cr_assert_eq(ask(CONFIG_APPROVAL_PROGRAM, approver("cat >/dev/null; exit 3"), 10000, &why),
	             0);
	cr_assert(strstr(why, "said no (exit 3)"), "%s", why);
	free(why);
}

Test(approval, a_program_that_exits_without_reading_a_long_request_refuses)
{
	/* more than a pipe holds: the write meets a closed pipe (EPIPE), which
	 * must be the approver's "no", not a SIGPIPE that ends this process */
	char *command = long_command(256 * 1024);
	char *why = NULL;
	int r = ask_command(CONFIG_APPROVAL_PROGRAM, approver("exit 1"), 10000, command, &why);
	free(command);
	cr_assert_eq(r, 0);
	cr_assert(strstr(why, "said no (exit 1)"), "%s", why);
	free(why);
}

Test(approval, a_silent_program_is_killed_at_the_timeout)
{
	char *why = NULL;
	cr_assert_eq(ask(CONFIG_APPROVAL_PROGRAM, approver("exec sleep 60"), 200, &why), 0);
	cr_assert(strstr(why, "did not answer in time"), "%s", why);
	free(why);
}

Test(approval, a_program_that_never_reads_a_long_request_is_killed_at_the_timeout)
{
	/* more than a pipe holds, to an approver that ignores stdin and exits 0
	 * long after the timeout: the timeout must cover the write of the
	 * request, or that late exit 0 would count as approval */
	char *command = long_command(256 * 1024);
	char *why = NULL;
	uint64_t start = monotonic_ms();
	int r = ask_command(CONFIG_APPROVAL_PROGRAM, approver("exec sleep 10"), 300, command, &why);
	uint64_t took = monotonic_ms() - start;
	free(command);
	cr_assert_eq(r, 0, "%s", why);
	cr_assert(strstr(why, "did not answer in time"), "%s", why);
	cr_assert_lt(took, 5000, "answered after %llu ms", (unsigned long long)took);
	free(why);
}

Test(approval, a_program_killed_at_the_timeout_takes_its_children_with_it)
{
	char body[600], pidfile[400];
	snprintf(pidfile, sizeof(pidfile), "%s/child", tmp);
	snprintf(body, sizeof(body), "sleep 60 & echo $! >'%s'; wait", pidfile);
	char *why = NULL;
	cr_assert_eq(ask(CONFIG_APPROVAL_PROGRAM, approver(body), 300, &why), 0);
	cr_assert(strstr(why, "did not answer in time"), "%s", why);
	free(why);
	FILE *f = fopen(pidfile, "r");
	cr_assert_not_null(f, "the approver did not start its child");
	int child = 0;
	cr_assert_eq(fscanf(f, "%d", &child), 1);
	fclose(f);
	/* learned after the approver's end: the pid is its child only while it
	 * runs sleep */
	struct process_ref sleeper = process_ref_named(child, "sleep");
	bool gone = process_ref_gone_within(sleeper, 2000);
	if (!gone)
		process_ref_kill(sleeper);
	cr_assert(gone, "the approver's child %d outlived the refusal", child);
}

Test(approval, a_missing_program_refuses)
{
	char *why = NULL;
	cr_assert_eq(ask(CONFIG_APPROVAL_PROGRAM, "/nonexistent/approver", 5000, &why), 0);
	cr_assert(strstr(why, "said no (exit 127)"), "%s", why);
	free(why);
}

Test(approval, without_a_terminal_the_answer_is_no)
{
	/* a new session has no controlling terminal, so /dev/tty cannot open */
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		if (setsid() < 0)
			_exit(2);
		char *why = NULL;
		int r = ask(CONFIG_APPROVAL_TERMINAL, NULL, 1000, &why);
		_exit(r == 0 && why && strstr(why, "no terminal to ask on") ? 0 : 1);
	}
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* What asking on a pseudo-terminal gave: the answer (1 yes, 0 no, -1 the
 * child failed), the reason, what the terminal showed, and how long. */
struct tty_ask {
	int approved;
	char why[600];
	char shown[8192];
	size_t shown_len;
	uint64_t ms;
};

/* Read what the master has until the question's end appears, the child's
 * side closes, or timeout_ms passes. */
static void read_shown(int master, struct tty_ask *t, uint64_t timeout_ms)
{
	uint64_t end = monotonic_ms() + timeout_ms;
	while (!memmem(t->shown, t->shown_len, "[y/N] ", 6) && monotonic_ms() < end) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		if (poll(&p, 1, 100) <= 0)
			continue;
		ssize_t n =
		        read(master, t->shown + t->shown_len, sizeof(t->shown) - 1 - t->shown_len);
		if (n <= 0)
			break;
		t->shown_len += (size_t)n;
	}
}

/*
 * Ask about command on a new pseudo-terminal, from a child that makes it
 * its controlling terminal (a new session; the slave opened without
 * O_NOCTTY). stopped: the child suspends the terminal's output first, as
 * Ctrl-S does. typed (NULL: nothing): typed once the question is shown.
 */
static void ask_on_tty(const char *command, bool stopped, const char *typed, uint64_t timeout_ms,
                       struct tty_ask *t)
{
	memset(t, 0, sizeof(*t));
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	cr_assert_geq(master, 0, "posix_openpt: %s", strerror(errno));
	cr_assert_eq(grantpt(master), 0);
	cr_assert_eq(unlockpt(master), 0);
	char slave_name[128];
	cr_assert_eq(ptsname_r(master, slave_name, sizeof(slave_name)), 0);
	int why_pipe[2];
	cr_assert_eq(pipe2(why_pipe, O_CLOEXEC), 0);
	uint64_t start = monotonic_ms();
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(master);
		close(why_pipe[0]);
		int slave = -1;
		if (setsid() < 0 || (slave = open(slave_name, O_RDWR)) < 0 ||
		    (stopped && tcflow(slave, TCOOFF) < 0))
			_exit(3);
		char *why = NULL;
		int r = ask_command(CONFIG_APPROVAL_TERMINAL, NULL, timeout_ms, command, &why);
		if (why && write(why_pipe[1], why, strlen(why)) < 0)
			_exit(3);
		_exit(r == 1 ? 0 : r == 0 ? 1 : 2);
	}
	close(why_pipe[1]);
	if (!stopped) {
		read_shown(master, t, timeout_ms);
		if (typed)
			cr_assert_eq(write(master, typed, strlen(typed)), (ssize_t)strlen(typed));
	}
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	t->ms = monotonic_ms() - start;
	ssize_t n = read(why_pipe[0], t->why, sizeof(t->why) - 1);
	t->why[n > 0 ? n : 0] = '\0';
	close(why_pipe[0]);
	close(master);
	t->approved = WIFEXITED(status) && WEXITSTATUS(status) <= 1 ? 1 - WEXITSTATUS(status) : -1;
}

Test(approval, the_terminal_shows_the_request_inert_and_y_approves)
{
	struct tty_ask t;
	ask_on_tty("curl x | sh #\x1b[2K\rgit status", false, "y\n", 5000, &t);
	cr_assert_eq(t.approved, 1, "%s", t.why);
	cr_assert(memmem(t.shown, t.shown_len, "Run it? [y/N] ", 14), "%.*s", (int)t.shown_len,
	          t.shown);
	cr_assert_null(memchr(t.shown, 0x1b, t.shown_len), "an escape reached the terminal");
	const char *inert = "curl x | sh #\\x1b[2K\\rgit status";
	cr_assert(memmem(t.shown, t.shown_len, inert, strlen(inert)), "%.*s", (int)t.shown_len,
	          t.shown);
}

Test(approval, a_terminal_that_does_not_answer_y_refuses)
{
	struct tty_ask t;
	ask_on_tty("npm publish", false, "n\n", 5000, &t);
	cr_assert_eq(t.approved, 0);
	cr_assert(strstr(t.why, "refused on the terminal"), "%s", t.why);
}

/* Output stopped: the question cannot be shown, and it is a no at the
 * timeout rather than a wait for ever. */
Test(approval, a_terminal_whose_output_is_stopped_refuses_at_the_timeout)
{
	struct tty_ask t;
	ask_on_tty("npm publish", true, NULL, 500, &t);
	cr_assert_eq(t.approved, 0, "%s", t.why);
	cr_assert(strstr(t.why, "could not be shown on the terminal in time"), "%s", t.why);
	cr_assert_geq(t.ms, 450, "refused after %llu ms", (unsigned long long)t.ms);
	cr_assert_lt(t.ms, 5000, "refused after %llu ms", (unsigned long long)t.ms);
}
