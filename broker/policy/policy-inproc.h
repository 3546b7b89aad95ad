/* SPDX-License-Identifier: MIT */
/*
 * The built-in plugins checked in the broker's own process, when they are
 * all a `sluice run`'s chain has (policy_chain_allow_in_process() says why
 * only there; issue 32): the project's own code
 * needs no process of its own, and the fork, the child's load of the
 * built-ins' module and its exit were most of what the plugins cost a run.
 * A crash or a hang is still caught where plugin code runs and named from
 * the progress word, as a child's would be: the pass runs under handlers
 * for the crash signals and a timer of the plugin timeout, which jump
 * back out of it (the timer not from inside the C library, whose locks a
 * jump would leave held). What a crashed plugin left in the broker's memory stays:
 * a built-in that corrupted the heap before it crashed could end the
 * broker as it prints the refusal -- the command still never runs (the
 * launcher waits for it on a pipe that closes), but the message may be
 * lost, where a child's death cost the broker nothing.
 * Not for: reading the messages (policy-chain.c reads them as a child's),
 * any third-party plugin (always a child: policy-child.c).
 */
#ifndef SLUICE_POLICY_INPROC_H
#define SLUICE_POLICY_INPROC_H

#include <stdbool.h>
#include <stddef.h>

#include "model/command-model.h"
#include "policy/policy-chain-state.h"

/* Whether c's plugins run here: a lazy chain (one request a process)
 * allowed to (policy_chain_allow_in_process()) whose every plugin is a built-in (plugin_from_builtins()) and loads
 * here, decided once, and no child forked ahead to take, nor a strict
 * check. The first call loads the built-ins' module into this process (as
 * its child would: the same trust check); when one fails to load, the
 * chain's children load and report it, as before. */
bool policy_inproc_usable(struct policy_chain *c);

/* m's pass through every plugin, here (policy_child_pass()), its messages
 * written to fd. Returns 0 when the pass ended, -ETIMEDOUT when plugin
 * code ran past the plugin timeout, the signal's number when it crashed
 * (the progress word says where), or -errno when it could not be run or
 * its messages written. */
int policy_inproc_pass(struct policy_chain *c, const struct command_model *m, int fd);

#endif
