/* SPDX-License-Identifier: MIT */
/*
 * The question an ask verdict becomes at the MCP client, and the answers:
 * accept runs the command (its "remember" box: this exact command in this
 * directory for the rest of the session), decline refuses it, and a
 * dismissed question, an error or silence leaves it unanswered, for the
 * configured approver. A network ask likewise, for a host and port (the
 * box: that host and port for the rest of the session, whatever command
 * asks). Worker and server speak in small JSON objects: question
 * {"params", "command", "cwd", and "network": "HOST:PORT" for a network
 * ask}, answer {"reply", "why"}.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/mcp-elicit.h"
#include "agent/mcp-worker.h"
#include "cleanup.h"
#include "parse-number.h"
#include "run/result.h"
#include "util/terminal-text.h"

/* How much longer a worker waits than the server does: the server's
 * "no answer in time" arrives first. */
#define ASK_MARGIN_MS 5000

bool mcp_elicit_client_can(const json_t *capabilities)
{
	json_t *e = json_object_get(capabilities, "elicitation");
	/* {} is form (2025-06-18); 2025-11-25 names the modes */
	return json_is_object(e) && (json_object_size(e) == 0 || json_object_get(e, "form"));
}

/* "LABEL: text\n", text made inert (a command may hold escape sequences
 * that a terminal client would obey). */
static void line(FILE *f, const char *label, const char *text)
{
	fprintf(f, "%s: ", label);
	terminal_safe_write(f, text);
	fputc('\n', f);
}

char *mcp_elicit_message(const struct approval_request *req, enum sandbox_mode sandbox_mode)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	bool network = req->network_host != NULL;
	if (network) {
		fputs("sluice asks before the running command connects to a host that is not "
		      "on the network allowlist ([network] allow).\n\n",
		      f);
		fputs("Host: ", f);
		terminal_safe_write(f, req->network_host);
		fprintf(f, " port %u\n", req->network_port);
	} else {
		fputs("sluice asks before running this command.\n\n", f);
	}
	line(f, "Command", req->command ? req->command : "");
	if (req->cwd)
		line(f, "Directory", req->cwd);
	const char *forbids = sandbox_mode_forbids(sandbox_mode);
	if (forbids)
		fprintf(f, "Sandbox: %s (it forbids %s)\n", sandbox_mode_name(sandbox_mode),
		        forbids);
	else
		fprintf(f, "Sandbox: %s (none: the command can do whatever you can)\n",
		        sandbox_mode_name(sandbox_mode));
	/* a network ask's reason only repeats the host */
	for (size_t i = 0; !network && i < req->verdict->n_reasons; i++) {
		const struct verdict_reason *r = &req->verdict->reasons[i];
		if (r->kind != VERDICT_ASK)
			continue;
		fputs("Why: ", f);
		terminal_safe_write(f, r->plugin);
		fputs(": ", f);
		terminal_safe_write(f, r->message);
		fputc('\n', f);
	}
	if (req->description)
		line(f, "The agent says", req->description);
	fputs(network ? "\nAccept to let it connect (tick the box to allow this host and port "
	                "for the rest of the session); decline to refuse it."
	              : "\nAccept to run it (tick the box to allow this exact command in this "
	                "directory for the rest of the session); decline to refuse it.",
	      f);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The answer object {"reply": yes|no|unanswered, "why"}. */
static json_t *answer(const char *reply, const char *why)
{
	return json_pack("{s:s, s:s}", "reply", reply, "why", why);
}

static enum approval_reply ask(void *userdata, const struct approval_request *req, char **ret_why)
{
	const struct mcp_elicit_asker *a = userdata;
	_cleanup_free_ char *message = mcp_elicit_message(req, a->sandbox_mode);
	char host[300] = "";
	if (req->network_host)
		snprintf(host, sizeof(host), "%s:%u", req->network_host, req->network_port);
	json_t *params =
	        message ? json_pack("{s:s, s:{s:s, s:{s:{s:s, s:s, s:s, s:b}}}}", "message",
	                            message, "requestedSchema", "type", "object", "properties",
	                            "remember", "type", "boolean", "title",
	                            *host ? "Allow this host for the rest of the session"
	                                  : "Allow this exact command for the rest of the session",
	                            "description",
	                            *host ? "Let it connect now, and let any command of this "
	                                    "session connect to this host and port without "
	                                    "asking until the session ends"
	                                  : "Run it now, and run this same command in this same "
	                                    "directory again without asking until the session "
	                                    "ends",
	                            "default", 0)
	                : NULL;
	_cleanup_(json_decrefp) json_t *question =
	        params ? json_pack("{s:o, s:s, s:s}", "params", params, "command",
	                           req->command ? req->command : "", "cwd",
	                           req->cwd ? req->cwd : "")
	               : NULL;
	if (question && *host && json_object_set_new(question, "network", json_string(host)) < 0) {
		json_decref(question);
		question = NULL;
	}
	_cleanup_(json_decrefp) json_t *reply = NULL;
	int r = question ? mcp_worker_ask(question, a->wait_ms + ASK_MARGIN_MS, &reply) : -ENOMEM;
	if (r == -ECANCELED) { /* nothing is to run: no approver either */
		*ret_why = strdup("the call was cancelled while the MCP client was asked");
		return APPROVAL_WITHDRAWN;
	}
	const char *said = json_string_value(json_object_get(reply, "reply"));
	const char *why = json_string_value(json_object_get(reply, "why"));
	if (r < 0 || !said) {
		if (asprintf(ret_why, "the MCP client could not be asked: %s",
		             r < 0 ? strerror(-r) : "no answer from the server") < 0)
			*ret_why = NULL;
		return APPROVAL_UNANSWERED;
	}
	*ret_why = why ? strdup(why) : NULL;
	if (strcmp(said, "yes") == 0)
		return APPROVAL_YES;
	return strcmp(said, "no") == 0 ? APPROVAL_NO : APPROVAL_UNANSWERED;
}

void mcp_elicit_asker_init(struct mcp_elicit_asker *a, enum sandbox_mode sandbox_mode,
                           uint64_t wait_ms)
{
	*a = (struct mcp_elicit_asker){
		.asker = { .ask = ask, .userdata = a, .by = MCP_ELICIT_BY },
		.sandbox_mode = sandbox_mode,
		.wait_ms = wait_ms,
	};
}

void mcp_session_approvals_done(struct mcp_session_approvals *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->command[i]);
		free(a->cwd[i]);
	}
	a->n = 0;
	for (size_t i = 0; i < a->n_network; i++)
		free(a->network[i]);
	a->n_network = 0;
}

static bool remembered(const struct mcp_session_approvals *a, const char *command, const char *cwd)
{
	for (size_t i = 0; command && cwd && i < a->n; i++)
		if (strcmp(a->command[i], command) == 0 && strcmp(a->cwd[i], cwd) == 0)
			return true;
	return false;
}

/* Remember command in cwd; false when it could not be (full, or out of
 * memory): it is then asked again next time. */
static bool remember(struct mcp_session_approvals *a, const char *command, const char *cwd)
{
	if (!command || !cwd || a->n == MCP_SESSION_APPROVALS_MAX)
		return false;
	char *c = strdup(command), *d = strdup(cwd);
	if (!c || !d) {
		free(c);
		free(d);
		return false;
	}
	a->command[a->n] = c;
	a->cwd[a->n++] = d;
	return true;
}

static bool network_remembered(const struct mcp_session_approvals *a, const char *host)
{
	for (size_t i = 0; host && i < a->n_network; i++)
		if (strcmp(a->network[i], host) == 0)
			return true;
	return false;
}

/* Remember host ("HOST:PORT"), as remember() does. */
static bool network_remember(struct mcp_session_approvals *a, const char *host)
{
	if (!host || a->n_network == MCP_SESSION_APPROVALS_MAX)
		return false;
	char *h = strdup(host);
	if (!h)
		return false;
	a->network[a->n_network++] = h;
	return true;
}

json_t *mcp_elicit_answer_now(const struct mcp_session_approvals *a, const json_t *question,
                              bool client_can)
{
	const char *command = json_string_value(json_object_get(question, "command"));
	const char *cwd = json_string_value(json_object_get(question, "cwd"));
	/* a network ask is answered by the hosts allowed, never by a command
	 * allowed: that command may reach only what the list lets it */
	const char *host = json_string_value(json_object_get(question, "network"));
	if (host ? network_remembered(a, host) : remembered(a, command, cwd))
		return answer("yes", "allowed for this session at the MCP client");
	if (!client_can)
		return answer("unanswered", "the MCP client cannot be asked (it declared no form "
		                            "elicitation)");
	return NULL;
}

json_t *mcp_elicit_params(const json_t *question)
{
	return json_object_get(question, "params");
}

json_t *mcp_elicit_answer_response(struct mcp_session_approvals *a, const json_t *question,
                                   const json_t *result, const json_t *error)
{
	const char *action = json_string_value(json_object_get(result, "action"));
	if (!action) {
		const char *msg = json_string_value(json_object_get(error, "message"));
		char why[512];
		snprintf(why, sizeof(why), "the MCP client could not ask: %s",
		         msg ? msg : "it answered with neither an action nor an error");
		return answer("unanswered", why);
	}
	if (strcmp(action, "accept") == 0) {
		json_t *content = json_object_get(result, "content");
		const char *host = json_string_value(json_object_get(question, "network"));
		bool keep =
		        json_is_true(json_object_get(content, "remember")) &&
		        (host ? network_remember(a, host)
		              : remember(a, json_string_value(json_object_get(question, "command")),
		                         json_string_value(json_object_get(question, "cwd"))));
		return answer("yes",
		              keep ? "accepted at the MCP client, for the rest of the session"
		                   : "accepted at the MCP client");
	}
	if (strcmp(action, "decline") == 0)
		return answer("no", "declined at the MCP client");
	return answer("unanswered", "the question was dismissed at the MCP client");
}

json_t *mcp_elicit_answer_timeout(uint64_t wait_ms)
{
	char t[32], why[96];
	snprintf(why, sizeof(why), "no answer at the MCP client within %s",
	         format_duration_ms(wait_ms, t, sizeof(t)));
	return answer("unanswered", why);
}
