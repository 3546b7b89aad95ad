/* SPDX-License-Identifier: MIT */
/*
 * The sandbox modes, once: the enum every layer passes around, and one table
 * of what each mode is called (the launcher's profile name) and what it
 * forbids, as told to the model. [sandbox] mode's choices are made from the
 * same names.
 * Not for: what a mode enforces (launcher/profiles.c), or which mode a run
 * gets (run-settings.h: the configured floor and a caller's choice).
 */
#ifndef SLUICE_SANDBOX_MODE_H
#define SLUICE_SANDBOX_MODE_H

#include "errors.h"
#include "launch-spec.h"

/* Loosest first: a mode's value is its strictness, so that "stricter" is
 * "greater" (a configured mode is a floor a caller may only raise). */
enum sandbox_mode {
	SANDBOX_MODE_UNRESTRICTED,
	SANDBOX_MODE_WORKSPACE_WRITE,
	SANDBOX_MODE_RESTRICTED,
	SANDBOX_MODE_COUNT
};

/* The names, '|'-separated in enum order: the choices of the ENUM key
 * [sandbox] mode, whose index is then an enum sandbox_mode. */
#define SANDBOX_MODE_CHOICES \
	LAUNCH_PROFILE_UNRESTRICTED "|" LAUNCH_PROFILE_WORKSPACE_WRITE "|" LAUNCH_PROFILE_RESTRICTED

/* The built-in default, when no layer and no caller chose one. */
#define SANDBOX_MODE_DEFAULT SANDBOX_MODE_WORKSPACE_WRITE

/* mode's name, the launcher's profile name (a static string). */
const char *sandbox_mode_name(enum sandbox_mode mode);

/* What mode forbids, as a phrase for the model ("writing outside the
 * workspace, ..."; a static string), or NULL for a mode that forbids
 * nothing (unrestricted). */
const char *sandbox_mode_forbids(enum sandbox_mode mode);

/* The mode called name into *ret. Returns 0, or -EINVAL with reterr naming
 * the modes there are. */
int sandbox_mode_from_name(const char *name, enum sandbox_mode *ret, struct sluice_error *reterr);

#endif
