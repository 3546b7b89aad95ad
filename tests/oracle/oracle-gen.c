/* SPDX-License-Identifier: MIT */
/*
 * The model oracle's command generator (see oracle-gen.h): a small grammar
 * of bash, each production choosing among its spellings with a seeded
 * random number generator (xorshift64*, so that a seed means the same on
 * every machine).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "oracle/oracle-gen.h"
#include "util/strbuf.h"

#define GEN_MAX_BYTES ((size_t)64 * 1024)

struct gen {
	uint64_t s;
	unsigned heredocs; /* delimiters used so far (each is unique) */
};

/* One text being written: a command line, or the script of a nested shell.
 * Heredoc bodies wait in pending for the next newline. */
struct text {
	struct gen *g;
	struct strbuf sb;
	struct strbuf pending;
	unsigned depth; /* nesting left */
};

static uint64_t rnd(struct gen *g)
{
	g->s ^= g->s >> 12;
	g->s ^= g->s << 25;
	g->s ^= g->s >> 27;
	return g->s * 0x2545F4914F6CDD1DULL;
}

static unsigned pick(struct gen *g, unsigned n)
{
	return (unsigned)((rnd(g) >> 33) % n);
}

static bool chance(struct gen *g, unsigned percent)
{
	return pick(g, 100) < percent;
}

#define PICK(g, array) ((array)[pick((g), ELEMENTSOF(array))])

static void put(struct text *t, const char *s)
{
	(void)strbuf_append_str(&t->sb, s);
}

static void putc_(struct text *t, char c)
{
	(void)strbuf_append_char(&t->sb, c);
}

/* A newline, then the heredoc bodies that wait for it. */
static void newline(struct text *t)
{
	putc_(t, '\n');
	if (t->pending.len) {
		put(t, strbuf_str(&t->pending));
		strbuf_done(&t->pending);
		t->pending = strbuf_init(GEN_MAX_BYTES);
	}
}

static struct text text_new(struct gen *g, unsigned depth)
{
	return (struct text){ .g = g,
		              .sb = strbuf_init(GEN_MAX_BYTES),
		              .pending = strbuf_init(GEN_MAX_BYTES),
		              .depth = depth };
}

/* The text, with the bodies still waiting; owned. */
static char *text_take(struct text *t)
{
	if (t->pending.len)
		newline(t);
	strbuf_done(&t->pending);
	return strbuf_take(&t->sb);
}

/* ------------------------------------------------------------------ vocabulary */

const char *const oracle_gen_names[] = {
	"git",      "rm",       "ls",          "echo",     "cat",     "mkdir",   "cp",
	"mv",       "touch",    "make",        "npm",      "python3", "grep",    "sed",
	"tar",      "chmod",    "curl",        "docker",   "cargo",   "node",    "pytest",
	"printf",   "true",     "false",       "wc",       "sort",    "head",    "tr",
	"deploy",   "mytool",   "kubectl",     "go",       "sudo",    "env",     "nice",
	"nohup",    "timeout",  "stdbuf",      "ionice",   "chrt",    "taskset", "setsid",
	"doas",     "xargs",    "find",        "bash",     "sh",      "dash",    "zsh",
	"ksh",      "pkexec",   "run0",        "strace",   "flock",   "cgexec",  "numactl",
	"firejail", "valgrind", "systemd-run", "unbuffer", "busybox", NULL,
};

static const char *const cmd_names[] = {
	"git",    "rm",      "ls",   "echo",  "cat", "mkdir",  "cp",     "mv",      "touch", "make",
	"npm",    "python3", "grep", "sed",   "tar", "chmod",  "curl",   "docker",  "cargo", "node",
	"pytest", "printf",  "true", "false", "wc",  "deploy", "mytool", "kubectl", "go",
};

static const char *const args[] = {
	"-f",   "-rf",       "--force", "-n",     "5",      "push",      "origin",
	"main", "status",    "add",     "-A",     ".",      "src/",      "a.txt",
	"b c",  "--",        "-x",      "/tmp/x", "HEAD~1", "--dry-run", "-C",
	"x=y",  "--opt=val", "%s",      "it's",   "-la",    "build",     "commit",
	"-m",   "msg here",  "install", "test",   "-j2",    "{}",        "@",
	"a\tb", "#x",        "a#b",     "-",      "",       "--verbose", "-e",
};

/* Wrappers, written out; the ones at the end are not in the model's table
 * when this was written, which is what the oracle is there to show. */
static const char *const wrappers[] = {
	"sudo",
	"sudo -u root",
	"sudo -E",
	"env",
	"env A=1",
	"env -i",
	"env -u HOME",
	"nice",
	"nice -n 5",
	"nohup",
	"timeout 5",
	"timeout -s KILL 5",
	"stdbuf -oL",
	"stdbuf -o L",
	"time",
	"time -p",
	"command",
	"ionice -c 3",
	"chrt -o 0",
	"taskset 1",
	"setsid",
	"doas",
	"nice -n 5 nohup",
	"env A=1 nice",
	"ionice -c2 -n7",
	"taskset -c 0",
	"chrt --other 0",
	"setsid -w",
	"pkexec",
	"run0 -u root",
	"systemd-run --user --scope",
	"valgrind -q",
	"firejail --private",
	"cgexec -g cpu:x",
	"numactl -N 0",
	"setpriv --nnp",
	"prlimit --nofile=64",
	"setarch x86_64 -R",
	"unshare -r",
	"faketime 2020-01-01",
	"eatmydata",
	"nice --bogus",
};

static const char *const variables[] = { "HOME", "X", "TMPDIR", "PWD", "1", "@", "USER", "G" };

static const char *const redirections[] = {
	"> /dev/null",  ">/dev/null",  "2> /dev/null", "2>/dev/null",
	"2>&1",         "< /dev/null", "&> /dev/null", ">> /dev/null",
	">| /dev/null", "1>&2",        ">&2",          "3>&-",
	"<> /dev/null", "<<< word",    "<<<\"a b\"",   "> \"$TMPDIR/o\"",
	"2>>/dev/null", "0</dev/null", "&>>/dev/null", "4<>/dev/null",
};

/* -------------------------------------------------------------------- words */

static bool is_plain(const char *s)
{
	if (!s[0] || s[0] == '~' || s[0] == '#' || strcmp(s, "{}") == 0)
		return strcmp(s, "{}") == 0;
	for (const char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=%+,@-",
		            *p))
			return false;
	return true;
}

static void put_single_quoted(struct text *t, const char *s)
{
	putc_(t, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			put(t, "'\\''");
		else
			putc_(t, *s);
	}
	putc_(t, '\'');
}

static void put_double_quoted(struct text *t, const char *s)
{
	putc_(t, '"');
	for (; *s; s++) {
		if (strchr("\"$`\\", *s))
			putc_(t, '\\');
		putc_(t, *s);
	}
	putc_(t, '"');
}

static void put_ansi_c(struct text *t, const char *s)
{
	put(t, "$'");
	for (; *s; s++) {
		char buf[8];
		if (*s == '\'' || *s == '\\' || *s == '\t' || chance(t->g, 20)) {
			snprintf(buf, sizeof(buf), "\\x%02x", (unsigned char)*s);
			put(t, buf);
		} else {
			putc_(t, *s);
		}
	}
	putc_(t, '\'');
}

/* Every byte escaped with a backslash where it is special, some others too. */
static void put_backslashed(struct text *t, const char *s)
{
	if (!*s) {
		put(t, "''");
		return;
	}
	for (; *s; s++) {
		if (*s == '\t') {
			put(t, "$'\\t'");
			continue;
		}
		bool alnum = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z');
		if (!alnum || chance(t->g, 30))
			putc_(t, '\\');
		putc_(t, *s);
	}
}

/* A literal word in one of bash's quoting styles. */
static void put_literal(struct text *t, const char *s)
{
	size_t len = strlen(s);
	bool plain = is_plain(s);
	switch (pick(t->g, 10)) {
	case 0:
	case 1:
	case 2:
		if (plain) {
			put(t, s);
			break;
		}
		/* fall through */
	case 3:
		put_single_quoted(t, s);
		break;
	case 4:
		put_double_quoted(t, s);
		break;
	case 5:
		put_backslashed(t, s);
		break;
	case 6:
		put_ansi_c(t, s);
		break;
	case 7: {
		/* two parts in two styles: ab -> a'b' */
		if (len < 2) {
			put_single_quoted(t, s);
			break;
		}
		size_t k = 1 + pick(t->g, (unsigned)(len - 1));
		_cleanup_free_ char *a = strndup(s, k);
		if (!a)
			break;
		if (is_plain(a) && strcmp(a, "{") != 0)
			put(t, a);
		else
			put_double_quoted(t, a);
		put_single_quoted(t, s + k);
		break;
	}
	case 8:
		/* a line continuation inside the word: bash joins the parts */
		if (plain && len >= 2 && strcmp(s, "{}") != 0) {
			size_t k = 1 + pick(t->g, (unsigned)(len - 1));
			(void)strbuf_append(&t->sb, s, k);
			put(t, "\\\n");
			put(t, s + k);
			break;
		}
		put_single_quoted(t, s);
		break;
	default:
		/* empty quotes next to it change nothing */
		put(t, chance(t->g, 50) ? "''" : "\"\"");
		if (plain)
			put(t, s);
		else
			put_single_quoted(t, s);
		break;
	}
}

static void gen_list(struct text *t);
static void gen_simple(struct text *t, bool allow_heredoc);

/* The script of a substitution or nested shell: a new text, one level in. */
static char *inner_script(struct text *t, bool simple_only)
{
	struct text in = text_new(t->g, t->depth ? t->depth - 1 : 0);
	if (simple_only || in.depth == 0)
		gen_simple(&in, false);
	else
		gen_list(&in);
	return text_take(&in);
}

/* A script with nothing a backquote would need escaped. */
static char *plain_script(struct text *t)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s %s", PICK(t->g, cmd_names), chance(t->g, 50) ? "x" : "-f");
	return strdup(buf);
}

static void put_dynamic(struct text *t)
{
	const char *v = PICK(t->g, variables);
	char buf[64];
	switch (pick(t->g, 16)) {
	case 0:
		snprintf(buf, sizeof(buf), "$%s", v);
		put(t, buf);
		break;
	case 1:
		snprintf(buf, sizeof(buf), "\"$%s\"", v);
		put(t, buf);
		break;
	case 2:
		snprintf(buf, sizeof(buf), "${%s:-%s}", v, chance(t->g, 50) ? "def" : "/");
		put(t, buf);
		break;
	case 3:
		snprintf(buf, sizeof(buf), "\"${%s:+set}\"/x", v);
		put(t, buf);
		break;
	case 4:
	case 5: {
		_cleanup_free_ char *in = inner_script(t, t->depth < 2);
		bool quoted = chance(t->g, 50);
		put(t, quoted ? "\"$(" : "$(");
		put(t, in ? in : "true");
		put(t, quoted ? ")\"" : ")");
		break;
	}
	case 6: {
		_cleanup_free_ char *in = plain_script(t);
		bool quoted = chance(t->g, 50);
		put(t, quoted ? "\"`" : "`");
		put(t, in ? in : "true");
		put(t, quoted ? "`\"" : "`");
		break;
	}
	case 7:
		put(t, chance(t->g, 50) ? "$((1 + 2))" : "\"$((3 * 4))\"");
		break;
	case 8:
		put(t, chance(t->g, 50) ? "*.txt" : "src/*");
		break;
	case 9:
		put(t, chance(t->g, 50) ? "{a,b}" : "x{1..3}");
		break;
	case 10:
		put(t, chance(t->g, 50) ? "~" : "~/x");
		break;
	case 11:
		snprintf(buf, sizeof(buf), "a$%s", v);
		put(t, buf);
		break;
	case 12:
		snprintf(buf, sizeof(buf), "\"$%s\"/sub", v);
		put(t, buf);
		break;
	case 13: {
		/* ${X:-`cmd`} in double quotes: the backquotes run */
		_cleanup_free_ char *in = plain_script(t);
		put(t, "\"${X:-`");
		put(t, in ? in : "true");
		put(t, "`}\"");
		break;
	}
	case 14:
		put(t, "\"$@\"");
		break;
	default:
		put(t, "${#X}");
		break;
	}
}

static void put_arg(struct text *t)
{
	if (chance(t->g, 18))
		put_dynamic(t);
	else
		put_literal(t, PICK(t->g, args));
}

/* ------------------------------------------------------------------ commands */

/* A heredoc on the current line: its start here, its body for later. */
static void put_heredoc(struct text *t, bool to_shell)
{
	unsigned n = ++t->g->heredocs;
	char delim[32];
	snprintf(delim, sizeof(delim), "EOF%u", n);
	unsigned style = pick(t->g, 4);
	char start[48];
	snprintf(start, sizeof(start), "%s%s%s%s", style == 3 ? "<<-" : "<<",
	         style == 1   ? "'"
	         : style == 2 ? "\""
	                      : "",
	         delim,
	         style == 1   ? "'"
	         : style == 2 ? "\""
	                      : "");
	put(t, start);
	_cleanup_free_ char *body = NULL;
	if (to_shell) {
		body = inner_script(t, false);
	} else {
		struct text in = text_new(t->g, 0);
		put(&in, "text ");
		put_dynamic(&in);
		if (chance(t->g, 40)) {
			_cleanup_free_ char *s = plain_script(t);
			put(&in, " `");
			put(&in, s ? s : "true");
			put(&in, "`");
		}
		body = text_take(&in);
	}
	struct strbuf *p = &t->pending;
	if (body)
		(void)strbuf_append_str(p, body);
	if (p->len && strbuf_str(p)[p->len - 1] != '\n')
		(void)strbuf_append_char(p, '\n');
	(void)strbuf_append_str(p, delim);
	(void)strbuf_append_char(p, '\n');
}

static void put_separator(struct text *t)
{
	if (chance(t->g, 6))
		put(t, " \\\n  ");
	else
		putc_(t, ' ');
}

static void gen_simple(struct text *t, bool allow_heredoc)
{
	/* the tokens in order; redirections go anywhere among them */
	unsigned n_assign = chance(t->g, 12) ? 1 + pick(t->g, 2) : 0;
	unsigned n_args = pick(t->g, 5);
	unsigned n_redir = chance(t->g, 30) ? 1 + pick(t->g, 2) : 0;
	bool wrapped = chance(t->g, 25);
	unsigned total = n_assign + 1 + n_args; /* assignments, name (+ wrappers), args */
	unsigned redir_at[2] = { pick(t->g, total + 1), pick(t->g, total + 1) };
	bool first = true;
	for (unsigned i = 0; i <= total; i++) {
		for (unsigned r = 0; r < n_redir; r++) {
			if (redir_at[r] != i)
				continue;
			if (!first)
				put_separator(t);
			put(t, PICK(t->g, redirections));
			first = false;
		}
		if (i == total)
			break;
		if (!first)
			put_separator(t);
		first = false;
		if (i < n_assign) {
			static const char *const names[] = { "A", "B", "G", "X", "LANG" };
			put(t, PICK(t->g, names));
			putc_(t, '=');
			if (chance(t->g, 20))
				put_dynamic(t);
			else
				put_literal(t, PICK(t->g, args));
		} else if (i == n_assign) {
			if (wrapped) {
				put(t, PICK(t->g, wrappers));
				putc_(t, ' ');
			}
			put_literal(t, PICK(t->g, cmd_names));
		} else {
			put_arg(t);
		}
	}
	if (allow_heredoc && chance(t->g, 8)) {
		putc_(t, ' ');
		put_heredoc(t, false);
	}
}

static void put_nested_shell(struct text *t)
{
	_cleanup_free_ char *in = inner_script(t, false);
	const char *s = in ? in : "true";
	/* No login shell (bash -lc): it runs the machine's /etc/profile first,
	 * whose commands (id -u, ...) are the system's, not the command's. */
	static const char *const shells[] = {
		"bash -c",  "sh -c",  "bash -uc", "dash -c", "eval",
		"bash -ec", "zsh -c", "fish -c",  "csh -c",  "ksh -c"
	};
	switch (pick(t->g, 6)) {
	case 0:
	case 1:
		put(t, PICK(t->g, shells));
		putc_(t, ' ');
		if (chance(t->g, 70))
			put_single_quoted(t, s);
		else
			put_double_quoted(t, s);
		break;
	case 2:
		put(t, chance(t->g, 50) ? "bash <<< " : "sh <<<");
		put_single_quoted(t, s);
		break;
	case 3:
		put(t, "echo ");
		put_single_quoted(t, s);
		put(t, chance(t->g, 50) ? " | bash" : " | sh -s");
		break;
	case 4: {
		/* a heredoc fed to a shell, directly or through a pipe */
		unsigned n = ++t->g->heredocs;
		char delim[32];
		snprintf(delim, sizeof(delim), "EOS%u", n);
		static const struct {
			const char *before, *after;
		} forms[] = { { "bash <<'", "'" },
			      { "sh <<", "" },
			      { "cat <<'", "' | bash" },
			      { "cat <<", " | sh" },
			      { "cat <<", " 2>&1 | bash" } };
		unsigned f = pick(t->g, ELEMENTSOF(forms));
		put(t, forms[f].before);
		put(t, delim);
		put(t, forms[f].after);
		(void)strbuf_append_str(&t->pending, s);
		if (t->pending.len && strbuf_str(&t->pending)[t->pending.len - 1] != '\n')
			(void)strbuf_append_char(&t->pending, '\n');
		(void)strbuf_append_str(&t->pending, delim);
		(void)strbuf_append_char(&t->pending, '\n');
		break;
	}
	default:
		put(t, "bash -c ");
		put_single_quoted(t, s);
		put(t, " _ arg");
		break;
	}
}

static void gen_statement(struct text *t);

/* What git runs besides itself: an alias, a config value that is a
 * command, a subcommand that runs one (git runs for real in the oracle). */
static void put_git(struct text *t)
{
	char *script = plain_script(t);
	const char *s = script ? script : "true";
	switch (pick(t->g, 5)) {
	case 0:
		put(t, "git -c alias.x=");
		put_single_quoted(t, s);
		put(t, " x");
		break;
	case 1:
		put(t, "git -c 'alias.y=!");
		put(t, s);
		put(t, "' y ");
		put_literal(t, PICK(t->g, args));
		break;
	case 2:
		put(t, "git -c core.sshCommand=");
		put_single_quoted(t, s);
		put(t, " ls-remote ssh://host/repo");
		break;
	case 3:
		put(t, "GIT_SSH_COMMAND=");
		put_single_quoted(t, s);
		put(t, " git ls-remote ssh://host/repo");
		break;
	default:
		put(t, "git -c alias.s='status -s' -c alias.t=s t");
		break;
	}
	free(script);
}

/* The body of a compound command: a list, ending with a separator that
 * the closing word accepts. */
static void put_body(struct text *t, bool tight_close)
{
	gen_list(t);
	if (tight_close && chance(t->g, 50))
		return;
	if (chance(t->g, 25))
		newline(t);
	else
		put(t, "; ");
}

static void gen_compound(struct text *t)
{
	unsigned depth = t->depth;
	t->depth = depth ? depth - 1 : 0;
	switch (pick(t->g, 16)) {
	case 0:
		put(t, "( ");
		gen_list(t);
		put(t, " )");
		break;
	case 1:
		put(t, "{ ");
		put_body(t, false);
		put(t, "}");
		break;
	case 2:
		put(t, chance(t->g, 50) ? "time ( " : "time -p ( ");
		gen_list(t);
		put(t, " )");
		break;
	case 3:
		put(t, "time { ");
		put_body(t, false);
		put(t, "}");
		break;
	case 4:
		put(t, "if ");
		gen_simple(t, false);
		put(t, "; then ");
		put_body(t, false);
		if (chance(t->g, 40)) {
			put(t, "else ");
			put_body(t, false);
		}
		put(t, "fi");
		break;
	case 5:
		put(t, "for i in a ");
		put_literal(t, PICK(t->g, args));
		put(t, "; do ");
		if (chance(t->g, 30)) {
			/* `(...) done` and `{ ...; } done`: no separator needed */
			bool sub = chance(t->g, 50);
			put(t, sub ? "(" : "{ ");
			gen_simple(t, false);
			put(t, sub ? ") done" : "; } done");
		} else {
			gen_simple(t, false);
			put(t, " \"$i\"; done");
		}
		break;
	case 6:
		put(t, chance(t->g, 50) ? "while false; do " : "until true; do ");
		put_body(t, false);
		put(t, "done");
		break;
	case 7:
		put(t, "case ");
		put_literal(t, chance(t->g, 50) ? "a" : "b");
		put(t, " in a) ");
		gen_list(t);
		put(t, ";; *) ");
		gen_list(t);
		put(t, ";; esac");
		break;
	case 8:
		put(t, chance(t->g, 50) ? "f() { " : "function f { ");
		put_body(t, false);
		put(t, "}; f ");
		put_arg(t);
		break;
	case 9:
		put(t, "! ");
		gen_simple(t, false);
		break;
	case 10:
		/* a loop inside a group closed without a separator */
		put(t, "{ for i in a; do ");
		gen_simple(t, false);
		put(t, "; done }");
		break;
	case 11:
		put(t, "G=");
		put_literal(t, PICK(t->g, cmd_names));
		put(t, "; $G ");
		put_arg(t);
		break;
	case 12:
		put_git(t);
		break;
	case 13:
		/* targets given before they are used */
		switch (pick(t->g, 4)) {
		case 0:
			put(t, "set -- ");
			put_literal(t, PICK(t->g, args));
			put(t, " x; ");
			put_literal(t, PICK(t->g, cmd_names));
			put(t, " \"$1\" $2");
			break;
		case 1:
			put(t, "f() { ");
			put_literal(t, PICK(t->g, cmd_names));
			put(t, " \"$1\"; }; f ");
			put_literal(t, PICK(t->g, args));
			break;
		case 2:
			put(t, "echo ");
			put_literal(t, PICK(t->g, args));
			put(t, " | xargs ");
			put_literal(t, PICK(t->g, cmd_names));
			break;
		default:
			put(t, "D=~/x; ");
			put_literal(t, PICK(t->g, cmd_names));
			put(t, " \"$D\"");
			break;
		}
		break;
	default:
		put_nested_shell(t);
		break;
	}
	t->depth = depth;
}

static void gen_pipeline(struct text *t)
{
	gen_simple(t, true);
	unsigned n = 1 + pick(t->g, 2);
	for (unsigned i = 0; i < n; i++) {
		put(t, chance(t->g, 85) ? " | " : " |& ");
		switch (pick(t->g, 5)) {
		case 0:
			put(t, chance(t->g, 50) ? "xargs " : "xargs -0 ");
			put_literal(t, PICK(t->g, cmd_names));
			break;
		case 1:
			put(t, chance(t->g, 50) ? "grep x" : "wc -l");
			break;
		default:
			gen_simple(t, false);
			break;
		}
	}
}

static void gen_statement(struct text *t)
{
	unsigned k = pick(t->g, 100);
	if (t->depth == 0 || k < 45)
		gen_simple(t, true);
	else if (k < 60)
		gen_pipeline(t);
	else
		gen_compound(t);
}

static void gen_list(struct text *t)
{
	gen_statement(t);
	unsigned n = pick(t->g, 3);
	for (unsigned i = 0; i < n; i++) {
		switch (pick(t->g, 6)) {
		case 0:
			put(t, " && ");
			break;
		case 1:
			put(t, " || ");
			break;
		case 2:
			newline(t);
			break;
		case 3:
			if (chance(t->g, 20)) {
				put(t, " &");
				newline(t);
			} else {
				put(t, "; ");
			}
			break;
		case 4:
			put(t, " && \\\n  ");
			break;
		default:
			put(t, "; ");
			break;
		}
		gen_statement(t);
	}
}

char *oracle_gen_command(uint64_t seed, uint64_t index)
{
	struct gen g = { .s = (seed * 0x9E3779B97F4A7C15ULL) ^
		              (index + 1) * 0xBF58476D1CE4E5B9ULL };
	if (!g.s)
		g.s = 1;
	for (int i = 0; i < 4; i++)
		(void)rnd(&g);
	struct text t = text_new(&g, 2 + pick(&g, 2));
	gen_list(&t);
	return text_take(&t);
}
