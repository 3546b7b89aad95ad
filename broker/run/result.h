/* SPDX-License-Identifier: MIT */
/*
 * The result of `sluice run`: the interface's JSON object, the text a model
 * reads (first-line markers, truncation marker, timeout explanation, prompt
 * and sandbox-denial hints), and the exit status.
 * Not for: running anything; every field is filled by the verb beforehand.
 */
#ifndef SLUICE_RESULT_H
#define SLUICE_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/error-kind.h"
#include "run/egress-log.h"
#include "run/git-sweep.h"
#include "run/outbuf.h"
#include "run/protect-watch.h"
#include "core/request.h"
#include "policy/verdict.h"
#include "core/run-settings.h"

/* Room for runner.c's steps (the result's stepsUs). */
#define RUN_STEPS_MAX 16

/* One step of sluice's own work on a request, and its wall time. */
struct run_step_time {
	const char *name; /* a static string */
	uint64_t us;
};

/* Everything is borrowed; NULL/0 mean "not applicable". */
struct run_result {
	enum error_kind error;
	char error_message[512];

	bool ran;           /* the shell was started and finished */
	bool has_exit_code; /* exit_code is valid */
	int exit_code;
	int signal; /* the signal that ended it, or 0 */
	bool timed_out;
	int interrupted_by; /* a signal sluice itself received, or 0 */
	enum run_mode mode;
	uint64_t timeout_ms;
	uint64_t duration_ms;
	pid_t pid;
	const pid_t *background_pids;
	size_t n_background_pids;
	bool kill_failed; /* background_pids are what a kill could not end */

	const struct outbuf *output, *out, *err;
	const char *output_file; /* the full output (cut runs) or the job's log */
	bool output_file_cut;    /* the file stopped at its cap */
	/* -errno: the full output of a cut run could not be kept (the file
	 * could not be made, or a write failed: a full jobs directory); then
	 * output_file is NULL when nothing of it was written */
	int output_file_error;

	const char *display;
	const struct verdict *policy;
	bool audit_failed;          /* the audit line of this request could not be written */
	const char *sandbox_report; /* the launcher's JSON report line, or NULL */
	/* the check for protected files the command created (NULL: none ran) */
	const struct protect_watch *protect_watch;

	const char *job_id;        /* background mode */
	const char *job_hint;      /* background mode: how the caller follows and stops the job,
	                       * one line; NULL: the sluice verbs (logs, kill) */
	const char *approval_note; /* an ask that was not approved: who answered, how */
	/* the post-run sweep of the repository (git-sweep.h), or NULL */
	const struct git_sweep *git_sweep;
	/* the egress proxy's connections (egress-log.h) of a run with an
	 * allowlist, or NULL */
	const struct egress_log *network;

	const struct run_settings *settings; /* required: the sandbox mode, caps, survivors */
	/* Each step runner.c took, in order, with its wall time: what sluice's
	 * own checks cost beside the command (stepsUs; bench/run.sh). */
	struct run_step_time steps[RUN_STEPS_MAX];
	unsigned n_steps;
};

/* What result_to_json() writes. */
enum result_json_flags {
	/* The object goes beside the text form, which carries the output (an
	 * MCP result): the output only as byte counts (outputBytes, stdoutBytes,
	 * stderrBytes), `ran` for the interface's `ok` (beside an error flag,
	 * "ok" reads as "succeeded"), and of the sandbox only its mode, what is
	 * missing and the fallback. */
	RESULT_JSON_BESIDE_TEXT = 1 << 0,
};

/* The JSON object of the interface (flags 0), or the one flags asks for (a
 * new reference), or NULL on allocation failure. */
json_t *result_to_json(const struct run_result *r, unsigned flags);

/* Write the text form to out; -errno on a write or allocation failure. */
int result_write_text(const struct run_result *r, FILE *out);

/* The same, with stdout and stderr apart (each under a line "[stdout]",
 * "[stderr]") when apart and the run kept them. */
int result_write_text_streams(const struct run_result *r, bool apart, FILE *out);

/* The exit status of `sluice run` for this result. */
int result_exit_status(const struct run_result *r);

/* Whether the last line of text looks like a prompt waiting for input. */
bool result_looks_like_prompt(const char *text, size_t len);

/* Whether output looks like the sandbox refused something (EACCES, EPERM,
 * EROFS, a refused connection). The text form explains it whenever a
 * sandboxed command's output does, whatever its exit status. */
bool result_looks_like_denial(const char *text, size_t len);

/* Whether output looks like a host that could not be resolved or reached. */
bool result_looks_like_network_failure(const char *text, size_t len);

/* The note after such a failure in a sandboxed run that reaches no network
 * at all (denied, no [network] allow list): tools fail at once there (npm,
 * pip and cargo are told not to retry), and retrying does not help. */
#define RESULT_NO_NETWORK_NOTE                                                                   \
	"[sandbox: the network is refused here: no host outside can be resolved or reached (no " \
	"[network] allow list), so retrying will not help; work offline (the workspace's tool "  \
	"caches are kept across runs), or ask the user to allow the host in [network] allow]\n"

/* The line that tells the model a failure looks like the sandbox's denial
 * in mode, on f; false (nothing written) for a mode that forbids nothing. */
bool result_write_denial_note(FILE *f, enum sandbox_mode mode);

/* The note after a denial in workspace-write where the launcher had no
 * mount namespace: why git writes fail, and what an administrator can do
 * (`sluice doctor` says the same). */
#define RESULT_NO_NAMESPACE_NOTE                                                                   \
	"[sandbox: this system allows no private mount namespace, so the workspace's .git and "    \
	"the top level of the workspace are read-only here: git commands that write the "          \
	"repository (add, commit, switch, stash, ...) fail, and files cannot be created, renamed " \
	"or removed directly in the workspace; say so to the user. An administrator can allow "    \
	"unprivileged user namespaces (sysctl user.max_user_namespaces > 0, "                      \
	"kernel.unprivileged_userns_clone = 1, or the container's seccomp or AppArmor profile), "  \
	"run sluice with CAP_SYS_ADMIN, or set [sandbox] git_writable = yes]\n"

/* The note after a denial when the repository the workspace's .git file
 * names outside the workspace was left read-only; the launcher's reason
 * and "]" follow. */
#define RESULT_GIT_READ_ONLY_NOTE                                                               \
	"[sandbox: the repository this workspace's .git file names lies outside the workspace " \
	"and is read-only here, so git commands that write it fail; say so to the user. It is " \
	"writable only when git registered it as this worktree's, it belongs to the user and "  \
	"holds the files sluice keeps read-only (an administrator can add it to [sandbox] "     \
	"writable, hooks and config included). Why: "

/* The note after husky 8's `husky install` failed (a project's npm
 * "prepare" script, so `npm ci` and `npm install` failed with it): it writes
 * .husky/_ and the repository's core.hooksPath, which stay read-only. Its
 * hooks are the user's to install, outside; HUSKY=0 skips only that step.
 * The output line it follows is husky 8's own (RESULT_HUSKY_FAILED). */
#define RESULT_HUSKY_FAILED "husky - Git hooks failed to install"
#define RESULT_HUSKY_NOTE                                                                       \
	"[sandbox: husky could not install the git hooks (.husky/ and the repository's config " \
	"are kept read-only here); installing them is the user's step, outside the sandbox. "   \
	"Run the command again with HUSKY=0 in front (HUSKY=0 npm ci), which skips only "       \
	"husky's install]\n"

#endif
