/* SPDX-License-Identifier: MIT */
/*
 * The broker's side of the egress proxy's ask channel (common/egress-ask.h)
 * for one run: the questions read while the command runs, each host put
 * once to the person at an MCP client (elicitation) where there is one,
 * then, unless they answered, to the configured approver ([approval]
 * method), in a process of its own (an asker) so that the pump goes on
 * reading output and keeps the run's timeout, and every waiting connection
 * answered from what was decided. "For this session": an approved
 * host:port is approved for the rest of the run (an MCP client's person
 * can approve it for the server's life: agent/mcp-elicit.h), a refused one
 * refused without asking again. At most EGRESS_ASKS_MAX hosts are put to
 * the approver per run (an ask flood is refused "ask-limit"); no answer
 * outlives the run's time left.
 * Not for: deciding whether a run may ask (config-run.c, spawner.c), the
 * approver itself (policy/approval.c).
 */
#ifndef SLUICE_EGRESS_ASKS_H
#define SLUICE_EGRESS_ASKS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "egress-ask.h"
#include "config/broker-config.h"
#include "policy/approval.h"

/* Hosts put to the approver per run; questions held at once. */
#define EGRESS_ASKS_MAX 8
#define EGRESS_ASKS_WAITING_MAX 64

/* One host:port asked about in the run. */
struct egress_asked_host {
	char host[EGRESS_HOST_MAX + 2]; /* as the allowlist writes it */
	uint16_t port;
	/* EGRESS_REASON_NONE while being asked; else the answer's reason */
	enum egress_audit_reason answer;
	char by[16];   /* who answered ("program", "terminal"), or "" */
	char why[256]; /* what the approver said, or why nobody was asked */
};

/* A connection waiting for the answer about hosts[host]. */
struct egress_ask_waiting {
	int answer_fd;
	size_t host;
};

struct egress_asks {
	int channel; /* this end of the ask channel; -1: none */
	const struct broker_config *cfg;
	const struct approval_asker *first; /* asked before cfg's approver, or NULL */
	const char *command;                /* the run's, named in the question */
	const char *cwd;
	uint64_t deadline_ms; /* the run's end (monotonic), 0: none */
	struct egress_asked_host hosts[EGRESS_ASKS_MAX];
	size_t n_hosts;
	size_t refused_over_limit; /* questions refused "ask-limit" */
	struct egress_ask_waiting waiting[EGRESS_ASKS_WAITING_MAX];
	size_t n_waiting;
	pid_t asker;   /* the process asking about hosts[asking], or 0 */
	size_t asking; /* meaningful while asker != 0 */
	int asker_fd;  /* its result pipe's read end, or -1 */
	char result[512];
	size_t result_len;
};

/* A new ask channel: a SOCK_SEQPACKET socket pair, close-on-exec; this
 * process's end in *ret_ours, the launcher's in *ret_theirs. 0, or
 * -errno. */
int egress_asks_channel_open(int *ret_ours, int *ret_theirs);

/* Ready a run's asks on channel (owned from now; -1: none), answered by
 * first (the person at an MCP client, through elicitation; NULL: nobody),
 * then, unless first answered, by cfg's approver (cfg NULL: none, the
 * channel closed), for command in cwd (first and the strings borrowed, to
 * outlive a) and never past deadline_ms. first is called in the asker's
 * process. */
void egress_asks_init(struct egress_asks *a, int channel, const struct broker_config *cfg,
                      const struct approval_asker *first, const char *command, const char *cwd,
                      uint64_t deadline_ms);

/* The descriptors to watch for reading (at most 2) into fds; their count. */
size_t egress_asks_fds(const struct egress_asks *a, int fds[2]);

/* fd (one of egress_asks_fds()) is readable or hung up: take a question,
 * or the asker's answer. Never blocks. */
void egress_asks_ready(struct egress_asks *a, int fd);

/* The run is over: the asker is killed, every waiting connection answered
 * "ask-timeout", the channel closed. */
void egress_asks_stop(struct egress_asks *a);

/* The hosts asked about, for the audit line (new reference, NULL when
 * none was): [{host, port, answer, by, why}]. */
json_t *egress_asks_to_json(const struct egress_asks *a);

/* Release everything (egress_asks_stop() first when still running). */
void egress_asks_done(struct egress_asks *a);

#endif
