/* SPDX-License-Identifier: MIT */
/*
 * Judging a path operand of a command (rm's targets, chmod's files, mv's
 * sources, find's start points) the way the built-in plugins do: every
 * spelling of it (plugin-util.h's path_normalise and path_collapse, globs
 * that expand as a star does, what it stands for when its variables have
 * no value, relative to a literal cd before it), and the system trees
 * (the root, the top-level system directories, home directories) that no
 * recursive change should touch. Static inline, as plugin-util.h is.
 * Not for: deciding the verdict (each plugin's rule does, from what these
 * say the path names).
 */
#ifndef SLUICE_PATH_TARGETS_H
#define SLUICE_PATH_TARGETS_H

#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "plugin-util.h"
#include "sluice/policy.h"

/* What system_tree() says a path is. */
enum tree_kind {
	TREE_NONE = 0,
	TREE_ROOT,   /* "/", everything under it */
	TREE_HOME,   /* a home directory or everything in it */
	TREE_SYSTEM, /* a top-level system directory, or everything in one */
};

/* The top-level directories of a Linux system, and the few below them
 * whose loss is as bad: each one, and everything in it, is a system tree.
 * /tmp is left out: emptying it is an everyday clean-up. */
static const char *const system_dirs[] = {
	"/bin",    "/boot",  "/dev", "/etc", "/home", "/lib",   "/lib32",   "/lib64",
	"/libx32", "/media", "/mnt", "/opt", "/proc", "/root",  "/run",     "/sbin",
	"/snap",   "/srv",   "/sys", "/usr", "/var",  "/usr/*", "/var/lib", NULL,
};

/* Is t a match of pattern (one path component per star), or is t a
 * directory's contents (a last component "*" or ".*") with the directory a
 * match? Sets *contents when it was the latter, which is tried first: a
 * star in /home is everything in /home, not one user's home. */
static inline bool tree_matches(const char *pattern, const char *t, bool *contents)
{
	const char *slash = strrchr(t, '/');
	if (slash && slash != t && (strcmp(slash, "/*") == 0 || strcmp(slash, "/.*") == 0)) {
		char dir[PATH_CAP];
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - t), t);
		*contents = true;
		if (fnmatch(pattern, dir, FNM_PATHNAME) == 0)
			return true;
	}
	*contents = false;
	return fnmatch(pattern, t, FNM_PATHNAME) == 0;
}

/* Is t (normalised and collapsed: "~" for the home directory) the root, a
 * home directory, a system directory, or everything in one of them? Sets
 * *ret_what to what it names, for a message. */
static inline enum tree_kind system_tree(const char *t, const char **ret_what)
{
	static const struct {
		const char *path, *what;
		enum tree_kind kind;
	} exact[] = {
		{ "/", "the root directory", TREE_ROOT },
		{ "/*", "everything under the root directory", TREE_ROOT },
		{ "/.*", "the hidden files of the root directory", TREE_ROOT },
		{ "~", "your home directory", TREE_HOME },
		{ "~/*", "everything in your home directory", TREE_HOME },
		{ "~/.*", "the hidden files of your home directory", TREE_HOME },
	};
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strcmp(t, exact[i].path) == 0) {
			*ret_what = exact[i].what;
			return exact[i].kind;
		}
	/* a glob that expands as a star does ("/?*") is one; one that matches
	 * a system directory ("/u?r", "/e*") names that directory */
	char globbed[PATH_CAP];
	if (glob_spelling(t, globbed, sizeof(globbed)))
		return system_tree(globbed, ret_what);
	if (t[0] == '/' && strpbrk(t, "*?["))
		for (const char *const *d = system_dirs; *d; d++)
			if (!strpbrk(*d, "*?[") && fnmatch(t, *d, FNM_PATHNAME | FNM_PERIOD) == 0) {
				*ret_what = "a system directory";
				return TREE_SYSTEM;
			}
	bool contents;
	for (const char *const *d = system_dirs; *d; d++)
		if (tree_matches(*d, t, &contents)) {
			*ret_what = contents ? "everything in a system directory"
			                     : "a system directory";
			return TREE_SYSTEM;
		}
	/* /home/bob, ~bob: another user's home directory ("~+" and "~-" are
	 * the working directories) */
	if (tree_matches("/home/*", t, &contents) ||
	    (t[0] == '~' && t[1] != '+' && t[1] != '-' && tree_matches("~?*", t, &contents))) {
		*ret_what = contents ? "everything in a user's home directory"
		                     : "a user's home directory";
		return TREE_HOME;
	}
	return TREE_NONE;
}

/* ---------------------------------------------- what must not be destroyed
 *
 * One notion for every tool that destroys (rm, truncate, shred, unlink, a
 * `>` redirection, dd of=, cp/ln/mv over a file, rsync --delete, tar
 * --remove-files, find -delete): guarded_path() says whether a path is one
 * that no such tool may destroy, and why. Two ways to destroy: a file (its
 * content goes: truncate, `>`, shred) and a tree (it and everything in it
 * go: rm -r, rsync --delete into it, find -delete with no test). */

/* The entries of a home directory that hold keys and credentials: each
 * one, and everything in it. */
static const char *const home_keys[] = {
	".ssh",
	".gnupg",
	".aws",
	".azure",
	".kube",
	".netrc",
	".git-credentials",
	".pgpass",
	".npmrc",
	".pypirc",
	".docker",
	".password-store",
	".vault-token",
	".config/gcloud",
	".config/gh",
	".config/hub",
	".local/share/keyrings",
	NULL,
};

/* Hidden entries of a home directory that a tool makes again and that
 * clean-ups empty every day (caches, installs, histories): any other
 * hidden entry (.bashrc, .gitconfig, .config, .vimrc ...) is configuration. */
static const char *const home_regenerable[] = {
	".cache",
	".npm",
	".cargo",
	".rustup",
	".m2",
	".gradle",
	".local",
	".pnpm-store",
	".yarn",
	".bun",
	".deno",
	".node-gyp",
	".nvm",
	".pyenv",
	".ivy2",
	".sbt",
	".nuget",
	".conda",
	".cpan",
	".gem",
	".composer",
	".pub-cache",
	".android",
	".vscode-server",
	".ccache",
	".thumbnails",
	".Trash",
	".bash_history",
	".zsh_history",
	".python_history",
	".node_repl_history",
	".lesshst",
	".viminfo",
	".wget-hsts",
	NULL,
};

/* The part of t inside a home directory ("~/x", "~bob/x", "/home/bob/x",
 * "/root/x" give "x"), or NULL when t is not inside one. */
static inline const char *home_relative(const char *t)
{
	if (t[0] == '~' && t[1] != '+' && t[1] != '-') {
		const char *slash = strchr(t, '/');
		return slash && slash[1] ? slash + 1 : NULL;
	}
	if (strncmp(t, "/root/", 6) == 0 && t[6])
		return t + 6;
	if (strncmp(t, "/home/", 6) == 0) {
		const char *slash = strchr(t + 6, '/');
		return slash && slash > t + 6 && slash[1] ? slash + 1 : NULL;
	}
	return NULL;
}

/* Does rel (a path inside a home directory) lie in entry ("x" or "x/y":
 * the entry itself or anything in it)? rel's first component may be a
 * glob that matches the entry's (".ss?", ".bash*"). */
static inline bool home_entry_holds(const char *entry, const char *rel)
{
	size_t n = strlen(entry);
	if (strncmp(rel, entry, n) == 0 && (rel[n] == '\0' || rel[n] == '/'))
		return true;
	if (strchr(entry, '/') || !strpbrk(rel, "*?["))
		return false;
	char first[PATH_CAP];
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(rel, "/"), rel);
	return fnmatch(first, entry, FNM_PERIOD) == 0;
}

/* What a guarded path is. */
enum guarded_kind {
	GUARDED_NONE = 0,
	GUARDED_KEYS,    /* keys and credentials in a home directory */
	GUARDED_CONFIG,  /* a home directory's configuration (its dotfiles) */
	GUARDED_HISTORY, /* a git repository's history (.git and its objects, refs, HEAD) */
};

/* Is t (normalised and collapsed) in a .git's history? A tree: .git
 * itself, everything in it, its objects, refs or logs; a file: those and
 * HEAD and packed-refs. What git leaves behind (index.lock,
 * rebase-merge) may go. */
static inline bool git_history(const char *t, bool tree)
{
	const char *last = strrchr(t, '/');
	last = last ? last + 1 : t;
	if (strcmp(last, ".git") == 0)
		return true;
	for (const char *git = strstr(t, ".git/"); git; git = strstr(git + 1, ".git/")) {
		if (git != t && git[-1] != '/')
			continue;
		static const char *const trees[] = { "*", "objects", "refs", "logs", NULL };
		static const char *const files[] = { "HEAD", "packed-refs", NULL };
		char first[PATH_CAP];
		snprintf(first, sizeof(first), "%s", git + 5);
		bool deeper = first[strcspn(first, "/")] == '/';
		first[strcspn(first, "/")] = '\0';
		if (str_in(first, trees) && (tree || strcmp(first, "*") != 0 || !deeper))
			return true; /* a file deep under .git/ star may be a lock */
		if (!tree && str_in(first, files) && !deeper)
			return true;
	}
	return false;
}

/* Is t (normalised and collapsed) a path no tool may destroy: keys and
 * credentials (~/.ssh, ~/.aws ...), a home directory's configuration
 * (~/.bashrc, ~/.gitconfig, ~/.config; caches and histories are not), in
 * any user's home, or a git repository's history? tree: t goes with
 * everything in it. Sets *ret_what to what it names, for a message. The
 * root, home and system directories are system_tree()'s. */
static inline enum guarded_kind guarded_path(const char *t, bool tree, const char **ret_what)
{
	if (git_history(t, tree)) {
		*ret_what = "a git repository's history (.git)";
		return GUARDED_HISTORY;
	}
	const char *rel = home_relative(t);
	if (!rel || rel[0] != '.' || strcmp(rel, ".*") == 0)
		return GUARDED_NONE;
	for (const char *const *k = home_keys; *k; k++)
		if (home_entry_holds(*k, rel)) {
			*ret_what = t[0] == '~' && t[1] == '/' ? "your keys and credentials"
			                                       : "a user's keys and credentials";
			return GUARDED_KEYS;
		}
	for (const char *const *k = home_regenerable; *k; k++)
		if (home_entry_holds(*k, rel))
			return GUARDED_NONE;
	*ret_what = t[0] == '~' && t[1] == '/' ? "your shell and tools' configuration (a dotfile)"
	                                       : "a user's configuration (a dotfile)";
	return GUARDED_CONFIG;
}

/* Is word a of sc a home directory's configuration (as written)? */
static inline bool names_config(const char *a)
{
	char t[PATH_CAP];
	const char *what;
	if (!path_normalise(a, t, sizeof(t)))
		return false;
	path_collapse(t);
	return guarded_path(t, true, &what) == GUARDED_CONFIG;
}

/* Is t (normalised and collapsed) a shell's history file in a home
 * directory? Removing one is `history -c`, and passes; linking /dev/null
 * in its place also keeps the shell from recording anything more. */
static inline bool shell_history(const char *t)
{
	static const char *const histories[] = { ".bash_history",
		                                 ".zsh_history",
		                                 ".zhistory",
		                                 ".histfile",
		                                 ".sh_history",
		                                 ".ash_history",
		                                 ".local/share/fish/fish_history",
		                                 NULL };
	const char *rel = home_relative(t);
	return rel && str_in(rel, histories);
}

/* ------------------------------------ what the user's tools run or need
 *
 * A change of permissions, owner or attributes (chmod, chown, chattr)
 * destroys nothing, but can take away what programs need: the root and
 * the system directories, the programs of a bin directory, a home
 * directory, its configuration and its keys. access_path() says which a
 * path is, and whether it is entered or run (its x bit matters). */

/* The directories whose entries are programs the user runs. */
static const char *const program_dirs[] = {
	"/bin",           "/sbin",           "/usr/bin",   "/usr/sbin",
	"/usr/local/bin", "/usr/local/sbin", "/usr/games", NULL,
};

/* The same in a home directory (relative to it). */
static const char *const home_program_dirs[] = {
	"bin", ".local/bin", ".cargo/bin", "go/bin", ".bun/bin", ".deno/bin", NULL,
};

/* Entries of a home directory that home_keys or the configuration name
 * and that are directories (the others, .netrc, .npmrc, .bashrc ..., are
 * files: their x bit does not matter). */
static const char *const home_directories[] = {
	".ssh",
	".gnupg",
	".aws",
	".azure",
	".kube",
	".docker",
	".password-store",
	".config",
	".config/gcloud",
	".config/gh",
	".config/hub",
	".local/share/keyrings",
	".vim",
	".emacs.d",
	NULL,
};

/* Public files among the keys: reading them gives nothing away. */
static const char *const public_key_files[] = {
	"*.pub", "known_hosts", "known_hosts.old", "authorized_keys", "config", NULL,
};

/* What access_path() says a path is. */
enum access_kind {
	ACCESS_NONE = 0,
	ACCESS_SYSTEM, /* the root, a system directory or everything in one, a system program */
	ACCESS_HOME,   /* a home directory or everything in one, its programs, its configuration */
	ACCESS_KEYS,   /* keys and credentials in a home directory */
};

/* Is t (normalised and collapsed) a directory of dirs (relative to a
 * home when home), or an entry of one, a glob included (/usr/bin/ and a star)? */
static inline bool in_program_dir(const char *t, const char *const *dirs, bool home)
{
	const char *rel = home ? home_relative(t) : t;
	if (!rel)
		return false;
	const char *slash = strrchr(rel, '/');
	size_t parent = slash ? (size_t)(slash - rel) : 0;
	for (const char *const *d = dirs; *d; d++)
		if (strcmp(rel, *d) == 0 || (parent == strlen(*d) && strncmp(rel, *d, parent) == 0))
			return true;
	return false;
}

/* Is t (in a home directory) one of the keys that others may read? */
static inline bool public_key_file(const char *t)
{
	const char *last = strrchr(t, '/');
	last = last ? last + 1 : t;
	for (const char *const *p = public_key_files; *p; p++)
		if (fnmatch(*p, last, FNM_PERIOD) == 0)
			return true;
	return false;
}

/* What t (normalised and collapsed) is to the programs that use it; sets
 * *ret_entered when its x bit is what lets them enter or run it (a
 * directory, everything in one, a program), *ret_what to what it names,
 * for a message. */
static inline enum access_kind access_path(const char *t, bool *ret_entered, const char **ret_what)
{
	*ret_entered = true;
	switch (system_tree(t, ret_what)) {
	case TREE_ROOT:
	case TREE_SYSTEM:
		return ACCESS_SYSTEM;
	case TREE_HOME:
		return ACCESS_HOME;
	case TREE_NONE:
		break;
	}
	if (in_program_dir(t, program_dirs, false)) {
		*ret_what = "the system's programs";
		return ACCESS_SYSTEM;
	}
	if (in_program_dir(t, home_program_dirs, true)) {
		*ret_what = "the programs in your home directory";
		return ACCESS_HOME;
	}
	const char *rel = home_relative(t);
	*ret_entered = rel && str_in(rel, home_directories);
	switch (guarded_path(t, false, ret_what)) {
	case GUARDED_KEYS:
		return ACCESS_KEYS;
	case GUARDED_CONFIG:
		return ACCESS_HOME;
	case GUARDED_HISTORY:
	case GUARDED_NONE:
		break;
	}
	return ACCESS_NONE;
}

/* What system_file() says a file of the system is. */
enum system_file_kind {
	SYSTEM_FILE_NONE = 0,
	SYSTEM_FILE,        /* any other file below a system directory */
	SYSTEM_FILE_PUBLIC, /* one every user's programs read (/etc/passwd) */
	SYSTEM_FILE_SECRET, /* one nobody else may read (/etc/shadow, host keys) */
};

/* Is t (normalised and collapsed) a file or directory below a directory of
 * the system's software and configuration, named by itself rather than as
 * a tree (system_tree()) or a program (access_path())? /home, /root, /srv,
 * /mnt, /media, /snap, /tmp and the kernel's /proc, /sys, /dev hold the
 * users' data or no files: not these. */
static inline enum system_file_kind system_file(const char *t)
{
	static const char *const dirs[] = { "/etc",   "/usr",   "/bin",    "/sbin", "/lib",
		                            "/lib32", "/lib64", "/libx32", "/boot", "/opt",
		                            "/var",   "/run",   NULL };
	/* what every program that looks up a user, a host or a library reads */
	static const char *const public_files[] = {
		"/etc/passwd",
		"/etc/group",
		"/etc/hosts",
		"/etc/resolv.conf",
		"/etc/nsswitch.conf",
		"/etc/ld.so.cache",
		"/etc/ld.so.conf",
		"/etc/services",
		"/etc/protocols",
		"/etc/profile",
		"/etc/bash.bashrc",
		"/etc/environment",
		"/etc/os-release",
		"/etc/localtime",
		"/etc/hostname",
		"/etc/shells",
		NULL,
	};
	/* what must stay the owner's: password hashes, sudo's rules, the
	 * host's private keys */
	static const char *const secret_files[] = {
		"/etc/shadow",
		"/etc/shadow-",
		"/etc/gshadow",
		"/etc/gshadow-",
		"/etc/sudoers",
		"/etc/sudoers.d/*",
		"/etc/ssh/ssh_host_*_key",
		"/etc/ssl/private/*",
		NULL,
	};
	bool below = false;
	for (const char *const *d = dirs; *d && !below; d++) {
		size_t n = strlen(*d);
		below = strncmp(t, *d, n) == 0 && t[n] == '/' && t[n + 1];
	}
	if (!below)
		return SYSTEM_FILE_NONE;
	if (str_in(t, public_files))
		return SYSTEM_FILE_PUBLIC;
	for (const char *const *p = secret_files; *p; p++)
		if (fnmatch(*p, t, FNM_PATHNAME) == 0)
			return SYSTEM_FILE_SECRET;
	return SYSTEM_FILE;
}

/* What a tree destroyed here takes when it is the current directory, its
 * contents or its parent ("*", ".*", ".", "..", "../ *"), else NULL. */
static inline const char *working_tree(const char *t)
{
	static const struct {
		const char *path, *what;
	} table[] = {
		{ "*", "everything in the current directory" },
		{ ".*", "the hidden files of the current directory" },
		{ ".", "the current directory" },
		{ "..", "the parent directory" },
		{ "../*", "everything in the parent directory" },
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(t, table[i].path) == 0)
			return table[i].what;
	/* what is left climbing after path_collapse(): "../..", "~/.." */
	const char *last = strrchr(t, '/');
	if (strcmp(last ? last + 1 : t, "..") == 0)
		return "a directory above a named one";
	return NULL;
}

/* The rule of a tool that destroys whole trees (path_rule_fn; ctx unused):
 * the root, home and system directories, the working tree and what
 * guarded_path() guards are refused. */
static inline int destroyed_tree_rule(const void *ctx, const char *t, const char **ret_what)
{
	(void)ctx;
	if (system_tree(t, ret_what) != TREE_NONE)
		return SLUICE_DENY;
	*ret_what = working_tree(t);
	if (*ret_what)
		return SLUICE_DENY;
	return guarded_path(t, true, ret_what) != GUARDED_NONE ? SLUICE_DENY : SLUICE_ALLOW;
}

/* The rule of a tool that destroys a file's content (path_rule_fn; ctx
 * unused): what guarded_path() guards is refused. */
static inline int destroyed_file_rule(const void *ctx, const char *t, const char **ret_what)
{
	(void)ctx;
	return guarded_path(t, false, ret_what) != GUARDED_NONE ? SLUICE_DENY : SLUICE_ALLOW;
}

/* Copy into out the default of the ${NAME:-WORD} (or ${NAME-WORD},
 * ${NAME:=WORD}, ${NAME=WORD}) at src, its quotes removed; *end is past its
 * '}'. False when src is no such expansion. */
static inline bool param_one_default(const char *src, char *out, size_t size, size_t *o,
                                     const char **end)
{
	static const char name_bytes[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                                 "0123456789_@*";
	if (src[0] != '$' || src[1] != '{')
		return false;
	const char *p = src + 2 + strspn(src + 2, name_bytes);
	if (p == src + 2)
		return false;
	if (*p == ':')
		p++;
	if (*p != '-' && *p != '=')
		return false;
	const char *e = ++p;
	for (int depth = 1; *e; e++) {
		if (e[0] == '$' && e[1] == '{') {
			depth++;
			e++;
		} else if (*e == '}' && --depth == 0) {
			break;
		}
	}
	if (*e != '}')
		return false;
	for (; p < e && *o + 1 < size; p++)
		if (*p != '"' && *p != '\'')
			out[(*o)++] = *p;
	*end = e + 1;
	return true;
}

/* What an operand stands for when the variables in it are not set: every
 * ${X:-WORD} (or ${X-WORD}, ${X:=WORD}, ${X=WORD}, $1 and $@ too) replaced
 * by WORD, nested ones as well: "${X:-/}", "/${X:-}", "${A:-${B:-~}}".
 * False when the operand has none. */
static inline bool param_default(const char *arg, char *out, size_t size)
{
	char cur[PATH_CAP], next[PATH_CAP];
	snprintf(cur, sizeof(cur), "%s", arg);
	bool any = false;
	for (int round = 0; round < 8; round++) {
		bool changed = false;
		size_t o = 0;
		for (const char *c = cur; *c && o + 1 < sizeof(next);) {
			const char *end;
			if (param_one_default(c, next, sizeof(next), &o, &end)) {
				c = end;
				changed = true;
			} else {
				next[o++] = *c++;
			}
		}
		next[o] = '\0';
		if (!changed)
			break;
		any = true;
		memcpy(cur, next, o + 1);
	}
	if (any)
		snprintf(out, size, "%s", cur);
	return any;
}

/* A rule over paths: the verdict for path t (normalised and collapsed;
 * SLUICE_ALLOW when the rule lets it be), and what t names in *ret_what.
 * ctx is the rule's own. */
typedef int (*path_rule_fn)(const void *ctx, const char *t, const char **ret_what);

/* What path_judge() found: the verdict, what the path names, and whether it
 * was the path joined to the literal cd before the command. */
struct path_finding {
	int verdict;
	const char *what;
	bool after_cd;
};

/* rule on t, and on t's glob spelled as what it expands to ("?*" as "*"). */
static inline void path_rule_apply(path_rule_fn rule, const void *ctx, const char *t,
                                   struct path_finding *f)
{
	f->verdict = rule(ctx, t, &f->what);
	char globbed[PATH_CAP];
	if (f->verdict == SLUICE_ALLOW && glob_spelling(t, globbed, sizeof(globbed)))
		f->verdict = rule(ctx, globbed, &f->what);
}

/* Judge the path text (an operand of sc, or what it stands for) by rule:
 * relative to the literal cd before sc first (`cd ~ && rm -rf *` names
 * the home directory), then as written. False when the path is too long to
 * judge (over PATH_CAP once folded): the caller asks. */
static inline bool path_judge(const struct sluice_simple_command *sc, const char *text,
                              path_rule_fn rule, const void *ctx, struct path_finding *ret)
{
	*ret = (struct path_finding){ SLUICE_ALLOW, NULL, false };
	char t[PATH_CAP];
	if (!path_normalise(text, t, sizeof(t)))
		return false;
	path_collapse(t);
	const char *cwd = sluice_cwd(sc);
	if (cwd && t[0] != '/' && t[0] != '~') {
		char c[PATH_CAP], joined[PATH_CAP * 2 + 2], j[PATH_CAP];
		(void)path_normalise(cwd, c, sizeof(c));
		if (strcmp(c, ".") != 0) {
			snprintf(joined, sizeof(joined), "%s/%s", c, t);
			(void)path_normalise(joined, j, sizeof(j));
			path_collapse(j);
			path_rule_apply(rule, ctx, j, ret);
			if (ret->verdict != SLUICE_ALLOW) {
				ret->after_cd = true;
				return true;
			}
		}
	}
	path_rule_apply(rule, ctx, t, ret);
	return true;
}

/* Word k of sc as a path to judge: bash expands a leading ~ and a glob
 * only where the command's text has them unquoted (SLUICE_WORD_TILDE,
 * SLUICE_WORD_GLOB); anywhere else they are part of a name. `rm -rf '~'`,
 * `rm -rf ./~` and `echo '~' | xargs rm -rf` remove a folder named ~ here,
 * `rm -rf '*'` a file named *. Such a character is written with a
 * backslash before it, as in a pattern, so that no rule reads it as the
 * home directory or a glob. Returns buf, or the word as written when it
 * would not fit (judged as written: never more lenient). */
static inline const char *path_operand(const struct sluice_simple_command *sc, size_t k, char *buf,
                                       size_t size)
{
	const char *a = sluice_arg(sc, k);
	uint32_t flags = sluice_arg_flags(sc, k);
	size_t o = 0;
	int depth = 0; /* inside ${...} or $(...), kept as written: its own syntax */
	for (const char *c = a; *c; c++) {
		if (c[0] == '$' && (c[1] == '{' || c[1] == '('))
			depth++;
		else if (depth > 0 && (*c == '}' || *c == ')'))
			depth--;
		bool expanded_tilde = c == a && (flags & SLUICE_WORD_TILDE);
		bool literal = depth == 0 && ((*c == '~' && !expanded_tilde) ||
		                              (strchr("*?[", *c) && !(flags & SLUICE_WORD_GLOB)));
		if (o + 3 > size)
			return a;
		if (literal)
			buf[o++] = '\\';
		buf[o++] = *c;
	}
	buf[o] = '\0';
	return buf;
}

/* Judge an operand as written, then as it stands when its variables are
 * not set (param_default()); the first that a rule refuses wins. False
 * when it is too long to judge. */
static inline bool operand_judge(const struct sluice_simple_command *sc, const char *arg,
                                 path_rule_fn rule, const void *ctx, struct path_finding *ret)
{
	if (!path_judge(sc, arg, rule, ctx, ret))
		return false;
	char unset[PATH_CAP];
	if (ret->verdict == SLUICE_ALLOW && param_default(arg, unset, sizeof(unset)))
		return path_judge(sc, unset, rule, ctx, ret);
	return true;
}

#endif
