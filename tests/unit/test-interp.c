/* SPDX-License-Identifier: MIT */
/*
 * The interpreter recognizers (broker/model/interp-invocation.c,
 * interp-lexer.c, interp-reader.c, interp-tables.c) through the built-in
 * defaults, as `sluice check` decides: one-liners and code fed on
 * standard input, dangerous ones beside their everyday look-alikes. The
 * rows come from tldr pages (python, node, perl, ruby, php, awk, lua, Rscript,
 * julia), npm
 * packages' `scripts` (clean steps), and what coding agents run.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "policy-test-util.h"

#include "sluice/policy.h"

/* Inline arrays: Criterion copies the rows into the worker process. */
struct icase {
	char command[200];
	int verdict;
	char why[80];
	char reason[64]; /* a part of the first reason (empty: not checked) */
};

TestSuite(interp, .init = ptu_setup, .fini = ptu_teardown, .timeout = 30);

#define A SLUICE_ALLOW
#define Q SLUICE_ASK
#define D SLUICE_DENY

static struct icase cases[] = {
	/* --- policy44: calls, modules and forms the recognizers now read */
	{ "python3 -c \"import os; os.truncate(os.path.expanduser('~/.bashrc'), 0)\"", D,
	  "os.truncate of a dotfile", "" },
	{ "python3 -c \"import os; os.truncate('app.log', 0)\"", A, "os.truncate of a log", "" },
	{ "python3 -c \"import os; os.execvp('rm', ['rm', '-rf', '/'])\"", D, "os.execvp", "root" },
	{ "node -e \"require('fs/promises').rm(process.env.HOME, {recursive: true})\"", D,
	  "fs/promises", "home" },
	{ "node -e \"require('fs').truncateSync(require('os').homedir() + '/.ssh/id_rsa')\"", D,
	  "truncateSync of a key", "" },
	{ "node -e \"require('fs').truncateSync('out.log')\"", A, "truncateSync of a log", "" },
	{ "perl -e 'open my $f, \">\", \"$ENV{HOME}/.bashrc\"'", D, "perl open > of a dotfile",
	  "" },
	{ "perl -e 'open(my $f, \">>\", \"$ENV{HOME}/.bashrc\")'", A, "perl open >> appends", "" },
	{ "perl -e 'open(my $f, \">\", \"out.txt\")'", A, "perl open > of the project's", "" },
	{ "perl -e 'unlink \"$ENV{HOME}/.ssh/id_rsa\"'", D, "$ENV{HOME} inside a string", "" },
	{ "perl -e 'print \"$ENV{HOME}/x\\n\"'", A, "$ENV{HOME} printed", "" },
	{ "ruby -e 'File.write(File.join(Dir.home, \".bashrc\"), \"\")'", D, "File.join", "" },
	{ "ruby -e 'FileUtils.rm_rf(\"#{Dir.home}/.ssh\")'", D, "#{Dir.home} in a string", "" },
	{ "ruby -e 'FileUtils.rm_rf(File.join(\"tmp\", \"cache\"))'", A, "File.join in the project",
	  "" },
	{ "python3 /dev/stdin <<'EOF'\nimport shutil\nshutil.rmtree('/')\nEOF", D,
	  "/dev/stdin is the input", "root" },
	{ "python3 /dev/stdin <<'EOF'\nprint(1)\nEOF", A, "/dev/stdin printing", "" },
	{ "echo \"import shutil; shutil.rmtree('/')\" | python3", D, "echo of code into a pipe",
	  "root" },
	{ "echo \"print('hi')\" | python3", A, "echo of code that prints", "" },
	{ "printf 'console.log(1)' | node", A, "printf of code", "" },
	{ "cat script.py | python3", Q, "code from a file through a pipe", "" },
	/* --- python: the attack, then its everyday look-alikes */
	{ "python3 -c \"import shutil,os; shutil.rmtree(os.path.expanduser('~'))\"", D,
	  "rmtree of the home directory", "home directory" },
	{ "python3 -c \"import shutil; shutil.rmtree('/')\"", D, "rmtree of the root", "root" },
	{ "python3 -c \"import shutil; shutil.rmtree('/etc')\"", D, "rmtree of a system dir", "" },
	{ "python -c 'import shutil; shutil.rmtree(\".git\")'", D, "rmtree of .git", ".git" },
	{ "python3 -c \"import shutil; shutil.rmtree('build', ignore_errors=True)\"", A,
	  "a clean step: rmtree of build", "" },
	{ "python3 -c \"import shutil; shutil.rmtree('~')\"", A,
	  "a folder named ~: judged as rm -rf './~' is", "" },
	{ "python3 -c \"import os; print(os.path.expanduser('~'))\"", A, "home only printed", "" },
	{ "python3 -c \"import os; os.system('rm -rf ~')\"", D, "os.system runs a shell", "home" },
	{ "python3 -c \"import os; os.system('ls -la')\"", A, "os.system of ls", "" },
	{ "python3 -c \"import os; print(os.system)\"", A, "os.system named, not called", "" },
	{ "python3 -c \"print('shutil.rmtree(\\\"/\\\")')\"", A, "a call inside a string", "" },
	{ "python3 -c 'import subprocess; subprocess.run(\"rm -rf /\", shell=True)'", D,
	  "subprocess with shell=True", "root" },
	{ "python3 -c \"import subprocess; subprocess.call(['rm','-rf',os.environ['HOME']])\"", D,
	  "subprocess with a list", "home" },
	{ "python3 -c \"import subprocess; subprocess.run(['git','reset','--hard'])\"", D,
	  "subprocess runs git reset --hard", "" },
	{ "python3 -c \"import subprocess; print(subprocess.check_output(['git','log']))\"", A,
	  "subprocess runs git log", "" },
	{ "python3 -c 'import shutil,sys; shutil.rmtree(sys.argv[1])' x", Q,
	  "rmtree of a value not read", "shutil.rmtree" },
	{ "python3 -c \"import os; [os.remove(f) for f in os.listdir('.')]\"", Q,
	  "os.remove of a value not read", "os.remove" },
	{ "python3 -c \"import os; os.system(input())\"", Q, "os.system of input", "os.system" },
	{ "python3 -u -c 'import os; os.system(\"rm -rf ~\")'", D, "-c after -u", "home" },
	{ "python3 -Bc 'import os; os.system(\"rm -rf ~\")'", D, "-c in a cluster", "home" },
	{ "python3 -c \"$CODE\"", Q, "code the shell fills in", "shell fills in" },
	{ "python3 -c \"import shutil; shutil.rmtree('$HOME')\"", Q, "a string the shell expanded",
	  "shutil.rmtree" },
	{ "python3 -c 'import sys; print(sys.version)'", A, "tldr: python -c", "" },
	{ "python3 -m pytest -x tests/", A, "a module", "" },
	{ "python3 -m http.server 8000", A, "tldr: python -m http.server", "" },
	{ "python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), indent=2))'", A,
	  "json pretty-printing", "" },
	{ "python3 -c \"from pathlib import Path; Path('x.txt').unlink()\"", A,
	  "pathlib unlink of a named file", "" },
	{ "python3 -c \"import pathlib,sys; pathlib.Path(sys.argv[1]).rmdir()\" d", Q,
	  "pathlib rmdir of a receiver not read", "rmdir" },
	{ "python3 -c \"open('out.json','w').write('{}')\"", A, "open for writing a file", "" },
	{ "python3 -c \"# os.system('rm -rf ~')\nprint(1)\"", A, "a comment", "" },
	{ "python3 - <<'EOF'\nimport shutil\nshutil.rmtree('/')\nEOF", D, "code on a heredoc",
	  "root" },
	{ "python3 <<'EOF'\nimport sys\nprint(sys.path)\nEOF", A, "everyday heredoc", "" },
	{ "python3 script.py --rm /", A, "a script file is not read", "" },
	/* --- node */
	{ "node -e \"require('fs').rmSync(process.env.HOME,{recursive:true})\"", D,
	  "rmSync of the home directory", "home" },
	{ "node -e \"require('node:fs').rmSync('/', {recursive: true, force: true})\"", D,
	  "node: module prefix", "root" },
	{ "node -e \"require('fs').rmSync('dist', {recursive: true, force: true})\"", A,
	  "package.json clean script", "" },
	{ "node -e \"fs.rmdirSync(require('os').homedir(), {recursive: true})\"", D,
	  "rmdirSync of homedir()", "home" },
	{ "node -e \"require('child_process').execSync('rm -rf ~')\"", D, "execSync", "home" },
	{ "node -e \"require('child_process').execSync('npm run build')\"", A, "execSync of npm",
	  "" },
	{ "node -e \"require('child_process').spawnSync('git', ['push', '--force'])\"", D,
	  "spawnSync of a force push", "" },
	{ "node -e \"console.log(/a/.exec('abc'))\"", A, "RegExp exec is no shell", "" },
	{ "node -e \"console.log(require('os').homedir())\"", A, "homedir printed", "" },
	{ "node -e 'console.log(process.version)'", A, "tldr: node -e", "" },
	{ "node -p \"require('./package.json').version\"", A, "node -p", "" },
	{ "node --input-type=module -e 'import {rmSync} from \"fs\"; rmSync(\"/\", {recursive: "
	  "true})'",
	  D, "-e after --input-type", "root" },
	{ "node <<EOF\nrequire('child_process').execSync('rm -rf ~')\nEOF", D, "code on a heredoc",
	  "home" },
	{ "node -e \"require('child_process').exec(process.argv[1])\" x", Q, "exec of argv",
	  "exec" },
	/* --- perl */
	{ "perl -e 'system(\"rm -rf ~\")'", D, "perl system", "home" },
	{ "perl -e 'system \"rm\", \"-rf\", \"/\"'", D, "perl system with a list", "root" },
	{ "perl -Mstrict -e 'use File::Path qw(rmtree); rmtree($ENV{HOME})'", D, "rmtree after -M",
	  "home" },
	{ "perl -e 'print `rm -rf ~`'", D, "backticks", "home" },
	{ "perl -e 'print qx{rm -rf /}'", D, "qx", "root" },
	{ "perl -e 'my $d = shift; system \"rm -rf $d\"' x", Q, "interpolated shell string",
	  "system" },
	{ "perl <<< 'system \"rm -rf /\"'", D, "code on a here-string", "root" },
	{ "perl -ne 'print if /system\\(\"rm -rf/' log.txt", A, "a pattern, not a call", "" },
	{ "perl -lane 'print $F[0]' file.txt", A, "tldr: perl -lane", "" },
	{ "perl -pi -e 's/foo/bar/g' README.md", A, "in-place edit of a named file", "" },
	{ "perl -0777 -pe 's/\\n//g' file", A, "-0777", "" },
	{ "perl -e 'unlink \"a.tmp\"'", A, "unlink of a named file", "" },
	/* --- ruby */
	{ "ruby -e 'FileUtils.rm_rf(Dir.home)'", D, "rm_rf of Dir.home", "home" },
	{ "ruby -rfileutils -e 'FileUtils.rm_rf ENV[\"HOME\"]'", D, "no parentheses", "home" },
	{ "ruby -e 'system(\"rm -rf /\")'", D, "ruby system", "root" },
	{ "ruby -e '%x(rm -rf ~)'", D, "%x", "home" },
	{ "ruby -e 'puts Dir.home'", A, "Dir.home printed", "" },
	{ "ruby -e 'puts \"#{1 + 1}\"'", A, "interpolation in a printed string", "" },
	{ "ruby -e 'system(\"rm -rf #{ARGV[0]}\")' x", Q, "interpolated shell string", "system" },
	/* --- php */
	{ "php -r 'system(\"rm -rf ~\");'", D, "php system", "home" },
	{ "php -r 'echo shell_exec(\"rm -rf /\");'", D, "shell_exec", "root" },
	{ "php -r 'echo `rm -rf ~`;'", D, "php backticks", "home" },
	{ "php -r 'echo getenv(\"HOME\");'", A, "HOME printed", "" },
	{ "php -r 'echo phpversion();'", A, "tldr: php -r", "" },
	{ "php -S localhost:8000", A, "tldr: php -S", "" },
	/* --- awk */
	{ "awk 'BEGIN{system(\"rm -rf ~\")}'", D, "awk system", "home" },
	{ "awk 'BEGIN { \"rm -rf /\" | getline x }'", D, "getline from a command", "root" },
	{ "awk '{print \"rm -rf ~\" | \"sh\"}' list", Q, "printed lines fed to sh", "" },
	{ "awk '{system(\"rm -rf \" $1)}' dirs.txt", Q, "system of a built string", "system" },
	{ "awk '{print $1}' file", A, "tldr: awk print", "" },
	{ "awk -F ',' '{s += $3} END {print s}' data.csv", A, "tldr: awk sum", "" },
	{ "awk '/rm -rf/ {print > \"hits.txt\"}' log", A, "pattern and output file", "" },
	{ "awk '{print | \"sort -u\"}' words", A, "print into sort", "" },
	{ "gawk -e 'BEGIN{system(\"rm -rf /\")}'", D, "gawk -e", "root" },
	{ "awk -f prog.awk data", A, "a program file is not read", "" },
	/* --- names the code gives modules and calls (issue 33) */
	{ "python3 -c \"import shutil as s, os; s.rmtree(os.path.expanduser('~'))\"", D,
	  "import shutil as s", "home" },
	{ "python3 -c \"import shutil as s; s.rmtree('build')\"", A, "s.rmtree of build", "" },
	{ "python3 -c \"from shutil import rmtree as r; r('/')\"", D, "from shutil import as",
	  "root" },
	{ "python3 -c \"from shutil import rmtree as r; r('.pytest_cache')\"", A,
	  "a cache through an alias", "" },
	{ "python3 -c \"import os as o; o.system('rm -rf ~')\"", D, "import os as o", "home" },
	{ "python3 -c \"import os as o; print(o.getcwd())\"", A, "o.getcwd", "" },
	{ "python3 -c \"from os import system; system('rm -rf ~')\"", D, "from os import system",
	  "home" },
	{ "python3 -c \"from os import system; system('make')\"", A, "system of make", "" },
	{ "python3 -c \"from subprocess import run; run(['rm', '-rf', '/'])\"", D,
	  "from subprocess import run", "root" },
	{ "python3 -c \"from subprocess import run; run(['pytest', '-q'])\"", A, "run of pytest",
	  "" },
	{ "python3 -c \"import subprocess as sp; sp.call('rm -rf ~', shell=True)\"", D,
	  "import subprocess as sp", "home" },
	{ "python3 -c \"import os; r = os.system; r('rm -rf ~')\"", D, "a call kept in a name",
	  "home" },
	{ "python3 -c \"import os as o; r = o.system; r('rm -rf /')\"", D, "an alias of an alias",
	  "root" },
	{ "python3 -c \"import shutil as s, sys; s.rmtree(sys.argv[1])\" x", Q,
	  "an alias's value not read", "shutil.rmtree" },
	/* __import__('M').x is M.x, as require('M').x is (issue 33) */
	{ "python3 -c \"__import__('shutil').rmtree('/')\"", D, "__import__ of shutil", "root" },
	{ "python3 -c \"__import__('os').system('rm -rf ~')\"", D, "__import__ of os", "home" },
	{ "python3 -c \"__import__('shutil').rmtree('build')\"", A, "a build directory", "" },
	{ "python3 -c \"print(__import__('os').getcwd())\"", A, "nothing removed", "" },
	/* Path('~/x').expanduser() is the home's x, as a value and as a
	 * receiver (issue 33) */
	{ "python3 -c \"import pathlib; pathlib.Path('~/.bashrc').expanduser().write_text('')\"", D,
	  "a dotfile written over", "~/.bashrc" },
	{ "python3 -c \"from pathlib import Path; Path('~/.ssh/id_rsa').expanduser().unlink()\"", D,
	  "a key removed", "~/.ssh/id_rsa" },
	{ "python3 -c \"import shutil; shutil.rmtree(Path('~/.config').expanduser())\"", D,
	  "an argument", "~/.config" },
	{ "python3 -c \"from pathlib import Path; Path('~/notes.txt').expanduser().write_text('x')\"",
	  A, "a file of home that is no dotfile", "" },
	{ "python3 -c \"x.expanduser().unlink()\"", Q, "a receiver not read", "unlink" },
	/* X.joinpath(A, B) is X's A/B, chained before a call on it too */
	{ "python3 -c \"import pathlib; pathlib.Path.home().joinpath('.bashrc').write_text('')\"",
	  D, "a dotfile joined to the home, written over", "~/.bashrc" },
	{ "python3 -c \"import shutil; from pathlib import Path; "
	  "shutil.rmtree(Path.home().joinpath('.ssh'))\"",
	  D, "keys joined to the home, removed", "~/.ssh" },
	{ "python3 -c \"from pathlib import Path; Path('build').joinpath('out.txt').write_text('x')\"",
	  A, "a file of the project joined", "" },
	{ "python3 -c \"import pathlib; pathlib.Path.home().joinpath('.cache', 'x').write_text('')\"",
	  A, "a cache's file joined to the home", "" },
	{ "node -e \"const {rmSync: r} = require('fs'); r(require('os').homedir(), {recursive: "
	  "true})\"",
	  D, "a renamed member of require", "home" },
	{ "node -e \"const f = require('fs'); f.rmSync(process.env.HOME, {recursive:true})\"", D,
	  "require kept in a name", "home" },
	{ "node -e \"const f = require('fs'); f.rmSync('dist', {recursive:true, force:true})\"", A,
	  "clean script through a name", "" },
	{ "node --input-type=module -e \"import {rmSync as r} from 'node:fs'; r('/', {recursive: "
	  "true})\"",
	  D, "import as", "root" },
	{ "node --input-type=module -e \"import * as f from 'fs'; f.rmSync('/', {recursive:true})\"",
	  D, "import * as", "root" },
	{ "node -e \"const {execSync: x} = require('child_process'); x('rm -rf ~')\"", D,
	  "execSync renamed", "home" },
	{ "node -e \"const {execSync: x} = require('child_process'); x('npm test')\"", A,
	  "execSync of npm test", "" },
	{ "node -e \"const cp = require('node:child_process'); cp.spawnSync('git', ['push', '-f'])\"",
	  D, "child_process kept in a name", "" },
	{ "perl -MFile::Path=remove_tree -e 'remove_tree($ENV{HOME})'", D,
	  "-MFile::Path=", "home" },
	{ "perl -e 'use File::Path qw(remove_tree); remove_tree(\"build\")'", A,
	  "remove_tree of build", "" },
	{ "ruby -rfileutils -e 'include FileUtils; rm_rf Dir.home'", D, "include FileUtils",
	  "home" },
	{ "ruby -rfileutils -e 'include FileUtils; rm_rf \"tmp/cache\"'", A,
	  "include FileUtils, a cache", "" },
	/* --- runners in front of interpreters (issue 33) */
	{ "uv run python -c \"import shutil; shutil.rmtree('/')\"", D, "uv run", "root" },
	{ "uv run --with rich python -c 'print(1)'", A, "uv run --with", "" },
	{ "poetry run python -c \"import os; os.system('rm -rf ~')\"", D, "poetry run", "home" },
	{ "poetry run pytest -q", A, "poetry run pytest", "" },
	{ "pipenv run python -c \"import shutil, os; shutil.rmtree(os.environ['HOME'])\"", D,
	  "pipenv run", "home" },
	{ "pipenv run python manage.py migrate", A, "pipenv run a script", "" },
	{ "conda run -n base python -c \"import shutil; shutil.rmtree('/')\"", D, "conda run",
	  "root" },
	{ "uv pip install requests", A, "uv pip is no runner", "" },
	{ "bun -e \"require('fs').rmSync(process.env.HOME, {recursive:true})\"", D, "bun -e",
	  "home" },
	{ "bun -e 'console.log(1)'", A, "bun -e printing", "" },
	{ "bun x rimraf ~", D, "bun x", "home" },
	{ "deno eval \"Deno.removeSync(Deno.env.get('HOME'), {recursive: true})\"", D, "deno eval",
	  "home" },
	{ "deno eval 'console.log(Deno.version)'", A, "deno eval printing", "" },
	{ "npx node -e \"require('fs').rmSync('/', {recursive:true})\"", D, "npx node -e", "root" },
	{ "npm exec -- rimraf ~", D, "npm exec", "home" },
	{ "pnpm dlx rimraf dist", A, "pnpm dlx of a build folder", "" },
	{ "timeout 10 python3 -c \"import shutil; shutil.rmtree('/')\"", D, "timeout", "root" },
	{ "nice -n 5 node -e \"require('fs').rmSync('/', {recursive:true})\"", D, "nice", "root" },
	{ "env -S \"python3 -c 'import os; os.system(\\\"rm -rf ~\\\")'\"", D, "env -S", "home" },
	{ "python3 -X dev -c \"import shutil; shutil.rmtree('/')\"", D, "python -X before -c",
	  "root" },
	/* --- a path joined from the home and a name (+, .., ., path.join,
	 * os.path.join, joinpath, file.path, awk's side by side) */
	{ "node -e \"require('fs').writeFileSync(require('os').homedir()+'/.bashrc','')\"", D,
	  "homedir() + a name", "dotfile" },
	{ "node -e \"require('fs').writeFileSync(require('os').homedir()+'.bak','')\"", A,
	  "homedir() and a name with no /: another path (/root.bak)", "" },
	{ "node -e \"require('fs').rmSync(require('path').resolve('/tmp', require('os').homedir()),"
	  "{recursive:true})\"",
	  D, "path.resolve starts again at the home", "home" },
	{ "python3 -c \"import os; os.remove(os.path.join('/tmp', '/home/x/.ssh/id_rsa'))\"", D,
	  "os.path.join starts again at /", "" },
	{ "python3 -c \"import os; os.remove(os.path.join(os.path.expanduser('~'), 'notes.txt'))\"",
	  A, "a plain file of the home", "" },
	{ "awk 'BEGIN{print \"\" > ENVIRON[\"HOME\"] \"/.profile\"}'", D, "awk side by side",
	  "dotfile" },
	{ "awk '{print > ENVIRON[\"HOME\"] \"/notes/\" $1}' list", A, "awk: a name not known", "" },
	/* --- lua, R, julia */
	{ "lua5.4 -e 'os.execute(\"rm -rf /\")'", D, "lua5.4 -e", "root" },
	{ "lua <<'EOF'\nos.execute('rm -rf ~')\nEOF", D, "lua on a heredoc", "home" },
	{ "lua -l socket -e 'os.remove(arg[1])' x", Q, "os.remove of a value not read",
	  "os.remove" },
	{ "lua script.lua", A, "a script file is not read", "" },
	{ "luajit -e 'io.popen(\"ls\"):read(\"*a\")'", A, "io.popen of ls", "" },
	{ "R --vanilla <<'EOF'\nunlink('~', recursive = TRUE)\nEOF", D, "R on a heredoc", "home" },
	{ "R CMD build .", A, "R CMD: no code", "" },
	{ "Rscript -e 'unlink(\"~/.bashrc\")'", D, "unlink without recursive: a file, ~ expanded",
	  "dotfile" },
	{ "Rscript -e 'system2(\"rm\", c(\"-rf\", \"/\"))'", D, "system2 with c(...)", "root" },
	{ "Rscript -e 'system2(\"git\", c(\"status\"))'", A, "system2 of git status", "" },
	{ "Rscript -e 'file.create(path.expand(\"~/.gitconfig\"))'", D,
	  "file.create empties a file", "" },
	{ "Rscript -e 'x <- list.files(); unlink(x)'", Q, "unlink of a value not read", "unlink" },
	{ "julia -t 4 -e 'rm(homedir(), recursive=true)'", D, "julia -t N -e", "home" },
	{ "julia --eval='run(`rm -rf /`)'", D, "--eval= and a backquoted command", "root" },
	{ "julia -e 'run(`make test`)'", A, "a backquoted make", "" },
	{ "julia -e 'rm(\"~\"; recursive=true)'", A,
	  "julia's rm does not expand ~: a folder named ~", "" },
	/* --- shells fed the same way (already nested shells) */
	{ "bash <<EOF\nrm -rf ~\nEOF", D, "bash on a heredoc", "home" },
	{ "sh <<< 'rm -rf /'", D, "sh on a here-string", "root" },
};

ParameterizedTestParameters(interp, built_in_defaults)
{
	return cr_make_param_array(struct icase, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct icase *c, interp, built_in_defaults, .timeout = 30)
{
	struct broker_config *cfg = ptu_config("", false);
	struct policy_chain *chain = NULL;
	struct sluice_error err = { 0 };
	cr_assert_eq(policy_chain_new(cfg, &chain, &err), 0, "%s", err.detail);
	struct verdict v;
	cr_assert_eq(ptu_decide(chain, c->command, &v, NULL), 0);
	const char *first = v.n_reasons ? v.reasons[0].message : "";
	cr_expect_eq((int)v.kind, c->verdict, "[%s] (%s): got %s: %s", c->command, c->why,
	             verdict_kind_name(v.kind), first);
	if (c->reason[0]) {
		bool found = false;
		for (size_t i = 0; i < v.n_reasons; i++)
			found |= strstr(v.reasons[i].message, c->reason) != NULL;
		cr_expect(found, "[%s] (%s): no reason says '%s' (first: %s)", c->command, c->why,
		          c->reason, first);
	}
	verdict_done(&v);
	policy_chain_free(chain);
	config_free(cfg);
}

Test(interp, table_holds_dangerous_and_benign_rows)
{
	size_t n = sizeof(cases) / sizeof(cases[0]), allowed = 0;
	for (size_t i = 0; i < n; i++)
		allowed += cases[i].verdict == A;
	cr_assert_geq(n, 80, "the table must hold 80 rows");
	cr_assert(allowed >= n / 3 && allowed <= 2 * n / 3,
	          "dangerous and benign rows side by side: %zu of %zu allowed", allowed, n);
}
