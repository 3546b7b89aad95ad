/* SPDX-License-Identifier: MIT */
/*
 * The reading of a wrapper's own options against its row of the table
 * (wrapper-table.c; see wrappers.h), and of the strings shells, su and
 * runuser run. Option letters follow the GNU coreutils, sudo, doas and
 * util-linux manuals; an option not in a row is taken as a flag and the
 * match says so, so that a policy can be careful.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "cleanup.h"
#include "shell/shell-words.h"
#include "model/wrappers.h"

static bool has_char(const char *set, char c)
{
	return set && c && strchr(set, c);
}

/* One item of a comma list of long options, p[0..len): "name" (a flag),
 * "name=" (an argument, attached or the next word), "name==" (two: the
 * next words), "name?" (an optional argument, attached only). Returns the
 * name's length; *args: how many words of arguments it takes. */
static size_t item_name(const char *p, size_t len, unsigned *args)
{
	*args = 0;
	if (len > 0 && p[len - 1] == '?')
		return len - 1;
	while (len > 0 && p[len - 1] == '=') {
		len--;
		++*args;
	}
	return len;
}

/* Is name[0..len) in the comma list? *args: the words of arguments it takes. */
static bool in_list(const char *list, const char *name, size_t len, unsigned *args)
{
	if (!list)
		return false;
	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		size_t item = end ? (size_t)(end - p) : strlen(p);
		unsigned n_args;
		size_t nlen = item_name(p, item, &n_args);
		if (nlen == len && strncmp(p, name, len) == 0) {
			if (args)
				*args = n_args;
			return true;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

/* The option of the comma lists that name[0..len) spells, as getopt_long
 * takes it: the one named so, else the only one it begins (--comm is
 * --command); into *item, *item_len (the name's). False when none or
 * several are (getopt_long refuses an ambiguous one: nothing runs). */
static bool resolve_long(const char *const *lists, size_t n_lists, const char *name, size_t len,
                         const char **item, size_t *item_len)
{
	const char *found = NULL;
	size_t found_len = 0;
	bool ambiguous = false;
	for (size_t l = 0; l < n_lists; l++) {
		for (const char *p = lists[l]; p && *p;) {
			const char *end = strchr(p, ',');
			unsigned n_args;
			size_t nlen = item_name(p, end ? (size_t)(end - p) : strlen(p), &n_args);
			if (nlen == len && strncmp(p, name, len) == 0) {
				*item = p;
				*item_len = nlen;
				return true; /* exact */
			}
			if (nlen > len && strncmp(p, name, len) == 0) {
				if (found && !(found_len == nlen && strncmp(found, p, nlen) == 0))
					ambiguous = true;
				found = p;
				found_len = nlen;
			}
			if (!end)
				break;
			p = end + 1;
		}
	}
	if (!found || ambiguous || len == 0)
		return false;
	*item = found;
	*item_len = found_len;
	return true;
}

bool wrapper_long_option(const char *list, const char *word, const char **item, size_t *item_len,
                         unsigned *args)
{
	const char *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	const char *const lists[] = { list };
	if (!resolve_long(lists, 1, word, len, item, item_len))
		return false;
	return in_list(list, *item, *item_len, args);
}

/* A long option at words[*i] ("--name" or "--name=value", or a prefix of
 * the name that only one option has). */
static void match_long(const struct wrapper *w, const char *const *words, size_t n, size_t *i,
                       struct wrapper_match *m)
{
	const char *opt = words[*i] + 2;
	const char *eq = strchr(opt, '=');
	size_t len = eq ? (size_t)(eq - opt) : strlen(opt);
	const char *const lists[] = { w->longopts, w->stop_longopts };
	const char *item;
	size_t item_len;
	if (resolve_long(lists, ELEMENTSOF(lists), opt, len, &item, &item_len)) {
		opt = item; /* the full name: the lists below are read with it */
		len = item_len;
	}
	unsigned args = 0;
	if (in_list(w->stop_longopts, opt, len, &args))
		m->stops = true;
	if (!in_list(w->longopts, opt, len, &args) && !m->stops && !(w->flags & WRAP_LONG_ANY))
		m->unknown_opt = true;
	size_t arg = *i, offset = eq ? (size_t)(eq + 1 - words[*i]) : 0;
	/* the words its arguments take: all of them, or the rest after `=` */
	unsigned take = eq ? (args > 0 ? args - 1 : 0) : args;
	for (unsigned k = 0; k < take && *i + 1 < n; k++) {
		++*i;
		if (k == 0 && !eq)
			arg = *i;
	}
	if (in_list(w->chdir_longopts, opt, len, NULL)) {
		m->chdir_word = (long)arg;
		m->chdir_offset = offset;
	}
	if (in_list(w->string_longopts, opt, len, NULL)) {
		m->string_word = (long)arg;
		m->string_offset = offset;
	}
}

/* A cluster of short options at words[*i] ("-u", "-uroot", "-nb"). */
static void match_short(const struct wrapper *w, const char *const *words, size_t n, size_t *i,
                        struct wrapper_match *m)
{
	const char *s = words[*i] + 1;
	if (w->flags & WRAP_NUMERIC_OPT && s[0] >= '0' && s[0] <= '9')
		return; /* nice -10 */
	for (size_t k = 0; s[k]; k++) {
		char c = s[k];
		if (has_char(w->stop_opts, c))
			m->stops = true;
		if (has_char(w->direct_opts, c))
			m->shell_join = false;
		if (has_char(w->short_attached, c))
			return; /* the rest of the cluster is its argument */
		if (has_char(w->short_with_arg, c)) {
			size_t arg = *i, offset = k + 2; /* "-Cdir": the value after 'C' */
			if (s[k + 1] == '\0' && *i + 1 < n) {
				arg = ++*i;
				offset = 0;
			}
			if (has_char(w->chdir_opts, c)) {
				m->chdir_word = (long)arg;
				m->chdir_offset = offset;
			}
			if (has_char(w->string_opts, c)) {
				m->string_word = (long)arg;
				m->string_offset = offset;
			}
			return;
		}
		if (!has_char(w->short_flags, c) && !has_char(w->stop_opts, c))
			m->unknown_opt = true;
	}
}

static bool is_assignment(const char *word)
{
	const char *eq = strchr(word, '=');
	return eq && shell_word_is_name(word, (size_t)(eq - word));
}

void wrapper_match(const struct wrapper *w, const char *const *words, size_t n, size_t start,
                   struct wrapper_match *ret)
{
	*ret = (struct wrapper_match){
		.chdir_word = -1,
		.string_word = -1,
		.shell_join = (w->flags & WRAP_SHELL_JOIN) != 0,
	};
	size_t i = start + 1;
	if (w->subcommands) {
		if (i < n && w->builtins && words[i][0] != '-' && words[i][0] != '\0' &&
		    !in_list(w->subcommands, words[i], strlen(words[i]), NULL) &&
		    !in_list(w->builtins, words[i], strlen(words[i]), NULL)) {
			ret->end = i; /* yarn rimraf dist: the project's bin rimraf */
			return;
		}
		if (i >= n || !in_list(w->subcommands, words[i], strlen(words[i]), NULL)) {
			ret->stops = true; /* uv pip install: uv is the command */
			ret->end = n;
			return;
		}
		i++;
	}
	unsigned positionals = w->positionals;
	if (w->flags & WRAP_POSITIONALS_FIRST) {
		for (; positionals > 0 && i < n; positionals--)
			i++; /* setarch ARCH -R cmd */
	}
	for (; i < n; i++) {
		const char *word = words[i];
		if (strcmp(word, "--") == 0) {
			i++;
			break;
		}
		if (word[0] != '-' || word[1] == '\0') {
			if (strcmp(word, "-") == 0 && strcmp(w->name, "env") == 0)
				continue; /* env - : same as -i */
			if (w->flags & WRAP_PERMUTE)
				continue; /* an operand: options may follow it */
			break;
		}
		if (word[1] == '-')
			match_long(w, words, n, &i, ret);
		else
			match_short(w, words, n, &i, ret);
	}
	if (w->flags & WRAP_PERMUTE)
		i = n; /* every word was an option or an operand: no command */
	ret->assign_begin = ret->assign_end = i;
	if (w->flags & WRAP_ASSIGNMENTS) {
		while (i < n && is_assignment(words[i]))
			i++;
		ret->assign_end = i;
	}
	for (unsigned p = 0; p < positionals && i < n; p++)
		i++;
	if ((w->flags & WRAP_COMMAND_AFTER) && i + 1 < n &&
	    (strcmp(words[i], "-c") == 0 || strcmp(words[i], "--command") == 0)) {
		ret->string_word = (long)(i + 1);
		ret->string_offset = 0;
	}
	ret->end = i; /* never past n: start < n, and every step above stops at n */
}

static bool is_exec_action(const char *word)
{
	return strcmp(word, "-exec") == 0 || strcmp(word, "-execdir") == 0 ||
	       strcmp(word, "-ok") == 0 || strcmp(word, "-okdir") == 0;
}

size_t wrapper_exec_clauses(const char *const *words, size_t n, size_t start,
                            struct wrapper_clause *clauses, size_t max)
{
	size_t count = 0;
	for (size_t i = start + 1; i < n; i++) {
		if (!is_exec_action(words[i]))
			continue;
		size_t begin = i + 1, end = begin;
		while (end < n && strcmp(words[end], ";") != 0 &&
		       !(strcmp(words[end], "+") == 0 && strcmp(words[end - 1], "{}") == 0))
			end++;
		if (end > begin) {
			if (count < max)
				clauses[count] = (struct wrapper_clause){ begin, end };
			count++;
		}
		i = end;
	}
	return count;
}

/* The shells whose -c string is a command (sorted). */
static const char *const shells[] = { "ash", "bash", "csh",   "dash", "elvish", "fish",
	                              "ksh", "mksh", "nu",    "posh", "pwsh",   "rbash",
	                              "sh",  "tcsh", "xonsh", "yash", "zsh" };

/* Those among them whose language is not bash's (sorted). */
static const char *const foreign_shells[] = {
	"csh", "elvish", "fish", "nu", "pwsh", "tcsh", "xonsh"
};

static int name_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* su's and runuser's long options ('=': takes a value). */
static const char su_longopts[] =
        "command=,session-command=,login,preserve-environment,shell=,group=,supp-group=,pty,"
        "whitelist-environment=,fast,user=,help,version";

/* su / runuser [options] [-] [user] [options] -c COMMAND: COMMAND runs in
 * the user's shell. -c in a cluster (-lc CMD, -cCMD), --command,
 * --session-command and their prefixes (--comm=CMD) name it; options may
 * follow the user, as getopt reorders them. */
static enum shell_script_source su_script(const char *const *words, size_t n, size_t start,
                                          size_t *script_word, size_t *script_offset)
{
	for (size_t i = start + 1; i < n; i++) {
		const char *w = words[i];
		if (strcmp(w, "--") == 0)
			break;
		if (w[0] != '-' || w[1] == '\0')
			continue; /* the user, or "-" (a login shell) */
		if (w[1] == '-') {
			const char *eq = strchr(w + 2, '=');
			size_t len = eq ? (size_t)(eq - (w + 2)) : strlen(w + 2);
			const char *const lists[] = { su_longopts };
			const char *item;
			size_t item_len;
			if (!resolve_long(lists, 1, w + 2, len, &item, &item_len))
				continue;
			unsigned n_args;
			(void)item_name(item, strcspn(item, ","), &n_args);
			bool with_arg = n_args > 0;
			if (strncmp(item, "command=", 8) == 0 ||
			    strncmp(item, "session-command=", 16) == 0) {
				if (eq) {
					*script_word = i;
					*script_offset = (size_t)(eq + 1 - w);
					return SHELL_SCRIPT_ARG;
				}
				if (i + 1 < n) {
					*script_word = i + 1;
					*script_offset = 0;
					return SHELL_SCRIPT_ARG;
				}
				return SHELL_SCRIPT_NONE;
			}
			if (with_arg && !eq)
				i++;
			continue;
		}
		for (size_t k = 1; w[k]; k++) {
			if (w[k] == 'c') {
				if (w[k + 1]) {
					*script_word = i;
					*script_offset = k + 1;
					return SHELL_SCRIPT_ARG;
				}
				if (i + 1 < n) {
					*script_word = i + 1;
					*script_offset = 0;
					return SHELL_SCRIPT_ARG;
				}
				return SHELL_SCRIPT_NONE;
			}
			if (strchr("gGswu", w[k])) {
				if (!w[k + 1])
					i++; /* its value is the next word */
				break;
			}
		}
	}
	return SHELL_SCRIPT_NONE;
}

bool wrapper_shell_is_foreign(const char *name)
{
	return bsearch(name, foreign_shells, ELEMENTSOF(foreign_shells), sizeof(foreign_shells[0]),
	               name_cmp) != NULL;
}

bool wrapper_is_user_switch(const char *name)
{
	return strcmp(name, "su") == 0 || strcmp(name, "runuser") == 0;
}

enum shell_script_source wrapper_shell_script(const char *name, const char *const *words, size_t n,
                                              size_t start, size_t *script_word,
                                              size_t *script_offset)
{
	*script_offset = 0;
	if (wrapper_is_user_switch(name))
		return su_script(words, n, start, script_word, script_offset);
	if (!bsearch(name, shells, ELEMENTSOF(shells), sizeof(shells[0]), name_cmp))
		return SHELL_SCRIPT_NONE;
	size_t i = start + 1;
	bool dash_c = false, dash_s = false;
	for (; i < n; i++) {
		const char *w = words[i];
		if (strcmp(w, "--") == 0 || strcmp(w, "-") == 0) {
			i++;
			break;
		}
		if (w[0] != '-' && w[0] != '+')
			break;
		if (w[1] == '-') {
			/* --rcfile FILE / --init-file FILE take an argument */
			if ((strcmp(w, "--rcfile") == 0 || strcmp(w, "--init-file") == 0) &&
			    i + 1 < n)
				i++;
			/* fish --command STRING / --command=STRING */
			if (strncmp(w, "--command=", 10) == 0) {
				*script_word = i;
				*script_offset = 10;
				return SHELL_SCRIPT_ARG;
			}
			if (strcmp(w, "--command") == 0 && i + 1 < n) {
				*script_word = i + 1;
				return SHELL_SCRIPT_ARG;
			}
			continue;
		}
		bool takes_arg = false;
		for (size_t k = 1; w[k]; k++) {
			if (w[k] == 'c')
				dash_c = true;
			else if (w[k] == 's')
				dash_s = true;
			else if (w[k] == 'o' || w[k] == 'O')
				takes_arg = true;
		}
		if (takes_arg && i + 1 < n)
			i++;
	}
	if (dash_c) {
		if (i >= n)
			return SHELL_SCRIPT_STDIN; /* bash -c with no string: an error in bash */
		*script_word = i;
		return SHELL_SCRIPT_ARG;
	}
	if (dash_s || i >= n)
		return SHELL_SCRIPT_STDIN;
	*script_word = i;
	return SHELL_SCRIPT_FILE;
}
