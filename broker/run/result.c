/* SPDX-License-Identifier: MIT */
/*
 * Result rendering. The text form puts what a model must know first (why it
 * failed, that a timeout is not a crash, what to do instead), then the
 * output. Hints are chosen by tables of patterns, so adding one is a row.
 */
#include "config.h"

#include <ctype.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cleanup.h"
#include "launch-spec.h"
#include "parse-number.h"
#include "run/launch-report.h"
#include "run/protect-watch.h"
#include "run/result.h"
#include "util/terminal-text.h"

/* The end of output examined for a prompt (denial messages are looked for
 * in the whole output). */
#define PROMPT_WINDOW 256

/* Case-insensitive pieces of a last line that asks for input. */
static const char *const prompt_patterns[] = {
	"[y/n]",         "(y/n)",      "[yes/no]",  "(yes/no)", "password:",
	"password for",  "passphrase", "continue?", "proceed?", "press enter",
	"press any key", "username:",  "login:",    "(y)",      "are you sure",
};

/* Messages of the errors a sandbox denial produces, matched whatever
 * their case (Node and npm write "permission denied", bash "Permission
 * denied"). */
static const char *const denial_patterns[] = {
	"permission denied",       /* EACCES */
	"operation not permitted", /* EPERM */
	"read-only file system",   /* EROFS */
	/* EBUSY: what the mounts hold can be neither renamed over nor removed
	 * (git's "could not write config file .git/config", as husky and `git
	 * config` print it) */
	"device or resource busy",
	/* git's receive-pack, pushed to a repository outside the workspace
	 * (a local remote): git names no errno */
	"unable to create temporary object directory",
	/* git renaming its lock file onto another worktree's index or HEAD,
	 * bound read-only (launcher/git-paths.c): git names no errno */
	"unable to write new index file",
	"couldn't set '",
};

/* The same for a network that is not there, matched the same way. */
static const char *const network_patterns[] = {
	"connection refused", /* a refused connect() */
	"couldn't connect",
	"network is unreachable",
	"address family not supported",
	/* no name server reachable in the network namespace: curl, git,
	 * glibc's gai_strerror, Python, pip's urllib3, Node */
	"could not resolve host",
	"temporary failure in name resolution",
	"name or service not known",
	"failed to establish a new connection",
	"getaddrinfo",
};

/* The error codes of the same denials as Node, npm and Python print them,
 * matched as whole words and in capitals only ("EPERM", not "keeperm"). */
static const char *const denial_codes[] = {
	"EACCES", "EPERM", "EROFS", "EBUSY", /* Node's "EBUSY: resource busy or locked, rename" */
};
static const char *const network_codes[] = {
	"EAI_AGAIN",
	"ENETUNREACH",
	"ECONNREFUSED",
	"ENOTFOUND",
};

bool result_write_denial_note(FILE *f, enum sandbox_mode mode)
{
	const char *forbids = sandbox_mode_forbids(mode);
	if (!forbids)
		return false;
	fprintf(f,
	        "[sandbox: this looks like a denial by the %s sandbox, which forbids %s; "
	        "do not try to work around it]\n",
	        sandbox_mode_name(mode), forbids);
	return true;
}

/* Whether hay contains any of the needles, ignoring case. */
static bool contains_any_case(const char *hay, const char *const *needles, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcasestr(hay, needles[i]) != NULL)
			return true;
	return false;
}

bool result_looks_like_prompt(const char *text, size_t len)
{
	/* The last non-empty line, at most PROMPT_WINDOW bytes of it. */
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '\r'))
		len--;
	size_t start = len;
	while (start > 0 && text[start - 1] != '\n' && len - start < PROMPT_WINDOW)
		start--;
	char line[PROMPT_WINDOW + 1];
	memcpy(line, text + start, len - start);
	line[len - start] = '\0';
	if (line[0] == '\0')
		return false;
	return contains_any_case(line, prompt_patterns, ELEMENTSOF(prompt_patterns));
}

/* Whether text[0..len) holds needle (lower case), ignoring case; the text
 * need not be NUL-terminated. */
static bool contains_case(const char *text, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++)
		if (tolower((unsigned char)text[i]) == needle[0] &&
		    strncasecmp(text + i, needle, n) == 0)
			return true;
	return false;
}

/* Whether text[0..len) holds code as a word of its own (no letter, digit
 * or '_' on either side). */
static bool contains_code(const char *text, size_t len, const char *code)
{
	size_t n = strlen(code);
	const char *end = text + len;
	for (const char *at = text; (at = memmem(at, (size_t)(end - at), code, n)); at++) {
		bool left = at == text || !(isalnum((unsigned char)at[-1]) || at[-1] == '_');
		bool right = at + n == end || !(isalnum((unsigned char)at[n]) || at[n] == '_');
		if (left && right)
			return true;
	}
	return false;
}

/* Whether text[0..len) holds one of the patterns or one of the codes;
 * the buffer need not be NUL-terminated: searched in place, no copy. */
static bool contains_any(const char *text, size_t len, const char *const *patterns,
                         size_t n_patterns, const char *const *codes, size_t n_codes)
{
	for (size_t i = 0; i < n_patterns; i++)
		if (contains_case(text, len, patterns[i]))
			return true;
	for (size_t i = 0; i < n_codes; i++)
		if (contains_code(text, len, codes[i]))
			return true;
	return false;
}

bool result_looks_like_network_failure(const char *text, size_t len)
{
	return contains_any(text, len, network_patterns, ELEMENTSOF(network_patterns),
	                    network_codes, ELEMENTSOF(network_codes));
}

bool result_looks_like_denial(const char *text, size_t len)
{
	return contains_any(text, len, denial_patterns, ELEMENTSOF(denial_patterns), denial_codes,
	                    ELEMENTSOF(denial_codes)) ||
	       result_looks_like_network_failure(text, len);
}

static const char *signal_name(int sig)
{
	const char *name = sigabbrev_np(sig);
	return name ? name : "?";
}

static char *truncation_marker(const struct run_result *r, const struct outbuf *ob,
                               const char *what, bool with_file)
{
	char cap[32], head[32], tail[32], file[PATH_MAX + 160] = "";
	const struct run_settings *s = r->settings;
	if (with_file && r->output_file_error && r->output_file)
		snprintf(file, sizeof(file), "; %s holds only the start of the whole output: %s",
		         r->output_file, strerror(-r->output_file_error));
	else if (with_file && r->output_file_error)
		snprintf(file, sizeof(file), "; the whole output could not be kept: %s",
		         strerror(-r->output_file_error));
	else if (with_file && r->output_file)
		snprintf(file, sizeof(file), "; the whole output is in %s%s", r->output_file,
		         r->output_file_cut ? " (cut at its size cap)" : "");
	char *m = NULL;
	int n = asprintf(&m,
	                 "[... %s truncated: %llu bytes produced, over the %s cap; showing the "
	                 "first %s and the last %s%s ...]",
	                 what, (unsigned long long)outbuf_total(ob),
	                 format_size(s->output_cap, cap, sizeof(cap)),
	                 format_size(s->output_head, head, sizeof(head)),
	                 format_size(s->output_tail, tail, sizeof(tail)), file);
	return n < 0 ? NULL : m;
}

/* The rendered text of one stream ("" when there is none). */
static char *render(const struct run_result *r, const struct outbuf *ob, const char *what,
                    bool with_file, size_t *ret_len)
{
	if (!ob) {
		*ret_len = 0;
		return strdup("");
	}
	_cleanup_free_ char *marker = NULL;
	if (outbuf_truncated(ob)) {
		marker = truncation_marker(r, ob, what, with_file);
		if (!marker)
			return NULL;
	}
	return outbuf_render(ob, marker ? marker : "", ret_len);
}

/* {"step": microseconds, ...} in the order the steps ran. */
static json_t *steps_json(const struct run_result *r)
{
	json_t *obj = json_object();
	for (unsigned i = 0; obj && i < r->n_steps; i++)
		json_object_set_new(obj, r->steps[i].name,
		                    json_integer((json_int_t)r->steps[i].us));
	return obj;
}

static json_t *policy_json(const struct verdict *v)
{
	return v ? verdict_to_json(v) : json_null();
}

/* The launcher's report with the mode added; a mode alone without one.
 * brief: only the mode, what is missing and the fallback, which is what a
 * model acts on (an MCP result goes with every call; the list of what was
 * enforced is the same each time and is in `sluice run --format json`). */
static json_t *sandbox_json(const struct run_result *r, bool brief)
{
	const char *mode = sandbox_mode_name(r->settings->sandbox_mode);
	/* an error line may follow the report (a failed exec), or stand alone */
	json_t *obj = r->sandbox_report
	                      ? launch_report_object(r->sandbox_report, strlen(r->sandbox_report))
	                      : NULL;
	if (!obj)
		obj = json_pack("{s:n, s:n, s:n}", "landlock_abi", "enforced", "missing");
	/* the mode the launcher reported building, when it reported one: a
	 * result never names a sandbox the launcher did not say it built */
	const char *built = json_string_value(json_object_get(obj, "profile"));
	if (obj)
		json_object_set_new(obj, "mode", json_string(built ? built : mode));
	char *const *blocked = r->protect_watch ? r->protect_watch->blocked : NULL;
	if (obj && blocked && blocked[0]) {
		json_t *a = json_array();
		for (char *const *b = blocked; a && *b; b++)
			json_array_append_new(a, json_string(*b));
		json_object_set_new(obj, "protected_blocked", a);
	}
	if (obj && r->settings->sandbox_fallback)
		json_object_set_new(obj, "fallback", json_string(r->settings->sandbox_fallback));
	if (obj && brief) {
		json_t *missing = json_object_get(obj, "missing");
		json_t *fallback = json_object_get(obj, "fallback");
		json_t *b = json_pack("{s:s, s:O, s:O*}", "mode", mode, "missing",
		                      missing ? missing : json_null(), "fallback", fallback);
		json_decref(obj);
		obj = b;
	}
	return obj;
}

/* A stream's rendered text (owned in *ret_text), or NULL for none. */
static int stream_json(const struct run_result *r, const struct outbuf *ob, const char *what,
                       bool with_file, json_t **ret)
{
	size_t len;
	_cleanup_free_ char *text = render(r, ob, what, with_file, &len);
	*ret = text ? json_stringn(text, len) : NULL;
	return *ret ? 0 : -ENOMEM;
}

json_t *result_to_json(const struct run_result *r, unsigned flags)
{
	bool beside_text = flags & RESULT_JSON_BESIDE_TEXT;
	bool streams = !beside_text;
	json_t *output = NULL, *out = NULL, *err = NULL;
	if ((!beside_text && stream_json(r, r->output, "output", true, &output) < 0) ||
	    (streams && (stream_json(r, r->out, "stdout", false, &out) < 0 ||
	                 stream_json(r, r->err, "stderr", false, &err) < 0))) {
		json_decref(output);
		json_decref(out);
		json_decref(err);
		return NULL;
	}
	json_t *pids = json_array();
	for (size_t i = 0; pids && i < r->n_background_pids; i++)
		json_array_append_new(pids, json_integer(r->background_pids[i]));
	json_t *error = r->error == ERROR_KIND_NONE
	                        ? json_null()
	                        : json_pack("{s:s, s:s}", "kind", error_kind_name(r->error),
	                                    "message", r->error_message);
	bool truncated = (r->output && outbuf_truncated(r->output)) ||
	                 (r->out && outbuf_truncated(r->out)) ||
	                 (r->err && outbuf_truncated(r->err));
	json_t *obj = json_pack(
	        "{s:b, s:o, s:o, s:o*, s:o*, s:o*, s:b, s:I, s:b, s:I, s:o, s:o*, s:o, s:o, s:o*, "
	        "s:o*, s:o}",
	        beside_text ? "ran" : "ok", r->ran && r->error == ERROR_KIND_NONE, "exitCode",
	        r->has_exit_code ? json_integer(r->exit_code) : json_null(), "signal",
	        r->signal ? json_integer(r->signal) : json_null(), "output", output, "stdout", out,
	        "stderr", err, "truncated", truncated, "outputBytes",
	        (json_int_t)(r->output ? outbuf_total(r->output) : 0), "timedOut", r->timed_out,
	        "durationMs", (json_int_t)r->duration_ms, "pid",
	        r->pid > 0 ? json_integer(r->pid) : json_null(), "backgroundPids", pids,
	        "outputFile", r->output_file ? json_string(r->output_file) : json_null(), "display",
	        r->display ? json_string(r->display) : json_null(), "policy",
	        policy_json(r->policy), "sandbox", sandbox_json(r, beside_text), "error", error);
	if (obj && beside_text) {
		json_object_set_new(obj, "stdoutBytes",
		                    json_integer((json_int_t)(r->out ? outbuf_total(r->out) : 0)));
		json_object_set_new(obj, "stderrBytes",
		                    json_integer((json_int_t)(r->err ? outbuf_total(r->err) : 0)));
	}
	if (obj && r->job_id)
		json_object_set_new(obj, "jobId", json_string(r->job_id));
	if (obj)
		json_object_set_new(obj, "gitSweep", git_sweep_to_json(r->git_sweep));
	if (obj && !beside_text && r->n_steps > 0)
		json_object_set_new(obj, "stepsUs", steps_json(r));
	if (obj && r->network)
		egress_log_add_keys(obj, r->network);
	return obj;
}

int result_exit_status(const struct run_result *r)
{
	if (r->interrupted_by)
		return 128 + r->interrupted_by;
	if (r->error != ERROR_KIND_NONE)
		return error_kind_exit_status(r->error);
	if (r->signal)
		return 128 + r->signal;
	if (r->has_exit_code)
		return r->exit_code;
	return 0;
}

static void write_timeout_lines(const struct run_result *r, const char *output, size_t len, FILE *f)
{
	char limit[32], slow[32];
	format_duration_ms(r->timeout_ms, limit, sizeof(limit));
	format_duration_ms(r->settings->slow_timeout_ms, slow, sizeof(slow));
	fprintf(f, "[command timed out after %s]\n", limit);
	fprintf(f,
	        "[the %s time limit of %s mode fired; this was not a crash: %s. If it needs "
	        "longer, run it in slow mode (up to %s) or in background mode]\n",
	        limit, run_mode_name(r->mode),
	        r->kill_failed ? "the command was stopped, but not all it started (listed below)"
	                       : "the command and everything it started were stopped",
	        slow);
	if (result_looks_like_prompt(output, len))
		fprintf(f,
		        "[the last output looks like a prompt: the command was probably waiting "
		        "for input, which it cannot get here; pass the answer on the command line "
		        "(e.g. --yes, -y) or feed it through a pipe]\n");
}

/* PREFIX A "]", or PREFIX A ": " B "]" (b not NULL), on a line of its own,
 * A and B made inert: a plugin's message, a suggestion or an error may
 * quote the agent's command or directory, and a control character or a
 * newline in them must not reach a terminal or break sluice's one-line
 * notes. */
static void write_note(FILE *f, const char *prefix, const char *a, const char *b)
{
	fputs(prefix, f);
	terminal_safe_write(f, a ? a : "");
	if (b) {
		fputs(": ", f);
		terminal_safe_write(f, b);
	}
	fputs("]\n", f);
}

/* Whether the launcher's report lists name as missing. */
static bool sandbox_missing(const struct run_result *r, const char *name)
{
	if (!r->sandbox_report)
		return false;
	size_t len = strcspn(r->sandbox_report, "\n");
	json_t *obj = json_loadb(r->sandbox_report, len, 0, NULL);
	json_t *missing = obj ? json_object_get(obj, "missing") : NULL;
	bool found = false;
	size_t i;
	json_t *v;
	json_array_foreach(missing, i, v) found |=
	        json_is_string(v) && strcmp(json_string_value(v), name) == 0;
	json_decref(obj);
	return found;
}

/* The string the launcher's report holds under key, or NULL; owned. */
static char *sandbox_report_string(const struct run_result *r, const char *key)
{
	if (!r->sandbox_report)
		return NULL;
	size_t len = strcspn(r->sandbox_report, "\n");
	json_t *obj = json_loadb(r->sandbox_report, len, 0, NULL);
	const char *v = json_string_value(json_object_get(obj, key));
	char *copy = v ? strdup(v) : NULL;
	json_decref(obj);
	return copy;
}

/* The name an entry of [sandbox] protect shows in a message: without its
 * trailing "/", up to its first wildcard (".config/lefthook*" ->
 * ".config/lefthook"). */
static size_t protected_stem(const char *entry, char *buf, size_t size)
{
	size_t n = strcspn(entry, "*?[");
	if (n > 0 && entry[n - 1] == '/')
		n--;
	if (n >= size)
		n = size - 1;
	memcpy(buf, entry, n);
	buf[n] = '\0';
	return n;
}

/* Whether word, a path as the output shows it (absolute, relative, or a
 * bare name), names what entry protects: some tail of it that starts at a
 * component, cut to as many components as the entry has, matches the entry
 * (without its trailing "/"). A substring is not enough: "promises" holds
 * "mise" but is not "mise*.toml". An absolute path names it only from the
 * workspace's top (when workspace is known): the home's ~/.npmrc, which
 * npm config set writes, is no protected .npmrc. */
static bool word_names_protected(const char *word, const char *entry, const char *workspace)
{
	bool from_top = false;
	if (word[0] == '/' && workspace) {
		size_t w = strlen(workspace);
		while (w > 0 && workspace[w - 1] == '/')
			w--;
		if (strncmp(word, workspace, w) != 0 || word[w] != '/')
			return false;
		word += w + 1;
		from_top = true;
	}
	char pattern[256];
	size_t n = strlen(entry);
	if (n > 0 && entry[n - 1] == '/')
		n--;
	if (n == 0 || n >= sizeof(pattern))
		return false;
	memcpy(pattern, entry, n);
	pattern[n] = '\0';
	size_t components = 1;
	for (const char *c = pattern; *c; c++)
		components += *c == '/';
	for (const char *tail = word; tail;
	     tail = from_top ? NULL : strchr(tail, '/'), tail = tail ? tail + 1 : NULL) {
		char head[512];
		size_t len = 0, seen = 0;
		while (tail[len] && !(tail[len] == '/' && ++seen == components))
			len++;
		if (len == 0 || len >= sizeof(head))
			continue;
		memcpy(head, tail, len);
		head[len] = '\0';
		if (fnmatch(pattern, head, FNM_PATHNAME | FNM_PERIOD) == 0)
			return true;
	}
	return false;
}

/* After a denial in workspace-write whose output names a protected path:
 * which path, why, and the key that allows it, so that an agent asks the
 * user instead of working around it. The path is the word of the output
 * around a mention of the entry's name ("bash: .claude/settings.json:
 * Read-only file system"), and only a word that names the entry counts. */
static void write_protected_note(const struct run_result *r, const char *output, size_t len,
                                 FILE *f)
{
	const struct run_settings *s = r->settings;
	const char *ws = r->protect_watch ? r->protect_watch->workspace : NULL;
	for (size_t i = 0; i < s->n_protect; i++) {
		char stem[256];
		size_t n = protected_stem(s->protect[i], stem, sizeof(stem));
		for (const char *at = output;
		     n && (at = memmem(at, len - (size_t)(at - output), stem, n)); at++) {
			const char *start = at, *end = at + n;
			while (start > output && !strchr(" \t\n'\"`:(", start[-1]))
				start--;
			while (end < output + len && !strchr(" \t\n'\"`:)", *end))
				end++;
			char path[512];
			snprintf(path, sizeof(path), "%.*s", (int)(end - start), start);
			if (!word_names_protected(path, s->protect[i], ws))
				continue;
			write_note(f, "[sandbox: protected path ", path, NULL);
			if (s->protect_loader[i]) {
				/* added for the run: the key covers the file that loads it */
				fprintf(f,
				        "[it is kept read-only by [sandbox] protect (entry '%s', "
				        "added because '%s' loads it): direnv or mise puts what it "
				        "says into the user's shell on the next cd, with the user's "
				        "full rights. If it must change, tell the user: they can edit "
				        "it themselves, or take the line that loads it out of '%s']\n",
				        s->protect[i], s->protect_loader[i], s->protect_loader[i]);
				return;
			}
			fprintf(f,
			        "[it is kept read-only by [sandbox] protect (entry '%s'): programs the "
			        "user runs later (agents, editors, git hooks) run what it says with the "
			        "user's full rights. If it must change, tell the user: they can edit it "
			        "themselves, or leave '%s' out of [sandbox] protect in their "
			        "configuration]\n",
			        s->protect[i], s->protect[i]);
			return;
		}
	}
}

/* Whether a Node mkdir failed with ENOENT inside a protected path: Node's
 * recursive mkdir (husky 8's `husky install` making `.husky/_` in the empty
 * read-only folder the launcher keeps for `.husky/`) reports the read-only
 * folder's EROFS as ENOENT, which no denial pattern takes. Only mkdir, and
 * only a protected path: a plain ENOENT is no denial. */
static bool mkdir_enoent_in_protected(const struct run_result *r, const char *output, size_t len)
{
	static const char needle[] = "ENOENT: no such file or directory, mkdir '";
	const size_t n = sizeof(needle) - 1;
	const struct run_settings *s = r->settings;
	const char *ws = r->protect_watch ? r->protect_watch->workspace : NULL, *end = output + len;
	for (const char *at = output; (at = memmem(at, (size_t)(end - at), needle, n)); at++) {
		const char *path = at + n, *close = memchr(path, '\'', (size_t)(end - path));
		if (!close || close - path >= 512)
			continue;
		char word[512];
		snprintf(word, sizeof(word), "%.*s", (int)(close - path), path);
		for (size_t i = 0; i < s->n_protect; i++)
			if (word_names_protected(word, s->protect[i], ws))
				return true;
	}
	return false;
}

/* Why the egress proxy refused a connection, as the note says it; NULL for
 * a refusal that is not the allowlist's (a name that does not resolve, a
 * host that does not answer, a request the proxy does not take, another
 * run's process). */
static const char *egress_refusal_why(enum egress_audit_reason reason)
{
	switch (reason) {
	case EGRESS_REASON_NOT_LISTED:
		return "not in [network] allow";
	case EGRESS_REASON_RESOLVES_LOCAL:
		return "its name resolves to an address of this machine or its local networks, "
		       "which only an IP address written in [network] allow leads to (or a name "
		       "in [network] allow_internal, but never to a link-local or cloud metadata "
		       "address)";
	case EGRESS_REASON_INTERNAL_ADDRESS:
		return "an address of this machine or its local networks, not in [network] allow";
	case EGRESS_REASON_ASKED_NO:
		return "not approved";
	case EGRESS_REASON_ASK_TIMEOUT:
		return "nobody approved it in time";
	case EGRESS_REASON_ASK_LIMIT:
		return "the run's questions to the approver were used up";
	case EGRESS_REASON_ASK_FAILED:
		return "the approver could not be asked";
	default:
		return NULL;
	}
}

#define EGRESS_NOTE_HOSTS 3

/* The line that names the hosts the egress proxy refused in this run,
 * whatever the command printed of it and however it ended: a client shows
 * a proxy's refusal in its own words (npm's "403 Forbidden - GET URL",
 * curl's "CONNECT tunnel failed, response 403"), which no pattern of the
 * denial note can tell from a server's own 403, and npm went on past 10
 * minutes fetching one refused tarball after the other. The records are
 * the proxy's, which the command cannot write (egress-log.h). */
static void write_egress_refusals(const struct run_result *r, FILE *f)
{
	const struct egress_log *log = r->network;
	if (!log || !sandbox_mode_forbids(r->settings->sandbox_mode))
		return;
	const struct egress_audit_record *shown[EGRESS_NOTE_HOSTS];
	size_t n_shown = 0, refused = 0;
	bool more = false; /* a host past those shown */
	/* every refusal a listed name's that leads inside: adding the host
	 * to allow would not help, allow_internal would */
	bool all_inside = true;
	for (size_t i = 0; i < log->n; i++) {
		const struct egress_audit_record *rec = &log->records[i];
		if (rec->allowed || !egress_refusal_why(rec->reason))
			continue;
		refused++;
		all_inside = all_inside && rec->reason == EGRESS_REASON_RESOLVES_LOCAL;
		bool seen = false;
		for (size_t j = 0; j < n_shown && !seen; j++)
			seen = shown[j]->port == rec->port && shown[j]->reason == rec->reason &&
			       strcmp(shown[j]->host, rec->host) == 0;
		if (!seen && n_shown < EGRESS_NOTE_HOSTS)
			shown[n_shown++] = rec;
		else if (!seen)
			more = true;
	}
	if (refused == 0)
		return;
	fprintf(f, "[sandbox: the network allowlist refused %zu connection%s:", refused,
	        refused == 1 ? "" : "s");
	for (size_t j = 0; j < n_shown; j++) {
		fputs(j ? "; " : " ", f);
		terminal_safe_write(f, shown[j]->host);
		fprintf(f, ":%u (%s)", (unsigned)shown[j]->port,
		        egress_refusal_why(shown[j]->reason));
	}
	fprintf(f, "%s; retrying will not help: %s, or work without it]\n",
	        more ? "; and others" : "",
	        all_inside ? "ask the user to have the administrator add the name to [network] "
	                     "allow_internal"
	                   : "ask the user to add the host to [network] allow");
}

/* The notes before the output: why it ended, or why nothing ran. */
static void write_first_lines(const struct run_result *r, const char *output, size_t len, FILE *f)
{
	if (r->interrupted_by && r->has_exit_code) {
		/* in the drain window: the shell had ended on its own */
		fprintf(f,
		        "[sluice run was interrupted by SIG%s after the command exited with code "
		        "%d: what it left running was killed]\n",
		        signal_name(r->interrupted_by), r->exit_code);
		return;
	}
	if (r->interrupted_by) {
		fprintf(f,
		        "[sluice run was interrupted by SIG%s: the command and everything it "
		        "started were killed]\n",
		        signal_name(r->interrupted_by));
		return;
	}
	if (r->timed_out) {
		write_timeout_lines(r, output, len, f);
		return;
	}
	const struct verdict_reason *why = r->policy ? verdict_main_reason(r->policy) : NULL;
	if (r->error == ERROR_KIND_PERMISSION_DENIED && why) {
		if (r->policy->kind == VERDICT_DENY) {
			write_note(f, "[command denied by policy ", why->plugin, why->message);
		} else {
			/* the rule that asked, once, then who did not approve it */
			write_note(f, "[command not run: approval required by policy ", why->plugin,
			           why->message);
			write_note(f, "[not approved: ",
			           r->approval_note ? r->approval_note : "nobody answered yes",
			           NULL);
		}
		if (why->suggestion && why->suggestion[0])
			write_note(f, "[instead: ", why->suggestion, NULL);
		return;
	}
	if (r->error != ERROR_KIND_NONE) {
		write_note(f, "[sluice error ", error_kind_name(r->error), r->error_message);
		return;
	}
	if (r->signal)
		fprintf(f, "[command killed by signal %d (SIG%s)]\n", r->signal,
		        signal_name(r->signal));
	else if (r->has_exit_code && r->exit_code != 0)
		fprintf(f, "[command failed: exit code %d]\n", r->exit_code);
	/* whatever the exit status: a command may report a denial and go on */
	enum sandbox_mode mode = r->settings->sandbox_mode;
	if (!sandbox_mode_forbids(mode) ||
	    !(result_looks_like_denial(output, len) ||
	      (mode == SANDBOX_MODE_WORKSPACE_WRITE && mkdir_enoent_in_protected(r, output, len))))
		return;
	result_write_denial_note(f, mode);
	const struct run_settings *s = r->settings;
	if (!s->network && s->n_egress_allow == 0 && result_looks_like_network_failure(output, len))
		fprintf(f, "%s", RESULT_NO_NETWORK_NOTE);
	if (mode == SANDBOX_MODE_WORKSPACE_WRITE)
		write_protected_note(r, output, len, f);
	if (mode == SANDBOX_MODE_WORKSPACE_WRITE &&
	    memmem(output, len, RESULT_HUSKY_FAILED, strlen(RESULT_HUSKY_FAILED)))
		fprintf(f, "%s", RESULT_HUSKY_NOTE);
	if (mode == SANDBOX_MODE_WORKSPACE_WRITE && sandbox_missing(r, LAUNCH_PROT_MOUNT_NAMESPACE))
		fprintf(f, "%s", RESULT_NO_NAMESPACE_NOTE);
	_cleanup_free_ char *git_why = sandbox_report_string(r, LAUNCH_REPORT_GIT_READ_ONLY);
	if (git_why)
		write_note(f, RESULT_GIT_READ_ONLY_NOTE, git_why, NULL);
}

static void write_background(const struct run_result *r, FILE *f)
{
	fprintf(f, "[started in background: job %s, pid %d, process group %d]\n",
	        r->job_id ? r->job_id : "?", (int)r->pid, (int)r->pid);
	if (r->output_file)
		fprintf(f, "[output: %s (a completion line is appended when the job ends)]\n",
		        r->output_file);
	/* the launcher's --git-read-only (spawner.h), unless git_writable */
	if (r->settings->sandbox_mode == SANDBOX_MODE_WORKSPACE_WRITE && !r->settings->git_writable)
		fprintf(f, "[the repository's .git is read-only for a background job: run git "
		           "commands that write (commit, add, fetch) in the foreground]\n");
	if (r->job_hint)
		fprintf(f, "%s\n", r->job_hint);
	else if (r->sandbox_report &&
	         launch_report_enforced(r->sandbox_report, LAUNCH_PROT_PID_NAMESPACE))
		/* its processes are in a PID namespace of their own, and its
		 * files hidden: nothing a later sandboxed command runs reaches
		 * it, a kill of its group included */
		fprintf(f,
		        "[stop it with: sluice kill %s, from outside the sandbox (its processes "
		        "are in a PID namespace of their own: a later command cannot see or "
		        "signal them)]\n",
		        r->job_id ? r->job_id : "?");
	else
		fprintf(f, "[stop it with: sluice kill %s   (or: kill -9 -%d)]\n",
		        r->job_id ? r->job_id : "?", (int)r->pid);
}

/* stdout and stderr, each under a line naming it (the cut marker inside
 * each one that was cut). */
static int write_streams(const struct run_result *r, FILE *f)
{
	const struct {
		const struct outbuf *ob;
		const char *name;
	} streams[] = { { r->out, "stdout" }, { r->err, "stderr" } };
	for (size_t i = 0; i < ELEMENTSOF(streams); i++) {
		size_t len;
		_cleanup_free_ char *text = render(r, streams[i].ob, streams[i].name, true, &len);
		if (!text)
			return -ENOMEM;
		fprintf(f, "[%s]\n", streams[i].name);
		fwrite(text, 1, len, f);
		if (len > 0 && text[len - 1] != '\n')
			fputc('\n', f);
	}
	return 0;
}

int result_write_text(const struct run_result *r, FILE *f)
{
	return result_write_text_streams(r, false, f);
}

int result_write_text_streams(const struct run_result *r, bool apart, FILE *f)
{
	size_t len = 0;
	_cleanup_free_ char *output = render(r, r->output, "output", true, &len);
	if (!output)
		return -ENOMEM;
	if (r->job_id && r->error == ERROR_KIND_NONE) {
		write_background(r, f);
	} else if (apart && r->out && r->err) {
		write_first_lines(r, output, len, f);
		write_egress_refusals(r, f);
		if (write_streams(r, f) < 0)
			return -ENOMEM;
	} else {
		write_first_lines(r, output, len, f);
		write_egress_refusals(r, f);
		fwrite(output, 1, len, f);
		if (len > 0 && output[len - 1] != '\n' &&
		    (r->n_background_pids > 0 || r->kill_failed))
			fputc('\n', f);
	}
	if (r->kill_failed || r->n_background_pids > 0) {
		if (r->kill_failed)
			fprintf(f, "[still running: sluice could not end every process the command "
			           "started (they fork faster than they can be found); found:");
		else
			fprintf(f, "[still running after the shell exited%s:",
			        r->settings->background_survivors == SURVIVORS_KILL ? ", killed"
			                                                            : "");
		for (size_t i = 0; i < r->n_background_pids; i++)
			fprintf(f, " %d", (int)r->background_pids[i]);
		fprintf(f, "]\n");
	}
	git_sweep_write_text(r->git_sweep, f);
	if (r->audit_failed)
		fprintf(f, "[sluice: the audit line of this request could not be written]\n");
	protect_watch_write_text(r->protect_watch, f);
	if (r->settings->sandbox_fallback)
		fprintf(f, "[sluice: no sandbox: %s]\n", r->settings->sandbox_fallback);
	if (fflush(f) != 0 || ferror(f))
		return neg_errno();
	return 0;
}
