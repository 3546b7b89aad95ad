/* SPDX-License-Identifier: MIT */
/*
 * Where an interpreter's code is among its words (interp.h): python's -c
 * (also in a cluster: -uc, -Bc), node's and bun's -e / -p / --eval /
 * --print, deno eval's code word, perl's and ruby's -e (repeated, clustered: -ne, -pi -e, -Mstrict -e), php's -r,
 * awk's program word or gawk's -e, lua's, R's and julia's -e; or standard input when no script file
 * is named (python3 -, node <<EOF, perl <<<'...'). Options that take a
 * value are stepped over, so that a value is never read as code.
 * Not for: what the code does (interp-reader.c).
 */
#include "config.h"

#include <string.h>

#include "model/interp-lang.h"
#include "model/interp.h"

static void add_code(struct interp_invocation *inv, size_t word, size_t offset)
{
	if (inv->n_code >= INTERP_MAX_CODE_WORDS) {
		inv->more_code = true;
		return;
	}
	inv->code_words[inv->n_code] = word;
	inv->code_offsets[inv->n_code] = offset;
	inv->n_code++;
	inv->source = INTERP_CODE_WORDS;
}

/* Is w a script file that is standard input itself (`python3 /dev/stdin
 * <<EOF`, `perl /dev/fd/0`)? Its code is the input, as with `-`. */
static bool stdin_file(const char *w)
{
	return strcmp(w, "-") == 0 || strcmp(w, "/dev/stdin") == 0 || strcmp(w, "/dev/fd/0") == 0 ||
	       strcmp(w, "/proc/self/fd/0") == 0;
}

/* The rest of words: no script file, so the code is on standard input. */
static void stdin_unless_code(struct interp_invocation *inv)
{
	if (inv->n_code == 0)
		inv->source = INTERP_CODE_STDIN;
}

/* python [options] (-c CODE | -m MOD | FILE | -) [args]. */
static void python_code(const char *const *words, size_t n, struct interp_invocation *inv)
{
	for (size_t i = 1; i < n; i++) {
		const char *w = words[i];
		if (stdin_file(w))
			break;
		if (strcmp(w, "--") == 0 || w[0] != '-')
			return; /* a script file */
		if (w[1] == '-') {
			if (strcmp(w, "--check-hash-based-pycs") == 0)
				i++;
			continue;
		}
		for (size_t k = 1; w[k]; k++) {
			if (w[k] == 'c') {
				if (w[k + 1])
					add_code(inv, i, k + 1);
				else if (i + 1 < n)
					add_code(inv, i + 1, 0);
				return;
			}
			if (w[k] == 'm')
				return; /* a module: its code is a file */
			if (w[k] == 'W' || w[k] == 'X') {
				if (!w[k + 1])
					i++;
				break;
			}
		}
	}
	stdin_unless_code(inv);
}

/* node [options] (-e CODE | -p CODE | FILE | -) [args]. */
static void node_code(const char *const *words, size_t n, struct interp_invocation *inv)
{
	static const char *const with_value[] = {
		"-r", "--require",    "--import",     "--loader", "--experimental-loader",
		"-C", "--conditions", "--input-type", "--title",  NULL
	};
	for (size_t i = 1; i < n; i++) {
		const char *w = words[i];
		if (stdin_file(w))
			break;
		if (strcmp(w, "--") == 0 || w[0] != '-')
			return;
		if (strcmp(w, "-e") == 0 || strcmp(w, "--eval") == 0 || strcmp(w, "-p") == 0 ||
		    strcmp(w, "--print") == 0 || strcmp(w, "-pe") == 0 || strcmp(w, "-ep") == 0) {
			if (i + 1 < n)
				add_code(inv, i + 1, 0);
			return;
		}
		if (strncmp(w, "--eval=", 7) == 0 || strncmp(w, "--print=", 8) == 0) {
			add_code(inv, i, (size_t)(strchr(w, '=') - w) + 1);
			return;
		}
		for (size_t k = 0; with_value[k]; k++)
			if (strcmp(w, with_value[k]) == 0)
				i++;
	}
	stdin_unless_code(inv);
}

/* deno eval [options] CODE: its options are single words (--ext=ts,
 * --check) but for the few that take the next word. */
static void deno_code(const char *const *words, size_t n, struct interp_invocation *inv)
{
	static const char *const with_value[] = { "--ext",        "-c",         "--config",
		                                  "--import-map", "--location", "--seed",
		                                  "--cert",       NULL };
	if (n < 2 || strcmp(words[1], "eval") != 0)
		return; /* deno run FILE, deno test ...: files */
	for (size_t i = 2; i < n; i++) {
		const char *w = words[i];
		if (w[0] != '-') {
			add_code(inv, i, 0);
			return;
		}
		for (size_t k = 0; with_value[k]; k++)
			if (strcmp(w, with_value[k]) == 0)
				i++;
	}
}

/* perl and ruby: -e CODE (repeated, in clusters: -ne, -lane), -i[EXT]
 * (in place), options whose value is attached or the next word. */
static void perl_ruby_code(const char *const *words, size_t n, bool ruby,
                           struct interp_invocation *inv)
{
	/* the value is the rest of the cluster, or (when empty) the next word */
	const char *next_word_value = ruby ? "rICE" : "IMm";
	/* the value is the rest of the cluster, possibly empty */
	const char *attached_value = ruby ? "KTWFx" : "xdDCF";
	size_t i = 1;
	for (; i < n; i++) {
		const char *w = words[i];
		if (strcmp(w, "--") == 0) {
			i++;
			break;
		}
		if (w[0] != '-' || stdin_file(w))
			break;
		if (w[1] == '-') {
			continue; /* ruby --disable-gems, --enable=x */
		}
		for (size_t k = 1; w[k]; k++) {
			char c = w[k];
			if (c == 'e' || c == 'E') {
				if (ruby && c == 'E') { /* ruby -E ENCODING */
					if (!w[k + 1])
						i++;
					break;
				}
				if (w[k + 1])
					add_code(inv, i, k + 1);
				else if (i + 1 < n)
					add_code(inv, ++i, 0);
				break;
			}
			if (c == 'i') {
				inv->in_place = true;
				break; /* -i.bak: the rest is the extension */
			}
			if (strchr(next_word_value, c)) {
				if (!w[k + 1])
					i++;
				break;
			}
			if (strchr(attached_value, c))
				break;
			if (c == 'l' || c == '0') /* -l, -0777: digits may follow */
				while (w[k + 1] >= '0' && w[k + 1] <= '9')
					k++;
		}
	}
	if (inv->n_code == 0) {
		if (i >= n || stdin_file(words[i]))
			inv->source = INTERP_CODE_STDIN;
		inv->in_place = false;
		return;
	}
	inv->files_from = i;
}

/* php [options] (-r CODE | -f FILE | FILE) [args]. */
static void php_code(const char *const *words, size_t n, struct interp_invocation *inv)
{
	for (size_t i = 1; i < n; i++) {
		const char *w = words[i];
		if (strcmp(w, "--") == 0 || w[0] != '-')
			return;
		if (strcmp(w, "-r") == 0 || strcmp(w, "-R") == 0 || strcmp(w, "-B") == 0 ||
		    strcmp(w, "-E") == 0) {
			if (i + 1 < n)
				add_code(inv, ++i, 0);
			continue;
		}
		if (strcmp(w, "-f") == 0 || strcmp(w, "-F") == 0 || strcmp(w, "-S") == 0)
			return;
		if (strcmp(w, "-c") == 0 || strcmp(w, "-d") == 0 || strcmp(w, "-z") == 0 ||
		    strcmp(w, "-t") == 0)
			i++;
	}
	stdin_unless_code(inv);
}

/* awk [options] PROGRAM [files], or awk -f FILE / gawk -e PROGRAM. */
static void awk_code(const char *const *words, size_t n, struct interp_invocation *inv)
{
	for (size_t i = 1; i < n; i++) {
		const char *w = words[i];
		if (strcmp(w, "--") == 0) {
			if (i + 1 < n && inv->n_code == 0)
				add_code(inv, i + 1, 0);
			return;
		}
		if (w[0] != '-' || w[1] == '\0') {
			if (inv->n_code == 0)
				add_code(inv, i, 0);
			return;
		}
		if (strcmp(w, "-f") == 0 || strcmp(w, "--file") == 0 ||
		    strncmp(w, "--file=", 7) == 0)
			return; /* the program is a file */
		if (strcmp(w, "-e") == 0 || strcmp(w, "--source") == 0) {
			if (i + 1 < n)
				add_code(inv, ++i, 0);
			continue;
		}
		if (strncmp(w, "--source=", 9) == 0) {
			add_code(inv, i, 9);
			continue;
		}
		if ((strcmp(w, "-F") == 0 || strcmp(w, "-v") == 0 || strcmp(w, "--assign") == 0 ||
		     strcmp(w, "--field-separator") == 0) &&
		    i + 1 < n)
			i++;
	}
}

/* lua, Rscript, R, julia: CODE after -e (julia also --eval, -E, --print;
 * lua's and julia's also attached: -e'code', --eval=code), repeated;
 * value_opts take the next word (an attached value is one word); the first other
 * word is a script file, or R's subcommand (R CMD build). With neither
 * code nor a script, the code is read on standard input (lua <<EOF, R
 * --vanilla <<EOF, julia <<EOF); Rscript needs a file or -e, but - is
 * standard input. */
static void dash_e_code(const char *const *words, size_t n, const char *const *eval_opts,
                        const char *const *value_opts, bool stdin_without_file,
                        struct interp_invocation *inv)
{
	for (size_t i = 1; i < n; i++) {
		const char *w = words[i];
		if (stdin_file(w)) {
			if (inv->n_code == 0)
				inv->source = INTERP_CODE_STDIN;
			return;
		}
		if (strcmp(w, "--") == 0 || w[0] != '-')
			return; /* a script file: its code is not read */
		bool eval = false;
		for (size_t k = 0; eval_opts[k] && !eval; k++) {
			size_t len = strlen(eval_opts[k]);
			if (strcmp(w, eval_opts[k]) == 0) {
				if (i + 1 < n)
					add_code(inv, ++i, 0);
				eval = true;
			} else if (strncmp(w, eval_opts[k], len) == 0 && w[1] != '-') {
				add_code(inv, i, len); /* -e'code' */
				eval = true;
			} else if (strncmp(w, eval_opts[k], len) == 0 && w[len] == '=') {
				add_code(inv, i, len + 1); /* --eval=code */
				eval = true;
			}
		}
		if (eval)
			continue;
		for (size_t k = 0; value_opts[k]; k++)
			if (strcmp(w, value_opts[k]) == 0)
				i++;
	}
	if (inv->n_code == 0 && stdin_without_file)
		inv->source = INTERP_CODE_STDIN;
}

bool interp_invocation_find(const char *name, const char *const *words, size_t n,
                            struct interp_invocation *ret)
{
	const struct interp_lang *lang = interp_lang_of(name);
	if (!lang)
		return false;
	*ret = (struct interp_invocation){ .lang = lang, .source = INTERP_CODE_NONE };
	const char *l = interp_lang_name(lang);
	if (strcmp(l, "python") == 0)
		python_code(words, n, ret);
	else if (strcmp(l, "node") == 0 && strcmp(name, "deno") == 0)
		deno_code(words, n, ret);
	else if (strcmp(l, "node") == 0)
		node_code(words, n, ret);
	else if (strcmp(l, "perl") == 0 || strcmp(l, "ruby") == 0)
		perl_ruby_code(words, n, strcmp(l, "ruby") == 0, ret);
	else if (strcmp(l, "php") == 0)
		php_code(words, n, ret);
	else if (strcmp(l, "lua") == 0)
		dash_e_code(words, n, (const char *const[]){ "-e", NULL },
		            (const char *const[]){ "-l", NULL }, true, ret);
	else if (strcmp(l, "R") == 0)
		dash_e_code(words, n, (const char *const[]){ "-e", NULL },
		            (const char *const[]){ NULL }, strcmp(name, "R") == 0, ret);
	else if (strcmp(l, "julia") == 0)
		dash_e_code(words, n,
		            (const char *const[]){ "-e", "--eval", "-E", "--print", NULL },
		            (const char *const[]){ "-p", "-t", "-L", "-J", "-C", "--procs",
		                                   "--threads", "--load", "--sysimage",
		                                   "--cpu-target", "--machine-file", NULL },
		            true, ret);
	else
		awk_code(words, n, ret);
	ret->first_option = ret->n_code ? ret->code_words[0] : n;
	return true;
}
