/* SPDX-License-Identifier: MIT */
/*
 * An ask verdict put to the person at the MCP client: the worker running
 * the call asks the server (mcp_worker_ask()), the server sends the client
 * an `elicitation/create` request (what will run, where, in which sandbox,
 * why sluice asks; accept runs it, once or for the rest of the session,
 * decline refuses it) and turns the client's answer, or its silence, into
 * the worker's answer. The same for a host not on [network] allow that a
 * running command asks to reach (run/egress-asks.c; accept lets it
 * connect, the box allows that host and port for the rest of the
 * session). Unanswered questions go on to the configured approver
 * (approval.c).
 * Not for: the transport (mcp-worker.c, mcp-server.c) or deciding (policy/).
 */
#ifndef SLUICE_MCP_ELICIT_H
#define SLUICE_MCP_ELICIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/sandbox-mode.h"
#include "policy/approval.h"

/* The audit log's name for who answered (approved_by). */
#define MCP_ELICIT_BY "mcp-client"

/* Whether a client that declared capabilities (its initialize params'
 * "capabilities", may be NULL) can be asked a form question. */
bool mcp_elicit_client_can(const json_t *capabilities);

/* In a worker: the asker of a bash call, putting questions to the server.
 * The answer is awaited up to wait_ms (and a little longer: the server
 * gives up at wait_ms and says so). */
struct mcp_elicit_asker {
	struct approval_asker asker;
	enum sandbox_mode sandbox_mode; /* named in the question */
	uint64_t wait_ms;
};
void mcp_elicit_asker_init(struct mcp_elicit_asker *a, enum sandbox_mode sandbox_mode,
                           uint64_t wait_ms);

/* The question's message for req (owned), or NULL: the command, the
 * directory, the sandbox, why sluice asks (for a network ask: the host
 * and port), the agent's description, and the choices; every piece of
 * someone else's text made inert. */
char *mcp_elicit_message(const struct approval_request *req, enum sandbox_mode sandbox_mode);

/* The commands the client's user allowed for the rest of the session, each
 * with its directory, and the hosts ("HOST:PORT", as the question names
 * them); at most MCP_SESSION_APPROVALS_MAX of each (more are asked
 * again). */
#define MCP_SESSION_APPROVALS_MAX 64
struct mcp_session_approvals {
	char *command[MCP_SESSION_APPROVALS_MAX];
	char *cwd[MCP_SESSION_APPROVALS_MAX];
	size_t n;
	char *network[MCP_SESSION_APPROVALS_MAX];
	size_t n_network;
};
void mcp_session_approvals_done(struct mcp_session_approvals *a);

/* On the server: the answer to a worker's question that needs no client (a
 * new reference): one allowed earlier in the session, or none to ask
 * (client_can false). NULL when it must be put to the client. */
json_t *mcp_elicit_answer_now(const struct mcp_session_approvals *a, const json_t *question,
                              bool client_can);

/* The elicitation/create params to send for a question (borrowed). */
json_t *mcp_elicit_params(const json_t *question);

/* The answer for the worker from the client's response to its question
 * (result or error, the other NULL); an accepted "remember" is added to a.
 * A new reference, or NULL on allocation failure. */
json_t *mcp_elicit_answer_response(struct mcp_session_approvals *a, const json_t *question,
                                   const json_t *result, const json_t *error);

/* The answer for the worker when the client did not answer in wait_ms. */
json_t *mcp_elicit_answer_timeout(uint64_t wait_ms);

#endif
