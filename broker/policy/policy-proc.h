/* SPDX-License-Identifier: MIT */
/*
 * The policy child forked ahead of its request (policy-proc.c): the one
 * owner of its pid, its two pipes, the text sent to it and the word it
 * shares while its plugins open. Its public half is policy_chain_prepare()
 * and policy_chain_send_ahead() (policy-chain.h); this is what the chain's
 * check asks of it.
 *
 *   state   pid   text pipe  message pipe  text kept
 *   NONE    -     -          -             -
 *   READY   yes   yes        yes           -
 *   SENT    yes   -          yes           yes
 *
 *   NONE --prepare--> READY --send_ahead--> SENT
 *   READY or SENT --take--> NONE (the check owns its pid and message pipe)
 *   any --withdraw--> NONE (killed, with its group, and reaped)
 *
 * Not for: anyone outside the chain.
 */
#ifndef SLUICE_POLICY_PROC_H
#define SLUICE_POLICY_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/command-model.h"

enum policy_proc_state {
	POLICY_PROC_NONE,  /* none forked ahead, or it was taken or withdrawn */
	POLICY_PROC_READY, /* forked: opening its plugins, then waiting for its command */
	POLICY_PROC_SENT,  /* its command sent ahead: parsing it, then checking */
};

/* The child forked ahead. Set up with policy_proc_init(), released with
 * policy_proc_done(); the fields are private to policy-proc.c. */
struct policy_proc {
	enum policy_proc_state state;
	pid_t pid;
	int text_fd; /* write end: its command's text (READY) */
	int msg_fd;  /* read end: its messages */
	char *sent;  /* the text sent ahead (SENT) */
	size_t sent_len;
	/* Shared with the child (MAP_SHARED, kept across children): 1 + the
	 * plugin whose open it is in, 0 when in none (NULL: not mapped,
	 * nothing is known). */
	uint32_t *opening;
};

/* None forked ahead. */
void policy_proc_init(struct policy_proc *p);

enum policy_proc_state policy_proc_state(const struct policy_proc *p);

/* Hand the ready child its command (the source of model), unless it was
 * sent ahead: its pid and message pipe, or -1 (none, it is gone, or what
 * it was sent is not model's: the caller forks as usual, and a child that
 * was there is withdrawn). */
pid_t policy_proc_take(struct policy_proc *p, const struct command_model *model, int *ret_fd);

/* A ready child no request used, or that could not take its command: it is
 * killed before it is waited for. Nothing when there is none. */
void policy_proc_withdraw(struct policy_proc *p);

/* 1 + the plugin whose open the ready child was in, 0 when in none or
 * when nothing is known. */
uint32_t policy_proc_opening(const struct policy_proc *p);

/* Withdraw the ready child and release what it shared (the chain's end). */
void policy_proc_done(struct policy_proc *p);

#endif
