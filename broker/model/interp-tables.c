/* SPDX-License-Identifier: MIT */
/*
 * One row per interpreter language the recognizer reads (interp-lang.h):
 * its names, how its code is split, the calls that remove a tree or a file,
 * write over a file or hand a string to a shell, and the expressions that
 * mean the home directory. Adding a call is one line.
 * Not for: where the code is among a command's words (interp-invocation.c).
 */
#include "config.h"

#include <string.h>

#include "model/interp-lang.h"
#include "model/interp.h"

#define ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))
#define NP CALL_NO_PARENS
#define EX CALL_EXACT

/* ------------------------------------------------------------- python */

static const struct interp_call python_calls[] = {
	{ "shutil.rmtree", CALL_REMOVE_TREE, 0 },
	{ "rmtree", CALL_REMOVE_TREE, EX },
	{ "os.remove", CALL_REMOVE_FILES, 0 },
	{ "os.unlink", CALL_REMOVE_FILES, 0 },
	{ "os.rmdir", CALL_REMOVE_DIR, 0 },
	{ "os.removedirs", CALL_REMOVE_DIR, 0 },
	{ "os.truncate", CALL_WRITE, 0 },
	{ "os.system", CALL_SHELL, 0 },
	{ "os.execvp", CALL_PROGRAM_ARGS, 0 },
	{ "os.execv", CALL_PROGRAM_ARGS, 0 },
	{ "os.execvpe", CALL_PROGRAM_ARGS, 0 },
	{ "os.popen", CALL_SHELL, 0 },
	{ "subprocess.run", CALL_SUBPROCESS, 0 },
	{ "subprocess.call", CALL_SUBPROCESS, 0 },
	{ "subprocess.check_call", CALL_SUBPROCESS, 0 },
	{ "subprocess.check_output", CALL_SUBPROCESS, 0 },
	{ "subprocess.Popen", CALL_SUBPROCESS, 0 },
	{ "subprocess.getoutput", CALL_SHELL, 0 },
	{ "subprocess.getstatusoutput", CALL_SHELL, 0 },
	{ "open", CALL_OPEN, EX },
	{ ".unlink", CALL_RECEIVER_FILE, 0 },
	{ ".rmdir", CALL_RECEIVER_DIR, 0 },
	{ ".write_text", CALL_RECEIVER_WRITE, 0 },
	{ ".write_bytes", CALL_RECEIVER_WRITE, 0 },
};
static const char *const python_home[] = {
	"os.path.expanduser('~')",
	"expanduser('~')",
	"os.environ['HOME']",
	"os.environ.get('HOME')",
	"os.getenv('HOME')",
	"environ['HOME']",
	"pathlib.Path.home()",
	"Path.home()",
	"Path('~').expanduser()",
	"os.path.expanduser('~/')",
	NULL,
};
static const char *const python_tilde[] = { "os.path.expanduser", "expanduser", NULL };
static const char *const python_paths[] = { "pathlib.Path", "Path", NULL };

/* --------------------------------------------------------------- node */

static const struct interp_call node_calls[] = {
	{ "rmSync", CALL_REMOVE_TREE, 0 },
	{ "fs.rm", CALL_REMOVE_TREE, 0 },
	{ "promises.rm", CALL_REMOVE_TREE, 0 },
	{ "rmdirSync", CALL_REMOVE_TREE, 0 }, /* {recursive: true} once removed trees */
	{ "fs.rmdir", CALL_REMOVE_TREE, 0 },
	{ "promises.rmdir", CALL_REMOVE_TREE, 0 },
	{ "unlinkSync", CALL_REMOVE_FILES, 0 },
	{ "fs.unlink", CALL_REMOVE_FILES, 0 },
	{ "promises.unlink", CALL_REMOVE_FILES, 0 },
	{ "writeFileSync", CALL_WRITE, 0 },
	{ "fs.writeFile", CALL_WRITE, 0 },
	{ "promises.writeFile", CALL_WRITE, 0 },
	{ "truncateSync", CALL_WRITE, 0 },
	{ "fs.truncate", CALL_WRITE, 0 },
	{ "promises.truncate", CALL_WRITE, 0 },
	{ "execSync", CALL_SHELL, 0 },
	{ "child_process.exec", CALL_SHELL, 0 },
	{ "cp.exec", CALL_SHELL, 0 },
	{ "exec", CALL_SHELL, EX },
	{ "execFileSync", CALL_PROGRAM_ARGS, 0 },
	{ "child_process.execFile", CALL_PROGRAM_ARGS, 0 },
	{ "execFile", CALL_PROGRAM_ARGS, EX },
	{ "spawnSync", CALL_PROGRAM_ARGS, 0 },
	{ "child_process.spawn", CALL_PROGRAM_ARGS, 0 },
	{ "cp.spawn", CALL_PROGRAM_ARGS, 0 },
	{ "spawn", CALL_PROGRAM_ARGS, EX },
	/* deno's own (deno eval) */
	{ "Deno.removeSync", CALL_REMOVE_TREE, 0 },
	{ "Deno.remove", CALL_REMOVE_TREE, 0 },
	{ "Deno.writeTextFileSync", CALL_WRITE, 0 },
	{ "Deno.writeTextFile", CALL_WRITE, 0 },
	{ "Deno.writeFileSync", CALL_WRITE, 0 },
	{ "Deno.writeFile", CALL_WRITE, 0 },
};
static const char *const node_home[] = {
	"os.homedir()",         "homedir()", "process.env.HOME", "process.env['HOME']",
	"Deno.env.get('HOME')", NULL,
};
static const char *const no_names[] = { NULL };

/* --------------------------------------------------------------- perl */

static const struct interp_call perl_calls[] = {
	{ "rmtree", CALL_REMOVE_TREE, NP },        { "remove_tree", CALL_REMOVE_TREE, NP },
	{ "unlink", CALL_REMOVE_FILES, EX | NP },  { "rmdir", CALL_REMOVE_DIR, EX | NP },
	{ "system", CALL_SHELL_OR_ARGV, EX | NP }, { "exec", CALL_SHELL_OR_ARGV, EX | NP },
	{ "open", CALL_PERL_OPEN, EX | NP },       { "truncate", CALL_WRITE, EX | NP },
};
static const char *const perl_home[] = { "$ENV{HOME}", "$ENV{'HOME'}", NULL };

/* --------------------------------------------------------------- ruby */

static const struct interp_call ruby_calls[] = {
	{ "FileUtils.rm_rf", CALL_REMOVE_TREE, NP },
	{ "FileUtils.rm_r", CALL_REMOVE_TREE, NP },
	{ "FileUtils.remove_dir", CALL_REMOVE_TREE, NP },
	{ "FileUtils.remove_entry", CALL_REMOVE_TREE, NP },
	{ "FileUtils.remove_entry_secure", CALL_REMOVE_TREE, NP },
	{ "FileUtils.rm", CALL_REMOVE_FILES, NP },
	{ "FileUtils.rm_f", CALL_REMOVE_FILES, NP },
	{ "FileUtils.remove", CALL_REMOVE_FILES, NP },
	{ "File.delete", CALL_REMOVE_FILES, NP },
	{ "File.unlink", CALL_REMOVE_FILES, NP },
	{ "FileUtils.rmdir", CALL_REMOVE_DIR, NP },
	{ "Dir.rmdir", CALL_REMOVE_DIR, NP },
	{ "Dir.delete", CALL_REMOVE_DIR, NP },
	{ "Dir.unlink", CALL_REMOVE_DIR, NP },
	{ "File.write", CALL_WRITE, NP },
	{ "File.truncate", CALL_WRITE, NP },
	{ "system", CALL_SHELL_OR_ARGV, EX | NP },
	{ "exec", CALL_SHELL_OR_ARGV, EX | NP },
	{ "spawn", CALL_SHELL_OR_ARGV, EX | NP },
	{ "Kernel.system", CALL_SHELL_OR_ARGV, NP },
	{ "IO.popen", CALL_SHELL, NP },
	{ "Open3.capture2", CALL_SHELL_OR_ARGV, NP },
	{ "Open3.capture2e", CALL_SHELL_OR_ARGV, NP },
	{ "Open3.capture3", CALL_SHELL_OR_ARGV, NP },
};
static const char *const ruby_home[] = {
	"Dir.home", "Dir.home()", "ENV['HOME']", "ENV.fetch('HOME')", "File.expand_path('~')", NULL,
};
static const char *const ruby_tilde[] = { "File.expand_path", NULL };
static const char *const ruby_paths[] = { "Pathname.new", "Pathname", NULL };
static const char *const ruby_join[] = { "File.join", NULL };

/* ---------------------------------------------------------------- php */

static const struct interp_call php_calls[] = {
	{ "unlink", CALL_REMOVE_FILES, EX },
	{ "rmdir", CALL_REMOVE_DIR, EX },
	{ "file_put_contents", CALL_WRITE, EX },
	{ "exec", CALL_SHELL, EX },
	{ "system", CALL_SHELL, EX },
	{ "shell_exec", CALL_SHELL, EX },
	{ "passthru", CALL_SHELL, EX },
	{ "popen", CALL_SHELL, EX },
	{ "proc_open", CALL_SHELL, EX },
};
static const char *const php_home[] = {
	"getenv('HOME')",
	"$_SERVER['HOME']",
	"$_ENV['HOME']",
	NULL,
};

/* ---------------------------------------------------------------- awk */

static const struct interp_call awk_calls[] = {
	{ "system", CALL_SHELL, EX },
	{ "print", CALL_AWK_OUTPUT, EX },
	{ "printf", CALL_AWK_OUTPUT, EX },
	{ "getline", CALL_AWK_GETLINE, EX },
};
static const char *const awk_home[] = { "ENVIRON['HOME']", NULL };

/* ---------------------------------------------------------------- lua */

static const struct interp_call lua_calls[] = {
	{ "os.execute", CALL_SHELL, 0 },
	{ "io.popen", CALL_SHELL, 0 },
	{ "os.remove", CALL_REMOVE_FILES, 0 }, /* a file or an empty directory */
	{ "io.open", CALL_OPEN, 0 },
};
static const char *const lua_home[] = { "os.getenv('HOME')", NULL };

/* ------------------------------------------------------------------ R */

static const struct interp_call r_calls[] = {
	{ "unlink", CALL_REMOVE_MAYBE_TREE, EX },
	{ "file.remove", CALL_REMOVE_FILES, EX },
	{ "file.create", CALL_WRITE, EX }, /* empties a file that exists */
	{ "system", CALL_SHELL, EX },
	{ "shell", CALL_SHELL, EX },
	{ "system2", CALL_PROGRAM_ARGS, EX },
	{ "processx.run", CALL_PROGRAM_ARGS, 0 },
};
static const char *const r_home[] = {
	"Sys.getenv('HOME')",
	"path.expand('~')",
	"normalizePath('~')",
	NULL,
};
static const char *const r_tilde[] = { "path.expand", "normalizePath", NULL };
static const char *const r_join[] = { "file.path", NULL };

/* -------------------------------------------------------------- julia */

static const struct interp_call julia_calls[] = {
	/* run(`...`): the backquoted command is read where it stands */
	{ "rm", CALL_REMOVE_MAYBE_TREE, 0 },
	{ "write", CALL_WRITE, EX },
	{ "open", CALL_OPEN, EX },
};
static const char *const julia_home[] = { "homedir()", "ENV['HOME']", NULL };
static const char *const julia_tilde[] = { "expanduser", NULL };
static const char *const julia_resolve[] = { "joinpath", NULL };

/* ---------------------------------------------------------- languages */

static const char *const python_resolve[] = { "os.path.join", "path.join", "posixpath.join", NULL };
static const char *const node_join[] = { "path.join", "path.posix.join", NULL };
static const char *const node_resolve[] = { "path.resolve", "path.posix.resolve", NULL };

static const struct interp_lang languages[] = {
	{ .name = "python",
	  .lex = LEX_HASH_COMMENT | LEX_PY_STRINGS,
	  .calls = python_calls,
	  .n_calls = ELEMENTS(python_calls),
	  .home_forms = python_home,
	  .tilde_calls = python_tilde,
	  .path_ctors = python_paths,
	  .join_calls = no_names,
	  .resolve_calls = python_resolve,
	  .concat = "+" },
	{ .name = "node",
	  .lex = LEX_SLASH_COMMENT | LEX_TEMPLATE | LEX_REGEX | LEX_REQUIRE | LEX_SIGILS,
	  .calls = node_calls,
	  .n_calls = ELEMENTS(node_calls),
	  .home_forms = node_home,
	  .tilde_calls = no_names,
	  .path_ctors = no_names,
	  .join_calls = node_join,
	  .resolve_calls = node_resolve,
	  .concat = "+" },
	{ .name = "perl",
	  .lex = LEX_HASH_COMMENT | LEX_BACKTICK_SHELL | LEX_SIGILS | LEX_DOLLAR_INTERP |
	         LEX_RAW_SINGLE | LEX_PERL_QUOTES | LEX_REGEX,
	  .calls = perl_calls,
	  .n_calls = ELEMENTS(perl_calls),
	  .home_forms = perl_home,
	  .tilde_calls = no_names,
	  .path_ctors = no_names,
	  .join_calls = no_names,
	  .resolve_calls = no_names,
	  .concat = "." },
	{ .name = "ruby",
	  .lex = LEX_HASH_COMMENT | LEX_BACKTICK_SHELL | LEX_SIGILS | LEX_HASH_INTERP |
	         LEX_RAW_SINGLE | LEX_RUBY_PERCENT | LEX_REGEX,
	  .calls = ruby_calls,
	  .n_calls = ELEMENTS(ruby_calls),
	  .home_forms = ruby_home,
	  .tilde_calls = ruby_tilde,
	  .path_ctors = ruby_paths,
	  .join_calls = ruby_join,
	  .resolve_calls = no_names,
	  .concat = "+" },
	{ .name = "php",
	  .lex = LEX_HASH_COMMENT | LEX_SLASH_COMMENT | LEX_BACKTICK_SHELL | LEX_SIGILS |
	         LEX_DOLLAR_INTERP | LEX_RAW_SINGLE,
	  .calls = php_calls,
	  .n_calls = ELEMENTS(php_calls),
	  .home_forms = php_home,
	  .tilde_calls = no_names,
	  .path_ctors = no_names,
	  .join_calls = no_names,
	  .resolve_calls = no_names,
	  .concat = "." },
	{ .name = "awk",
	  .lex = LEX_HASH_COMMENT | LEX_SIGILS | LEX_REGEX | LEX_NO_SINGLE,
	  .calls = awk_calls,
	  .n_calls = ELEMENTS(awk_calls),
	  .home_forms = awk_home,
	  .tilde_calls = no_names,
	  .path_ctors = no_names,
	  .join_calls = no_names,
	  .resolve_calls = no_names,
	  .concat = " " },
	/* no # comment: lua's is --, read as code (a call named in a comment
	 * is read, which may ask, never allow) */
	{ .name = "lua",
	  .lex = 0,
	  .calls = lua_calls,
	  .n_calls = ELEMENTS(lua_calls),
	  .home_forms = lua_home,
	  .tilde_calls = no_names,
	  .path_ctors = no_names,
	  .join_calls = no_names,
	  .resolve_calls = no_names,
	  .concat = ".." },
	{ .name = "R",
	  .lex = LEX_HASH_COMMENT,
	  .calls = r_calls,
	  .n_calls = ELEMENTS(r_calls),
	  .home_forms = r_home,
	  .tilde_calls = r_tilde,
	  .path_ctors = no_names,
	  .join_calls = r_join,
	  .resolve_calls = no_names,
	  .concat = NULL, /* paste0() */
	  .tilde_in_paths = true },
	{ .name = "julia",
	  .lex = LEX_HASH_COMMENT | LEX_BACKTICK_SHELL | LEX_JULIA_INTERP,
	  .calls = julia_calls,
	  .n_calls = ELEMENTS(julia_calls),
	  .home_forms = julia_home,
	  .tilde_calls = julia_tilde,
	  .path_ctors = no_names,
	  .join_calls = no_names,
	  .resolve_calls = julia_resolve,
	  .concat = "*" },
};

/* The names each language is run by; a version may follow (python3.12,
 * ruby3.2, php8.2, perl5.36, lua5.4). bun and deno run JavaScript as node
 * does. */
static const struct {
	const char *name;
	size_t lang;
	bool versioned;
} program_names[] = {
	{ "python", 0, true },  { "pypy", 0, true },     { "node", 1, false },
	{ "nodejs", 1, false }, { "bun", 1, false },     { "deno", 1, false },
	{ "perl", 2, true },    { "ruby", 3, true },     { "php", 4, true },
	{ "awk", 5, false },    { "gawk", 5, false },    { "mawk", 5, false },
	{ "nawk", 5, false },   { "lua", 6, true },      { "luajit", 6, false },
	{ "R", 7, false },      { "Rscript", 7, false }, { "julia", 8, false },
};

const struct interp_lang *interp_lang_of(const char *name)
{
	for (size_t i = 0; i < ELEMENTS(program_names); i++) {
		size_t n = strlen(program_names[i].name);
		if (strncmp(name, program_names[i].name, n) != 0)
			continue;
		const char *rest = name + n;
		if (*rest && !program_names[i].versioned)
			continue;
		if (strspn(rest, "0123456789.") != strlen(rest))
			continue;
		return &languages[program_names[i].lang];
	}
	return NULL;
}

const struct interp_call *interp_lang_call(const struct interp_lang *lang, const char *name)
{
	for (size_t i = 0; i < lang->n_calls; i++) {
		const struct interp_call *c = &lang->calls[i];
		if (strcmp(name, c->name) == 0)
			return c;
		if (c->flags & CALL_EXACT)
			continue;
		size_t n = strlen(name), k = strlen(c->name);
		if (n > k && strcmp(name + n - k, c->name) == 0 &&
		    (c->name[0] == '.' || name[n - k - 1] == '.'))
			return c;
	}
	return NULL;
}

const char *interp_lang_name(const struct interp_lang *lang)
{
	return lang->name;
}
