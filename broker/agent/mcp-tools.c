/* SPDX-License-Identifier: MIT */
/*
 * The tools of `sluice mcp`, each a row of one table: its definition for
 * tools/list (title, annotations, schemas) and the function that answers
 * tools/call. Arguments are checked here (or by request.c for `bash`); a
 * refusal is a tool result with isError, so the model reads why.
 *
 * The output goes to the model once, in the text, and bash and job_output
 * return no structuredContent: Claude Code and Codex hand the model the
 * structured content alone when there is one (the text is dropped), Gemini
 * CLI the text alone, so only a result without one reaches the model whole
 * in all of them, at the cost of the output once. The result's fields (exit
 * code, sizes, policy, sandbox) go in _meta under "sluice/result", for
 * programs; no client shows _meta to the model.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/mcp-elicit.h"
#include "agent/mcp-tools.h"
#include "cleanup.h"
#include "run/jobs.h"
#include "run/tool-caches.h"
#include "parse-number.h"
#include "run/result.h"
#include "run/runner.h"
#include "agent/tool-schema.h"
#include "utf8.h"

/* job_output: the default and the largest number of lines. */
#define JOB_OUTPUT_TAIL_DEFAULT 200
#define JOB_OUTPUT_TAIL_MAX 100000
/* How long job_kill waits, beyond the kill grace, for the job to end. */
#define JOB_KILL_WAIT_MS 5000

/* The key of a result's _meta that holds sluice's fields. */
#define RESULT_META_KEY "sluice/result"

/* {"content":[{"type":"text","text":text}],"isError":..}, with structured
 * content and _meta["sluice/result"] when given (both stolen). */
static json_t *tool_result_full(const char *text, size_t len, json_t *structured, json_t *meta,
                                bool is_error)
{
	_cleanup_free_ char *clean = utf8_sanitize(text, len, &len);
	json_t *content =
	        clean ? json_pack("[{s:s, s:s%}]", "type", "text", "text", clean, len) : NULL;
	json_t *res =
	        content ? json_pack("{s:o, s:b}", "content", content, "isError", is_error) : NULL;
	if (res && structured)
		json_object_set_new(res, "structuredContent", structured);
	else
		json_decref(structured);
	if (res && meta)
		json_object_set_new(res, "_meta", json_pack("{s:o}", RESULT_META_KEY, meta));
	else
		json_decref(meta);
	return res;
}

static json_t *tool_result(const char *text, size_t len, json_t *structured, bool is_error)
{
	return tool_result_full(text, len, structured, NULL, is_error);
}

__attribute__((format(printf, 2, 3))) static json_t *tool_refusal(json_t *structured,
                                                                  const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tool_result(msg,
	                   n < 0                      ? 0
	                   : (size_t)n >= sizeof(msg) ? sizeof(msg) - 1
	                                              : (size_t)n,
	                   structured, true);
}

static struct runner_options runner_options_for(const struct mcp_context *ctx,
                                                const struct mcp_call_io *io)
{
	struct runner_options ro = RUNNER_OPTIONS_INIT;
	ro.context = ctx->policies;
	ro.workspace_root = ctx->root;
	if (io) {
		ro.cancel_fd = io->cancel_fd;
		ro.progress = io->progress;
		ro.progress_interval_ms = io->progress_interval_ms;
		ro.progress_userdata = io->progress_userdata;
	}
	return ro;
}

struct run_outcome *mcp_tools_prepare_bash(const struct mcp_context *ctx)
{
	struct run_outcome *o = malloc(sizeof(*o));
	if (!o)
		return NULL;
	run_outcome_init(o, &ctx->settings);
	struct runner_options ro = runner_options_for(ctx, NULL);
	/* best effort: the call starts it otherwise */
	(void)runner_begin(&ro, o, RUNNER_BEGIN_BEFORE_REQUEST);
	return o;
}

void mcp_tools_discard_prepared(struct run_outcome *prepared)
{
	if (!prepared)
		return;
	run_outcome_done(prepared);
	free(prepared);
}

/* The CallToolResult of a run (a new reference), or NULL; streams: stdout
 * and stderr apart in the text. */
static json_t *bash_result(const struct run_result *res, bool streams)
{
	int r;
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	r = result_write_text_streams(res, streams, f);
	if (fclose(f) != 0 || r < 0)
		return NULL;
	json_t *meta = result_to_json(res, RESULT_JSON_BESIDE_TEXT);
	if (!meta)
		return NULL;
	bool failed = res->error != ERROR_KIND_NONE || res->signal ||
	              (res->has_exit_code && res->exit_code != 0);
	return tool_result_full(text, len, NULL, meta, failed);
}

/* The bash tool's own argument beside the request's: "streams" (a
 * boolean) is taken out of args (a copy in *ret_args when it was there).
 * -EINVAL when it is not a boolean, or -ENOMEM, with reterr. */
static int take_streams(json_t *args, json_t **ret_args, bool *ret_streams,
                        struct sluice_error *reterr)
{
	*ret_args = NULL;
	json_t *v = json_object_get(args, "streams");
	*ret_streams = json_is_true(v);
	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return sluice_error_set(reterr, -EINVAL, "field 'streams' must be a boolean");
	*ret_args = json_copy(args);
	if (!*ret_args || json_object_del(*ret_args, "streams") < 0)
		return sluice_error_set(reterr, -ENOMEM, "out of memory");
	return 0;
}

static json_t *call_bash(const struct mcp_context *ctx, json_t *args, const struct mcp_call_io *io)
{
	struct run_outcome fresh;
	struct run_outcome *o = io->prepared;
	if (!o) {
		run_outcome_init(&fresh, &ctx->settings);
		o = &fresh;
	}
	_cleanup_(run_request_done) struct run_request req = { 0 };
	struct sluice_error err = { 0 };
	bool streams = false;
	_cleanup_(json_decrefp) json_t *own = NULL;
	_cleanup_(json_decrefp) json_t *empty = args ? NULL : json_object();
	int r = take_streams(args, &own, &streams, &err);
	json_t *request = own ? own : args ? args : empty;
	if (r == 0)
		r = request_from_json(request, ctx->settings.max_command_size, &req, &err);
	char hint[JOB_ID_MAX + 160];
	if (r < 0) {
		run_outcome_fail(o, ERROR_KIND_INVALID_REQUEST, "%s", err.detail);
	} else {
		struct runner_options ro = runner_options_for(ctx, io);
		struct mcp_elicit_asker asker;
		if (ctx->elicit) {
			const struct broker_config *cfg = broker_context_config(ctx->policies);
			mcp_elicit_asker_init(&asker, ctx->settings.sandbox_mode,
			                      cfg->approval_timeout);
			ro.asker = &asker.asker;
		}
		(void)runner_execute(&req, &ro, o);
		/* the tools that reach a job from here; `sluice kill` and a
		 * signal to its group may not work from a sandboxed command */
		snprintf(hint, sizeof(hint),
		         "[read its output with the job_output tool, stop it with the job_kill "
		         "tool: job %s]",
		         o->result.job_id ? o->result.job_id : "?");
		o->result.job_hint = hint;
	}
	json_t *ret = bash_result(&o->result, streams);
	run_outcome_done(o);
	return ret;
}

/* The arguments object must hold only the names in allowed. */
static const char *unknown_argument(json_t *args, const char *const *allowed, size_t n)
{
	const char *key;
	json_t *v;
	json_object_foreach(args, key, v)
	{
		bool ok = false;
		for (size_t i = 0; i < n && !ok; i++)
			ok = strcmp(key, allowed[i]) == 0;
		if (!ok)
			return key;
	}
	return NULL;
}

static int open_jobs(const struct mcp_context *ctx, char **dir, json_t **refusal)
{
	struct sluice_error err = { 0 };
	int r = jobs_dir(&ctx->settings, dir, &err);
	if (r < 0)
		*refusal =
		        tool_refusal(NULL, "the jobs directory: %s: %s", err.detail, strerror(-r));
	return r;
}

struct job_list {
	json_t *arr;
	FILE *text;
	const char *workspace; /* only its jobs; NULL: all */
};

static int add_job(const struct job_info *job, void *userdata)
{
	struct job_list *l = userdata;
	if (l->workspace && !jobs_in_workspace(job, l->workspace))
		return 0;
	json_t *o = jobs_info_to_json(job);
	if (!o || json_array_append_new(l->arr, o) < 0)
		return -ENOMEM;
	char cut[96];
	jobs_cut_text(job, cut, sizeof(cut));
	fprintf(l->text, "%s  %s%s%s%s  pid %d  %s\n", job->id, job_state_name(job->state),
	        cut[0] ? " (" : "", cut, cut[0] ? ")" : "", (int)job->pid, job->command);
	return 0;
}

static json_t *call_jobs(const struct mcp_context *ctx, json_t *args, const struct mcp_call_io *io)
{
	(void)io;
	static const char *const allowed[] = { "all" };
	const char *bad = args ? unknown_argument(args, allowed, ELEMENTSOF(allowed)) : NULL;
	if (bad)
		return tool_refusal(NULL, "invalid_request: unknown field '%s'", bad);
	json_t *all = json_object_get(args, "all");
	if (all && !json_is_boolean(all))
		return tool_refusal(NULL, "invalid_request: field 'all' must be a boolean");
	_cleanup_free_ char *dir = NULL, *text = NULL;
	json_t *refusal = NULL;
	if (open_jobs(ctx, &dir, &refusal) < 0)
		return refusal;
	(void)jobs_cleanup_all(dir, ctx->settings.jobs_max_age_ms);
	(void)tool_caches_tidy_due(dir, ctx->settings.tool_caches_size);
	size_t len = 0;
	struct job_list l = { .arr = json_array(),
		              .text = open_memstream(&text, &len),
		              .workspace = json_is_true(all) ? NULL : ctx->root };
	int r = l.arr && l.text ? jobs_foreach(dir, add_job, &l) : -ENOMEM;
	if (l.text && json_array_size(l.arr) == 0)
		fprintf(l.text, "no background jobs%s\n",
		        l.workspace ? " in this workspace (all: true lists every workspace's)"
		                    : "");
	if (l.text && fclose(l.text) != 0)
		r = -EIO;
	if (r < 0) {
		json_decref(l.arr);
		return tool_refusal(NULL, "listing the jobs: %s", strerror(-r));
	}
	/* the same facts twice, as lines for Gemini CLI (which shows the text)
	 * and as structure for Claude Code and Codex (which show only that) */
	return tool_result(text, len, json_pack("{s:o}", "jobs", l.arr), false);
}

/* The job named by the "job" argument, or a refusal. */
static int job_argument(json_t *args, const char *const *allowed, size_t n, const char **ret,
                        json_t **refusal)
{
	const char *bad = args ? unknown_argument(args, allowed, n) : NULL;
	if (bad) {
		*refusal = tool_refusal(NULL, "invalid_request: unknown field '%s'", bad);
		return -EINVAL;
	}
	*ret = json_string_value(json_object_get(args, "job"));
	if (!*ret) {
		*refusal = tool_refusal(NULL, "invalid_request: field 'job' (a string) is missing; "
		                              "the jobs tool lists them");
		return -EINVAL;
	}
	return 0;
}

static json_t *call_job_output(const struct mcp_context *ctx, json_t *args,
                               const struct mcp_call_io *io)
{
	(void)io;
	static const char *const allowed[] = { "job", "tail" };
	const char *id;
	json_t *refusal = NULL;
	if (job_argument(args, allowed, ELEMENTSOF(allowed), &id, &refusal) < 0)
		return refusal;
	json_t *tail_v = json_object_get(args, "tail");
	json_int_t tail = tail_v ? json_integer_value(tail_v) : JOB_OUTPUT_TAIL_DEFAULT;
	if (tail_v && (!json_is_integer(tail_v) || tail < 1 || tail > JOB_OUTPUT_TAIL_MAX))
		return tool_refusal(NULL,
		                    "invalid_request: field 'tail' must be an integer from 1 "
		                    "to %d",
		                    JOB_OUTPUT_TAIL_MAX);
	_cleanup_free_ char *dir = NULL;
	if (open_jobs(ctx, &dir, &refusal) < 0)
		return refusal;
	_cleanup_(jobs_info_done) struct job_info job = { 0 };
	if (jobs_read(dir, id, &job) < 0)
		return tool_refusal(NULL, "no job '%s' (the jobs tool lists them)", id);
	_cleanup_free_ char *path = jobs_output_path(dir, id);
	_cleanup_close_ int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		return tool_refusal(NULL, "cannot read the output of job '%s'", id);
	off_t from = jobs_tail_offset(fd, st.st_size, (uint64_t)tail);
	/* At most the output cap, from the end. */
	uint64_t cap = ctx->settings.output_cap;
	bool cut = (uint64_t)(st.st_size - from) > cap;
	if (cut)
		from = st.st_size - (off_t)cap;
	size_t want = (size_t)(st.st_size - from);
	_cleanup_free_ char *buf = malloc(want + 1);
	ssize_t n = buf ? pread(fd, buf, want, from) : -1;
	if (n < 0)
		return tool_refusal(NULL, "cannot read the output of job '%s'", id);
	_cleanup_free_ char *text = NULL;
	char file_cut[96];
	jobs_cut_text(&job, file_cut, sizeof(file_cut));
	if (asprintf(&text, "[job %s: %s; %s%s%s%s]\n%.*s", id, job_state_name(job.state), file_cut,
	             file_cut[0] ? "; " : "",
	             !cut          ? "output in "
	             : file_cut[0] ? "the output is cut to its last bytes; the file is "
	                           : "the output is cut to its last bytes; the whole of it is in ",
	             path, (int)n, buf) < 0)
		return NULL;
	return tool_result_full(text, strlen(text), NULL,
	                        json_pack("{s:s, s:s, s:s, s:b, s:b}", "job", id, "status",
	                                  job_state_name(job.state), "outputFile", path, "cut", cut,
	                                  "truncated", job.truncated),
	                        false);
}

static json_t *call_job_kill(const struct mcp_context *ctx, json_t *args,
                             const struct mcp_call_io *io)
{
	(void)io;
	static const char *const allowed[] = { "job" };
	const char *id;
	json_t *refusal = NULL;
	if (job_argument(args, allowed, ELEMENTSOF(allowed), &id, &refusal) < 0)
		return refusal;
	_cleanup_free_ char *dir = NULL;
	if (open_jobs(ctx, &dir, &refusal) < 0)
		return refusal;
	int r = jobs_kill(dir, id, ctx->settings.kill_grace_ms + JOB_KILL_WAIT_MS);
	if (r == -ENOENT || r == -EINVAL)
		return tool_refusal(NULL, "no job '%s' (the jobs tool lists them)", id);
	if (r == -ESRCH)
		return tool_refusal(NULL, "job '%s' is not running", id);
	if (r < 0)
		return tool_refusal(NULL, "killing job '%s': %s", id, strerror(-r));
	char msg[128];
	int n = snprintf(msg, sizeof(msg), "job %s killed, with everything it started", id);
	return tool_result(msg, (size_t)n, NULL, false);
}

typedef json_t *(*tool_fn)(const struct mcp_context *ctx, json_t *args,
                           const struct mcp_call_io *io);

/* The output schema of the jobs tool's structuredContent. The status enum
 * is added by jobs_output_schema() from job_state_name(), which writes the
 * statuses: a client that validates results against the schema (the MCP
 * SDKs do) rejects a status the enum does not list. */
#define JOBS_OUTPUT_SCHEMA                                                                         \
	"{\"type\":\"object\",\"properties\":{\"jobs\":{\"type\":\"array\",\"items\":{"            \
	"\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},\"status\":{"            \
	"\"type\":\"string\"},\"pid\":{\"type\":\"integer\"},\"command\":{"                        \
	"\"type\":\"string\"},\"workspace\":{\"type\":\"string\"},\"started\":{\"type\":"          \
	"\"integer\",\"description\":\"ms since the epoch\"},\"exitCode\":{\"type\":[\"integer\"," \
	"\"null\"]},\"signal\":{\"type\":[\"integer\",\"null\"]},\"truncated\":{\"type\":"         \
	"\"boolean\",\"description\":\"its output file was cut at outputFileCap\"},"               \
	"\"outputFileCap\":{\"type\":\"integer\"}},\"required\":[\"id\","                          \
	"\"status\",\"pid\",\"command\"]}}},\"required\":[\"jobs\"]}"

static json_t *jobs_output_schema(void)
{
	json_t *schema = json_loads(JOBS_OUTPUT_SCHEMA, 0, NULL);
	static const char *const path[] = { "properties", "jobs", "items", "properties", "status" };
	json_t *status = schema;
	for (size_t i = 0; status && i < ELEMENTSOF(path); i++)
		status = json_object_get(status, path[i]);
	if (!status) {
		json_decref(schema);
		return NULL;
	}
	json_t *names = json_array();
	for (int s = JOB_RUNNING; names && s <= JOB_LOST; s++)
		if (json_array_append_new(names, json_string(job_state_name((enum job_state)s))) <
		    0)
			json_decref(TAKE_PTR(names));
	/* json_object_set_new() takes names, also when it fails */
	if (!names || json_object_set_new(status, "enum", names) < 0) {
		json_decref(schema);
		return NULL;
	}
	return schema;
}

static const struct tool {
	const char *name;
	const char *title;
	tool_fn call;
	const char *description;  /* NULL: built from the settings */
	const char *input_schema; /* JSON; NULL: the request schema */
	/* NULL: none, and no structuredContent: bash and job_output, whose
	 * output must reach the model in every client (top of file) */
	json_t *(*output_schema)(void);
	/* annotations: hints for the client, not guarantees */
	bool read_only, destructive, idempotent, open_world;
} tools[] = {
	{ "bash", "Run a shell command", call_bash, NULL, NULL, NULL, false, true, false, true },
	{ "jobs", "List background jobs", call_jobs,
	  "List the background jobs (started with mode background) of this workspace, with their "
	  "status, pid and command; `all: true` lists every workspace's.",
	  "{\"type\":\"object\",\"properties\":{\"all\":{\"type\":\"boolean\",\"description\":"
	  "\"the jobs of every workspace, not only this one\"}},\"additionalProperties\":false}",
	  jobs_output_schema, true, false, true, false },
	{ "job_output", "Read a background job's output", call_job_output,
	  "Read the output of a background job: its last `tail` lines (default 200), at most the "
	  "output cap from the end.",
	  "{\"type\":\"object\",\"properties\":{\"job\":{\"type\":\"string\",\"description\":"
	  "\"the job id from the bash result or the jobs tool\"},\"tail\":{\"type\":\"integer\","
	  "\"minimum\":1,\"maximum\":100000}},\"required\":[\"job\"],"
	  "\"additionalProperties\":false}",
	  NULL, true, false, true, false },
	{ "job_kill", "Stop a background job", call_job_kill,
	  "Stop a background job and every process it started (its whole tree).",
	  "{\"type\":\"object\",\"properties\":{\"job\":{\"type\":\"string\"}},"
	  "\"required\":[\"job\"],\"additionalProperties\":false}",
	  NULL, false, true, true, false },
};

static const struct tool *tool_find(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(tools); i++)
		if (strcmp(tools[i].name, name) == 0)
			return &tools[i];
	return NULL;
}

bool mcp_tools_known(const char *name)
{
	return tool_find(name) != NULL;
}

/* The bash tool's input schema: the request's, and "streams". */
static json_t *bash_input_schema(const struct mcp_context *ctx)
{
	json_t *schema = tool_schema_input(&ctx->settings);
	json_t *props = json_object_get(schema, "properties");
	if (props && json_object_set_new(props, "streams",
	                                 json_pack("{s:s, s:s}", "type", "boolean", "description",
	                                           "show stdout and stderr apart, each under a "
	                                           "line [stdout] or [stderr] (by default they "
	                                           "are shown together, as the command wrote "
	                                           "them)")) < 0) {
		json_decref(schema);
		return NULL;
	}
	return schema;
}

struct hints {
	bool read_only, destructive, open_world;
};

/*
 * The bash tool's hints say what its sandbox lets a command do, not what
 * the policies allow (a hint is the client's to weigh, and a command the
 * policies allow can do all the sandbox permits): restricted writes
 * nothing and reaches no network, workspace-write may delete the
 * workspace's files but reaches no network, unrestricted may do anything.
 * Codex's exec mode refuses a destructive or open-world tool unless its
 * default_tools_approval_mode is "approve".
 */
static struct hints bash_hints(enum sandbox_mode mode)
{
	switch (mode) {
	case SANDBOX_MODE_RESTRICTED:
		return (struct hints){ .read_only = true };
	case SANDBOX_MODE_WORKSPACE_WRITE:
		return (struct hints){ .destructive = true };
	default:
		return (struct hints){ .destructive = true, .open_world = true };
	}
}

static json_t *tool_definition(const struct mcp_context *ctx, const struct tool *t)
{
	_cleanup_free_ char *desc = t->description
	                                    ? NULL
	                                    : tool_schema_description(&ctx->settings, ctx->root,
	                                                              TOOL_SCHEMA_JOBS_TOOLS);
	if (!t->description && !desc)
		return NULL;
	json_t *input =
	        t->input_schema ? json_loads(t->input_schema, 0, NULL) : bash_input_schema(ctx);
	struct hints h = t->call == call_bash
	                         ? bash_hints(ctx->settings.sandbox_mode)
	                         : (struct hints){ t->read_only, t->destructive, t->open_world };
	json_t *def = json_pack("{s:s, s:s, s:o, s:{s:s, s:b, s:b, s:b, s:b}}", "name", t->name,
	                        "description", t->description ? t->description : desc,
	                        "inputSchema", input, "annotations", "title", t->title,
	                        "readOnlyHint", h.read_only, "destructiveHint", h.destructive,
	                        "idempotentHint", t->idempotent, "openWorldHint", h.open_world);
	if (!def || !ctx->structured) /* title and outputSchema: 2025-06-18 on */
		return def;
	if (json_object_set_new(def, "title", json_string(t->title)) < 0 ||
	    (t->output_schema &&
	     json_object_set_new(def, "outputSchema", t->output_schema()) < 0)) {
		json_decref(def);
		return NULL;
	}
	return def;
}

json_t *mcp_tools_list(const struct mcp_context *ctx)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < ELEMENTSOF(tools); i++) {
		json_t *def = tool_definition(ctx, &tools[i]);
		if (!def || json_array_append_new(arr, def) < 0) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr ? json_pack("{s:o}", "tools", arr) : NULL;
}

json_t *mcp_tools_call(const struct mcp_context *ctx, const char *name, json_t *arguments,
                       const struct mcp_call_io *io)
{
	/* the server checked name and arguments before the call got here */
	const struct tool *t = name ? tool_find(name) : NULL;
	if (!t)
		return tool_refusal(NULL, "no tool '%s'", name ? name : "");
	return t->call(ctx, arguments, io);
}
