/* SPDX-License-Identifier: MIT */
/*
 * `sluice run`: one request, decided by the policies first, then run through
 * sluice-launch with a timeout, bounded output and the whole process tree
 * accounted for; the result in text or JSON. Reads top to bottom as the
 * order of checks: request, limits, working directory, policy, spawn.
 * Not for: the mechanics (pump.c, spawn.c, jobs.c, result.c do those).
 */
#include "config.h"

#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "environment.h"
#include "error-kind.h"
#include "fd-util.h"
#include "jobs.h"
#include "log.h"
#include "outbuf.h"
#include "parse-number.h"
#include "pump.h"
#include "request.h"
#include "result.h"
#include "run-policy.h"
#include "run-settings.h"
#include "spawner.h"
#include "strv.h"
#include "run-verbs.h"
#include "workdir.h"

extern char **environ;

enum run_format {
	FORMAT_TEXT = 0,
	FORMAT_JSON,
};

/* The sandbox modes the interface names; the launcher's profile names. */
static const char *const sandbox_modes[] = { "unrestricted", "workspace-write", "restricted" };

struct run_options {
	const char *root;    /* -C; NULL: the current directory */
	const char *mode;    /* --mode */
	const char *timeout; /* --timeout */
	const char *sandbox; /* --sandbox */
	const char *config;  /* --config */
	enum run_format format;
	bool json;     /* --json: the request on stdin */
	char *command; /* owned: the words after the options, joined */
};

/* Everything one run owns; released by run_state_done(). */
struct run_state {
	struct run_settings settings;
	struct run_request req;
	struct run_result result;
	struct run_policy policy;
	char *root, *workdir, *display, *launcher, *jobs_dir;
	char **env;
	struct outbuf *output, *out, *err;
	struct pump pump;
	struct job_started job;
};

static void run_state_done(struct run_state *st)
{
	run_request_done(&st->req);
	free(st->root);
	free(st->workdir);
	free(st->display);
	free(st->launcher);
	free(st->jobs_dir);
	free(st->job.output_file);
	strv_free(st->env);
	outbuf_free(st->output);
	outbuf_free(st->out);
	outbuf_free(st->err);
	pump_done(&st->pump);
}

/* Record an error in the result; returns -1 so callers can `return fail(...)`. */
__attribute__((format(printf, 3, 4))) static int fail(struct run_state *st, enum error_kind kind,
                                                      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	st->result.error = kind;
	vsnprintf(st->result.error_message, sizeof(st->result.error_message), fmt, ap);
	va_end(ap);
	return -1;
}

static void usage(FILE *f)
{
	fprintf(f,
	        "Usage: sluice run [-C DIR] [--mode default|slow|background] [--timeout DURATION]\n"
	        "                  [--sandbox unrestricted|workspace-write|restricted]\n"
	        "                  [--format text|json] [--config FILE] [--] COMMAND\n"
	        "       sluice run --json [--format text|json] [...] < request.json\n");
}

static int join_words(char **words, int n, char **ret)
{
	size_t len = 1;
	for (int i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return -ENOMEM;
	s[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (i > 0)
			strcat(s, " ");
		strcat(s, words[i]);
	}
	*ret = s;
	return 0;
}

/* Options through one table; returns 0, 1 for --help, or -EINVAL with the
 * message in st. */
static int parse_options(int argc, char **argv, struct run_options *o, struct run_state *st)
{
	enum { OPT_MODE = 256, OPT_TIMEOUT, OPT_SANDBOX, OPT_FORMAT, OPT_CONFIG, OPT_JSON };
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "directory", required_argument, NULL, 'C' },
		{ "mode", required_argument, NULL, OPT_MODE },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "sandbox", required_argument, NULL, OPT_SANDBOX },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "json", no_argument, NULL, OPT_JSON },
		{},
	};
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "+hC:", options, NULL)) >= 0) {
		switch (c) {
		case 'h':
			return 1;
		case 'C':
			o->root = optarg;
			break;
		case OPT_MODE:
			o->mode = optarg;
			break;
		case OPT_TIMEOUT:
			o->timeout = optarg;
			break;
		case OPT_SANDBOX:
			o->sandbox = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "json") == 0)
				o->format = FORMAT_JSON;
			else if (strcmp(optarg, "text") != 0)
				return fail(st, ERROR_KIND_INVALID_REQUEST,
				            "option '--format' must be text or json, not '%s'",
				            optarg);
			break;
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		default:
			return fail(st, ERROR_KIND_INVALID_REQUEST,
			            "unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc && join_words(argv + optind, argc - optind, &o->command) < 0)
		return fail(st, ERROR_KIND_COMMAND_FAILED, "out of memory");
	return 0;
}

static bool known_sandbox_mode(const char *mode)
{
	for (size_t i = 0; i < ELEMENTSOF(sandbox_modes); i++)
		if (strcmp(sandbox_modes[i], mode) == 0)
			return true;
	return false;
}

static int read_stdin_request(struct run_state *st, struct sluice_error *err)
{
	size_t cap = REQUEST_DOCUMENT_MAX + 1;
	_cleanup_free_ char *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	ssize_t n = read_full(STDIN_FILENO, buf, cap);
	if (n < 0)
		return sluice_error_set(err, (int)n, "reading the request from standard input");
	return request_parse(buf, (size_t)n, st->settings.max_command_size, &st->req, err);
}

/* The request from stdin or the command line, with the flags applied. */
static int build_request(const struct run_options *o, struct run_state *st)
{
	struct sluice_error err = { 0 };
	int r;
	if (o->json) {
		if (o->command)
			return fail(
			        st, ERROR_KIND_INVALID_REQUEST,
			        "with --json the request comes from standard input, not the command line");
		r = read_stdin_request(st, &err);
	} else {
		if (!o->command)
			return fail(st, ERROR_KIND_INVALID_REQUEST, "field 'command' is missing");
		r = request_from_command(o->command, st->settings.max_command_size, &st->req, &err);
	}
	if (r < 0)
		return fail(st, ERROR_KIND_INVALID_REQUEST, "%s", err.detail);
	if (o->mode && run_mode_from_name(o->mode, &st->req.mode) < 0)
		return fail(st, ERROR_KIND_INVALID_REQUEST,
		            "option '--mode' must be one of default, slow, background, not '%s'",
		            o->mode);
	if (o->timeout) {
		r = parse_duration_ms(o->timeout, UINT64_MAX / 2, &st->req.timeout_ms);
		if (r < 0 || st->req.timeout_ms == 0)
			return fail(
			        st, ERROR_KIND_INVALID_REQUEST,
			        "option '--timeout' must be a duration such as 500ms, 30s or 15m, not '%s'",
			        o->timeout);
		st->req.has_timeout = true;
	}
	return 0;
}

/* The timeout that applies, checked against the configured maximum. */
static int apply_limits(const struct run_options *o, struct run_state *st)
{
	const struct run_settings *s = &st->settings;
	uint64_t t = run_settings_mode_timeout(s, st->req.mode);
	if (st->req.has_timeout) {
		char max[32];
		if (st->req.timeout_ms > s->max_timeout_ms)
			return fail(st, ERROR_KIND_INVALID_REQUEST,
			            "%s is more than the configured maximum of %s",
			            o->timeout ? "option '--timeout'" : "field 'timeout_ms'",
			            format_duration_ms(s->max_timeout_ms, max, sizeof(max)));
		t = st->req.timeout_ms;
	}
	st->result.timeout_ms = t;
	st->result.mode = st->req.mode;
	return 0;
}

static int resolve_directory(const struct run_options *o, struct run_state *st)
{
	struct sluice_error err = { 0 };
	int r = workdir_resolve(o->root ? o->root : ".", st->req.directory, &st->root, &st->workdir,
	                        &err);
	if (r == -EXDEV)
		return fail(st, ERROR_KIND_OUTSIDE_WORKSPACE, "%s", err.detail);
	if (r == -ENOENT || r == -ENOTDIR)
		return fail(st, ERROR_KIND_INVALID_WORKING_DIR, "%s", err.detail);
	if (r < 0)
		return fail(st, ERROR_KIND_INVALID_WORKING_DIR, "%s: %s", err.detail, strerror(-r));
	return 0;
}

/* The policy chain decides before anything is spawned. */
static int decide(struct run_state *st)
{
	struct sluice_error err = { 0 };
	st->display = run_display(&st->req, st->workdir);
	if (!st->display)
		return fail(st, ERROR_KIND_COMMAND_FAILED, "out of memory");
	st->result.display = st->display;
	int r = run_check_policy(&st->req, &st->settings, st->workdir, &st->policy, &err);
	if (r < 0)
		return fail(st, ERROR_KIND_PERMISSION_DENIED,
		            "the policies could not decide, so the command was refused: %s",
		            err.detail);
	st->result.policy = &st->policy;
	if (st->policy.verdict == RUN_VERDICT_ALLOW)
		return 0;
	const struct run_reason *why = st->policy.n_reasons > 0 ? &st->policy.reasons[0] : NULL;
	if (st->policy.verdict == RUN_VERDICT_ASK)
		return fail(st, ERROR_KIND_PERMISSION_DENIED,
		            "approval required by %s and not given: %s",
		            why ? why->plugin : "policy", why ? why->message : "");
	return fail(st, ERROR_KIND_PERMISSION_DENIED, "denied by policy %s: %s",
	            why ? why->plugin : "?", why ? why->message : "");
}

static int prepare_spawn(struct run_state *st, struct spawn_request *sr)
{
	const struct run_settings *s = &st->settings;
	int r = environment_build(environ, s->env_drop, s->n_env_drop, s->env_set, s->n_env_set,
	                          &st->env);
	if (r < 0)
		return fail(st, ERROR_KIND_COMMAND_FAILED, "building the environment: %s",
		            strerror(-r));
	r = spawn_find_launcher(&st->launcher);
	if (r < 0)
		return fail(
		        st, ERROR_KIND_COMMAND_FAILED,
		        "sluice-launch was not found (set SLUICE_LAUNCH or install it next to sluice)");
	*sr = (struct spawn_request){
		.launcher = st->launcher,
		.settings = s,
		.workspace = st->root,
		.chdir = st->workdir,
		.command = st->req.command,
		.env = st->env,
		.stdout_fd = -1,
		.stderr_fd = -1,
		.report_fd = -1,
	};
	return 0;
}

static int start_background(struct run_state *st, const struct spawn_request *sr)
{
	struct sluice_error err = { 0 };
	int r = jobs_dir(&st->settings, &st->jobs_dir, &err);
	if (r < 0)
		return fail(st, ERROR_KIND_COMMAND_FAILED, "the jobs directory: %s: %s", err.detail,
		            strerror(-r));
	uint64_t timeout =
	        st->req.has_timeout ? st->req.timeout_ms : st->settings.background_timeout_ms;
	r = jobs_start(st->jobs_dir, sr, timeout, st->settings.kill_grace_ms, &st->job, &err);
	if (r < 0)
		return fail(st, ERROR_KIND_COMMAND_FAILED, "%s: %s", err.detail, strerror(-r));
	st->result.ran = true;
	st->result.pid = st->job.pid;
	st->result.job_id = st->job.id;
	st->result.output_file = st->job.output_file;
	return 0;
}

static int spill_open(void *userdata, char **ret_path)
{
	struct run_state *st = userdata;
	if (!st->jobs_dir) {
		int r = jobs_dir(&st->settings, &st->jobs_dir, NULL);
		if (r < 0)
			return r;
	}
	return jobs_spill_open(st->jobs_dir, ret_path);
}

/* The launcher's own failure: exit 125 before it reported, its message on
 * stderr ("sluice-launch: <step>: ..."). */
static void launcher_failed(struct run_state *st)
{
	size_t len;
	const char *text = outbuf_data(st->err, &len);
	_cleanup_free_ char *line =
	        strndup(text, strcspn(text, "\n") < len ? strcspn(text, "\n") : len);
	const char *msg =
	        line && line[0] ? line : "sluice-launch failed before running the command";
	if (strstr(msg, "landlock") || strstr(msg, "Landlock"))
		fail(st, ERROR_KIND_SANDBOX_UNAVAILABLE, "%s", msg);
	else
		fail(st, ERROR_KIND_COMMAND_FAILED, "%s", msg);
}

static void evaluate(struct run_state *st)
{
	struct pump *p = &st->pump;
	struct run_result *r = &st->result;
	r->duration_ms = p->duration_ms;
	r->sandbox_report = p->report;
	r->background_pids = p->survivors;
	r->n_background_pids = p->n_survivors;
	r->background_killed = st->settings.background_survivors == SURVIVORS_KILL;
	r->output_file = p->spill_path;
	r->output_file_cut = p->spill_cut;
	if (p->interrupted_by) {
		r->interrupted_by = p->interrupted_by;
		fail(st, ERROR_KIND_COMMAND_FAILED, "sluice run was interrupted by signal %d",
		     p->interrupted_by);
		return;
	}
	if (p->timed_out) {
		char limit[32];
		fail(st, ERROR_KIND_TIMEOUT, "the command timed out after %s (%s mode)",
		     format_duration_ms(r->timeout_ms, limit, sizeof(limit)),
		     run_mode_name(r->mode));
		r->timed_out = true;
		return;
	}
	bool reported = p->report_len > 0 && strstr(p->report, "\"error\"") == NULL;
	int status = p->status;
	if (!reported && WIFEXITED(status) && WEXITSTATUS(status) == 125) {
		launcher_failed(st);
		return;
	}
	if (p->report_len > 0 && !reported) {
		fail(st, ERROR_KIND_COMMAND_FAILED, "could not execute the shell '%s'",
		     st->settings.shell);
		return;
	}
	r->ran = true;
	if (WIFSIGNALED(status)) {
		r->signal = WTERMSIG(status);
	} else {
		r->has_exit_code = true;
		r->exit_code = WEXITSTATUS(status);
	}
}

static int run_foreground(struct run_state *st, struct spawn_request *sr)
{
	const struct run_settings *s = &st->settings;
	st->output = outbuf_new(s->output_cap, s->output_head, s->output_tail);
	st->out = outbuf_new(s->output_cap, s->output_head, s->output_tail);
	st->err = outbuf_new(s->output_cap, s->output_head, s->output_tail);
	if (!st->output || !st->out || !st->err)
		return fail(st, ERROR_KIND_CONFIG_ERROR,
		            "the output caps do not fit: head + tail must not exceed the cap");
	st->result.output = st->output;
	st->result.out = st->out;
	st->result.err = st->err;

	int sigfd = pump_block_signals();
	int r = sigfd < 0 ? sigfd : spawn_become_subreaper();
	_cleanup_close_ int out_r = -1, out_w = -1, err_r = -1, err_w = -1, rep_r = -1, rep_w = -1;
	int fds[2];
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (out_r = fds[0], out_w = fds[1], 0);
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (err_r = fds[0], err_w = fds[1], 0);
	if (r >= 0)
		r = pipe2(fds, O_CLOEXEC) < 0 ? neg_errno() : (rep_r = fds[0], rep_w = fds[1], 0);
	sr->stdout_fd = out_w;
	sr->stderr_fd = err_w;
	sr->report_fd = rep_w;
	pid_t pid = -1;
	uint64_t start = pump_now_ms();
	if (r >= 0)
		r = spawn_start(sr, &pid);
	if (r < 0) {
		safe_close(sigfd);
		return fail(st, ERROR_KIND_COMMAND_FAILED, "starting '%s': %s", st->launcher,
		            strerror(-r));
	}
	/* Only the child keeps the write ends: EOF then means it is done. */
	out_w = safe_close(out_w);
	err_w = safe_close(err_w);
	rep_w = safe_close(rep_w);
	st->result.pid = pid;
	st->pump = (struct pump){
		.out_fd = TAKE_FD(out_r),
		.err_fd = TAKE_FD(err_r),
		.report_fd = TAKE_FD(rep_r),
		.signal_fd = sigfd,
		.pid = pid,
		.start_ms = start,
		.timeout_ms = st->result.timeout_ms,
		.kill_grace_ms = s->kill_grace_ms,
		.drain_window_ms = s->drain_window_ms,
		.kill_survivors = s->background_survivors == SURVIVORS_KILL,
		.combined = st->output,
		.out = st->out,
		.err = st->err,
		.spill_cap = s->output_file_cap,
		.spill_open = spill_open,
		.spill_userdata = st,
		.spill_fd = -1,
	};
	r = pump_run(&st->pump);
	safe_close(sigfd);
	if (r < 0)
		return fail(st, ERROR_KIND_COMMAND_FAILED, "watching the command: %s",
		            strerror(-r));
	evaluate(st);
	return 0;
}

static int print_result(const struct run_state *st, enum run_format format)
{
	if (format == FORMAT_JSON) {
		json_t *obj = result_to_json(&st->result);
		if (!obj)
			return -ENOMEM;
		int r = json_dumpf(obj, stdout, JSON_COMPACT);
		json_decref(obj);
		if (r < 0)
			return -EIO;
		fputc('\n', stdout);
		return fflush(stdout) == 0 ? 0 : neg_errno();
	}
	return result_write_text(&st->result, stdout);
}

static int run_steps(const struct run_options *o, struct run_state *st)
{
	struct spawn_request sr;
	if (o->config)
		return fail(st, ERROR_KIND_CONFIG_ERROR, "--config is not supported yet");
	if (o->sandbox && !known_sandbox_mode(o->sandbox))
		return fail(st, ERROR_KIND_INVALID_REQUEST,
		            "option '--sandbox' must be one of unrestricted, workspace-write, "
		            "restricted, not '%s'",
		            o->sandbox);
	if (o->sandbox)
		st->settings.sandbox_mode = o->sandbox;
	st->result.sandbox_mode = st->settings.sandbox_mode;
	if (build_request(o, st) < 0 || apply_limits(o, st) < 0 || resolve_directory(o, st) < 0 ||
	    decide(st) < 0 || prepare_spawn(st, &sr) < 0)
		return -1;
	if (st->req.mode == RUN_MODE_BACKGROUND)
		return start_background(st, &sr);
	return run_foreground(st, &sr);
}

int cmd_run(int argc, char **argv)
{
	struct run_options o = { 0 };
	_cleanup_(run_state_done) struct run_state st = { 0 };
	st.pump = (struct pump){
		.out_fd = -1, .err_fd = -1, .report_fd = -1, .signal_fd = -1, .spill_fd = -1
	};
	run_settings_init_defaults(&st.settings);
	st.result.settings = &st.settings;
	st.result.sandbox_mode = st.settings.sandbox_mode;

	int r = parse_options(argc, argv, &o, &st);
	if (r == 1) {
		usage(stdout);
		return 0;
	}
	if (r == 0)
		(void)run_steps(&o, &st);
	free(o.command);
	r = print_result(&st, o.format);
	if (r < 0)
		log_error("writing the result: %s", strerror(-r));
	return result_exit_status(&st.result);
}
