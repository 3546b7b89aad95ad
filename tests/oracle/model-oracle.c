/* SPDX-License-Identifier: MIT */
/*
 * model-oracle: the command model checked against bash itself. Each command
 * runs in the restricted sandbox with stubs for every program
 * (oracle-run.h); every argv that ran, traced by bash or recorded by a stub
 * (oracle-trace.h), must be one the model predicts, unless the model asks
 * (oracle-compare.h). A mismatch is printed with the command, what ran and
 * the model; the exit status is 1 when there is one.
 *
 *   model-oracle --launcher PATH --stub PATH [--jobs N] [--timeout MS]
 *                [--corpus FILE]... [--generate N [--seed S]] [--fuzz-dir DIR]...
 *                [--print] [--verbose] [--model-of COMMAND]
 *
 * Corpus files: one command per line; a line that starts with a TAB goes on
 * the command before it (after a newline, the TAB removed); lines starting
 * with # and blank lines are skipped.
 * Not for: policies (sluice check judges those).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "unit/model-render.h"
#include "model/command-model.h"
#include "monotonic.h"
#include "oracle/oracle-compare.h"
#include "oracle/oracle-gen.h"
#include "oracle/oracle-run.h"
#include "strv.h"

/* Longer commands are not run (an argument of execve is at most 128 KiB). */
#define ORACLE_MAX_COMMAND ((size_t)64 * 1024)

struct input {
	char *command;
	char *origin; /* "FILE:LINE", "generated SEED/N", a fuzz file */
};

struct inputs {
	struct input *v;
	size_t n, alloc;
};

struct options {
	const char *launcher, *stub;
	const char *model_of; /* judge every run by the model of this (a control) */
	unsigned jobs;
	uint64_t timeout_ms;
	bool print, verbose;
};

/* What one worker counted. */
struct tally {
	unsigned long commands, skipped, records, asked, excused, mismatches, timed_out, errors;
};

static int inputs_add(struct inputs *in, char *command, char *origin)
{
	if (!command || !origin) {
		free(command);
		free(origin);
		return -ENOMEM;
	}
	if (in->n == in->alloc) {
		size_t want = in->alloc ? in->alloc * 2 : 256;
		struct input *v = reallocarray(in->v, want, sizeof(*v));
		if (!v) {
			free(command);
			free(origin);
			return -ENOMEM;
		}
		in->v = v;
		in->alloc = want;
	}
	in->v[in->n++] = (struct input){ command, origin };
	return 0;
}

static char *origin_of(const char *what, unsigned long n)
{
	char *s = NULL;
	return asprintf(&s, "%s:%lu", what, n) < 0 ? NULL : s;
}

static int read_corpus(const char *path, struct inputs *in)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "model-oracle: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (line[0] == '\t' && in->n > 0 && lineno > 1) {
			/* a continuation of the command before */
			struct input *last = &in->v[in->n - 1];
			char *joined = NULL;
			if (asprintf(&joined, "%s\n%s", last->command, line + 1) < 0)
				return -ENOMEM;
			free(last->command);
			last->command = joined;
			continue;
		}
		if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
			continue;
		int r = inputs_add(in, strdup(line), origin_of(path, lineno));
		if (r < 0)
			return r;
	}
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every file of a libFuzzer corpus directory that is text without NUL. */
static int read_fuzz_dir(const char *dir, struct inputs *in)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, by_name);
	if (n < 0) {
		fprintf(stderr, "model-oracle: %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	int r = 0;
	for (int i = 0; i < n; i++) {
		_cleanup_free_ char *path = NULL;
		if (r >= 0 && names[i]->d_name[0] != '.' &&
		    asprintf(&path, "%s/%s", dir, names[i]->d_name) >= 0) {
			_cleanup_fclose_ FILE *f = fopen(path, "re");
			char buf[ORACLE_MAX_COMMAND];
			size_t len = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
			if (len > 0 && len < sizeof(buf) - 1 && !memchr(buf, '\0', len)) {
				buf[len] = '\0';
				r = inputs_add(in, strdup(buf), strdup(path));
			}
		}
		free(names[i]);
	}
	free(names);
	return r;
}

/* C-style escapes, for a command on one line of the report. */
static void print_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			fputs("\\n", out);
		else if (*s == '\t')
			fputs("\\t", out);
		else if (*s == '\\')
			fputs("\\\\", out);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fprintf(out, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, out);
	}
}

static void print_argv(FILE *out, char *const *argv)
{
	for (size_t i = 0; argv[i]; i++) {
		fputs(i ? " " : "", out);
		bool quote = !argv[i][0] || strpbrk(argv[i], " \t\n'\"\\");
		if (quote)
			fputc('<', out);
		print_escaped(out, argv[i]);
		if (quote)
			fputc('>', out);
	}
}

/* The names the model runs, so that each is a stub (not "not found"). */
static int stub_names(struct oracle_runner *r, const struct command_model *m)
{
	_cleanup_strv_free_ char **names = NULL;
	for (size_t i = 0; i < command_model_count(m); i++) {
		const struct simple_command *c = command_model_get(m, i);
		const char *name = simple_command_name(c);
		if (name[0] && strv_extend(&names, name) < 0)
			return -ENOMEM;
	}
	return oracle_runner_add_names(r, names);
}

static void report(FILE *out, const struct input *in, const struct command_model *m,
                   const struct oracle_records *recs, const bool *unexplained)
{
	fprintf(out, "MISMATCH %s: ", in->origin);
	print_escaped(out, in->command);
	fputc('\n', out);
	for (size_t i = 0; i < recs->n; i++) {
		fprintf(out, "  %s %s: ", unexplained[i] ? "NOT IN MODEL" : "in model    ",
		        recs->v[i].source == ORACLE_FROM_TRACE ? "bash ran"
		        : recs->v[i].source == ORACLE_FROM_GIT ? "git ran "
		                                               : "exec    ");
		print_argv(out, recs->v[i].argv);
		fputc('\n', out);
	}
	_cleanup_free_ char *model = render_model(m);
	fputs("  model:\n", out);
	for (const char *p = model ? model : ""; *p;) {
		size_t len = strcspn(p, "\n");
		fprintf(out, "    %.*s\n", (int)len, p);
		p += len;
		if (*p)
			p++;
	}
}

/* Run and judge one command. */
static void check_one(struct oracle_runner *runner, struct command_model_parser *parser,
                      const struct input *in, const struct options *o, struct tally *t, FILE *out)
{
	size_t len = strlen(in->command);
	if (len > ORACLE_MAX_COMMAND) {
		t->skipped++;
		return;
	}
	t->commands++;
	struct sluice_error err = { 0 };
	_cleanup_(command_model_freep) struct command_model *m = NULL;
	struct oracle_prediction *pred = NULL;
	const char *modelled = o->model_of ? o->model_of : in->command;
	if (command_model_parse(parser, modelled, strlen(modelled), NULL, &m, &err) < 0 ||
	    oracle_prediction_new(m, &pred) < 0 || stub_names(runner, m) < 0 ||
	    oracle_runner_add_words(runner, in->command) < 0) {
		fprintf(out, "ERROR %s: model: %s\n", in->origin, err.detail[0] ? err.detail : "");
		t->errors++;
		oracle_prediction_free(pred);
		return;
	}
	struct oracle_records recs = { 0 };
	bool timed_out = false;
	int r = oracle_runner_run(runner, in->command, &recs, &timed_out);
	if (r < 0) {
		fprintf(out, "ERROR %s: run: %s\n", in->origin, strerror(-r));
		t->errors++;
	}
	t->timed_out += timed_out;
	_cleanup_free_ bool *unexplained = calloc(recs.n + 1, sizeof(bool));
	size_t n_unexplained = 0;
	for (size_t i = 0; unexplained && i < recs.n; i++) {
		if (oracle_record_ignored(recs.v[i].argv))
			continue;
		t->records++;
		if (!oracle_prediction_explains(pred, recs.v[i].argv)) {
			unexplained[i] = true;
			n_unexplained++;
		}
	}
	if (oracle_prediction_asks(pred)) {
		t->asked++;
		t->excused += n_unexplained;
	} else if (n_unexplained) {
		t->mismatches++;
		report(out, in, m, &recs, unexplained);
	} else if (o->verbose) {
		fprintf(out, "OK %s: %zu records\n", in->origin, recs.n);
	}
	oracle_records_done(&recs);
	oracle_prediction_free(pred);
}

/* One worker: the inputs k, k + jobs, ... ; its report into out, its
 * counts into *t. 0 or -errno. */
static int worker(const struct inputs *in, unsigned k, const struct options *o, struct tally *t,
                  FILE *out)
{
	struct oracle_runner_config cfg = {
		.launcher = o->launcher,
		.stub = o->stub,
		.timeout_ms = o->timeout_ms,
	};
	_cleanup_(oracle_runner_freep) struct oracle_runner *runner = NULL;
	int r = oracle_runner_new(&cfg, (char *const *)oracle_gen_names, &runner);
	if (r < 0)
		return r;
	struct command_model_parser *parser = NULL;
	r = command_model_parser_new(&parser);
	if (r < 0)
		return r;
	for (size_t i = k; i < in->n; i += o->jobs) {
		check_one(runner, parser, &in->v[i], o, t, out);
		fflush(out);
	}
	command_model_parser_free(parser);
	return 0;
}

/* Run the workers in child processes (each is a subreaper of its own) and
 * add up what they found. */
static int run_workers(const struct inputs *in, const struct options *o, struct tally *sum)
{
	FILE *outs[64] = { 0 }, *tallies[64] = { 0 };
	pid_t pids[64] = { 0 };
	int status = 0;
	for (unsigned k = 0; k < o->jobs; k++) {
		outs[k] = tmpfile();
		tallies[k] = tmpfile();
		if (!outs[k] || !tallies[k])
			return -errno;
		fflush(stdout);
		fflush(stderr);
		pids[k] = fork();
		if (pids[k] < 0)
			return -errno;
		if (pids[k] == 0) {
			struct tally t = { 0 };
			int r = worker(in, k, o, &t, outs[k]);
			fwrite(&t, sizeof(t), 1, tallies[k]);
			fflush(outs[k]);
			fflush(tallies[k]);
			_exit(r < 0 ? 2 : 0);
		}
	}
	for (unsigned k = 0; k < o->jobs; k++) {
		int ws;
		if (waitpid(pids[k], &ws, 0) < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
			fprintf(stderr, "model-oracle: worker %u failed\n", k);
			status = -EIO;
		}
		struct tally t = { 0 };
		rewind(tallies[k]);
		if (fread(&t, sizeof(t), 1, tallies[k]) == 1) {
			sum->commands += t.commands;
			sum->skipped += t.skipped;
			sum->records += t.records;
			sum->asked += t.asked;
			sum->excused += t.excused;
			sum->mismatches += t.mismatches;
			sum->timed_out += t.timed_out;
			sum->errors += t.errors;
		}
		rewind(outs[k]);
		char buf[8192];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), outs[k])) > 0)
			fwrite(buf, 1, n, stdout);
		fclose(outs[k]);
		fclose(tallies[k]);
	}
	return status;
}

static void usage(FILE *out)
{
	fputs("usage: model-oracle --launcher PATH --stub PATH [--jobs N] [--timeout MS]\n"
	      "                    [--corpus FILE]... [--generate N [--seed S]] [--fuzz-dir DIR]...\n"
	      "                    [--print] [--verbose] [--model-of COMMAND]\n",
	      out);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "launcher", required_argument, NULL, 'l' },
		{ "stub", required_argument, NULL, 's' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "corpus", required_argument, NULL, 'c' },
		{ "generate", required_argument, NULL, 'g' },
		{ "seed", required_argument, NULL, 'S' },
		{ "fuzz-dir", required_argument, NULL, 'f' },
		{ "print", no_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "model-of", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct options o = { .jobs = 2, .timeout_ms = 5000 };
	struct inputs in = { 0 };
	unsigned long generate = 0, n_corpus = 0, n_fuzz = 0;
	uint64_t seed = 1;
	_cleanup_strv_free_ char **corpora = NULL, **fuzz_dirs = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			o.launcher = optarg;
			break;
		case 's':
			o.stub = optarg;
			break;
		case 'j':
			o.jobs = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 't':
			o.timeout_ms = strtoull(optarg, NULL, 10);
			break;
		case 'c':
			if (strv_extend(&corpora, optarg) < 0)
				return 2;
			break;
		case 'g':
			generate = strtoul(optarg, NULL, 10);
			break;
		case 'S':
			seed = strtoull(optarg, NULL, 10);
			break;
		case 'f':
			if (strv_extend(&fuzz_dirs, optarg) < 0)
				return 2;
			break;
		case 'p':
			o.print = true;
			break;
		case 'm':
			o.model_of = optarg;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (o.jobs < 1 || o.jobs > 64 || o.timeout_ms == 0) {
		usage(stderr);
		return 2;
	}
	STRV_FOREACH (f, corpora)
		if (read_corpus(*f, &in) < 0)
			return 2;
	n_corpus = in.n;
	STRV_FOREACH (d, fuzz_dirs)
		if (read_fuzz_dir(*d, &in) < 0)
			return 2;
	n_fuzz = in.n - n_corpus;
	for (unsigned long i = 0; i < generate; i++) {
		char what[64];
		snprintf(what, sizeof(what), "generated %llu", (unsigned long long)seed);
		if (inputs_add(&in, oracle_gen_command(seed, i), origin_of(what, i)) < 0)
			return 2;
	}
	if (o.print) {
		for (size_t i = 0; i < in.n; i++) {
			printf("%s: ", in.v[i].origin);
			print_escaped(stdout, in.v[i].command);
			putchar('\n');
		}
		return 0;
	}
	if (!o.launcher || !o.stub) {
		usage(stderr);
		return 2;
	}
	uint64_t start = monotonic_us();
	struct tally sum = { 0 };
	int r = run_workers(&in, &o, &sum);
	double secs = (double)(monotonic_us() - start) / 1e6;
	printf("model-oracle: %lu commands (%lu corpus, %lu fuzz, %lu generated with seed %llu), "
	       "%lu skipped; %lu argv compared; the model asks for %lu commands (%lu argv "
	       "accounted for so); %lu timed out; %lu errors; %lu mismatches; %.1f s\n",
	       sum.commands, n_corpus, n_fuzz, generate, (unsigned long long)seed, sum.skipped,
	       sum.records, sum.asked, sum.excused, sum.timed_out, sum.errors, sum.mismatches,
	       secs);
	for (size_t i = 0; i < in.n; i++) {
		free(in.v[i].command);
		free(in.v[i].origin);
	}
	free(in.v);
	if (r < 0 || sum.errors)
		return 2;
	return sum.mismatches ? 1 : 0;
}
