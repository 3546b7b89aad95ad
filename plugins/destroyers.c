/* SPDX-License-Identifier: MIT */
/*
 * destroyers: the tools other than recursive rm that destroy a file or a
 * tree, judged by one notion of what must not be destroyed
 * (path-targets.h's guarded_path(): keys and credentials, a home
 * directory's configuration, a git repository's history; for a tree also
 * the working tree, "." "*" ".."). What destroys a file's content: a `>`,
 * `>|` or `&>` redirection (with or without a command), truncate, shred,
 * unlink, rm without -r, dd of=, tee without -a, sed -i with a script that
 * deletes every line (`sed -i d`, `sed -i '1,$d'`). What puts another file in
 * its place: cp, install, ln -f, mv onto it (keys: deny; configuration:
 * ask, as a dotfile manager does this on purpose; /dev/null linked onto a
 * shell's history asks too). What destroys a tree: rsync --delete into it,
 * tar --remove-files of it, find -delete (or -exec rm, shred, unlink,
 * truncate) in it with no test, mv of it to /dev/null. The verdict is the
 * notion's.
 * The root, home and system trees are refused too where this plugin
 * judges a tree (rsync, tar, mv to /dev/null; find's are system_trees').
 * A file whose name only exists when the command runs (`read f; truncate
 * -s0 "$f"`, `shred -u "$(cat list)"`, what an xargs reads from a program
 * the model does not follow) may be any of these: truncate, shred, unlink,
 * dd of= and a redirection that only empties (no command, `:` or `true`)
 * of such a name ask (rule run_time_target, run-time-values.h, as for
 * rm_targets), and so does rm without -r under an xargs fed by `ls PATHS`
 * of guarded paths or by `git ls-files` of every tracked file.
 * Not for: recursive rm (rm_targets), system files named one by one
 * (/etc/passwd: the sandbox keeps them), block devices (devices); a
 * command's output redirected into a name known only when it runs
 * (`make > "$log"`: writing output is what that is for), cp/mv/rm of one.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "path-targets.h"
#include "plugin-util.h"
#include "removed-sources.h"
#include "sed-args.h"
#include "run-time-values.h"
#include "sluice/policy.h"

/* The rules an administrator can switch (deny, ask, or allow: off). */
#define DS_RULES(X) X(RUN_TIME_TARGET, "run_time_target", SLUICE_ASK)

enum { DS_RULES(RULE_ENUM) N_DS_RULES };
static const struct rule_switch ds_rules[] = { DS_RULES(RULE_SWITCH) };

/* How a tool destroys what a word of it names. */
enum harm {
	HARM_CONTENT,  /* the file's content goes */
	HARM_REPLACED, /* another file takes its place */
	HARM_TREE,     /* it and everything in it go */
	HARM_MOVED,    /* it is taken away (mv of keys or history) */
	HARM_SILENCED, /* ln -sf /dev/null onto it: emptied, and written to no more */
};

/* path_rule_fn for each harm: what guarded_path() guards, as the harm
 * weighs it. */
static int harm_rule(const void *ctx, const char *t, const char **ret_what)
{
	enum harm harm = *(const enum harm *)ctx;
	if (harm == HARM_TREE) {
		if (system_tree(t, ret_what) != TREE_NONE)
			return SLUICE_DENY;
		*ret_what = working_tree(t);
		if (*ret_what)
			return SLUICE_DENY;
	}
	if (harm == HARM_SILENCED && shell_history(t)) {
		*ret_what =
		        "a shell's history: what it holds is lost and the shell records nothing "
		        "from now on";
		return SLUICE_ASK; /* some do so on purpose; a person says so */
	}
	switch (guarded_path(t, harm == HARM_TREE || harm == HARM_MOVED, ret_what)) {
	case GUARDED_NONE:
		return SLUICE_ALLOW;
	case GUARDED_CONFIG:
		/* `ln -sf ~/dotfiles/bashrc ~/.bashrc` installs one on purpose;
		 * `mv ~/.config/app ~/.config/app.bak` keeps it */
		if (harm == HARM_MOVED)
			return SLUICE_ALLOW;
		return harm == HARM_REPLACED || harm == HARM_SILENCED ? SLUICE_ASK : SLUICE_DENY;
	case GUARDED_KEYS:
	case GUARDED_HISTORY:
		break;
	}
	return SLUICE_DENY;
}

static const char *const harm_effect[] = {
	[HARM_CONTENT] = "destroys the content of",
	[HARM_REPLACED] = "puts another file in the place of",
	[HARM_TREE] = "removes",
	[HARM_MOVED] = "takes away",
	[HARM_SILENCED] = "links /dev/null in the place of",
};

static const char *const harm_suggestion[] = {
	[HARM_CONTENT] = "work on files of the project; to change a dotfile, append to it (>>) or "
	                 "edit the one line, and ask the user about keys",
	[HARM_REPLACED] = "write to a new file of the project, or ask the user before replacing "
	                  "their configuration or keys",
	[HARM_TREE] = "name the project's own directories (rsync --delete src/ build/, find "
	              "build -name '*.o' -delete)",
	[HARM_MOVED] = "copy what you need instead, and leave keys and .git where they are",
	[HARM_SILENCED] = "leave the user's files in place; ask the user before silencing them",
};

/* Judge the path a of sc (judged: how it is read, path_operand()),
 * destroyed by doing ("truncate", "the redirection >") as harm says.
 * Returns the verdict, its reason added. */
static int judge_as(const struct sluice_simple_command *sc, const char *doing, const char *a,
                    const char *judged, enum harm harm, struct sluice_verdict *v)
{
	struct path_finding f;
	if (!operand_judge(sc, judged, harm_rule, &harm, &f))
		return sluice_verdict_add(v, SLUICE_ASK, "a path too long to judge",
		                          "name a shorter path");
	if (f.verdict == SLUICE_ALLOW)
		return SLUICE_ALLOW;
	char msg[640];
	snprintf(msg, sizeof(msg), "%s '%s'%s%s%s %s %s", doing, a, f.after_cd ? " after 'cd " : "",
	         f.after_cd ? sluice_cwd(sc) : "", f.after_cd ? "'" : "", harm_effect[harm],
	         f.what);
	return sluice_verdict_add(v, f.verdict, msg, harm_suggestion[harm]);
}

/* The same for a path that is not a word of its own (`of=PATH`, a
 * redirection's target): read as written. */
static int judge(const struct sluice_simple_command *sc, const char *doing, const char *a,
                 enum harm harm, struct sluice_verdict *v)
{
	return judge_as(sc, doing, a, a, harm, v);
}

/* The same for word k of sc. */
static int judge_word(const struct sluice_simple_command *sc, const char *doing, size_t k,
                      enum harm harm, struct sluice_verdict *v)
{
	char literal[PATH_CAP];
	return judge_as(sc, doing, sluice_arg(sc, k), path_operand(sc, k, literal, sizeof(literal)),
	                harm, v);
}

/* Every operand of sc destroyed as harm says. */
static int judge_operands(const struct sluice_simple_command *sc, const char *const *with_value,
                          enum harm harm, struct sluice_verdict *v)
{
	size_t idx[MAX_OPERANDS];
	size_t n = operands(sc, with_value, idx, MAX_OPERANDS);
	int verdict = SLUICE_ALLOW;
	for (size_t k = 0; k < n; k++)
		verdict = worse(verdict, judge_word(sc, sluice_name(sc), idx[k], harm, v));
	return verdict;
}

/* `> f`, `>| f`, `&> f` (not `>>`: it appends) on any command or none. */
static int check_redirects(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	static const char *const truncating[] = { ">", ">|", "&>", NULL };
	int verdict = SLUICE_ALLOW;
	for (size_t i = 0; i < sluice_redirect_count(sc); i++) {
		const char *op = sluice_redirect_op(sc, i);
		const char *t = sluice_redirect_target(sc, i);
		if (!op || !t || !str_in(op, truncating))
			continue;
		char doing[32];
		snprintf(doing, sizeof(doing), "the redirection %s", op);
		verdict = worse(verdict, judge(sc, doing, t, HARM_CONTENT, v));
	}
	return verdict;
}

/* truncate, shred, unlink, rm without -r, tee without -a: every operand. */
static int check_content(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	static const char *const truncate_values[] = { "-s", "--size", "-r", "--reference", NULL };
	static const char *const shred_values[] = { "-n", "--iterations", "-s", "--size", NULL };
	const char *name = sluice_name(sc);
	if (strcmp(name, "truncate") == 0)
		return judge_operands(sc, truncate_values, HARM_CONTENT, v);
	if (strcmp(name, "shred") == 0)
		return judge_operands(sc, shred_values, HARM_CONTENT, v);
	if (strcmp(name, "unlink") == 0)
		return judge_operands(sc, NULL, HARM_CONTENT, v);
	if (strcmp(name, "rm") == 0 && !sluice_has_short_flag(sc, 1, 'r') &&
	    !sluice_has_short_flag(sc, 1, 'R') && !long_option_prefix(sc, 1, "recursive", 3))
		return judge_operands(sc, NULL, HARM_CONTENT, v);
	if ((strcmp(name, "tee") == 0 || strcmp(name, "sponge") == 0) &&
	    !sluice_has_short_flag(sc, 1, 'a') && !long_option_prefix(sc, 1, "append", 2))
		return judge_operands(sc, NULL, HARM_CONTENT, v);
	if (strcmp(name, "dd") == 0) {
		for (size_t i = 1; i < sluice_argc(sc); i++)
			if (strncmp(sluice_arg(sc, i), "of=", 3) == 0)
				return judge(sc, "dd into", sluice_arg(sc, i) + 3, HARM_CONTENT, v);
	}
	return SLUICE_ALLOW;
}

/* sed -i with a script that deletes every line: each file's content goes,
 * as truncate's would (`sed -i d ~/.ssh/authorized_keys`, `sed -i '1,$d'
 * ~/.bashrc`). The options as GNU sed reads them: -i[SUFFIX] and
 * --in-place[=SUFFIX], -e SCRIPT / --expression=SCRIPT (each one a line),
 * -f FILE (a script not known here: not judged), -n, -l N, -s, -E, -r,
 * -z, -u, clustered (-ni, -Ei.bak; -ie is -i with the suffix e); without
 * -e or -f the first operand is the script. */
static int check_sed(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	const char *name = sluice_name(sc);
	if (strcmp(name, "sed") != 0 && strcmp(name, "gsed") != 0)
		return SLUICE_ALLOW;
	struct sed_args s = { .len = 0 };
	read_sed_args(sc, &s);
	if (s.script_file)
		return SLUICE_ALLOW; /* a script file: not known here */
	/* without -e, the first operand is the script and the rest are files */
	size_t first_file = s.has_expr ? 0 : 1;
	const char *script = s.has_expr     ? s.expr
	                     : s.n_operands ? sluice_arg(sc, s.operand[0])
	                                    : NULL;
	if (!s.in_place || !script || s.over || !sed_script_empties(script, s.quiet))
		return SLUICE_ALLOW;
	int verdict = SLUICE_ALLOW;
	for (size_t k = first_file; k < s.n_operands; k++)
		verdict = worse(verdict, judge_word(sc, "sed -i deleting every line of",
		                                    s.operand[k], HARM_CONTENT, v));
	return verdict;
}

/* cp, install, ln -f, mv: the destination (the last operand, unless -t
 * names a directory); mv's sources too. */
static int check_replace(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	static const char *const values[] = { "-t", "--target-directory",
		                              "-S", "--suffix",
		                              "-m", "--mode",
		                              "-o", "--owner",
		                              "-g", "--group",
		                              NULL };
	const char *name = sluice_name(sc);
	bool mv = strcmp(name, "mv") == 0;
	if (strcmp(name, "ln") == 0) {
		if (!sluice_has_short_flag(sc, 1, 'f') && !long_option_prefix(sc, 1, "force", 2))
			return SLUICE_ALLOW; /* without -f, ln never replaces a file */
	} else if (!mv && strcmp(name, "cp") != 0 && strcmp(name, "install") != 0) {
		return SLUICE_ALLOW;
	}
	size_t idx[MAX_OPERANDS];
	size_t n = operands(sc, values, idx, MAX_OPERANDS);
	bool target_dir = false;
	for (size_t i = 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (strcmp(a, "--") == 0)
			break;
		target_dir |=
		        strncmp(a, "-t", 2) == 0 || long_option_spells(a, "target-directory", 3);
	}
	if (n < 2 && !target_dir)
		return SLUICE_ALLOW;
	size_t sources = target_dir ? n : n - 1;
	/* `mv ~/.config/app ~/.config/app.bak` renames configuration: the
	 * destination takes the place of nothing it did not hold */
	bool renames_config = mv && sources > 0 && names_config(sluice_arg(sc, idx[0]));
	int verdict = SLUICE_ALLOW;
	/* `ln -sf /dev/null ~/.bash_history`: the history gone, and all that follows */
	bool null_link =
	        !strcmp(name, "ln") && n == 2 && !strcmp(sluice_arg(sc, idx[0]), "/dev/null");
	if (!target_dir && !(renames_config && names_config(sluice_arg(sc, idx[n - 1]))))
		verdict = judge_word(sc, name, idx[n - 1],
		                     null_link ? HARM_SILENCED : HARM_REPLACED, v);
	if (!mv)
		return verdict;
	/* mv: a source goes from where it was; onto /dev/null it is gone */
	bool gone = !target_dir && strcmp(sluice_arg(sc, idx[n - 1]), "/dev/null") == 0;
	for (size_t k = 0; k < sources; k++)
		verdict = worse(verdict,
		                judge_word(sc, name, idx[k], gone ? HARM_TREE : HARM_MOVED, v));
	return verdict;
}

/* rsync --delete (any --delete-*, --del): the destination, the last
 * operand unless it is on another host (HOST:PATH). */
static int check_rsync(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	static const char *const values[] = { "-e", "-f", "-T", "-B", "-M", NULL };
	if (strcmp(sluice_name(sc), "rsync") != 0)
		return SLUICE_ALLOW;
	bool deletes = false;
	for (size_t i = 1; i < sluice_argc(sc) && !deletes; i++) {
		const char *a = sluice_arg(sc, i);
		if (strcmp(a, "--") == 0)
			break;
		deletes = strncmp(a, "--delete", 8) == 0 || strcmp(a, "--del") == 0;
	}
	size_t idx[MAX_OPERANDS];
	size_t n = operands(sc, values, idx, MAX_OPERANDS);
	if (!deletes || n < 2)
		return SLUICE_ALLOW;
	const char *dest = sluice_arg(sc, idx[n - 1]);
	const char *colon = strchr(dest, ':');
	if (colon && (!strchr(dest, '/') || colon < strchr(dest, '/')))
		return SLUICE_ALLOW; /* a remote host's path: not this machine's */
	return judge(sc, "rsync --delete into", dest, HARM_TREE, v);
}

/* rsync --remove-source-files, zip -m, 7z a -sdel: what they copied or
 * archived goes after (removed-sources.h) */
static int check_sources(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	size_t idx[MAX_OPERANDS];
	const char *doing = NULL;
	size_t n = removed_sources(sc, idx, MAX_OPERANDS, &doing);
	int verdict = SLUICE_ALLOW;
	for (size_t k = 0; k < n; k++)
		verdict = worse(verdict, judge_word(sc, doing, idx[k], HARM_TREE, v));
	return verdict;
}

/* Where tar extracting lands that it must not: the root or a home
 * directory itself, or a home's keys and configuration (~/.ssh,
 * ~/.config). What the archive holds takes the place of the dotfiles
 * there, with no copy kept. A system directory is not (`tar -C /usr/local
 * -xzf go.tgz` installs, and the sandbox keeps those files). Asks: a
 * dotfiles archive unpacked on purpose is such a command too. */
static int extract_rule(const void *ctx, const char *t, const char **ret_what)
{
	(void)ctx;
	enum tree_kind k = system_tree(t, ret_what);
	if (k == TREE_ROOT || k == TREE_HOME || strcmp(t, "/root") == 0)
		return SLUICE_ASK; /* /root: root's home, to system_tree() a system directory */
	switch (guarded_path(t, true, ret_what)) {
	case GUARDED_KEYS:
	case GUARDED_CONFIG:
		return SLUICE_ASK;
	default:
		return SLUICE_ALLOW;
	}
}

/* tar extracting (x in an old-style first word or a cluster, --extract,
 * --get) with -C DIR, -CDIR or --directory=DIR that extract_rule()
 * guards. Without -C it extracts into the working directory, which is the
 * project's (a cd before it is judged as the directory it names). */
static int check_tar_extract(const struct sluice_simple_command *sc, const char *const *values,
                             struct sluice_verdict *v)
{
	const char *first = sluice_argc(sc) > 1 ? sluice_arg(sc, 1) : "";
	if (!((first[0] != '-' && strchr(first, 'x')) || short_option_given(sc, 1, 'x', values) ||
	      long_option_given(sc, 1, "extract", 3, values) ||
	      long_option_given(sc, 1, "get", 3, values)))
		return SLUICE_ALLOW;
	const char *dir = NULL;
	char literal[PATH_CAP];
	for (size_t i = 1; i < sluice_argc(sc) && strcmp(sluice_arg(sc, i), "--") != 0; i++) {
		const char *a = sluice_arg(sc, i);
		if ((strcmp(a, "-C") == 0 || strcmp(a, "--directory") == 0) &&
		    i + 1 < sluice_argc(sc))
			dir = path_operand(sc, ++i, literal, sizeof(literal));
		else if (strncmp(a, "-C", 2) == 0)
			dir = a + 2;
		else if (strncmp(a, "--directory=", 12) == 0)
			dir = a + 12;
	} /* the last -C is where it extracts (GNU tar: the ones before name sources) */
	struct path_finding f;
	if (!operand_judge(sc, dir ? dir : ".", extract_rule, NULL, &f))
		return sluice_verdict_add(v, SLUICE_ASK, "a path too long to judge",
		                          "name a shorter path");
	if (f.verdict == SLUICE_ALLOW)
		return SLUICE_ALLOW;
	char msg[PATH_CAP + 160];
	snprintf(msg, sizeof(msg),
	         "tar extracting into '%s'%s%s puts the archive's files in the place of %s",
	         dir ? dir : ".", f.after_cd ? " after cd " : "", f.after_cd ? sluice_cwd(sc) : "",
	         f.what);
	return sluice_verdict_add(v, f.verdict, msg,
	                          "extract into a folder of the project (tar -xf A -C vendor/) "
	                          "and copy what you need from there");
}

/* tar --remove-files: every operand it archives (and then removes). The
 * values of -f, -C, -T, -X ... are not removed; an old-style first word
 * ("czf") takes its values from the next words, one per letter. An
 * extraction is check_tar_extract()'s. */
static int check_tar(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	static const char *const values[] = { "-f",       "--file",
		                              "-C",       "--directory",
		                              "-T",       "--files-from",
		                              "-X",       "--exclude-from",
		                              "-b",       "-H",
		                              "--format", "-g",
		                              "-N",       "-V",
		                              "-K",       "-L",
		                              "-I",       "--use-compress-program",
		                              NULL };
	static const char old_style_values[] = "fCTXbHgNVKLI";
	static const char *const tars[] = { "tar", "gtar", "bsdtar", NULL };
	if (!str_in(sluice_name(sc), tars))
		return SLUICE_ALLOW;
	if (!long_option_prefix(sc, 1, "remove-files", 3))
		return check_tar_extract(sc, values, v);
	size_t first = 1;
	if (sluice_argc(sc) > 1 && sluice_arg(sc, 1)[0] != '-') {
		const char *old = sluice_arg(sc, 1);
		first = 2;
		for (const char *c = old; *c; c++)
			if (strchr(old_style_values, *c))
				first++;
	}
	size_t idx[MAX_OPERANDS];
	size_t n = operands(sc, values, idx, MAX_OPERANDS);
	int verdict = SLUICE_ALLOW;
	for (size_t k = 0; k < n; k++)
		if (idx[k] >= first)
			verdict = worse(verdict, judge_word(sc, "tar --remove-files of", idx[k],
			                                    HARM_TREE, v));
	return verdict;
}

/* crontab -r (in any cluster: -ir), and a crontab replaced by an empty
 * file (`crontab /dev/null`): every job of the user's table goes, and
 * cron keeps no copy. Asks (it may be meant); `crontab -l` and a file of
 * the project installed as the table pass. */
static int check_crontab(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	static const char *const values[] = { "-u", NULL };
	if (strcmp(sluice_name(sc), "crontab") != 0)
		return SLUICE_ALLOW;
	bool removes = short_option_given(sc, 1, 'r', values);
	size_t idx[MAX_OPERANDS];
	size_t n = operands(sc, values, idx, MAX_OPERANDS);
	for (size_t k = 0; k < n && !removes; k++)
		removes = strcmp(sluice_arg(sc, idx[k]), "/dev/null") == 0;
	if (!removes)
		return SLUICE_ALLOW;
	return sluice_verdict_add(v, SLUICE_ASK,
	                          "crontab: the user's whole table of cron jobs is removed, and "
	                          "cron keeps no copy",
	                          "save it first (crontab -l > cron.bak) and edit the one line");
}

/* find's words that select nothing: options, actions and operators. A
 * find -delete with only these deletes every file under its start points
 * (.git included), as rm -r would. */
static const char *const find_selects_nothing[] = {
	"-delete",
	"-depth",
	"-d",
	"-maxdepth",
	"-mindepth",
	"-xdev",
	"-mount",
	"-follow",
	"-noleaf",
	"-print",
	"-print0",
	"-ls",
	"-daystart",
	"-warn",
	"-nowarn",
	"-ignore_readdir_race",
	"-noignore_readdir_race",
	"-true",
	"-type",
	"-xtype",
	"-a",
	"-and",
	"-o",
	"-or",
	"-regextype",
	NULL,
};

/* Is word i of find a test of the name or path that every file passes
 * (`-name '*'`, `-iname '*'`, `-path '*'`: a star matches dotfiles and
 * slashes there)? It selects nothing. */
static bool matches_every_name(const struct sluice_simple_command *sc, size_t i)
{
	static const char *const name_tests[] = { "-name",      "-iname",      "-path", "-ipath",
		                                  "-wholename", "-iwholename", NULL };
	return i + 1 < sluice_argc(sc) && str_in(sluice_arg(sc, i), name_tests) &&
	       strspn(sluice_arg(sc, i + 1), "*") == strlen(sluice_arg(sc, i + 1)) &&
	       sluice_arg(sc, i + 1)[0] == '*';
}

/* find -delete, or find -exec of a tool that deletes or empties each file
 * (rm, unlink, shred, truncate; also -execdir, -ok, -okdir): its start
 * points, as trees when nothing selects what it deletes (`find . -delete`,
 * `find . -exec rm -rf {} +`), else only keys (`find ~/.ssh -name x
 * -delete`). An -exec of another command selects, as a test does (what
 * it prints is not known). The root, home and system trees are
 * system_trees'. */
static int check_find(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	if (strcmp(sluice_name(sc), "find") != 0)
		return SLUICE_ALLOW;
	bool deletes = false, selects = false;
	size_t i = 1, roots_end;
	for (; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (strcmp(a, "-D") == 0)
			i++;
		else if (!(strcmp(a, "-H") == 0 || strcmp(a, "-L") == 0 || strcmp(a, "-P") == 0 ||
		           strncmp(a, "-O", 2) == 0))
			break;
	}
	size_t roots = i;
	for (; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if ((a[0] == '-' && a[1]) || strcmp(a, "(") == 0 || strcmp(a, "!") == 0 ||
		    strcmp(a, ",") == 0)
			break;
	}
	roots_end = i;
	/* what deletes: -delete, or a command that deletes each file found
	 * (`-exec rm -rf {} +`, `-execdir shred -u {} ;`, `-ok unlink {} ;`) */
	static const char *const exec_actions[] = { "-exec", "-execdir", "-ok", "-okdir", NULL };
	static const char *const exec_deleters[] = { "rm", "unlink", "shred", "truncate", NULL };
	char doing[48] = "-delete";
	for (; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (str_in(a, exec_actions)) {
			/* the clause's words are its command's, up to ; or +:
			 * they select nothing (`-rf` is rm's) */
			if (i + 1 < sluice_argc(sc) &&
			    str_in(sluice_arg(sc, i + 1), exec_deleters)) {
				deletes = true;
				snprintf(doing, sizeof(doing), "%s %s", a, sluice_arg(sc, i + 1));
			} else {
				selects = true; /* what another command does is not known */
			}
			while (i + 1 < sluice_argc(sc) && strcmp(sluice_arg(sc, i + 1), ";") != 0 &&
			       strcmp(sluice_arg(sc, i + 1), "+") != 0)
				i++;
			i++;
			continue;
		}
		deletes |= strcmp(a, "-delete") == 0;
		if (matches_every_name(sc, i)) {
			i++; /* `-name '*'` tests nothing: every name matches */
			continue;
		}
		if (a[0] == '-')
			selects |= !str_in(a, find_selects_nothing);
	}
	if (!deletes)
		return SLUICE_ALLOW;
	char with_test[80], no_test[80];
	snprintf(with_test, sizeof(with_test), "find %s in", doing);
	snprintf(no_test, sizeof(no_test), "find %s with no test in", doing);
	int verdict = SLUICE_ALLOW;
	for (size_t k = roots; k < roots_end; k++) {
		const char *a = sluice_arg(sc, k);
		char t[PATH_CAP];
		const char *what;
		if (path_normalise(a, t, sizeof(t))) {
			path_collapse(t);
			if (system_tree(t, &what) != TREE_NONE)
				continue; /* system_trees' */
			if (selects && guarded_path(t, true, &what) != GUARDED_KEYS)
				continue;
		}
		verdict = worse(verdict, judge(sc, selects ? with_test : no_test, a, HARM_TREE, v));
	}
	if (roots == roots_end && !selects) /* no start point: "." */
		verdict = worse(verdict, judge(sc, no_test, ".", HARM_TREE, v));
	return verdict;
}

/* ------------------------------------------ names known only when it runs */

static const char *const run_time_suggestion =
        "print the names first (echo \"$f\"), then name the files of the project one by one";

/* Does text (a redirection's target of command i) hold a value only known
 * when the command runs (run_time_operand_within() for a text that is no
 * word)? Returns where it comes from, or NULL. A loop over values the
 * model knows is walked once per value: a command of the same span whose
 * target holds no `$` stands for that round. */
static const char *run_time_text(const struct sluice_command *cmd, size_t i, size_t r,
                                 const char *text)
{
	size_t len = strlen(text);
	if ((strstr(text, "$(") || strchr(text, '`')) && run_time_substitution(text, len))
		return "the output of a command substitution";
	int lookups = RUN_TIME_LOOKUPS;
	char name[VAR_NAME_CAP];
	enum var_form form;
	const char *end;
	for (const char *c = strchr(text, '$'); c; c = strchr(c + 1, '$')) {
		if (!var_expansion_at(c, name, &form, &end) || strcmp(name, "!") == 0)
			continue;
		/* SIZE_MAX: no word of the command, so no round of a loop
		 * counts as known there (rounds below) */
		const char *source = run_time_variable_within(cmd, i, SIZE_MAX, name, &lookups);
		if (!source)
			continue;
		size_t start, stop, s, e;
		sluice_span(sluice_command_get(cmd, i), &start, &stop);
		for (size_t j = 0; j < sluice_command_count(cmd); j++) {
			const struct sluice_simple_command *o = sluice_command_get(cmd, j);
			sluice_span(o, &s, &e);
			if (j != i && s == start && e == stop && r < sluice_redirect_count(o) &&
			    sluice_redirect_target(o, r) &&
			    !strchr(sluice_redirect_target(o, r), '$'))
				return NULL;
		}
		return source;
	}
	return NULL;
}

/* Ask for a file destroyed by doing whose name (shown) comes from source,
 * by the rule's verdict. */
static int refuse_run_time(struct sluice_verdict *v, const char *doing, const char *shown,
                           const char *source, int verdict)
{
	char msg[640];
	if (shown)
		snprintf(msg, sizeof(msg),
		         "%s '%s' destroys the content of %s, which is only known when it runs",
		         doing, shown, source);
	else
		snprintf(
		        msg, sizeof(msg),
		        "%s under xargs destroys the content of %s, which is only known when it runs",
		        doing, source);
	return sluice_verdict_add(v, verdict, msg, run_time_suggestion);
}

/* rm without -r under an xargs fed by a program that lists files (rule
 * run_time_target): `ls PATHS` lists what PATHS name, so `ls ~/.ssh/id_* |
 * xargs rm -f` is judged as `rm -f ~/.ssh/id_*` would be (while `ls *.tmp |
 * xargs rm -f` passes); `git ls-files` with no pathspec lists every file
 * git tracks, so its rm removes the working tree's files, uncommitted
 * changes with them. Any other program's list passes, as a `while read f;
 * do rm "$f"; done` does: one file at a time, named by the user's list. */
static int check_listed(const struct rule_state *st, const struct sluice_command *cmd, size_t i,
                        struct sluice_verdict *v)
{
	int rule = st->verdict[RULE_RUN_TIME_TARGET];
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	if (rule == SLUICE_ALLOW || sluice_argc(sc) == 0 || strcmp(sluice_name(sc), "rm") != 0 ||
	    sluice_has_short_flag(sc, 1, 'r') || sluice_has_short_flag(sc, 1, 'R') ||
	    long_option_prefix(sc, 1, "recursive", 3) || !run_time_xargs(cmd, i))
		return SLUICE_ALLOW;
	const struct sluice_simple_command *w = pipeline_writer(cmd, sc, NULL);
	if (!w || sluice_argc(w) == 0)
		return SLUICE_ALLOW;
	char msg[640];
	if (strcmp(sluice_name(w), "git") == 0 && lists_tracked_files(w))
		return sluice_verdict_add(v, rule,
		                          "rm under xargs of what 'git ls-files' lists removes the "
		                          "files git tracks, and their uncommitted changes",
		                          "name the files, or use git rm --cached / git clean for "
		                          "what git does not need");
	if (strcmp(sluice_name(w), "ls") != 0)
		return SLUICE_ALLOW;
	static const char *const ls_values[] = { "-I",     "-w",      "-T",        "--ignore",
		                                 "--hide", "--width", "--tabsize", NULL };
	size_t idx[MAX_OPERANDS];
	size_t n = operands(w, ls_values, idx, MAX_OPERANDS);
	enum harm harm = HARM_CONTENT;
	for (size_t k = 0; k < n; k++) {
		char literal[PATH_CAP];
		struct path_finding f;
		const char *judged = path_operand(w, idx[k], literal, sizeof(literal));
		if (!operand_judge(w, judged, harm_rule, &harm, &f))
			return sluice_verdict_add(v, SLUICE_ASK, "a path too long to judge",
			                          "name a shorter path");
		if (f.verdict == SLUICE_ALLOW)
			continue;
		snprintf(msg, sizeof(msg),
		         "rm under xargs of what 'ls %s' lists destroys the content of %s",
		         sluice_arg(w, idx[k]), f.what);
		return sluice_verdict_add(v, rule, msg, harm_suggestion[HARM_CONTENT]);
	}
	return SLUICE_ALLOW;
}

/* truncate, shred, unlink, dd of= and an emptying redirection of a name
 * only known when command i runs (rule run_time_target). */
static int check_run_time(const struct rule_state *st, const struct sluice_command *cmd, size_t i,
                          struct sluice_verdict *v)
{
	int rule = st->verdict[RULE_RUN_TIME_TARGET];
	if (rule == SLUICE_ALLOW)
		return SLUICE_ALLOW;
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	const char *name = sluice_argc(sc) > 0 ? sluice_name(sc) : "";
	/* a redirection that only empties its file: `> "$f"`, `: > "$f"` */
	static const char *const emptying[] = { "", ":", "true", NULL };
	static const char *const truncating[] = { ">", ">|", "&>", NULL };
	if (str_in(name, emptying) && sluice_argc(sc) <= 1) {
		for (size_t r = 0; r < sluice_redirect_count(sc); r++) {
			const char *op = sluice_redirect_op(sc, r);
			const char *t = sluice_redirect_target(sc, r);
			if (!op || !t || !str_in(op, truncating))
				continue;
			const char *source = run_time_text(cmd, i, r, t);
			if (source) {
				char doing[32];
				snprintf(doing, sizeof(doing), "the redirection %s", op);
				return refuse_run_time(v, doing, t, source, rule);
			}
		}
		return SLUICE_ALLOW;
	}
	static const char *const truncate_values[] = { "-s", "--size", "-r", "--reference", NULL };
	static const char *const shred_values[] = { "-n", "--iterations", "-s", "--size", NULL };
	const char *const *values;
	if (strcmp(name, "truncate") == 0)
		values = truncate_values;
	else if (strcmp(name, "shred") == 0)
		values = shred_values;
	else if (strcmp(name, "unlink") == 0)
		values = NULL;
	else if (strcmp(name, "dd") == 0) {
		for (size_t k = 1; k < sluice_argc(sc); k++) {
			if (strncmp(sluice_arg(sc, k), "of=", 3) != 0)
				continue;
			const char *source = run_time_operand(cmd, i, k);
			return source ? refuse_run_time(v, "dd into", sluice_arg(sc, k) + 3, source,
			                                rule)
			              : SLUICE_ALLOW;
		}
		return SLUICE_ALLOW;
	} else
		return SLUICE_ALLOW;
	if (run_time_xargs(cmd, i))
		return refuse_run_time(v, name, NULL, "what xargs reads", rule);
	size_t idx[MAX_OPERANDS];
	size_t n = operands(sc, values, idx, MAX_OPERANDS);
	for (size_t k = 0; k < n; k++) {
		const char *source = run_time_operand(cmd, i, idx[k]);
		if (source)
			return refuse_run_time(v, name, sluice_arg(sc, idx[k]), source, rule);
	}
	return SLUICE_ALLOW;
}

static int check_one(const void *state, const struct sluice_command *cmd, size_t i,
                     struct sluice_verdict *v)
{
	const struct sluice_simple_command *sc = sluice_command_get(cmd, i);
	int (*const checks[])(const struct sluice_simple_command *, struct sluice_verdict *) = {
		check_redirects, check_content, check_replace, check_rsync,   check_tar,
		check_find,      check_sed,     check_sources, check_crontab,
	};
	int verdict = SLUICE_ALLOW;
	for (size_t k = 0; k < sizeof(checks) / sizeof(checks[0]); k++) {
		if (k > 0 && sluice_argc(sc) == 0)
			break;
		verdict = worse(verdict, checks[k](sc, v));
		if (verdict < 0)
			return verdict;
	}
	/* a name known only when it runs, when nothing above refused it */
	if (verdict == SLUICE_ALLOW)
		verdict = check_run_time(state, cmd, i, v);
	if (verdict == SLUICE_ALLOW)
		verdict = check_listed(state, cmd, i, v);
	return verdict;
}

static int ds_open(const struct sluice_host *host, const struct sluice_settings *settings,
                   void **ret_state)
{
	return rule_state_open(host, settings, ds_rules, N_DS_RULES, ret_state);
}

static int ds_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	return check_each_at(state, cmd, v, check_one);
}

static const struct sluice_key keys[] = {
	DS_RULES(RULE_KEY){ NULL, 0 },
};

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "destroyers",
	.description = "refuses truncate, shred, unlink, > redirections, dd, cp/ln/mv over keys, "
	               "dotfiles and .git; rsync --delete, tar --remove-files, find -delete "
	               "with no test of the working tree; asks when such a file is only known "
	               "when it runs",
	.keys = keys,
	.open = ds_open,
	.check = ds_check,
	.close = rule_state_close,
};
