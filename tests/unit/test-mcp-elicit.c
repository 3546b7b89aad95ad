/* SPDX-License-Identifier: MIT */
/*
 * broker/agent/mcp-elicit.c: the question an ask becomes at the MCP client
 * (what, where, which sandbox, why, every piece made inert), which clients
 * can be asked, and how their answers become the worker's: accept (once,
 * or for the session), decline, a dismissed question, an error, silence.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "agent/mcp-elicit.h"

static struct verdict ask_verdict(void)
{
	struct verdict v;
	verdict_init(&v);
	cr_assert_eq(verdict_add(&v, VERDICT_ASK, "regex", "publishing needs a human", NULL), 0);
	cr_assert_eq(verdict_add(&v, VERDICT_ALLOW, "git_add", "not asked for", NULL), 0);
	return v;
}

Test(mcp_elicit, the_question_says_what_where_which_sandbox_and_why)
{
	struct verdict v = ask_verdict();
	struct approval_request req = { .command = "npm publish\n\x1b[2Kls",
		                        .cwd = "/home/u/project",
		                        .description = "release 1.0",
		                        .verdict = &v };
	char *m = mcp_elicit_message(&req, SANDBOX_MODE_WORKSPACE_WRITE);
	cr_assert_not_null(m);
	cr_assert(strstr(m, "Command: npm publish\\n\\x1b[2Kls\n"), "%s", m);
	cr_assert(strstr(m, "Directory: /home/u/project\n"), "%s", m);
	cr_assert(strstr(m, "Sandbox: workspace-write (it forbids writing outside the workspace"),
	          "%s", m);
	cr_assert(strstr(m, "Why: regex: publishing needs a human\n"), "%s", m);
	cr_assert_null(strstr(m, "not asked for"), "only the reasons that asked");
	cr_assert(strstr(m, "The agent says: release 1.0\n"), "%s", m);
	cr_assert(strstr(m, "decline to refuse it"), "%s", m);
	cr_assert_null(strchr(m, '\x1b'), "nothing a terminal would obey");
	free(m);
	m = mcp_elicit_message(&req, SANDBOX_MODE_UNRESTRICTED);
	cr_assert(strstr(m, "Sandbox: unrestricted (none: the command can do whatever you can)"),
	          "%s", m);
	free(m);
	verdict_done(&v);
}

Test(mcp_elicit, only_a_client_with_form_elicitation_is_asked)
{
	static const char *const yes[] = { "{\"elicitation\":{}}",
		                           "{\"elicitation\":{\"form\":{}}}",
		                           "{\"elicitation\":{\"form\":{},\"url\":{}}}" };
	static const char *const no[] = { "{}", "{\"elicitation\":{\"url\":{}}}",
		                          "{\"elicitation\":true}", "{\"roots\":{}}" };
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		json_t *c = json_loads(yes[i], 0, NULL);
		cr_assert(mcp_elicit_client_can(c), "%s", yes[i]);
		json_decref(c);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		json_t *c = json_loads(no[i], 0, NULL);
		cr_assert(!mcp_elicit_client_can(c), "%s", no[i]);
		json_decref(c);
	}
	cr_assert(!mcp_elicit_client_can(NULL));
}

static json_t *question(const char *command, const char *cwd)
{
	return json_pack("{s:{s:s}, s:s, s:s}", "params", "message", "m", "command", command, "cwd",
	                 cwd);
}

static const char *reply(json_t *a)
{
	return json_string_value(json_object_get(a, "reply"));
}

static const char *why(json_t *a)
{
	return json_string_value(json_object_get(a, "why"));
}

Test(mcp_elicit, answers_accept_decline_dismissed_error_silence)
{
	struct mcp_session_approvals s = { 0 };
	json_t *q = question("npm publish", "/p");
	json_t *r = json_pack("{s:s}", "action", "accept");
	json_t *a = mcp_elicit_answer_response(&s, q, r, NULL);
	cr_assert_str_eq(reply(a), "yes");
	cr_assert_str_eq(why(a), "accepted at the MCP client");
	cr_assert_eq(s.n, 0, "not remembered unless asked");
	json_decref(a);
	json_decref(r);
	r = json_pack("{s:s}", "action", "decline");
	a = mcp_elicit_answer_response(&s, q, r, NULL);
	cr_assert_str_eq(reply(a), "no");
	json_decref(a);
	json_decref(r);
	r = json_pack("{s:s}", "action", "cancel");
	a = mcp_elicit_answer_response(&s, q, r, NULL);
	cr_assert_str_eq(reply(a), "unanswered");
	cr_assert_str_eq(why(a), "the question was dismissed at the MCP client");
	json_decref(a);
	json_decref(r);
	json_t *e = json_pack("{s:i, s:s}", "code", -32603, "message", "no dialog");
	a = mcp_elicit_answer_response(&s, q, NULL, e);
	cr_assert_str_eq(reply(a), "unanswered");
	cr_assert_str_eq(why(a), "the MCP client could not ask: no dialog");
	json_decref(a);
	json_decref(e);
	a = mcp_elicit_answer_timeout(60000);
	cr_assert_str_eq(reply(a), "unanswered");
	cr_assert_str_eq(why(a), "no answer at the MCP client within 1m");
	json_decref(a);
	json_decref(q);
	mcp_session_approvals_done(&s);
}

Test(mcp_elicit, remembered_for_the_session_this_command_in_this_directory)
{
	struct mcp_session_approvals s = { 0 };
	json_t *q = question("npm publish", "/p");
	cr_assert_null(mcp_elicit_answer_now(&s, q, true), "asked the first time");
	json_t *r = json_pack("{s:s, s:{s:b}}", "action", "accept", "content", "remember", 1);
	json_t *a = mcp_elicit_answer_response(&s, q, r, NULL);
	cr_assert_str_eq(why(a), "accepted at the MCP client, for the rest of the session");
	json_decref(a);
	a = mcp_elicit_answer_now(&s, q, true);
	cr_assert_str_eq(reply(a), "yes");
	json_decref(a);
	json_t *elsewhere = question("npm publish", "/q");
	json_t *other = question("npm publish --tag next", "/p");
	cr_assert_null(mcp_elicit_answer_now(&s, elsewhere, true), "another directory");
	cr_assert_null(mcp_elicit_answer_now(&s, other, true), "another command");
	a = mcp_elicit_answer_now(&s, other, false);
	cr_assert_str_eq(reply(a), "unanswered", "a client that cannot be asked");
	json_decref(a);
	/* bounded: past the cap, commands are asked again */
	for (int i = 0; i < MCP_SESSION_APPROVALS_MAX + 5; i++) {
		char c[32];
		snprintf(c, sizeof(c), "cmd %d", i);
		json_t *qi = question(c, "/p");
		json_decref(mcp_elicit_answer_response(&s, qi, r, NULL));
		json_decref(qi);
	}
	cr_assert_eq(s.n, MCP_SESSION_APPROVALS_MAX);
	json_decref(r);
	json_decref(q);
	json_decref(elsewhere);
	json_decref(other);
	mcp_session_approvals_done(&s);
}

Test(mcp_elicit, a_network_ask_names_the_host_and_port_made_inert)
{
	struct verdict v;
	verdict_init(&v);
	cr_assert_eq(verdict_add(&v, VERDICT_ASK, "sluice", "the command asks to reach it", NULL),
	             0);
	struct approval_request req = { .command = "npm install",
		                        .cwd = "/home/u/project",
		                        .verdict = &v,
		                        .network_host = "evil\x1b[2K.example.org",
		                        .network_port = 443 };
	char *m = mcp_elicit_message(&req, SANDBOX_MODE_WORKSPACE_WRITE);
	cr_assert_not_null(m);
	cr_assert(strstr(m, "not on the network allowlist ([network] allow)"), "%s", m);
	cr_assert(strstr(m, "Host: evil\\x1b[2K.example.org port 443\n"), "%s", m);
	cr_assert(strstr(m, "Command: npm install\n"), "%s", m);
	cr_assert(strstr(m, "Accept to let it connect"), "%s", m);
	cr_assert_null(strstr(m, "Why:"), "the reason only repeats the host: %s", m);
	cr_assert_null(strchr(m, '\x1b'), "nothing a terminal would obey");
	free(m);
	verdict_done(&v);
}

/* A network question as the worker sends it. */
static json_t *network_question(const char *command, const char *host)
{
	return json_pack("{s:{s:s}, s:s, s:s, s:s}", "params", "message", "m", "command", command,
	                 "cwd", "/p", "network", host);
}

Test(mcp_elicit, a_host_remembered_for_the_session_is_not_a_command_remembered)
{
	struct mcp_session_approvals s = { 0 };
	json_t *q = network_question("npm install", "registry.example.org:443");
	cr_assert_null(mcp_elicit_answer_now(&s, q, true), "asked the first time");
	json_t *r = json_pack("{s:s, s:{s:b}}", "action", "accept", "content", "remember", 1);
	json_decref(mcp_elicit_answer_response(&s, q, r, NULL));
	cr_assert_eq(s.n_network, 1);
	cr_assert_eq(s.n, 0, "no command is allowed by a host's yes");
	/* another command, same host: allowed for the session */
	json_t *other = network_question("curl -O x", "registry.example.org:443");
	json_t *a = mcp_elicit_answer_now(&s, other, true);
	cr_assert_str_eq(reply(a), "yes");
	json_decref(a);
	/* another port, and the command itself as an ask: asked */
	json_t *port = network_question("npm install", "registry.example.org:80");
	json_t *command = question("npm install", "/p");
	cr_assert_null(mcp_elicit_answer_now(&s, port, true), "another port");
	cr_assert_null(mcp_elicit_answer_now(&s, command, true), "a command's ask");
	/* a command allowed for the session allows no host */
	json_decref(mcp_elicit_answer_response(&s, command, r, NULL));
	json_t *third = network_question("npm install", "other.example.org:443");
	cr_assert_null(mcp_elicit_answer_now(&s, third, true), "a command's yes is no host's");
	for (int i = 0; i < MCP_SESSION_APPROVALS_MAX + 5; i++) {
		char h[48];
		snprintf(h, sizeof(h), "h%d.example.org:443", i);
		json_t *qi = network_question("x", h);
		json_decref(mcp_elicit_answer_response(&s, qi, r, NULL));
		json_decref(qi);
	}
	cr_assert_eq(s.n_network, MCP_SESSION_APPROVALS_MAX, "bounded");
	json_decref(r);
	json_decref(q);
	json_decref(other);
	json_decref(port);
	json_decref(command);
	json_decref(third);
	mcp_session_approvals_done(&s);
}
