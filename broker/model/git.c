/* SPDX-License-Identifier: MIT */
/*
 * Reading what git runs from its words (see git.h), after git's own rules:
 * git.c's handle_options() for the options before the subcommand (exact
 * names), alias.c's split_cmdline() for an alias's words, parse-options for
 * the subcommands' long options (any unambiguous prefix).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cleanup.h"
#include "model/git.h"
#include "model/wrappers.h"
#include "strv.h"

/* git's options before the subcommand that take a value: `--opt VALUE` or
 * `--opt=VALUE` (-C and -c only as a word of their own). */
static const char *const global_with_value[] = {
	"-C",           "-c",
	"--git-dir",    "--work-tree",
	"--namespace",  "--super-prefix",
	"--config-env", "--attr-source",
	"--list-cmds",
};

/* ... and those after which git runs no subcommand. */
static const char *const global_stops[] = {
	"--version", "-v", "--help", "-h", "--html-path", "--man-path", "--info-path",
};

static bool listed(const char *const *list, size_t n, const char *word, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && strncmp(list[i], word, len) == 0)
			return true;
	return false;
}

static bool is_boolean(const char *v)
{
	static const char *const values[] = { "",   "true", "false", "yes", "no",
		                              "on", "off",  "1",     "0" };
	for (size_t i = 0; i < ELEMENTSOF(values); i++)
		if (strcasecmp(v, values[i]) == 0)
			return true;
	return false;
}

/* Does the config key (section[.subsection].name) match pattern, where a
 * `*` stands for any subsection? Section and name ignore case, as git's
 * do. */
static bool key_matches(const char *key, size_t len, const char *pattern)
{
	const char *star = strchr(pattern, '*');
	if (!star)
		return strlen(pattern) == len && strncasecmp(key, pattern, len) == 0;
	size_t head = (size_t)(star - pattern), tail = strlen(star + 1);
	if (len < head + tail + 1 || strncasecmp(key, pattern, head) != 0 ||
	    strncasecmp(key + len - tail, star + 1, tail) != 0)
		return false;
	/* the subsection is what is between: at least one byte */
	return len - head - tail >= 1;
}

/* The config keys whose value git runs as a shell command. */
static const char *const command_keys[] = {
	"core.sshcommand",
	"core.editor",
	"core.pager",
	"core.askpass",
	"core.fsmonitor",
	"core.gitproxy",
	"core.alternaterefscommand",
	"sequence.editor",
	"diff.external",
	"diff.*.command",
	"diff.*.textconv",
	"merge.*.driver",
	"filter.*.clean",
	"filter.*.smudge",
	"filter.*.process",
	"gpg.program",
	"gpg.*.program",
	"pager.*",
	"uploadpack.packobjectshook",
	"trailer.*.cmd",
	"trailer.*.command",
	"difftool.*.cmd",
	"mergetool.*.cmd",
	"browser.*.cmd",
	"man.*.cmd",
	"remote.*.uploadpack",
	"remote.*.receivepack",
	"sendemail.sendmailcmd",
	"sendemail.tocmd",
	"sendemail.cccmd",
	"sendemail.*.tocmd",
	"sendemail.*.cccmd",
};

/* ... whose value runs a shell command when it starts with `!`. */
static const char *const bang_keys[] = { "credential.helper", "credential.*.helper",
	                                 "submodule.*.update" };

/* ... whose value brings in code or configuration that is not in the words:
 * hooks from a directory, another config file, URLs that run commands. */
static const char *const unknown_keys[] = {
	"core.hookspath", "include.path", "includeif.*.path", "protocol.ext.allow",
	"protocol.allow", "remote.*.vcs", "init.templatedir", "core.worktree",
};

static bool key_in(const char *const *keys, size_t n, const char *key, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (key_matches(key, len, keys[i]))
			return true;
	return false;
}

static struct git_run *add_run(struct git_runs *r, enum git_run_kind kind)
{
	if (r->n >= GIT_MAX_RUNS) {
		r->more = true;
		return NULL;
	}
	struct git_run *run = &r->v[r->n++];
	*run = (struct git_run){ .kind = kind };
	return run;
}

static void add_script(struct git_runs *r, size_t word, size_t offset, bool args_appended)
{
	struct git_run *run = add_run(r, GIT_RUN_SCRIPT);
	if (run) {
		run->word = word;
		run->offset = offset;
		run->args_appended = args_appended;
	}
}

/* A `-c KEY=VALUE` (or --config-env KEY=VAR: from_env) in words[i], from
 * its byte at (after `--config-env=`). */
static void config_value(struct git_runs *r, const char *const *words, const bool *dynamic,
                         size_t i, size_t at, bool from_env)
{
	const char *kv = words[i] + at;
	const char *eq = strchr(kv, '=');
	size_t len = eq ? (size_t)(eq - kv) : strlen(kv);
	const char *value = eq ? eq + 1 : "";
	bool command = key_in(command_keys, ELEMENTSOF(command_keys), kv, len);
	bool bang = key_in(bang_keys, ELEMENTSOF(bang_keys), kv, len) && value[0] == '!';
	if (key_in(unknown_keys, ELEMENTSOF(unknown_keys), kv, len) ||
	    ((command || bang) && (from_env || dynamic[i]))) {
		(void)add_run(r, GIT_RUN_UNKNOWN);
		return;
	}
	if (bang)
		add_script(r, i, (size_t)(value - words[i]) + 1, true);
	else if (command && !is_boolean(value))
		add_script(r, i, (size_t)(value - words[i]), true);
}

/* The value of the last `-c alias.NAME=VALUE` among words[from, to) for
 * name, or NULL; its word into *word. The name ignores case, as config
 * keys do. */
static const char *alias_value(const char *const *words, size_t from, size_t to, const char *name,
                               size_t *word)
{
	const char *value = NULL;
	size_t nlen = strlen(name);
	for (size_t i = from; i + 1 < to; i++) {
		if (strcmp(words[i], "-c") != 0)
			continue;
		const char *kv = words[++i];
		if (strncasecmp(kv, "alias.", 6) == 0 && strncasecmp(kv + 6, name, nlen) == 0 &&
		    kv[6 + nlen] == '=') {
			value = kv + 6 + nlen + 1;
			*word = i;
		}
	}
	return value;
}

/* The first word of an alias's value (its git command), into buf. */
static void first_word(const char *value, char *buf, size_t size)
{
	size_t skip = strspn(value, " \t"), len = strcspn(value + skip, " \t");
	if (len >= size)
		len = size - 1;
	memcpy(buf, value + skip, len);
	buf[len] = '\0';
}

/* Does the alias name, defined by -c in words[from, to), lead back to
 * itself (`-c alias.a=b -c alias.b=a a`)? Git then refuses it. */
static bool alias_loops(const char *const *words, size_t from, size_t to, const char *name)
{
	char seen[8][64], next[64];
	size_t n_seen = 0, word;
	snprintf(next, sizeof(next), "%s", name);
	for (;;) {
		const char *value = alias_value(words, from, to, next, &word);
		if (!value || value[0] == '!')
			return false;
		for (size_t i = 0; i < n_seen; i++)
			if (strcmp(seen[i], next) == 0)
				return true;
		if (n_seen == ELEMENTSOF(seen))
			return false; /* a long chain: walked as it is, within the limits */
		snprintf(seen[n_seen++], sizeof(seen[0]), "%s", next);
		first_word(value, next, sizeof(next));
	}
}

/* An alias's words as git's split_cmdline() makes them: blanks separate,
 * '...' and "..." quote (a backslash escapes inside "..." and outside). */
static int split_cmdline(const char *s, char ***ret)
{
	_cleanup_strv_free_ char **words = NULL;
	size_t len = strlen(s);
	_cleanup_free_ char *buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	size_t n = 0;
	bool in_word = false;
	char quote = 0;
	for (size_t i = 0; i <= len; i++) {
		char c = s[i];
		if (!quote && (c == '\0' || c == ' ' || c == '\t' || c == '\n')) {
			if (in_word) {
				buf[n] = '\0';
				if (strv_extend(&words, buf) < 0)
					return -ENOMEM;
			}
			n = 0;
			in_word = false;
			continue;
		}
		in_word = true;
		if (c == '\0')
			break; /* an unclosed quote: git refuses the alias; nothing runs */
		if (quote && c == quote) {
			quote = 0;
		} else if (!quote && (c == '\'' || c == '"')) {
			quote = c;
		} else if (c == '\\' && quote != '\'' && s[i + 1]) {
			buf[n++] = s[++i];
		} else {
			buf[n++] = c;
		}
	}
	if (quote)
		return -EINVAL;
	*ret = TAKE_PTR(words);
	return 0;
}

/* The alias's git command: git, its options before the subcommand, the
 * alias's words, the words after the subcommand. */
static int alias_command(struct git_runs *r, const char *const *words, size_t n, size_t start,
                         size_t sub, const char *value)
{
	_cleanup_strv_free_ char **split = NULL, **argv = NULL;
	int k = split_cmdline(value, &split);
	if (k == -EINVAL)
		return 0;
	if (k < 0)
		return k;
	for (size_t i = start; i < sub; i++)
		if (strv_extend(&argv, words[i]) < 0)
			return -ENOMEM;
	STRV_FOREACH (w, split)
		if (strv_extend(&argv, *w) < 0)
			return -ENOMEM;
	for (size_t i = sub + 1; i < n; i++)
		if (strv_extend(&argv, words[i]) < 0)
			return -ENOMEM;
	struct git_run *run = add_run(r, GIT_RUN_GIT);
	if (run)
		run->argv = TAKE_PTR(argv);
	return 0;
}

/* The long options of the subcommands that take a shell command. */
static const char rebase_longopts[] =
        "onto=,keep-base,no-keep-base,no-verify,verify,quiet,verbose,stat,no-stat,signoff,"
        "no-signoff,committer-date-is-author-date,reset-author-date,ignore-whitespace,"
        "whitespace=,ignore-date,continue,skip,abort,quit,edit-todo,show-current-patch,apply,"
        "merge,interactive,rerere-autoupdate,no-rerere-autoupdate,empty=,autosquash,"
        "no-autosquash,gpg-sign?,no-gpg-sign,autostash,no-autostash,exec=,rebase-merges?,"
        "no-rebase-merges,fork-point,no-fork-point,strategy=,strategy-option=,root,"
        "reschedule-failed-exec,no-reschedule-failed-exec,reapply-cherry-picks,"
        "no-reapply-cherry-picks,update-refs,no-update-refs,keep-empty,no-keep-empty,"
        "force-rebase,no-ff,context=";

/* `git submodule [--quiet] foreach [--recursive] CMD...`: one word is a
 * shell command, more are a command's words. */
static void submodule_runs(struct git_runs *r, const char *const *words, size_t n, size_t sub)
{
	size_t i = sub + 1;
	while (i < n && words[i][0] == '-')
		i++;
	if (i >= n || strcmp(words[i], "foreach") != 0)
		return;
	for (i++; i < n && words[i][0] == '-'; i++)
		if (strcmp(words[i], "--") == 0) {
			i++;
			break;
		}
	if (i + 1 == n) {
		add_script(r, i, 0, false);
	} else if (i < n) {
		struct git_run *run = add_run(r, GIT_RUN_ARGV);
		if (run) {
			run->from = i;
			run->to = n;
		}
	}
}

/* `git filter-branch --tree-filter CMD ...` (the script reads exact names,
 * as `--NAME CMD` or `--NAME=CMD`). */
static void filter_branch_runs(struct git_runs *r, const char *const *words, size_t n, size_t sub)
{
	static const char *const filters[] = {
		"--env-filter", "--tree-filter",   "--index-filter",    "--parent-filter",
		"--msg-filter", "--commit-filter", "--tag-name-filter",
	};
	for (size_t i = sub + 1; i < n; i++) {
		const char *w = words[i];
		if (strcmp(w, "--") == 0)
			break;
		const char *eq = strchr(w, '=');
		size_t len = eq ? (size_t)(eq - w) : strlen(w);
		if (!listed(filters, ELEMENTSOF(filters), w, len))
			continue;
		if (eq)
			add_script(r, i, len + 1, false);
		else if (i + 1 < n)
			add_script(r, ++i, 0, false);
	}
}

static const char difftool_longopts[] =
        "gui,no-gui,dir-diff,no-dir-diff,prompt,no-prompt,symlinks,no-symlinks,tool=,tool-help,"
        "trust-exit-code,no-trust-exit-code,extcmd=,no-index,index,rotate-to=,skip-to=,cached,"
        "staged";

static const char grep_longopts[] =
        "cached,no-index,untracked,exclude-standard,no-exclude-standard,recurse-submodules,"
        "text,textconv,no-textconv,ignore-case,word-regexp,invert-match,full-name,"
        "extended-regexp,basic-regexp,perl-regexp,fixed-strings,line-number,column,"
        "files-with-matches,name-only,files-without-match,null,count,color?,no-color,break,"
        "heading,show-function,context=,after-context=,before-context=,function-context,"
        "threads=,max-depth=,only-matching,quiet,and,or,not,all-match,open-files-in-pager?,"
        "max-count=";

/* A subcommand's option whose value is a shell command. */
struct script_option {
	const char *longopts;       /* all the subcommand's long options (wrappers.h syntax) */
	const char *name;           /* the long one that takes the command */
	char letter;                /* the short one */
	bool attached_only;         /* its value is only ever attached (-OCMD) */
	const char *short_with_arg; /* the other short options that take a value */
	bool args_appended;         /* git adds arguments to the command */
};

/* The commands of a subcommand's script option (`rebase --exec CMD`,
 * `-xCMD`, `-ix CMD`, `--exe=CMD`): parse-options reads the options
 * anywhere before `--`, a long one cut short when only one begins so. */
static void option_scripts(struct git_runs *r, const char *const *words, size_t n, size_t sub,
                           const struct script_option *o)
{
	for (size_t i = sub + 1; i < n; i++) {
		const char *w = words[i];
		if (strcmp(w, "--") == 0)
			break;
		if (w[0] != '-' || w[1] == '\0')
			continue;
		if (w[1] == '-') {
			const char *item;
			size_t item_len;
			unsigned args;
			if (!wrapper_long_option(o->longopts, w + 2, &item, &item_len, &args))
				continue; /* unknown or ambiguous: git refuses it, runs nothing */
			const char *eq = strchr(w, '=');
			bool named = item_len == strlen(o->name) &&
			             strncmp(item, o->name, item_len) == 0;
			if (named && eq)
				add_script(r, i, (size_t)(eq + 1 - w), o->args_appended);
			else if (named && args && i + 1 < n)
				add_script(r, ++i, 0, o->args_appended);
			else if (args && !eq)
				i++;
			continue;
		}
		/* a cluster of short options: the script's takes the rest, or
		 * the next word */
		for (size_t k = 1; w[k]; k++) {
			if (w[k] == o->letter) {
				if (w[k + 1])
					add_script(r, i, k + 1, o->args_appended);
				else if (!o->attached_only && i + 1 < n)
					add_script(r, ++i, 0, o->args_appended);
				break;
			}
			if (strchr(o->short_with_arg, w[k])) {
				if (!w[k + 1])
					i++;
				break;
			}
		}
	}
}

static const struct script_option rebase_exec = {
	rebase_longopts, "exec", 'x', false, "sXC", false
};
static const struct script_option difftool_extcmd = {
	difftool_longopts, "extcmd", 'x', false, "t", true
};
static const struct script_option grep_pager = { grep_longopts, "open-files-in-pager",
	                                         'O',           true,
	                                         "efABCm",      true };

int git_runs_find(const char *const *words, const bool *dynamic, size_t n, size_t start,
                  struct git_runs *ret)
{
	*ret = (struct git_runs){ 0 };
	size_t i = start + 1;
	for (; i < n; i++) {
		const char *w = words[i];
		if (w[0] != '-')
			break;
		const char *eq = strchr(w, '=');
		size_t len = eq ? (size_t)(eq - w) : strlen(w);
		if (listed(global_stops, ELEMENTSOF(global_stops), w, len))
			return 0;
		if (strncmp(w, "--exec-path", 11) == 0) {
			if (!eq)
				return 0;                    /* prints the path */
			(void)add_run(ret, GIT_RUN_UNKNOWN); /* git-SUBCOMMAND from there */
			continue;
		}
		if (!listed(global_with_value, ELEMENTSOF(global_with_value), w, len))
			continue; /* a flag (--no-pager, --bare ...) */
		size_t value = i, at = eq ? (size_t)(eq + 1 - w) : 0;
		if (!eq) {
			if (i + 1 >= n)
				return 0;
			value = ++i;
		}
		if (strcmp(w, "-c") == 0)
			config_value(ret, words, dynamic, value, at, false);
		else if (strncmp(w, "--config-env", 12) == 0)
			config_value(ret, words, dynamic, value, at, true);
	}
	if (i >= n)
		return 0;
	size_t sub = i;
	if (dynamic[sub]) {
		(void)add_run(ret, GIT_RUN_UNKNOWN);
		return 0;
	}
	size_t alias_word;
	const char *value = alias_value(words, start + 1, sub, words[sub], &alias_word);
	if (value && dynamic[alias_word]) {
		(void)add_run(ret, GIT_RUN_UNKNOWN);
	} else if (value && value[0] == '!') {
		/* sh -c 'VALUE "$@"' VALUE ARGS...: the arguments are $1 ... */
		add_script(ret, alias_word, (size_t)(value - words[alias_word]) + 1, false);
		if (ret->n > 0 && ret->v[ret->n - 1].kind == GIT_RUN_SCRIPT) {
			ret->v[ret->n - 1].from = sub + 1;
			ret->v[ret->n - 1].to = n;
		}
	} else if (value) {
		if (alias_loops(words, start + 1, sub, words[sub]))
			return 0; /* git refuses an alias loop: nothing runs */
		return alias_command(ret, words, n, start, sub, value);
	}
	const char *s = words[sub];
	if (strcmp(s, "rebase") == 0)
		option_scripts(ret, words, n, sub, &rebase_exec);
	else if (strcmp(s, "submodule") == 0)
		submodule_runs(ret, words, n, sub);
	else if (strcmp(s, "bisect") == 0 && sub + 2 < n && strcmp(words[sub + 1], "run") == 0) {
		struct git_run *run = add_run(ret, GIT_RUN_ARGV);
		if (run) {
			run->from = sub + 2;
			run->to = n;
		}
	} else if (strcmp(s, "filter-branch") == 0)
		filter_branch_runs(ret, words, n, sub);
	else if (strcmp(s, "difftool") == 0)
		option_scripts(ret, words, n, sub, &difftool_extcmd);
	else if (strcmp(s, "grep") == 0)
		option_scripts(ret, words, n, sub, &grep_pager);
	return 0;
}

/* The index of git's subcommand among words[start + 1, n), after its
 * global options, or n. */
static size_t subcommand_word(const char *const *words, size_t n, size_t start)
{
	size_t i = start + 1;
	for (; i < n && words[i][0] == '-'; i++) {
		const char *w = words[i];
		const char *eq = strchr(w, '=');
		size_t len = eq ? (size_t)(eq - w) : strlen(w);
		if (listed(global_stops, ELEMENTSOF(global_stops), w, len))
			return n;
		if (!eq && listed(global_with_value, ELEMENTSOF(global_with_value), w, len))
			i++;
	}
	return i < n ? i : n;
}

bool git_config_sets(const char *const *words, size_t n, size_t start, size_t *key, size_t *value)
{
	/* git config's options that take a value, and those that make it
	 * do something else than set (read, unset, list, edit, rename) */
	static const char *const with_value[] = {
		"-f", "--file", "--blob", "--type", "--default", "--comment", "--value",
	};
	static const char *const not_setting[] = {
		"--get",
		"--get-all",
		"--get-regexp",
		"--get-urlmatch",
		"--get-color",
		"--get-colorbool",
		"--unset",
		"--unset-all",
		"--rename-section",
		"--remove-section",
		"--list",
		"-l",
		"--edit",
		"-e",
		"--show-origin",
		"--show-scope",
		"--name-only",
	};
	static const char *const other_actions[] = {
		"get", "list", "unset", "rename-section", "remove-section", "edit",
	};
	size_t sub = subcommand_word(words, n, start);
	if (sub >= n || strcmp(words[sub], "config") != 0)
		return false;
	size_t positional[2], n_pos = 0;
	bool dashdash = false, first = true;
	for (size_t i = sub + 1; i < n; i++) {
		const char *w = words[i];
		if (!dashdash && strcmp(w, "--") == 0) {
			dashdash = true;
			continue;
		}
		if (!dashdash && w[0] == '-' && w[1]) {
			const char *eq = strchr(w, '=');
			size_t len = eq ? (size_t)(eq - w) : strlen(w);
			if (listed(not_setting, ELEMENTSOF(not_setting), w, len))
				return false;
			if (!eq && listed(with_value, ELEMENTSOF(with_value), w, len))
				i++;
			continue;
		}
		if (first && strcmp(w, "set") == 0) {
			first = false;
			continue; /* git config set KEY VALUE (git 2.46) */
		}
		if (first && listed(other_actions, ELEMENTSOF(other_actions), w, strlen(w)))
			return false;
		first = false;
		if (n_pos < 2)
			positional[n_pos++] = i;
	}
	if (n_pos < 2)
		return false;
	*key = positional[0];
	*value = positional[1];
	return true;
}

bool git_config_key_matters(const char *key, size_t len)
{
	static const char *const pushing[] = { "remote.*.mirror", "remote.*.push" };
	return (len > 6 && strncasecmp(key, "alias.", 6) == 0) ||
	       key_in(command_keys, ELEMENTSOF(command_keys), key, len) ||
	       key_in(bang_keys, ELEMENTSOF(bang_keys), key, len) ||
	       key_in(unknown_keys, ELEMENTSOF(unknown_keys), key, len) ||
	       key_in(pushing, ELEMENTSOF(pushing), key, len);
}

bool git_config_key_opaque(const char *key, size_t len)
{
	return key_in(unknown_keys, ELEMENTSOF(unknown_keys), key, len);
}

void git_runs_done(struct git_runs *r)
{
	for (size_t i = 0; i < r->n; i++)
		strv_free(r->v[i].argv);
	r->n = 0;
}

int git_env_run(const char *name)
{
	static const char *const scripts[] = {
		"GIT_SSH_COMMAND",
		"GIT_EDITOR",
		"GIT_SEQUENCE_EDITOR",
		"GIT_PAGER",
		"GIT_EXTERNAL_DIFF",
		"GIT_ASKPASS",
		"SSH_ASKPASS",
		"GIT_PROXY_COMMAND",
		"EDITOR",
		"VISUAL",
		"PAGER",
	};
	static const char *const unknown[] = {
		"GIT_EXEC_PATH",     "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG",
		"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",     "GIT_TEMPLATE_DIR",
	};
	if (listed(scripts, ELEMENTSOF(scripts), name, strlen(name)))
		return GIT_RUN_SCRIPT;
	if (strcmp(name, "GIT_SSH") == 0)
		return GIT_RUN_ARGV;
	if (listed(unknown, ELEMENTSOF(unknown), name, strlen(name)) ||
	    strncmp(name, "GIT_CONFIG_KEY_", 15) == 0 ||
	    strncmp(name, "GIT_CONFIG_VALUE_", 17) == 0)
		return GIT_RUN_UNKNOWN;
	return -1;
}
