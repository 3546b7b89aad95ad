/* SPDX-License-Identifier: MIT */
/*
 * The host side of the plugin ABI: the struct sluice_host function table
 * over the command model, and what the opaque sluice_settings and
 * sluice_verdict handles are. A verdict writes typed messages to the policy
 * child's pipe as the plugin calls verdict_add (policy-msg.h).
 * Not for: loading plugins or running the child (plugin-loader.c,
 * policy-chain.c).
 */
#ifndef SLUICE_POLICY_HOST_H
#define SLUICE_POLICY_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "config/broker-config.h"
#include "model/command-model.h"
#include "policy/policy-msg.h"
#include "sluice/policy.h"

/* Reasons one plugin may add to one verdict; more are counted, not sent. */
#define POLICY_HOST_MAX_REASONS 32
/* The longest rewrite a plugin may propose. */
#define POLICY_HOST_MAX_REWRITE (64 * 1024)

struct sluice_settings {
	const struct config_plugin *conf; /* borrowed */
	const char *where;                /* "FILE:LINE" of the section */
	char error[1024];                 /* first settings_error(), with FILE:LINE */
};

struct sluice_verdict {
	struct policy_msg_batch *out; /* the child's messages, written with its model's */
	uint32_t plugin;              /* index in the chain */
	int32_t max;                  /* highest verdict added */
	unsigned n_reasons;
	bool rewritten;
	int send_error; /* first failure to send, -errno */
};

/* The table (static, filled once). */
const struct sluice_host *policy_host(void);

/* The handle a plugin sees for a model (the same object, opaque to it). */
static inline const struct sluice_command *policy_host_command(const struct command_model *m)
{
	return (const struct sluice_command *)m;
}

#endif
