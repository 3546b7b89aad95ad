/* SPDX-License-Identifier: MIT */
/*
 * The policy child forked ahead of its request (policy-ahead.c): its
 * public half is policy_chain_prepare() and policy_chain_send_ahead()
 * (policy-chain.h); this is what the chain's check asks of it.
 * Not for: anyone outside the chain.
 */
#ifndef SLUICE_POLICY_AHEAD_H
#define SLUICE_POLICY_AHEAD_H

#include <stdint.h>
#include <sys/types.h>

#include "model/command-model.h"
#include "policy/policy-chain-state.h"

/* Hand the ready child its command (the source of model), unless it was
 * sent ahead: its pid and message pipe, or -1 (none, it is gone, or what
 * it was sent is not model's: the caller forks as usual). */
pid_t policy_ahead_take(struct policy_chain *c, const struct command_model *model, int *ret_fd);

/* A ready child no request used, or that could not take its command: it is
 * killed before it is waited for. Nothing when there is none. */
void policy_ahead_withdraw(struct policy_chain *c);

/* 1 + the plugin whose open the ready child was in, 0 when in none or
 * when nothing is known. */
uint32_t policy_ahead_opening(const struct policy_chain *c);

/* Withdraw the ready child and release what it shared (the chain's end). */
void policy_ahead_done(struct policy_chain *c);

#endif
