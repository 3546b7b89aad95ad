/* SPDX-License-Identifier: MIT */
/*
 * The command model, table-driven: each row is a command and the model it
 * must give (tests/unit/model-render.h explains the one-line rendering),
 * then focused tests for redirections, variables, text, limits and the
 * accessors' edges. The rows are the model's specification.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cleanup.h"
#include "model/command-model.h"
#include "model-render.h"
#include "model/model-state.h"
#include "shell/shell-parse.h"
#include "util/strbuf.h"

/* Rendering: one line per simple command, "FRAMES: {ASSIGNS} (WRAPPER)...
 * ARGV #FLAGS @CWD". Frames: L list, P pipeline, S subshell, G group, I if,
 * W loop, C case, F function, $ command substitution, < process substitution,
 * N nested shell, R redirected compound, ? condition, X find -exec. Word
 * flags after ^: P param, T tilde, G glob, C command subst, S process subst,
 * A arithmetic, B brace, U unknown. Command flags after #: D name dynamic,
 * I argv incomplete, X partial, N negated, B background, U cwd unknown,
 * Y nested script dynamic, Z nested not parsed, O unknown wrapper option,
 * F function call, L a shell whose language is not bash's. Words with blanks
 * are in <>. */
struct model_case {
	const char *command;
	const char *model;
};

static const struct model_case cases[] = {
	{ "git status", "git status" },
	{ "git push --force origin main", "git push --force origin main" },
	{ "'g'it push -f", "git push -f" },
	{ "\"git\" \"push\"", "git push" },
	{ "g\\it st\\atus", "git status" },
	{ "r\"m\" -rf /", "rm -rf /" },
	{ "$'\\x72m' -rf /tmp/x", "rm -rf /tmp/x" },
	{ "$'a\\nb' $'\\t' $'\\u00e9' $'\\101\\102' $'\\cA'", "<a\nb> <\t> é AB \001" },
	{ "echo \"a $HOME b\"", "echo <a $HOME b>^P" },
	{ "echo \"$HOME\"/x ${HOME}/y $HOME", "echo $HOME/x^P ${HOME}/y^P $HOME^P" },
	{ "echo ${X:-default} ${#X} ${X/a/b}", "echo ${X:-default}^P ${#X}^P ${X/a/b}^P" },
	{ "echo $1 $@ $? $$ \"$*\"", "echo $1^P $@^P $?^P $$^P $*^P" },
	{ "echo ~ ~/x ~root x~ \"~\" '~'", "echo ~^T ~/x^T ~root^T x~ ~ ~" },
	{ "echo *.c '*.c' \"*.c\" \\*.c a?b [ab]c", "echo *.c^G *.c *.c *.c a?b^G [ab]c^G" },
	/* brace expansion: each word as bash expands it; quoted braces stay */
	{ "echo {a,b} {1..3} '{a,b}' x{y}z", "echo a b 1 2 3 {a,b} x{y}z" },
	{ "echo $((1+2)) \"$((3*4))\"", "echo $((1+2))^A $((3*4))^A" },
	{ "echo $(date) `date` \"$(date)\" \"`date`\"",
	  "echo $(date)^C `date`^C $(date)^C `date`^C\n$: date\n$: date\n$: date\n$: date" },
	{ "cat <(ls) >(wc -l)", "cat <(ls)^S <>(wc -l)>^S\n<: ls\n<: wc -l" },
	{ "diff <(sort a) <(sort b)", "diff <<(sort a)>^S <<(sort b)>^S\n<: sort a\n<: sort b" },
	{ "echo $(echo $(echo deep))",
	  "echo <$(echo $(echo deep))>^C\n$: echo <$(echo deep)>^C\n$>$: echo deep" },
	{ "ls -la | grep foo | wc -l", "P: ls -la\nP: grep foo\nP: wc -l" },
	{ "ls |& cat", "P: ls\nP: cat" },
	{ "a && b || c", "L: a\nL: b\nL: c" },
	{ "a; b; c", "a\nb\nc" },
	{ "a & b", "a #B\nb" },
	{ "(cd /tmp && rm -rf x)", "S>L: cd /tmp\nS>L: rm -rf x @/tmp" },
	{ "{ cd /tmp; rm x; }", "G: cd /tmp\nG: rm x @/tmp" },
	{ "{ a; b; } > /dev/null", "R>G: a\nR>G: b" },
	{ "( a; b ) 2>/dev/null", "R>S: a\nR>S: b" },
	{ "a && b > f", "L: a\nL: b" },
	{ "a | b > f", "P: a\nP: b" },
	{ "if true; then rm a; else rm b; fi", "I>?: true\nI: rm a\nI: rm b" },
	{ "if [ -f x ]; then echo yes; elif test -d y; then echo dir; fi",
	  "I: echo yes\nI>?: test -d y\nI: echo dir" },
	{ "while read l; do echo \"$l\"; done < f", "R>W>?: read l\nR>W: echo $l^P" },
	{ "until false; do sleep 1; done", "W>?: false\nW: sleep 1" },
	{ "for f in *.txt; do rm \"$f\"; done", "W: rm $f^P\nW: rm *.txt^G" },
	{ "for ((i=0; i<3; i++)); do echo $i; done", "W: echo $i^P" },
	{ "case $x in a) rm a;; b|c) rm b;; *) ls;; esac", "C: rm a\nC: rm b\nC: ls" },
	{ "f() { rm -rf /; }; f", "F>G: rm -rf / #U\nf #F\nF>G: rm -rf /" },
	{ "function g { git push -f; }", "F>G: git push -f #U" },
	{ "! grep -q x f", "grep -q x f #N" },
	{ "sleep 10 &", "sleep 10 #B" },
	{ "echo a # comment rm -rf /", "echo a" },
	{ "# only a comment", "" },
	{ "echo a \\\n  b \\\n  c", "echo a b c" },
	{ "ls \\\n| wc", "P: ls\nP: wc" },
	{ "cat <<EOF\nhello $USER\nEOF", "cat" },
	{ "cat <<'EOF'\nliteral $(rm -rf /)\nEOF", "cat" },
	{ "cat <<EOF\n$(rm -rf /)\nEOF", "cat\n$: rm -rf /" },
	{ "bash -c 'rm -rf /'", "bash -c <rm -rf />\nN: rm -rf /" },
	{ "sh -c \"git push --force\"", "sh -c <git push --force>\nN: git push --force" },
	{ "dash -c 'a | b'", "dash -c <a | b>\nN>P: a\nN>P: b" },
	{ "zsh -c 'sudo rm -rf ~'", "zsh -c <sudo rm -rf ~>\nN: (sudo) rm -rf ~^T" },
	{ "bash -lc 'echo hi'", "bash -lc <echo hi>\nN: echo hi" },
	{ "bash -ec 'cd /tmp && rm x'",
	  "bash -ec <cd /tmp && rm x>\nN>L: cd /tmp\nN>L: rm x @/tmp" },
	{ "bash -o pipefail -c 'a | b'", "bash -o pipefail -c <a | b>\nN>P: a\nN>P: b" },
	{ "bash script.sh arg", "bash script.sh arg" },
	{ "bash -c \"$CMD\"", "bash -c $CMD^P #Y" },
	{ "bash -c 'bash -c \"rm -rf /\"'",
	  "bash -c <bash -c \"rm -rf /\">\nN: bash -c <rm -rf />\nN>N: rm -rf /" },
	{ "eval 'rm -rf /'", "eval <rm -rf />\nN: rm -rf /" },
	{ "eval \"git push -f\"", "eval <git push -f>\nN: git push -f" },
	{ "eval $X", "eval $X^P #Y" },
	{ "bash <<< 'rm -rf /'", "bash\nN: rm -rf /" },
	{ "sh <<EOF\ngit push --force\nEOF", "sh\nN: git push --force" },
	{ "bash <<'EOF'\ncd / && rm -rf *\nEOF", "bash\nN>L: cd /\nN>L: rm -rf *^G @/" },
	{ "curl http://x | sh", "P: curl http://x\nP: sh #Y" },
	{ "curl http://x | bash -s", "P: curl http://x\nP: bash -s #Y" },
	{ "echo \"$(bash -c 'rm -rf /')\"",
	  "echo <$(bash -c 'rm -rf /')>^C\n$: bash -c <rm -rf />\n$>N: rm -rf /" },
	{ "x=$(sudo rm -rf /)", "{x=<$(sudo rm -rf /)>^C}\n$: (sudo) rm -rf /" },
	{ "sudo rm -rf /", "(sudo) rm -rf /" },
	{ "sudo -u root rm -rf /", "(sudo -u root) rm -rf /" },
	{ "sudo -u root -g wheel -E rm x", "(sudo -u root -g wheel -E) rm x" },
	{ "sudo --user=root rm x", "(sudo --user=root) rm x" },
	{ "sudo -i", "sudo -i" },
	{ "sudo -l rm", "sudo -l rm" },
	{ "sudo VAR=1 make install", "{VAR=1} (sudo VAR=1) make install" },
	{ "doas rm -rf /", "(doas) rm -rf /" },
	{ "doas -u bob ls", "(doas -u bob) ls" },
	{ "env rm x", "(env) rm x" },
	{ "env -i A=1 B=2 rm x", "{A=1 B=2} (env -i A=1 B=2) rm x" },
	{ "env -u HOME -i rm x", "(env -u HOME -i) rm x" },
	{ "env -C /tmp rm -rf x", "(env -C /tmp) rm -rf x @/tmp" },
	{ "env --chdir=/tmp ls", "(env --chdir=/tmp) ls @/tmp" },
	{ "env -S 'rm -rf /'", "env -S <rm -rf />\nN: (env -S) rm -rf /" },
	{ "env", "env" },
	{ "command rm x", "(command) rm x" },
	{ "command -v rm", "command -v rm" },
	{ "command -p ls", "(command -p) ls" },
	{ "builtin cd /tmp", "(builtin) cd /tmp" },
	{ "exec rm x", "(exec) rm x" },
	{ "exec -a name ls", "(exec -a name) ls" },
	{ "nohup rm -rf / &", "(nohup) rm -rf / #B" },
	{ "nice rm x", "(nice) rm x" },
	{ "nice -n 5 rm x", "(nice -n 5) rm x" },
	{ "nice -10 rm x", "(nice -10) rm x" },
	{ "nice --adjustment=3 ls", "(nice --adjustment=3) ls" },
	{ "ionice -c 3 rm x", "(ionice -c 3) rm x" },
	{ "ionice -c2 -n7 ls", "(ionice -c2 -n7) ls" },
	{ "ionice -p 123", "ionice -p 123" },
	{ "time rm x", "(time) rm x" },
	{ "time -p ls", "(time -p) ls" },
	{ "timeout 5 rm x", "(timeout 5) rm x" },
	{ "timeout -s KILL 5 rm x", "(timeout -s KILL 5) rm x" },
	{ "timeout --signal=TERM -k 1 10s ls", "(timeout --signal=TERM -k 1 10s) ls" },
	{ "stdbuf -oL grep x", "(stdbuf -oL) grep x" },
	{ "stdbuf -o L -e 0 ls", "(stdbuf -o L -e 0) ls" },
	{ "xargs rm", "(xargs) rm #I" },
	{ "xargs -0 rm -f", "(xargs -0) rm -f #I" },
	{ "find . -name '*.o' | xargs -n 1 -P 4 rm",
	  "P: find . -name *.o\nP: (xargs -n 1 -P 4) rm #I" },
	{ "xargs -I{} rm {}", "(xargs -I{}) rm {} #I" },
	{ "xargs sh -c 'rm \"$@\"' _", "(xargs) sh -c <rm \"$@\"> _ #I\nN: (xargs) rm $@^P" },
	{ "find . -name '*.tmp' -exec rm {} \\;",
	  "find . -name *.tmp -exec rm {} ;\nX: (find . -name *.tmp) rm {} #I" },
	{ "find . -exec rm -rf {} +", "find . -exec rm -rf {} +\nX: (find .) rm -rf {} #I" },
	{ "find / -type f -execdir sh -c 'rm \"$1\"' _ {} \\;",
	  "find / -type f -execdir sh -c <rm \"$1\"> _ {} ;\nX: (find / -type f) sh -c <rm \"$1\"> _ {} #I\nX>N: (find / -type f) rm $1^P" },
	{ "find . -ok rm {} \\;", "find . -ok rm {} ;\nX: (find .) rm {} #I" },
	{ "find . -delete", "find . -delete" },
	{ "find . -name x -exec echo {} \\; -exec rm {} \\;",
	  "find . -name x -exec echo {} ; -exec rm {} ;\nX: (find . -name x) echo {} #I\nX: (find . -name x) rm {} #I" },
	{ "watch ls", "watch ls\nN: (watch) ls" },
	{ "watch -n 1 'git status; rm x'",
	  "watch -n 1 <git status; rm x>\nN: (watch -n 1) git status\nN: (watch -n 1) rm x" },
	{ "watch -x rm x", "(watch -x) rm x" },
	{ "busybox rm -rf /", "(busybox) rm -rf /" },
	{ "busybox sh -c 'rm x'", "(busybox) sh -c <rm x>\nN: (busybox) rm x" },
	{ "busybox --list", "busybox --list" },
	{ "toybox rm -rf /", "(toybox) rm -rf /" },
	{ "npx -y -p rimraf rimraf dist", "(npx -y -p rimraf) rimraf dist" },
	{ "npx --version", "npx --version" },
	/* --no-install: npm 7's name for --no, still taken (a real day's
	 * `npx --no-install tsc` was asked about as a guess) */
	{ "npx --no-install tsc --noEmit", "(npx --no-install) tsc --noEmit" },
	{ "bunx --bun vite build", "(bunx --bun) vite build" },
	{ "chroot /mnt rm -rf /", "(chroot /mnt) rm -rf /" },
	{ "chroot --userspec=1:1 /mnt ls", "(chroot --userspec=1:1 /mnt) ls" },
	{ "chroot /mnt", "chroot /mnt" },
	{ "flock /tmp/lock git push -f", "(flock /tmp/lock) git push -f" },
	{ "flock -n -w 5 /tmp/lock make", "(flock -n -w 5 /tmp/lock) make" },
	{ "flock /tmp/lock -c 'rm x; ls'",
	  "flock /tmp/lock -c <rm x; ls>\nN: (flock /tmp/lock -c) rm x\nN: (flock /tmp/lock -c) ls" },
	{ "flock 9", "flock 9" },
	{ "unbuffer -p git add .", "(unbuffer -p) git add ." },
	{ "strace -f -o log rm x", "(strace -f -o log) rm x" },
	{ "strace -p 42", "strace -p 42" },
	{ "ltrace -o out rm x", "(ltrace -o out) rm x" },
	{ "parallel -j 4 gzip ::: a b",
	  "parallel -j 4 gzip ::: a b\nN: (parallel -j 4) gzip ::: a b" },
	{ "script -qc 'git push -f' /dev/null",
	  "script -qc <git push -f> /dev/null\nN: (script -qc) git push -f" },
	{ "script --command='rm x' out", "script <--command=rm x> out\nN: (script) rm x" },
	{ "script out.log", "script out.log" },
	{ "script log -c 'rm x'", "script log -c <rm x>\nN: (script log -c) rm x" },
	{ "script --comm='rm x' f", "script <--comm=rm x> f\nN: (script) rm x" },
	{ "env --split-string='rm x'", "env <--split-string=rm x>\nN: (env) rm x" },
	{ "sudo --us=root rm x", "(sudo --us=root) rm x" },
	{ "su --session-command='rm x' root", "su <--session-command=rm x> root\nN: (su) rm x" },
	{ "su -lc 'rm x'", "su -lc <rm x>\nN: (su) rm x" },
	{ "su -c'rm x'", "su <-crm x>\nN: (su) rm x" },
	{ "su root -c 'rm x'", "su root -c <rm x>\nN: (su root) rm x" },
	{ "source -- <(curl x)", "source -- <<(curl x)>^S #Y\n<: curl x #U" },
	{ "bash < <(curl x)", "bash #Y\n<: curl x" },
	{ "bash /dev/stdin < <(curl x)", "bash /dev/stdin #Y\n<: curl x" },
	{ "bash 0< <(curl x)", "bash #Y\n<: curl x" },
	{ "cat 0<f", "cat" },
	{ "trap 'rm -rf /tmp/x' EXIT", "trap <rm -rf /tmp/x> EXIT\nN: rm -rf /tmp/x" },
	{ "trap -- 'git push -f' INT TERM", "trap -- <git push -f> INT TERM\nN: git push -f" },
	{ "trap - INT", "trap - INT" },
	{ "trap '' HUP", "trap <> HUP" },
	{ "trap -p", "trap -p" },
	{ "alias x='rm -rf ~' y=ls", "alias <x=rm -rf ~> y=ls\nN: rm -rf ~^T\nN: ls" },
	{ "bash <(curl -s x)", "bash <<(curl -s x)>^S #Y\n<: curl -s x" },
	{ "source <(curl x)", "source <<(curl x)>^S #Y\n<: curl x #U" },
	{ "bash ./script.sh", "bash ./script.sh" },
	{ "sh -c 'rm -rf \"$1\"' _ /", "sh -c <rm -rf \"$1\"> _ /\nN: rm -rf /" },
	{ "sh -c 'echo $0 $2' a b \"$X\"", "sh -c <echo $0 $2> a b $X^P\nN: echo a $2^P" },
	{ "xargs -I% sh -c 'rm \"$1\"' _ %",
	  "(xargs -I%) sh -c <rm \"$1\"> _ % #I\nN: (xargs -I%) rm $1^P" },
	{ "su --command='rm -rf /' root", "su <--command=rm -rf /> root\nN: (su) rm -rf /" },
	{ "sudo env A=1 nice -n 5 timeout 10 rm -rf /",
	  "{A=1} (sudo) (env A=1) (nice -n 5) (timeout 10) rm -rf /" },
	{ "sudo -u root timeout -s KILL 5 nohup stdbuf -oL rm x",
	  "(sudo -u root) (timeout -s KILL 5) (nohup) (stdbuf -oL) rm x" },
	{ "time sudo rm x", "(time) (sudo) rm x" },
	{ "sudo sh -c 'cd / && rm -rf *'",
	  "(sudo) sh -c <cd / && rm -rf *>\nN>L: (sudo) cd /\nN>L: (sudo) rm -rf *^G @/" },
	{ "sudo bash -c \"git push -f\"", "(sudo) bash -c <git push -f>\nN: (sudo) git push -f" },
	{ "nohup bash -c 'rm x' &", "(nohup) bash -c <rm x> #B\nN: (nohup) rm x" },
	{ "xargs -0 sudo rm", "(xargs -0) (sudo) rm #I" },
	{ "G=git; $G push -f", "{G=git}\ngit push -f" },
	{ "S=sudo; $S rm -rf /", "{S=sudo}\n(sudo) rm -rf /" },
	{ "C=\"rm -rf\"; $C /", "{C=<rm -rf>}\nrm -rf /" },
	{ "G=git; \"$G\" push", "{G=git}\ngit push" },
	{ "G=git && $G push", "L: {G=git}\nL: git push" },
	{ "G=git; G=ls; $G", "{G=git}\n{G=ls}\nls" },
	{ "G=git; unset G; $G push", "{G=git}\nunset G\n$G^P push #D" },
	{ "G=git; true || G=rm; $G x", "{G=git}\nL: true\nL: {G=rm}\n$G^P x #D" },
	{ "G=git; if x; then G=rm; fi; $G x", "{G=git}\nI>?: x\nI: {G=rm}\n$G^P x #D" },
	{ "G=git; (G=rm); $G x", "{G=git}\nS: {G=rm}\ngit x" },
	{ "G=git; bash -c '$G push'", "{G=git}\nbash -c <$G push>\nN: $G^P push #D" },
	{ "G=git; export G; $G push", "{G=git}\nexport G\ngit push" },
	{ "export G=git; $G push", "export G=git\ngit push" },
	{ "local G=git; $G", "local G=git\ngit" },
	{ "declare -x A=1", "declare -x A=1" },
	{ "readonly R=1", "readonly R=1" },
	{ "G=$(which git); $G push", "{G=<$(which git)>^C}\n$: which git\n$G^P push #D" },
	{ "$CMD args", "$CMD^P args #D" },
	{ "\"$(which rm)\" -rf /", "<$(which rm)>^C -rf / #D\n$: which rm" },
	{ "$(echo rm) x", "<$(echo rm)>^C x #D\n$: echo rm" },
	{ "*.sh", "*.sh^G #D" },
	{ "~/bin/tool", "~/bin/tool^T #D" },
	{ "./script.sh", "./script.sh" },
	{ "/usr/bin/git push -f", "/usr/bin/git push -f" },
	{ "/bin/rm -rf /", "/bin/rm -rf /" },
	{ "cd ~ && rm -rf *", "L: cd ~^T\nL: rm -rf *^G @~" },
	{ "cd /tmp; rm x", "cd /tmp\nrm x @/tmp" },
	{ "cd a && cd b && ls", "L: cd a\nL: cd b @a\nL: ls @a/b" },
	{ "cd /x && cd y && pwd", "L: cd /x\nL: cd y @/x\nL: pwd @/x/y" },
	{ "cd $HOME && ls", "L: cd $HOME^P\nL: ls @~" },
	{ "cd \"$DIR\" && rm -rf *", "L: cd $DIR^P\nL: rm -rf *^G #U" },
	{ "cd - && ls", "L: cd -\nL: ls #U" },
	{ "cd && ls", "L: cd\nL: ls @~" },
	{ "cd .. && ls", "L: cd ..\nL: ls @.." },
	{ "cd /tmp || exit 1; rm x", "L: cd /tmp\nL: exit 1 #U\nrm x @/tmp" },
	{ "cd /tmp || echo fail", "L: cd /tmp\nL: echo fail #U" },
	{ "(cd /tmp); rm x", "S: cd /tmp\nrm x" },
	{ "cd /tmp | cat; ls", "P: cd /tmp\nP: cat\nls" },
	{ "pushd /tmp && ls", "L: pushd /tmp\nL: ls @/tmp" },
	{ "cd /a && ls; ls", "L: cd /a\nL: ls @/a\nls @/a" },
	{ "cd /a && { cd b; ls; }; ls", "L: cd /a\nL>G: cd b @/a\nL>G: ls @/a/b\nls @/a/b" },
	{ "echo $(cd /tmp && ls); ls",
	  "echo <$(cd /tmp && ls)>^C\n$>L: cd /tmp\n$>L: ls @/tmp\nls" },
	{ "A=1 B=2 cmd", "{A=1 B=2} cmd" },
	{ "A=1 ls", "{A=1} ls" },
	{ "A=\"x y\" B='z' cmd", "{A=<x y> B=z} cmd" },
	{ "PATH=/x:$PATH ls", "{PATH=/x:$PATH^P} ls" },
	{ "arr=(a b c)", "{arr=<(a b c)>^U}" },
	{ "x+=y", "{x=y}" },
	{ "FOO=$(id) ls", "{FOO=$(id)^C} ls\n$: id" },
	{ "ls > out.txt", "ls" },
	{ "ls >> out.txt", "ls" },
	{ "ls 2> err.txt", "ls" },
	{ "ls 2>&1", "ls" },
	{ "ls &> all.txt", "ls" },
	{ "ls &>> all.txt", "ls" },
	{ "cat < in.txt", "cat" },
	{ "ls >| f", "ls" },
	{ "exec 3<> /dev/tcp/x/80", "exec" },
	{ "ls > \"$OUT\"", "ls" },
	{ "ls > ~/x", "ls" },
	{ "echo x > /dev/sda", "echo x" },
	{ "dd if=/dev/zero of=/dev/sda", "dd if=/dev/zero of=/dev/sda" },
	{ "cat <<< \"here $x\"", "cat" },
	{ "tr a b <<< hi", "tr a b" },
	{ "echo héllo wörld", "echo héllo wörld" },
	{ "echo \"ünïcödé\" 'ß'", "echo ünïcödé ß" },
	{ "echo 日本語 && ls 目录", "L: echo 日本語\nL: ls 目录" },
	{ "rm -rf -- -x", "rm -rf -- -x" },
	{ "rm -rf \"a b\" 'c d'", "rm -rf <a b> <c d>" },
	{ "git commit -m \"msg with $(rm -rf /) inside\"",
	  "git commit -m <msg with $(rm -rf /) inside>^C\n$: rm -rf /" },
	{ "git commit -m 'msg with $(rm -rf /) literal'",
	  "git commit -m <msg with $(rm -rf /) literal>" },
	{ "echo \"a\"'b'c\"d\"", "echo abcd" },
	{ "echo a\"$x\"b", "echo a$xb^P" },
	{ "echo ''", "echo <>" },
	{ "echo \"\"", "echo <>" },
	{ "printf '%s\\n' a b", "printf %s\\n a b" },
	{ "echo \\$HOME", "echo $HOME" },
	{ "echo \"\\$HOME\"", "echo $HOME" },
	{ "echo \"a\\\"b\"", "echo a\"b" },
	{ "echo 'it'\\''s'", "echo it's" },
	{ "echo x\\ y", "echo <x y>" },
	{ "git add -A && git commit -m x && git push -f",
	  "L: git add -A\nL: git commit -m x\nL: git push -f" },
	{ "git -C sub push --force", "git -C sub push --force" },
	{ "make -j2 && make check", "L: make -j2\nL: make check" },
	{ "npm install && npm test", "L: npm install\nL: npm test" },
	/* an interpreter's code: what it removes, writes or hands to a shell
	 * is a nested shell's command under the interpreter's words */
	{ "python3 -c 'import os; os.system(\"rm -rf /\")'",
	  "python3 -c <import os; os.system(\"rm -rf /\")>\nN: (python3 -c) rm -rf /" },
	{ "perl -e 'print 1'", "perl -e <print 1>" },
	{ "python3 -uc \"import shutil; shutil.rmtree('a b')\"",
	  "python3 -uc <import shutil; shutil.rmtree('a b')>\nN: (python3 -uc) rm -rf -- <a b>" },
	{ "node -e \"require('fs').writeFileSync('o.json', s)\"",
	  "node -e <require('fs').writeFileSync('o.json', s)>\nN: (node -e) :" },
	{ "perl -pi -e 's/a/b/' *.c", "perl -pi -e s/a/b/ *.c^G\nN: (perl -pi -e) :" },
	{ "ruby -e 'FileUtils.rm_r Dir.home'",
	  "ruby -e <FileUtils.rm_r Dir.home>\nN: (ruby -e) rm -rf -- ~^T" },
	{ "awk '{ \"date\" | getline d }' f", "awk <{ \"date\" | getline d }> f\nN: (awk) date" },
	{ "python3 - <<'EOF'\nimport subprocess\nsubprocess.run(['rm', '-r', 'x'])\nEOF",
	  "python3 -\nN: (python3 -) rm -r x" },
	{ "ssh host 'rm -rf /'", "ssh host <rm -rf />" },
	{ "[ -f x ] && rm x", "L: rm x" },
	{ "[[ -n $x ]] || exit", "L: exit" },
	{ "(( x > 1 )) && echo big", "L: echo big" },
	{ "test -d x", "test -d x" },
	{ "true", "true" },
	{ ":", ":" },
	{ "f() { :; }", "F>G: : #U" },
	{ "if then fi (", "!partial\nthen fi #X" },
	{ "echo \"unterminated", "!partial\necho" },
	{ "rm -rf / 'x", "!partial\nrm -rf /" },
	{ "echo $(", "!partial\necho" },
	{ "for x in; do", "!partial\n" },
	{ "a &&", "!partial\nL: a\nL: <> #X" },
	{ "| b", "!partial\nb" },
	{ "a || || b", "!partial\nL: a\nL: b" },
	{ "echo ${", "!partial\necho" },
	{ "{ a", "!partial\n" },
	{ "rm -rf / &&& ls", "!partial\nL: rm -rf /\nL: ls" },
	{ "echo \"$(sudo bash -c 'nice rm -rf /')\"",
	  "echo <$(sudo bash -c 'nice rm -rf /')>^C\n$: (sudo) bash -c <nice rm -rf />\n$>N: (sudo) (nice) rm -rf /" },
	{ "x=$(bash -c \"env -i sudo -u root git push --force\")",
	  "{x=<$(bash -c \"env -i sudo -u root git push --force\")>^C}\n$: bash -c <env -i sudo -u root git push --force>\n$>N: (env -i) (sudo -u root) git push --force" },
	{ "echo `sudo rm x`", "echo <`sudo rm x`>^C\n$: (sudo) rm x" },
	{ "cat $(find . -exec rm {} \\;)",
	  "cat <$(find . -exec rm {} \\;)>^C\n$: find . -exec rm {} ;\n$>X: (find .) rm {} #I" },
	{ "ls \"$(printf '%s' \"$(rm -rf /)\")\"",
	  "ls <$(printf '%s' \"$(rm -rf /)\")>^C\n$: printf %s <$(rm -rf /)>^C\n$>$: rm -rf /" },
	{ "echo ${X:-$(rm -rf /)}", "echo <${X:-$(rm -rf /)}>^PC\n$: rm -rf /" },
	{ "[[ $(rm -rf /) ]]", "$: rm -rf /" },
	{ "for f in $(ls); do :; done", "W>$: ls\nW: :" },
	{ "case $(rm x) in *) ;; esac", "C>$: rm x" },
	{ "ls > $(rm x)", "ls\n$: rm x" },
	{ "A=$(rm x) B=1 ls", "{A=<$(rm x)>^C B=1} ls\n$: rm x" },
	{ "echo <(sudo rm x)", "echo <<(sudo rm x)>^S\n<: (sudo) rm x" },
	{ "f() { sudo rm -rf /; }", "F>G: (sudo) rm -rf / #U" },
	{ "while true; do G=rm; done; $G", "W>?: true\nW: {G=rm}\n$G^P #D" },
	{ "G=ls; for i in 1 2; do $G x; G=rm; done",
	  "{G=ls}\nW: $G^P x #D\nW: {G=rm}\nW: ls x\nW: {G=rm}\nW: rm x\nW: {G=rm}" },
	{ "cd /a && for i in 1; do cd b; ls; done",
	  "L: cd /a\nL>W: cd b #U\nL>W: ls #U\nL>W: cd b @/a\nL>W: ls @/a/b" },
	{ "sudo -- rm x", "(sudo --) rm x" },
	{ "env - rm x", "(env -) rm x" },
	{ "timeout 5", "timeout 5" },
	{ "nice", "nice" },
	{ "xargs", "xargs" },
	{ "sudo -u", "sudo -u" },
	{ "command -- rm x", "(command --) rm x" },
	{ "sudo -k rm x", "(sudo -k) rm x" },
	{ "sudo --frobnicate rm x", "(sudo --frobnicate) rm x #O" },
	{ "env -S\"rm -rf /\"", "env <-Srm -rf />\nN: (env) rm -rf /" },
	{ "bash -c 'eval \"rm -rf /\"'",
	  "bash -c <eval \"rm -rf /\">\nN: eval <rm -rf />\nN>N: rm -rf /" },
	{ "eval 'G=rm'; $G x", "eval G=rm\nN: {G=rm}\nrm x" },
	{ "G=ls; source ./env.sh; $G", "{G=ls}\nsource ./env.sh\n$G^P #DU" },
	{ ". ~/.bashrc && ls", "L: . ~/.bashrc^T\nL: ls #U" },
	{ "exec bash -c 'rm x'", "(exec) bash -c <rm x>\nN: (exec) rm x" },
	{ "sudo \"$(which rm)\" x", "(sudo) <$(which rm)>^C x #D\n$: which rm" },
	{ "\\rm x", "rm x" },
	{ "'/bin/rm' -rf x", "/bin/rm -rf x" },
	{ "echo $'it\\'s'", "echo it's" },
	{ "echo \"$(echo \"nested \\\"quotes\\\"\")\"",
	  "echo <$(echo \"nested \\\"quotes\\\"\")>^C\n$: echo <nested \"quotes\">" },
	{ "git log --format='%H %s' | head -5", "P: git log <--format=%H %s>\nP: head -5" },
	{ "grep -rn 'TODO' src/ | wc -l", "P: grep -rn TODO src/\nP: wc -l" },
	{ "docker run --rm -v \"$PWD\":/w img make", "docker run --rm -v $PWD:/w^P img make" },
	{ "kubectl get pods -o json | jq '.items[]'",
	  "P: kubectl get pods -o json\nP: jq .items[]" },
	{ "npx prettier --write \"src/**/*.ts\"", "(npx) prettier --write src/**/*.ts" },
	{ "python3 -m pytest -x tests/ 2>&1 | tail -20",
	  "P: python3 -m pytest -x tests/\nP: tail -20" },
	{ "cargo build --release && ./target/release/app",
	  "L: cargo build --release\nL: ./target/release/app" },
	{ "rm -rf node_modules && npm ci", "L: rm -rf node_modules\nL: npm ci" },
	{ "git stash && git pull --rebase && git stash pop",
	  "L: git stash\nL: git pull --rebase\nL: git stash pop" },
	{ "tar czf out.tgz --exclude=.git .", "tar czf out.tgz --exclude=.git ." },
	{ "sed -i 's/foo/bar/g' *.c", "sed -i s/foo/bar/g *.c^G" },
	{ "awk '{print $1}' file | sort | uniq -c",
	  "P: awk <{print $1}> file\nP: sort\nP: uniq -c" },
	{ "mkdir -p build && cd build && cmake .. && make",
	  "L: mkdir -p build\nL: cd build\nL: cmake .. @build\nL: make @build" },
	{ "cat <<EOF\nno end", "!partial\ncat" },
	{ "cat <<EOF && rm -rf /tmp/x\nbody\nEOF", "cat\nL: rm -rf /tmp/x" },
	{ "sh <<EOF\ncd /tmp\nrm -rf *\nEOF", "sh\nN: cd /tmp\nN: rm -rf *^G @/tmp" },
	{ "if true\nthen\n  rm x\nfi", "I>?: true\nI: rm x" },
	{ "for i in 1 2\ndo\n  echo $i\ndone", "W: echo $i^P\nW: echo 1\nW: echo 2" },
	{ "G=git\n$G push -f", "{G=git}\ngit push -f" },
	{ "cd /tmp\nrm -rf *", "cd /tmp\nrm -rf *^G @/tmp" },
	{ "bash -c '\ncd /\nrm -rf *\n'",
	  "bash -c <\ncd /\nrm -rf *\n>\nN: cd /\nN: rm -rf *^G @/" },
	{ "echo one; \\\necho two", "echo one\necho two" },
	{ "x=1 \\\n  y=2 \\\n  cmd", "{x=1 y=2} cmd" },
	{ "su -c 'rm -rf /' root", "su -c <rm -rf /> root\nN: (su) rm -rf /" },
	{ "su - root -c 'git push -f'", "su - root -c <git push -f>\nN: (su - root) git push -f" },
	{ "su root", "su root" },
	{ "sudo su -c 'bash -c \"rm x\"'",
	  "(sudo) su -c <bash -c \"rm x\">\nN: (sudo) (su) bash -c <rm x>\nN>N: (sudo) (su) rm x" },
	{ "echo \"a # not a comment\"", "echo <a # not a comment>" },
	{ "ls # comment; rm -rf /", "ls" },
	{ "echo 'é'\"ü\"$'\\u00e9'", "echo éüé" },
	{ "printf '%s' \"$(sudo -u root env -i bash -c 'timeout 5 rm -rf /')\"",
	  "printf %s <$(sudo -u root env -i bash -c 'timeout 5 rm -rf /')>^C\n$: (sudo -u root) (env -i) bash -c <timeout 5 rm -rf />\n$>N: (sudo -u root) (env -i) (timeout 5) rm -rf /" },
	{ "echo $(( $(wc -l < f) + 1 ))", "echo <$(( $(wc -l < f) + 1 ))>^CA\n$: wc -l" },
	{ "a=1; b=$a; $b", "{a=1}\n{b=1}\n1" },
	{ "G=git; G=\"$G push\"; $G -f", "{G=git}\n{G=<git push>}\ngit push -f" },
	{ "cat <<-EOF\n\tindented $(id)\n\tEOF", "cat\n$: id" },
	{ "ls -la | grep -v \"^d\" | sort -k5 -n | tail -3",
	  "P: ls -la\nP: grep -v ^d\nP: sort -k5 -n\nP: tail -3" },
	{ "sudo -u www-data -- sh -c \"cd /srv && git pull\"",
	  "(sudo -u www-data --) sh -c <cd /srv && git pull>\nN>L: (sudo -u www-data --) cd /srv\nN>L: (sudo -u www-data --) git pull @/srv" },
	{ "sudo cd /tmp && ls", "L: (sudo) cd /tmp\nL: ls" },
	/* found by the model oracle (tests/oracle/): each row failed before
	 * its fix. A backslash-newline inside a word joins it, as bash does: */
	{ "r\\\nm -rf /", "rm -rf /" },
	{ "git push --fo\\\nrce", "git push --force" },
	{ "git push \"--fo\"\\\nrce", "git push --force" },
	{ "A=b\\\nc cmd", "{A=bc} cmd" },
	{ "export A=b\\\nc", "export A=bc" },
	{ "echo x 2\\\n>f", "echo x" },
	{ "echo {a,\\\nb}", "echo a b" },
	{ "echo a\\\n\\\nb", "echo ab" },
	/* words after a redirection's target are the command's */
	{ "git push > /dev/null --force", "git push --force" },
	{ "git 2>/dev/null push --force", "git push --force" },
	{ "git >f push 2>g --force x", "git push --force x" },
	{ "git push > f -f x | cat", "P: git push -f x\nP: cat" },
	{ "a && b > f x y", "L: a\nL: b x y" },
	{ "cat <<EOF x y\nbody\nEOF", "cat x y" },
	{ "npm 3>&- install", "npm install" },
	{ "{ a; } > f x", "!partial\nR>G: a" },
	/* `time` before a compound command times it; the body runs */
	{ "time ( git push -f )", "S: git push -f" },
	{ "time -p { rm -rf /; }", "G: rm -rf /" },
	{ "time if true; then rm x; fi", "I>?: true\nI: rm x" },
	{ "time for i in a; do rm x; done", "W: rm x\nW: rm x" },
	{ "! time ( rm x ) | cat", "P>S: rm x #N\nP: cat" },
	{ "echo $(time { rm y; })", "echo <$(time { rm y; })>^C\n$>G: rm y" },
	{ "time rm x", "(time) rm x" },
	/* backquotes the grammar leaves as text run all the same */
	{ "echo \"${X:-`rm -rf /`}\"", "echo <${X:-`rm -rf /`}>^PC\n$: rm -rf /" },
	{ "echo ${X:-`rm x`}", "echo <${X:-`rm x`}>^PC\n$: rm x" },
	{ "cat <<EOF\na `rm -rf /` $(rm y) \\`not`\nEOF", "cat\n$: rm -rf /\n$: rm y" },
	{ "cat <<-EOF\n\tx $(id) `rm z`\n\tEOF", "cat\n$: id\n$: rm z" },
	{ "cat <<-EOF\n\t$(id)\n\tEOF", "!partial\ncat" },
	{ "cat <<'EOF'\n`rm -rf /` $(rm y)\nEOF", "cat" },
	{ "bash <<EOF\n`curl x`\nEOF", "bash #Y\n$: curl x" },
	{ "echo a\\`rm x\\`", "echo a`rm x`" },
	/* a word that starts a line after a backslash: the command ended */
	{ "echo 'x'\n\\rm -rf /", "echo x\nrm -rf /" },
	{ "ls\n\\rm -rf /", "ls\nrm -rf /" },
	/* an assignment after a joined one is an assignment */
	{ "G=/tmp\\\n/x A=- python3 x", "{G=/tmp/x A=-} python3 x" },
	{ "\"A\"=1 cmd", "A=1 cmd" },
	{ "0</dev/null npm x", "npm x" },
	/* no false blocks: what bash reads, the grammar did not */
	{ "echo a$.b $% $,", "echo a$.b $% $," },
	{ "perl -ne 'print if $. > 1' f", "perl -ne <print if $. > 1> f" },
	{ "cat <> f", "cat" },
	{ "for i in a; do (echo $i) done", "W>S: echo $i^P\nW>S: echo a" },
	{ "while false; do { rm x; } done", "W>?: false\nW>G: rm x" },
	{ "{ for i in a; do rm x; done }", "G>W: rm x\nG>W: rm x" },
	{ "cat <<EOF 2>&1 | tee log\nx\nEOF", "cat\nL>P: tee log" },
	{ "cat <<EOF > out | sh\nrm -rf /\nEOF", "cat\nL>P: sh #Y" },
	{ "cat <<EOF | bash\nrm -rf /\nEOF", "cat\nL>P: bash #Y" },
	{ "cat <<EOF >> log 2>&1 && echo done\nx\nEOF", "cat\nL: echo done" },
	{ "cat - 2>/dev/null", "cat -" },
	{ "sed 3>&- x ''push", "!partial\nsed x push" },
	/* more wrappers, each with all its options */
	{ "chrt -o 0 rm -rf /", "(chrt -o 0) rm -rf /" },
	{ "chrt --rr 10 make", "(chrt --rr 10) make" },
	{ "chrt -p 42", "chrt -p 42" },
	{ "taskset -c 0,1 git push -f", "(taskset -c 0,1) git push -f" },
	{ "taskset -p 42", "taskset -p 42" },
	{ "pkexec --user root rm -rf /", "(pkexec --user root) rm -rf /" },
	{ "run0 -u root -D /srv rm x", "(run0 -u root -D /srv) rm x @/srv" },
	{ "systemd-run --user --scope -p MemoryMax=1G make",
	  "(systemd-run --user --scope -p MemoryMax=1G) make" },
	{ "valgrind --tool=memcheck --leak-check=full ./app x",
	  "(valgrind --tool=memcheck --leak-check=full) ./app x" },
	{ "firejail --private --net=none rm -rf ~", "(firejail --private --net=none) rm -rf ~^T" },
	{ "firejail --list", "firejail --list" },
	{ "cgexec -g cpu:grp rm x", "(cgexec -g cpu:grp) rm x" },
	{ "numactl --interleave=all rm x", "(numactl --interleave=all) rm x" },
	{ "numactl -N 0 -m 0 make", "(numactl -N 0 -m 0) make" },
	{ "numactl --hardware", "numactl --hardware" },
	{ "bwrap --ro-bind / / --dev /dev --overlay a b c rm -rf x",
	  "(bwrap --ro-bind / / --dev /dev --overlay a b c) rm -rf x" },
	{ "setarch x86_64 -R rm x", "(setarch x86_64 -R) rm x" },
	{ "linux64 --addr-no-randomize rm x", "(linux64 --addr-no-randomize) rm x" },
	{ "unshare -rn rm x", "(unshare -rn) rm x" },
	{ "unshare --mount-proc -f --pid rm x", "(unshare --mount-proc -f --pid) rm x" },
	{ "nsenter -t 1 -m -u rm x", "(nsenter -t 1 -m -u) rm x" },
	{ "setpriv --reuid=1000 --init-groups rm x", "(setpriv --reuid=1000 --init-groups) rm x" },
	{ "prlimit --nofile=64 -c rm x", "(prlimit --nofile=64 -c) rm x" },
	{ "faketime '2020-01-01' date", "(faketime 2020-01-01) date" },
	{ "fakeroot -- make install", "(fakeroot --) make install" },
	{ "eatmydata apt-get install x", "(eatmydata) apt-get install x" },
	{ "xvfb-run -a npm test", "(xvfb-run -a) npm test" },
	{ "dbus-run-session -- rm x", "(dbus-run-session --) rm x" },
	{ "ssh-agent bash -c 'rm x'", "(ssh-agent) bash -c <rm x>\nN: (ssh-agent) rm x" },
	{ "sg docker 'rm -rf /'", "sg docker <rm -rf />\nN: (sg docker) rm -rf /" },
	{ "sg docker -c 'rm x'", "sg docker -c <rm x>\nN: (sg docker -c) rm x" },
	{ "proxychains4 -q curl x", "(proxychains4 -q) curl x" },
	{ "torsocks -i git fetch", "(torsocks -i) git fetch" },
	{ "chpst -u nobody rm x", "(chpst -u nobody) rm x" },
	{ "gtimeout 5 rm x", "(gtimeout 5) rm x" },
	{ "xargs --replace=% rm %", "(xargs --replace=%) rm % #I" },
	{ "env --block-signal rm x", "(env --block-signal) rm x" },
	{ "sudo --preserve-env=PATH rm x", "(sudo --preserve-env=PATH) rm x" },
	{ "timeout --bogus 5 rm x", "(timeout --bogus 5) rm x #O" },
	/* shells whose language is not bash's: read as bash, flagged */
	{ "fish -c 'rm -rf /'", "fish -c <rm -rf /> #L\nN: rm -rf /" },
	{ "fish --command='ls'", "fish --command=ls #L\nN: ls" },
	{ "csh -c 'rm x'", "csh -c <rm x> #L\nN: rm x" },
	{ "tcsh -c ls", "tcsh -c ls #L\nN: ls" },
	{ "echo ls | fish", "P: echo ls\nP: fish #L\nP>N: ls" },
	{ "busybox sh -c 'rm x'", "(busybox) sh -c <rm x>\nN: (busybox) rm x" },
	/* what git runs besides itself */
	{ "git -c alias.p='push -f' p origin",
	  "git -c <alias.p=push -f> p origin\nX: git -c <alias.p=push -f> push -f origin" },
	{ "git -c alias.x='!rm -rf /' x", "git -c <alias.x=!rm -rf /> x\nN: (git -c) rm -rf /" },
	{ "git -c alias.x='!rm -rf' x /", "git -c <alias.x=!rm -rf> x /\nN: (git -c) rm -rf /" },
	{ "git -c alias.P='status -s' p",
	  "git -c <alias.P=status -s> p\nX: git -c <alias.P=status -s> status -s" },
	{ "git -c alias.a=b -c alias.b=a a", "git -c alias.a=b -c alias.b=a a" },
	{ "git -c alias.a=b -c alias.b='push -f' a",
	  "git -c alias.a=b -c <alias.b=push -f> a\nX: git -c alias.a=b -c <alias.b=push -f> b\nX>X: git -c alias.a=b -c <alias.b=push -f> push -f" },
	{ "git -c core.sshCommand='rm -rf /' fetch",
	  "git -c <core.sshCommand=rm -rf /> fetch\nN: (git -c) rm -rf / $@^P" },
	{ "git -c core.pager=true log", "git -c core.pager=true log" },
	{ "git -c credential.helper='!rm x' push",
	  "git -c <credential.helper=!rm x> push\nN: (git -c) rm x $@^P" },
	{ "git -c include.path=/tmp/x status", "git -c include.path=/tmp/x status #Y" },
	{ "git -c core.hooksPath=/tmp/h commit", "git -c core.hooksPath=/tmp/h commit #Y" },
	{ "git --exec-path=/tmp push", "git --exec-path=/tmp push #Y" },
	{ "git --config-env=core.sshCommand=X fetch",
	  "git --config-env=core.sshCommand=X fetch #Y" },
	{ "git -c core.sshCommand=\"$X\" fetch", "git -c core.sshCommand=$X^P fetch #Y" },
	{ "GIT_SSH_COMMAND='rm -rf /' git fetch",
	  "{GIT_SSH_COMMAND=<rm -rf />} git fetch\nN: rm -rf / $@^P" },
	{ "EDITOR=vim git commit", "{EDITOR=vim} git commit\nN: vim $@^P" },
	{ "GIT_EXEC_PATH=/tmp git push", "{GIT_EXEC_PATH=/tmp} git push #Y" },
	{ "git submodule foreach 'rm -rf /'",
	  "git submodule foreach <rm -rf />\nN: (git submodule foreach) rm -rf /" },
	{ "git submodule --quiet foreach --recursive git clean -fdx",
	  "git submodule --quiet foreach --recursive git clean -fdx\nX: (git submodule --quiet foreach --recursive) git clean -fdx" },
	{ "git rebase --exec 'rm -rf /' HEAD~1",
	  "git rebase --exec <rm -rf /> HEAD~1\nN: (git rebase --exec) rm -rf /" },
	{ "git rebase -ix 'make test' main",
	  "git rebase -ix <make test> main\nN: (git rebase -ix) make test" },
	{ "git rebase --exe='rm x' main", "git rebase <--exe=rm x> main\nN: (git rebase) rm x" },
	{ "git rebase --e='rm x' main", "git rebase <--e=rm x> main" },
	{ "git bisect run rm -rf /", "git bisect run rm -rf /\nX: (git bisect run) rm -rf /" },
	{ "git filter-branch --tree-filter 'rm -rf /' HEAD",
	  "git filter-branch --tree-filter <rm -rf /> HEAD\nN: (git filter-branch --tree-filter) rm -rf /" },
	{ "git difftool --extcmd='rm x'",
	  "git difftool <--extcmd=rm x>\nN: (git difftool) rm x $@^P" },
	{ "git grep -O'rm x' foo", "git grep <-Orm x> foo\nN: (git grep) rm x $@^P" },
	{ "git push --force origin", "git push --force origin" },
	/* config set by an earlier git config holds for the later git */
	{ "git config alias.yolo 'push --force' && git yolo",
	  "L: git config alias.yolo <push --force>\nL>X: git -c <alias.yolo=push --force> yolo\nL>X>X: git -c <alias.yolo=push --force> push --force\nL: git yolo\nL>X: git -c <alias.yolo=push --force> yolo\nL>X>X: git -c <alias.yolo=push --force> push --force" },
	{ "git config remote.origin.mirror true; git push",
	  "git config remote.origin.mirror true\nX: git -c remote.origin.mirror=true push\ngit push\nX: git -c remote.origin.mirror=true push" },
	{ "(git config alias.x '!rm -rf /'); git x",
	  "S: git config alias.x <!rm -rf />\nS>X: git -c <alias.x=!rm -rf /> x\nS>X>N: (git -c) rm -rf /\ngit x\nX: git -c <alias.x=!rm -rf /> x\nX>N: (git -c) rm -rf /" },
	{ "git config set alias.x 'reset --hard'",
	  "git config set alias.x <reset --hard>\nX: git -c <alias.x=reset --hard> x\nX>X: git -c <alias.x=reset --hard> reset --hard" },
	{ "git config alias.co checkout",
	  "git config alias.co checkout\nX: git -c alias.co=checkout co\nX>X: git -c alias.co=checkout checkout" },
	{ "git config --get alias.x; git x", "git config --get alias.x\ngit x" },
	{ "git config \"$K\" x; git status", "git config $K^P x\ngit status #Y" },
	{ "git config user.name me; git commit", "git config user.name me\ngit commit" },
	{ "git config core.hooksPath .husky; git commit",
	  "git config core.hooksPath .husky\ngit commit\nX: git -c core.hooksPath=.husky commit #Y" },
	/* targets known before it runs: set --, shift, a function's
	 * arguments, a variable that holds a home */
	{ "set -- /; rm -rf \"$1\"", "set -- /\nrm -rf /" },
	{ "set -e -o pipefail -- a /; rm -rf $2", "set -e -o pipefail -- a /\nrm -rf /" },
	{ "set -- a /; shift; rm -rf $1", "set -- a /\nshift\nrm -rf /" },
	{ "set -x; rm -rf \"$1\"", "set -x\nrm -rf $1^P" },
	{ "f() { rm -rf \"$1\"; }; f /", "F>G: rm -rf $1^P #U\nf / #F\nF>G: rm -rf /" },
	{ "f() { rm -rf \"$1\"; }; f \"$X\"", "F>G: rm -rf $1^P #U\nf $X^P #F\nF>G: rm -rf $1^P" },
	{ "f() { f x; }; f", "F>G: f x #UF\nf #F\nF>G: f x #F" },
	{ "for d in / /usr; do rm -rf \"$d\"; done",
	  "W: rm -rf $d^P\nW: rm -rf /\nW: rm -rf /usr" },
	{ "for f in *.txt; do rm \"$f\"; done", "W: rm $f^P\nW: rm *.txt^G" },
	{ "echo / | xargs rm -rf", "P: echo /\nP: (xargs) rm -rf /" },
	{ "echo -n a b | sudo xargs -r rm", "P: echo -n a b\nP: (sudo) (xargs -r) rm a b" },
	{ "echo a | xargs -0 rm", "P: echo a\nP: (xargs -0) rm #I" },
	{ "ls | xargs rm -rf", "P: ls\nP: (xargs) rm -rf #I" },
	{ "D=~; rm -rf $D", "{D=~^T}\nrm -rf ~^T" },
	{ "D=~/x; rm -rf \"$D\"/y", "{D=~/x^T}\nrm -rf ~/x/y^T" },
	/* values that flow (issue 33): a home through a call, a loop, set --,
	 * shift, a $HOME assignment, read <<<, ${X:?} and its kin, ${!X},
	 * and into xargs from echo, printf and a here-string; beside each,
	 * the everyday look-alike that stays what it was */
	{ "f(){ rm -rf \"$1\"; }; f ~", "F>G: rm -rf $1^P #U\nf ~^T #F\nF>G: rm -rf ~^T" },
	{ "f(){ rm -rf \"$1\"; }; f build", "F>G: rm -rf $1^P #U\nf build #F\nF>G: rm -rf build" },
	{ "for d in / ~; do rm -rf \"$d\"; done", "W: rm -rf $d^P\nW: rm -rf /\nW: rm -rf ~^T" },
	{ "for d in build ~user; do rm -rf \"$d\"; done",
	  "W: rm -rf $d^P\nW: rm -rf build\nW: rm -rf ~user^T" },
	{ "set -- / ~; shift; rm -rf \"$1\"", "set -- / ~^T\nshift\nrm -rf ~^T" },
	{ "bash -c 'rm -rf \"$1\"' _ ~", "bash -c <rm -rf \"$1\"> _ ~^T\nN: rm -rf ~^T" },
	{ "D=$HOME; rm -rf \"$D\"", "{D=$HOME^P}\nrm -rf ~^T" },
	{ "D=\"${HOME}/.cache\"; rm -rf \"$D\"", "{D=${HOME}/.cache^P}\nrm -rf ~/.cache^T" },
	{ "D=$HOME$X; rm -rf \"$D\"", "{D=$HOME$X^P}\nrm -rf $D^P" },
	{ "read d <<< ~; rm -rf \"$d\"", "read d\nrm -rf ~^T" },
	{ "read -r d <<< build; rm -rf \"$d\"", "read -r d\nrm -rf build" },
	{ "read d < f; rm -rf \"$d\"", "read d\nrm -rf $d^P" },
	{ "read a b <<< '/ x'; rm -rf \"$a\"", "read a b\nrm -rf $a^P" },
	{ "D=/; rm -rf \"${D:?}\" ${D:-x} ${D%/}x ${D:+y}", "{D=/}\nrm -rf / / x ${D:+y}^P" },
	{ "D=; rm -rf \"${D:?}\" \"${D:-build}\"", "{D=<>}\nrm -rf ${D:?}^P ${D:-build}^P" },
	{ "x=D; D=/; rm -rf \"${!x}\"", "{x=D}\n{D=/}\nrm -rf /" },
	{ "x=HOME; rm -rf \"${!x}\"", "{x=HOME}\nrm -rf ${HOME}^P" },
	{ "f(){ rm -rf \"$@\"; }; f ~ build",
	  "F>G: rm -rf $@^P #U\nf ~^T build #F\nF>G: rm -rf ~^T build" },
	{ "set -- / ~; shift; rm -rf $@ \"${@}\"", "set -- / ~^T\nshift\nrm -rf ~^T ~^T" },
	{ "set -- a $X; rm -rf \"$@\"", "set -- a $X^P\nrm -rf a $2^P" },
	{ "set -- \"$@\" ~; rm -rf \"$@\"", "set -- $@^P ~^T\nrm -rf $1^P ~^T" },
	{ "set -- a; shift 2; rm -rf \"$@\"", "set -- a\nshift 2\nrm -rf $@^P" },
	{ "set --; rm -rf \"$@\"x", "set --\nrm -rf $@x^P" },
	{ "rm -rf \"$@\"", "rm -rf $@^P" },
	{ "set -- a ~; rm -rf $* \"$*\"", "set -- a ~^T\nrm -rf a ~^T $*^P" },
	{ "printf -v d '%s' ~; rm -rf \"$d\"", "printf -v d %s ~^T\nrm -rf ~^T" },
	{ "printf -v d dist; rm -rf \"$d\"", "printf -v d dist\nrm -rf dist" },
	{ "printf -v d '%s/x' ~; rm -rf \"$d\"", "printf -v d %s/x ~^T\nrm -rf $d^P" },
	{ "printf -v d '%s' a b; rm -rf \"$d\"", "printf -v d %s a b\nrm -rf $d^P" },
	{ "echo ~ | xargs rm -rf", "P: echo ~^T\nP: (xargs) rm -rf ~^T" },
	{ "printf '%s\\0' ~ | xargs -0 rm -rf", "P: printf %s\\0 ~^T\nP: (xargs -0) rm -rf ~^T" },
	{ "printf '%s\\n' build dist | xargs rm -rf",
	  "P: printf %s\\n build dist\nP: (xargs) rm -rf build dist" },
	{ "printf '%s\\n' / | xargs -0 rm -rf", "P: printf %s\\n /\nP: (xargs -0) rm -rf #I" },
	{ "printf '%q\\n' / | xargs rm -rf", "P: printf %q\\n /\nP: (xargs) rm -rf #I" },
	{ "xargs rm -rf <<< ~", "(xargs) rm -rf ~^T" },
	{ "xargs rm -rf <<< \"$D\"", "(xargs) rm -rf #I" },
	{ "echo \"a'b\" | xargs rm", "P: echo a'b\nP: (xargs) rm #I" },
	/* arrays (issue 33): known elements flow into "${a[@]}" and
	 * ${a[N]}; an element not known, a scalar assignment, mapfile and a
	 * branch forget the array */
	{ "t=(~ /); rm -rf \"${t[@]}\"", "{t=<(~ /)>^U}\nrm -rf ~^T /" },
	{ "a=(rm -rf ~); \"${a[@]}\"", "{a=<(rm -rf ~)>^U}\nrm -rf ~^T" },
	{ "a=(x); a+=(\"$HOME/y\"); rm ${a[*]} ${a[1]} $a",
	  "{a=(x)^U}\n{a=(\"$HOME/y\")^U}\nrm x ~/y^T ~/y^T x" },
	{ "declare -a d=(a b); rm \"${d[@]}\"", "declare -a <d=(a b)>^U\nrm a b" },
	/* a glob in an array is expanded where the array is made: the
	 * element stands for what it matched, quoted or not; an index after
	 * it is not known (issue 33) */
	{ "a=(*.o); rm \"${a[@]}\"", "{a=(*.o)^GU}\nrm *.o^G" },
	{ "a=(~/* /*); rm -rf \"${a[@]}\" $a", "{a=<(~/* /*)>^GU}\nrm -rf ~/*^TG /*^G ~/*^TG" },
	{ "a=(* x); rm \"${a[1]}\" \"${a[0]}\"", "{a=<(* x)>^GU}\nrm ${a[1]}^P *^G" },
	/* an assignment is not globbed: x holds a star, a name quoted and
	 * a glob unquoted */
	{ "x=*; rm \"$x\" $x", "{x=*^G}\nrm * *^G" },
	/* "$@" of set -- with a glob: the words as written, the glob one
	 * marked; a parameter after it and $# are not known */
	{ "set -- * x; rm \"$@\" \"$1\" \"$2\"", "set -- *^G x\nrm *^G x *^G $2^P" },
	{ "set -- * x; shift; rm \"$1\" \"$@\"", "set -- *^G x\nshift\nrm $1^P $@^P" },
	/* an unquoted expansion splits into any number of words: past it no
	 * parameter is known (issue 33) */
	{ "set -- $X a; rm \"$1\" \"$2\"", "set -- $X^P a\nrm $1^P $2^P" },
	{ "set -- \"$X\" a; rm \"$2\"", "set -- $X^P a\nrm a" },
	{ "read -r d <<<\"$HOME/x\"; rm \"$d\"", "read -r d\nrm ~/x^T" },
	/* a loop's list expanded with what is known: arrays, "$@", globs;
	 * the body once per value (issue 33) */
	{ "a=(build dist); for d in \"${a[@]}\"; do rm -rf \"$d\"; done",
	  "{a=<(build dist)>^U}\nW: rm -rf $d^P\nW: rm -rf build\nW: rm -rf dist" },
	{ "set -- ~ x; for d in \"$@\"; do rm -rf \"$d\"; done",
	  "set -- ~^T x\nW: rm -rf $d^P\nW: rm -rf ~^T\nW: rm -rf x" },
	{ "for d in \"${a[@]}\" $X; do rm -rf \"$d\"; done", "W: rm -rf $d^P" },
	{ "for f in ~/.*; do rm -rf \"$f\"; done", "W: rm -rf $f^P\nW: rm -rf ~/.*^TG" },
	{ "a=(a); a=b; rm \"${a[@]}\"", "{a=(a)^U}\n{a=b}\nrm ${a[@]}^P" },
	{ "a=(a); mapfile -t a < f; rm \"${a[@]}\"", "{a=(a)^U}\nmapfile -t a\nrm ${a[@]}^P" },
	{ "a=(a); x && a=(b); rm \"${a[@]}\"", "{a=(a)^U}\nL: x\nL: {a=(b)^U}\nrm ${a[@]}^P" },
	{ "a=(1 2 3 4 5 6 7 8 9); rm \"${a[@]}\"", "{a=<(1 2 3 4 5 6 7 8 9)>^U}\nrm ${a[@]}^P" },
	{ "a=('x y' z); rm ${a[@]} \"${a[@]}\"", "{a=<('x y' z)>^U}\nrm ${a[@]}^P <x y> z" },
	/* runners before a command (issue 33): a subcommand that runs one */
	{ "uv run --with x -- rm -rf ~", "(uv run --with x --) rm -rf ~^T" },
	{ "uv pip install x", "uv pip install x" },
	{ "poetry run pytest -q", "(poetry run) pytest -q" },
	{ "npm exec -c 'rm -rf /'", "npm exec -c <rm -rf />\nN: (npm exec -c) rm -rf /" },
	{ "bun x rimraf dist", "(bun x) rimraf dist" },
	{ "conda run -n base python -V", "(conda run -n base) python -V" },
	/* more found by the oracle: a variable an && part assigns is not known
	 * after the chain (a part before may fail); text before a closing
	 * quote; an assignment the grammar ends too early; an assignment
	 * alone once a continuation joined it */
	{ "false && S=echo; $S rm x", "L: false\nL: {S=echo}\n$S^P rm x #D" },
	{ "a && G=git && $G push; $G x", "L: a\nL: {G=git}\nL: git push\n$G^P x #D" },
	{ "echo \"$(x)\n\"", "echo <$(x)\n>^C\n$: x" },
	{ "A=\\a$'\\t'\\b LANG=x echo hi", "{A=<a\tb> LANG=x} echo hi" },
	{ "x && G=ch\\\nmod; $G y", "L: x\nL: {G=chmod}\n$G^P y #D" },
	{ "G=ch\\\nmod; $G y", "{G=chmod}\nchmod y" },
	/* two backquoted substitutions next to each other are two */
	{ "mv `a x` `b y`", "mv <`a x` `b y`>^C\n$: a x\n$: b y" },
	/* a heredoc delimiter the grammar reads with a `;` in it: not
	 * understood */
	{ "cp x <<EOF; rm y\nbody\nEOF", "!partial\ncp x" },
	/* a nested shell's redirections do not take the place of the ones
	 * around the list it is in */
	{ "bash -c 'a >/dev/null' || false >/dev/null x",
	  "L: bash -c <a >/dev/null>\nL>N: a\nL: false x" },
	{ "bash <<< 'a >f' || sed x | make 0</dev/null", "L: bash\nL>N: a\nL>P: sed x\nL>P: make" },
	{ "echo -n | xargs mv", "P: echo -n\nP: (xargs) mv" },
	/* a shell fed a heredoc reads it after bash's backslashes */
	{ "sh <<EOF\nrm x\\\\\ny \\$HOME\nEOF", "sh\nN: rm xy $HOME^P" },
	{ "sh <<'EOF'\nrm x\\\\\ny\nEOF", "sh\nN: rm x\\\nN: y" },
	/* from the fuzzer's corpus: an empty backquoted substitution, $'\x'
	 * without a digit, a builtin's name with a slash (a program) */
	{ "it st``tus", "it sttus" },
	{ "rm `` -rf /", "rm -rf /" },
	{ "echo $'\\xpom' $'\\u'", "echo \\xpom \\u" },
	{ "/eval 'G=x'; $G y", "/eval G=x\n$G^P y #D" },
	{ "f() { :; }; ./f x", "F>G: : #U\n./f x" },
	{ "echo a\xc2\xa0$$", "echo a\xc2\xa0$$^P" },
	/* `a | b | c || d` is (a | b | c) || d, in a substitution too */
	{ "G=e; echo \"$(a | b | c && G=d; $G y)\"",
	  "{G=e}\necho <$(a | b | c && G=d; $G y)>^C\n$>L>P: a\n$>L>P: b\n$>L>P: c\n$>L: {G=d}\n$: $G^P y #D" },
	/* an alias defined in the same text: its value with the words after
	 * the name, where the name stands; not inside its own value */
	{ "alias nuke='rm -rf'; nuke ~",
	  "alias <nuke=rm -rf>\nN: rm -rf\nnuke ~^T\nN: rm -rf ~^T" },
	{ "alias ls='ls -la'; ls ~", "alias <ls=ls -la>\nN: ls -la\nls ~^T\nN: ls -la ~^T" },
	/* a while loop's first rounds from the state before it: a value the
	 * body assigns after its use, the parameters a shift moves */
	{ "d=build; until false; do rm -rf \"$d\"; d=~; done",
	  "{d=build}\nW>?: false\nW: rm -rf $d^P\nW: {d=~^T}\nW>?: false\nW: rm -rf build\nW: {d=~^T}\nW>?: false\nW: rm -rf ~^T\nW: {d=~^T}" },
	{ "set -- a ~; while [ $# -gt 0 ]; do rm -rf \"$1\"; shift; done",
	  "set -- a ~^T\nW: rm -rf $1^P\nW: shift\nW: rm -rf a\nW: shift\nW: rm -rf ~^T\nW: shift" },
	{ "d=~; while true; do rm -rf \"$d\"; done", "{d=~^T}\nW>?: true\nW: rm -rf ~^T" },
	/* a keyword where a command's name would be: the grammar misread it */
	{ "then rm x", "!partial\nthen rm x #X" },
};

Test(command_model, corpus_has_the_expected_models)
{
	cr_assert_geq(sizeof(cases) / sizeof(cases[0]), 200, "the corpus must hold 200 commands");
	struct command_model_parser *p = NULL;
	cr_assert_eq(command_model_parser_new(&p), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct command_model *m = NULL;
		const char *cmd = cases[i].command;
		cr_assert_eq(command_model_parse(p, cmd, strlen(cmd), NULL, &m, NULL), 0);
		char *got = render_model(m);
		cr_expect_str_eq(got, cases[i].model, "row %zu: %s\n  got:  %s\n  want: %s", i, cmd,
		                 got, cases[i].model);
		free(got);
		command_model_free(m);
	}
	command_model_parser_free(p);
}

/* ---------------------------------------------------------- focused tests */

static struct command_model *parse(const char *command)
{
	struct command_model *m = NULL;
	cr_assert_eq(command_model_parse(NULL, command, strlen(command), NULL, &m, NULL), 0);
	return m;
}

Test(command_model, gives_redirections_with_operator_fd_and_target)
{
	struct command_model *m = parse("ls 2>&1 >>out <in &>all 3>\"$F\" >| ~/x");
	const struct simple_command *c = command_model_get(m, 0);
	cr_assert_eq(simple_command_redirect_count(c), 6);
	cr_expect_str_eq(simple_command_redirect_op(c, 0), ">&");
	cr_expect_eq(simple_command_redirect_fd(c, 0), 2);
	cr_expect_str_eq(simple_command_redirect_target(c, 0), "1");
	cr_expect_str_eq(simple_command_redirect_op(c, 1), ">>");
	cr_expect_eq(simple_command_redirect_fd(c, 1), -1);
	cr_expect_str_eq(simple_command_redirect_target(c, 1), "out");
	cr_expect_str_eq(simple_command_redirect_op(c, 2), "<");
	cr_expect_str_eq(simple_command_redirect_op(c, 3), "&>");
	cr_expect_eq(simple_command_redirect_fd(c, 4), 3);
	cr_expect(simple_command_redirect_target_flags(c, 4) & WORD_PARAM);
	cr_expect_str_eq(simple_command_redirect_op(c, 5), ">|");
	cr_expect(simple_command_redirect_target_flags(c, 5) & WORD_TILDE);
	cr_expect_null(simple_command_redirect_op(c, 6));
	cr_expect_eq(simple_command_redirect_fd(c, 6), -1);
	command_model_free(m);
}

/* `> f` alone truncates f (bash opens it and runs nothing): a command with
 * no words carries the redirection, so the plugins see the file. */
Test(command_model, a_redirection_alone_is_a_command_without_words)
{
	struct command_model *m = parse("> ~/.bashrc; >| out && ls");
	cr_assert_eq(command_model_count(m), 3);
	const struct simple_command *c = command_model_get(m, 0);
	cr_expect_eq(simple_command_argc(c), 0);
	cr_assert_eq(simple_command_redirect_count(c), 1);
	cr_expect_str_eq(simple_command_redirect_op(c, 0), ">");
	cr_expect_str_eq(simple_command_redirect_target(c, 0), "~/.bashrc");
	c = command_model_get(m, 1);
	cr_expect_eq(simple_command_argc(c), 0);
	cr_expect_str_eq(simple_command_redirect_op(c, 0), ">|");
	cr_expect_str_eq(simple_command_redirect_target(c, 0), "out");
	cr_expect_eq(simple_command_argc(command_model_get(m, 2)), 1);
	command_model_free(m);
}

/* The grammar reads 0< as a word 0 and <; the model gives bash's reading. */
Test(command_model, a_zero_before_a_redirection_is_its_descriptor)
{
	struct command_model *m = parse("cat 0<in; echo 0 <in; cat x 0>out");
	const struct simple_command *c = command_model_get(m, 0);
	cr_assert_eq(simple_command_argc(c), 1);
	cr_assert_eq(simple_command_redirect_count(c), 1);
	cr_expect_eq(simple_command_redirect_fd(c, 0), 0);
	cr_expect_str_eq(simple_command_redirect_target(c, 0), "in");
	c = command_model_get(m, 1);
	cr_expect_eq(simple_command_argc(c), 2, "a blank between: an argument");
	cr_expect_eq(simple_command_redirect_fd(c, 0), -1);
	c = command_model_get(m, 2);
	cr_expect_eq(simple_command_argc(c), 2);
	cr_expect_eq(simple_command_redirect_fd(c, 0), 0);
	command_model_free(m);
}

Test(command_model, gives_heredoc_and_herestring_bodies)
{
	struct command_model *m = parse("cat <<'EOF'\nliteral $(x)\nEOF\ntr a b <<< \"hi there\"");
	const struct simple_command *c = command_model_get(m, 0);
	cr_assert_eq(simple_command_redirect_count(c), 1);
	cr_expect_str_eq(simple_command_redirect_op(c, 0), "<<");
	cr_expect_str_eq(simple_command_redirect_target(c, 0), "EOF");
	cr_expect_str_eq(simple_command_redirect_body(c, 0), "literal $(x)\n");
	cr_expect_eq(command_model_count(m), 2, "a quoted heredoc runs nothing");
	c = command_model_get(m, 1);
	cr_expect_str_eq(simple_command_redirect_op(c, 0), "<<<");
	cr_expect_str_eq(simple_command_redirect_body(c, 0), "hi there");
	command_model_free(m);
}

Test(command_model, gives_a_list_redirection_to_its_last_command_only)
{
	struct command_model *m = parse("a && b > f; { c; d; } 2>/dev/null");
	cr_assert_eq(command_model_count(m), 4);
	cr_expect_eq(simple_command_redirect_count(command_model_get(m, 0)), 0);
	cr_expect_eq(simple_command_redirect_count(command_model_get(m, 1)), 1);
	cr_expect_eq(simple_command_redirect_count(command_model_get(m, 2)), 1);
	cr_expect_eq(simple_command_redirect_count(command_model_get(m, 3)), 1);
	cr_expect_str_eq(simple_command_redirect_target(command_model_get(m, 3), 0), "/dev/null");
	cr_expect(simple_command_in(command_model_get(m, 2), FRAME_REDIRECTED));
	command_model_free(m);
}

Test(command_model, names_the_variables_a_word_expands)
{
	struct command_model *m = parse("echo \"$HOME\"/x ${USER}-$1 plain ~");
	const struct simple_command *c = command_model_get(m, 0);
	cr_expect_eq(simple_command_arg_var_count(c, 1), 1);
	cr_expect_str_eq(simple_command_arg_var(c, 1, 0), "HOME");
	cr_expect_str_eq(simple_command_arg(c, 1), "$HOME/x");
	cr_expect_str_eq(simple_command_arg_source(c, 1), "\"$HOME\"/x");
	/* the grammar reads `-$1` after ${USER} as a `$` token and a number:
	 * the word is still one, and still marked as a parameter expansion */
	cr_expect_str_eq(simple_command_arg(c, 2), "${USER}-$1");
	cr_expect_str_eq(simple_command_arg_var(c, 2, 0), "USER");
	cr_expect(simple_command_arg_flags(c, 2) & WORD_PARAM);
	cr_expect(simple_command_arg_is_static(c, 3));
	cr_expect_not(simple_command_arg_is_static(c, 4));
	cr_expect_null(simple_command_arg_var(c, 1, 1));
	command_model_free(m);
}

Test(command_model, keeps_text_spans_and_a_normalized_form)
{
	const char *src = "sudo -u root  'g'it push  -f; bash -c 'rm  -rf /'";
	struct command_model *m = parse(src);
	cr_assert_eq(command_model_count(m), 3);
	const struct simple_command *c = command_model_get(m, 0);
	size_t start, end;
	simple_command_span(c, &start, &end);
	cr_expect_eq(start, 0);
	cr_expect_eq(end, strlen("sudo -u root  'g'it push  -f"));
	cr_expect_str_eq(simple_command_text(c), "sudo -u root  'g'it push  -f");
	cr_expect_str_eq(simple_command_normalized(c), "sudo -u root git push -f");
	const struct simple_command *inner = command_model_get(m, 2);
	cr_expect_str_eq(simple_command_text(inner), "rm  -rf /");
	cr_expect_str_eq(simple_command_normalized(inner), "rm -rf /");
	simple_command_span(inner, &start, &end);
	cr_expect_eq(start, strlen("sudo -u root  'g'it push  -f; "), "nested: the outer span");
	cr_expect_eq(simple_command_parent(inner), 1);
	cr_expect_eq(simple_command_parent(c), -1);
	cr_expect_str_eq(command_model_source(m), src);
	cr_expect_eq(command_model_source_len(m), strlen(src));
	command_model_free(m);
}

Test(command_model, names_the_function_a_command_sits_in)
{
	struct command_model *m = parse("deploy() { git push -f; }; deploy");
	/* the body where it is defined, the call, the body as the call runs it */
	cr_assert_eq(command_model_count(m), 3);
	cr_expect_str_eq(simple_command_function(command_model_get(m, 0)), "deploy");
	cr_expect(simple_command_in(command_model_get(m, 0), FRAME_FUNCTION));
	cr_expect_null(simple_command_function(command_model_get(m, 1)));
	cr_expect(simple_command_flags(command_model_get(m, 1)) & CMD_FUNCTION_CALL);
	cr_expect_str_eq(simple_command_function(command_model_get(m, 2)), "deploy");
	cr_expect_eq(simple_command_parent(command_model_get(m, 2)), 1);
	command_model_free(m);
}

Test(command_model, gives_wrapper_words_and_env_assignments)
{
	struct command_model *m = parse("sudo -u root env -i -- A=1 nice -n 5 rm x");
	const struct simple_command *c = command_model_get(m, 0);
	cr_assert_eq(simple_command_wrapper_count(c), 3);
	cr_expect_str_eq(simple_command_wrapper_name(c, 0), "sudo");
	cr_expect_eq(simple_command_wrapper_argc(c, 0), 3);
	cr_expect_str_eq(simple_command_wrapper_arg(c, 0, 2), "root");
	cr_expect_str_eq(simple_command_wrapper_name(c, 1), "env");
	cr_expect_str_eq(simple_command_wrapper_name(c, 2), "nice");
	cr_expect_null(simple_command_wrapper_name(c, 3));
	cr_expect_str_eq(simple_command_name(c), "rm");
	cr_expect_eq(simple_command_assign_count(c), 1);
	cr_expect_str_eq(simple_command_assign_name(c, 0), "A");
	cr_expect_str_eq(simple_command_assign_value(c, 0), "1");
	command_model_free(m);
}

Test(command_model, strips_the_directory_from_the_name)
{
	struct command_model *m = parse("/usr/bin/sudo /bin/rm -rf x");
	const struct simple_command *c = command_model_get(m, 0);
	cr_expect_str_eq(simple_command_name(c), "rm");
	cr_expect_str_eq(simple_command_arg(c, 0), "/bin/rm");
	cr_expect_str_eq(simple_command_wrapper_name(c, 0), "sudo");
	command_model_free(m);
}

Test(command_model, answers_out_of_range_without_crashing)
{
	struct command_model *m = parse("true");
	cr_expect_null(command_model_get(m, 1));
	const struct simple_command *c = command_model_get(m, 0);
	cr_expect_null(simple_command_arg(c, 1));
	cr_expect_null(simple_command_arg_source(c, 5));
	cr_expect_eq(simple_command_arg_flags(c, 9), 0);
	cr_expect_eq(simple_command_frame(c, 0), 0);
	cr_expect_null(simple_command_assign_name(c, 0));
	cr_expect_null(simple_command_redirect_target(c, 0));
	cr_expect_null(simple_command_wrapper_arg(c, 0, 0));
	cr_expect_null(command_frame_name(0));
	cr_expect_null(command_frame_name(99));
	cr_expect_null(command_model_limit_name(0));
	cr_expect_null(shell_word_flag_name(1u << 31));
	cr_expect_str_eq(command_frame_name(FRAME_NESTED_SHELL), "nested-shell");
	cr_expect_str_eq(simple_command_flag_name(CMD_NAME_DYNAMIC), "name-dynamic");
	command_model_free(m);
	cr_expect_null(command_model_free(NULL));
}

Test(command_model, refuses_a_nul_byte)
{
	struct command_model *m = NULL;
	struct sluice_error err = { 0 };
	cr_expect_eq(command_model_parse(NULL, "ls\0rm", 6, NULL, &m, &err), -EINVAL);
	cr_expect_null(m);
	cr_expect_str_eq(err.detail, "the command holds a NUL byte");
}

static struct command_model *parse_limited(const char *text, size_t len,
                                           const struct command_model_limits *limits)
{
	struct command_model *m = NULL;
	cr_assert_eq(command_model_parse(NULL, text, len, limits, &m, NULL), 0);
	return m;
}

Test(command_model, flags_a_command_over_the_size_limit)
{
	struct command_model_limits l;
	command_model_limits_default(&l);
	l.max_command_bytes = 8;
	struct command_model *m = parse_limited("echo 123456789", 14, &l);
	cr_expect_eq(command_model_limits_reached(m), COMMAND_MODEL_LIMIT_SIZE);
	cr_expect_eq(command_model_count(m), 0);
	cr_expect_str_eq(command_model_limit_name(COMMAND_MODEL_LIMIT_SIZE), "max-command-size");
	command_model_free(m);
}

Test(command_model, flags_nesting_past_the_depth_limit)
{
	char buf[512] = "";
	for (int i = 0; i < 30; i++)
		strcat(buf, "$(");
	strcat(buf, "rm x");
	for (int i = 0; i < 30; i++)
		strcat(buf, ")");
	struct command_model *m = parse(buf);
	cr_expect(command_model_limits_reached(m) & COMMAND_MODEL_LIMIT_DEPTH);
	command_model_free(m);
	m = parse("bash -c \"bash -c 'bash -c \\\"rm x\\\"'\"");
	cr_expect_eq(command_model_limits_reached(m), 0);
	cr_expect_str_eq(simple_command_name(command_model_get(m, 3)), "rm");
	command_model_free(m);
}

Test(command_model, flags_too_many_commands_and_words)
{
	struct command_model_limits l;
	command_model_limits_default(&l);
	l.max_commands = 3;
	l.max_words = 2;
	const char *src = "a; b; c; d; e x y z";
	struct command_model *m = parse_limited(src, strlen(src), &l);
	cr_expect(command_model_limits_reached(m) & COMMAND_MODEL_LIMIT_COMMANDS);
	cr_expect_eq(command_model_count(m), 3);
	command_model_free(m);
	src = "echo 1 2 3";
	m = parse_limited(src, strlen(src), &l);
	cr_expect_eq(command_model_limits_reached(m), COMMAND_MODEL_LIMIT_WORDS);
	cr_expect_eq(simple_command_argc(command_model_get(m, 0)), 2);
	command_model_free(m);
}

Test(command_model, flags_the_parse_time_limit)
{
	struct command_model_limits l;
	command_model_limits_default(&l);
	l.parse_timeout_us = 1;
	size_t n = 60000;
	char *big = malloc(n + 1);
	cr_assert_not_null(big);
	for (size_t i = 0; i < n; i += 6)
		memcpy(big + i, "a && (", 6);
	big[n] = '\0';
	struct command_model *m = parse_limited(big, n, &l);
	cr_expect(command_model_limits_reached(m) & COMMAND_MODEL_LIMIT_TIME, "limits: %#x",
	          command_model_limits_reached(m));
	command_model_free(m);
	free(big);
}

Test(command_model, limits_the_parse_in_cpu_time_not_clock_time)
{
	/* time that passes without work does not spend the budget: a busy
	 * machine does not change a verdict */
	struct shell_budget budget = shell_budget_init(20 * 1000);
	cr_expect_not(shell_budget_spent(&budget, SHELL_BUDGET_CHECK_BYTES));
	struct timespec pause = { .tv_sec = 0, .tv_nsec = 60 * 1000 * 1000 };
	while (nanosleep(&pause, &pause) < 0 && errno == EINTR)
		;
	cr_expect_not(shell_budget_spent(&budget, SHELL_BUDGET_CHECK_BYTES),
	              "60 ms asleep spent a 20 ms CPU budget");
	/* work does: a long text with a budget of 1 us is not parsed whole */
	struct shell_parser *p = NULL;
	cr_assert_eq(shell_parser_new(&p), 0);
	size_t n = 60000;
	_cleanup_free_ char *big = malloc(n + 1);
	cr_assert_not_null(big);
	for (size_t i = 0; i < n; i += 8)
		memcpy(big + i, "a && b; ", 8);
	big[n] = '\0';
	struct shell_tree tree;
	struct shell_budget tiny = shell_budget_init(1);
	cr_assert_eq(shell_parse(p, big, n, &tiny, 200, &tree), 0);
	cr_expect(tree.timed_out);
	shell_tree_done(&tree);
	struct shell_budget ample = shell_budget_init(10 * 1000 * 1000);
	cr_assert_eq(shell_parse(p, big, n, &ample, 200, &tree), 0);
	cr_expect_not(tree.timed_out);
	shell_tree_done(&tree);
	shell_parser_free(p);
}

Test(command_model, marks_broken_syntax_as_partially_understood)
{
	struct command_model *m = parse("rm -rf / 'unterminated");
	cr_expect_eq(command_model_partial_causes(m), COMMAND_MODEL_PARTIAL_SYNTAX);
	cr_expect_str_eq(simple_command_name(command_model_get(m, 0)), "rm");
	command_model_free(m);
	m = parse("git status");
	cr_expect_not(command_model_is_partial(m));
	command_model_free(m);
}

/* Each of texts[0..n) gives a model partial for cause (0: not partial). */
static void expect_partial_cause(const char *const *texts, size_t n, uint32_t cause)
{
	for (size_t i = 0; i < n; i++) {
		struct command_model *m = parse(texts[i]);
		if (cause)
			cr_expect(command_model_partial_causes(m) & cause, "case %zu", i);
		else
			cr_expect_not(command_model_is_partial(m), "case %zu", i);
		command_model_free(m);
	}
}

/* Bash takes only space, tab and newline for blanks; the grammar also CR,
 * FF and VT. Between tokens such a byte hides what follows (`\r#` starts a
 * comment for the grammar, not for bash); inside quotes it is text. */
Test(command_model, marks_a_blank_control_outside_quotes_as_partial)
{
	static const char *const hidden[] = {
		"true \r# ; git push -f origin main",
		"echo x \f# ; rm -rf /",
		"echo x \v# ; rm -rf /",
		"echo a\rb",
		"echo ok\r",
		"echo \"x$(true \r# ; rm -rf /)y\"",
		"bash -c 'true \r# ; rm -rf /'",
	};
	/* (in the substitution, the grammar's comment also eats its `)`: a
	 * syntax error too, hence a cause among others) */
	expect_partial_cause(hidden, ELEMENTSOF(hidden), COMMAND_MODEL_PARTIAL_BLANK_CONTROL);
	static const char *const quoted[] = {
		"echo 'a\rb'",
		"echo \"a\r$HOME\fb\"",
		"echo $'a\rb'",
		"echo ok # a comment \r with a CR",
		"cat <<EOF\nline\r\nEOF\n",
		"echo a\tb \\\nc",
	};
	expect_partial_cause(quoted, ELEMENTSOF(quoted), 0);
}

/* The grammar has no coproc: `coproc X { rm -rf /; }` comes out as the
 * commands `coproc X { rm -rf /` and `}`, the rm inside as an argument. */
Test(command_model, marks_coproc_as_partial)
{
	static const char *const coprocs[] = {
		"coproc rm -rf /",      "coproc X { rm -rf /; }",
		"coproc { rm -rf /; }", "coproc while true; do rm -rf /; done",
		"sudo coproc rm -rf /", "true && coproc git push -f",
	};
	expect_partial_cause(coprocs, ELEMENTSOF(coprocs), COMMAND_MODEL_PARTIAL_COPROC);
	static const char *const words[] = { "echo coproc; 'coproc'x" };
	expect_partial_cause(words, ELEMENTSOF(words), 0);
}

/* Brace expansion as bash does it, bash itself the judge: each word is
 * given to `bash -c "printf '%s\\n' WORD"` and to the model. */
Test(command_model, expands_braces_as_bash_does)
{
	static const char *const words[] = {
		"{a,b}",         "x{a,b}y",    "{a,}",     "x{,}y",      "{-f,}",
		"{1..3}",        "{3..1}",     "{01..03}", "{-2..2}",    "{a..e}",
		"{e..a..2}",     "{1..10..3}", "{a}{b,c}", "{a{b,c}}",   "a{b{c,d},e}f",
		"{a,\"b,c\"}",   "\"{a,b}\"",  "\\{a,b}",  "{a,b}{1,2}", "{a..c}{1..2}",
		"{x,y,z}/{1,2}", "pre{a,b",    "{a,b}}",   "{{a,b}",     "{a,{b,c}}",
		"{1..a}",        "{1...3}",    "{1..3..}", "'{'a,b}",    "{a\\,b,c}",
		".{a,b}",        "{}",         "\"\"{a,}", "{a,b}\"\"",
	};
	for (size_t i = 0; i < ELEMENTSOF(words); i++) {
		char script[512], want[1024] = "";
		/* the word quoted for sh's "...": its " \ and $ escaped */
		char quoted[256], *q = quoted;
		for (const char *s = words[i]; *s && q < quoted + sizeof(quoted) - 3; s++) {
			if (*s == '"' || *s == '\\' || *s == '$')
				*q++ = '\\';
			*q++ = *s;
		}
		*q = '\0';
		snprintf(script, sizeof(script), "bash -c \"printf '%%s\\n' %s\" 2>&1", quoted);
		FILE *f = popen(script, "r");
		cr_assert(f);
		size_t n = fread(want, 1, sizeof(want) - 1, f);
		want[n] = '\0';
		pclose(f);

		char command[256];
		snprintf(command, sizeof(command), "x %s", words[i]);
		struct command_model *m = parse(command);
		const struct simple_command *c = command_model_get(m, 0);
		char got[1024] = "";
		for (size_t k = 1; c && k < simple_command_argc(c); k++) {
			strncat(got, simple_command_arg(c, k), sizeof(got) - strlen(got) - 2);
			strcat(got, "\n");
		}
		if (c && simple_command_argc(c) == 1)
			strcat(got, "\n"); /* printf with no word prints its format once */
		cr_expect_str_eq(got, want, "word %s", words[i]);
		command_model_free(m);
	}
}

Test(command_model, leaves_too_many_brace_words_as_written)
{
	struct command_model *m = parse("echo {1..100000}");
	cr_expect(command_model_limits_reached(m) & COMMAND_MODEL_LIMIT_WORDS);
	cr_expect_str_eq(simple_command_arg(command_model_get(m, 0), 1), "{1..100000}");
	command_model_free(m);
	/* a variable's value is not brace-expanded, nor a parameter's default */
	static const char *const one_word[] = { "A={x,y}; echo $A", "echo ${X:-{a,b}}" };
	for (size_t i = 0; i < ELEMENTSOF(one_word); i++) {
		m = parse(one_word[i]);
		size_t n = command_model_count(m);
		cr_expect_eq(simple_command_argc(command_model_get(m, n - 1)), 2, "%s",
		             one_word[i]);
		command_model_free(m);
	}
}

Test(command_model, reuses_one_parser_for_many_commands)
{
	struct command_model_parser *p = NULL;
	cr_assert_eq(command_model_parser_new(&p), 0);
	for (int i = 0; i < 100; i++) {
		struct command_model *m = NULL;
		const char *cmd = i % 2 ? "bash -c 'a | b'" : "x $(y) <(z)";
		cr_assert_eq(command_model_parse(p, cmd, strlen(cmd), NULL, &m, NULL), 0);
		cr_assert_eq(command_model_count(m), 3);
		command_model_free(m);
	}
	command_model_parser_free(p);
}

Test(command_model, state_forgets_a_name_given_by_length)
{
	struct model_state st = { 0 };
	cr_assert_eq(model_state_set(&st, "AB", "1"), 0);
	cr_assert_eq(model_state_set(&st, "A", "2"), 0);
	/* "A" out of "AB=x": only the variable named exactly A */
	model_state_unset_n(&st, "AB=x", 1);
	cr_expect_null(model_state_get(&st, "A"));
	cr_expect_str_eq(model_state_get(&st, "AB"), "1");
	model_state_unset_n(&st, "ABC", 2);
	cr_expect_null(model_state_get(&st, "AB"));
	cr_expect_eq(st.n_vars, 0);
	model_state_done(&st);
}

Test(command_model, strbuf_hands_out_no_text_with_a_part_missing)
{
	struct strbuf sb = strbuf_init(16);
	cr_assert_eq(strbuf_append_str(&sb, "ab"), 0);
	sb.failed = true; /* what a failed allocation in an append leaves */
	cr_expect_null(strbuf_take(&sb));
	cr_expect_not(sb.failed, "take starts the buffer afresh");
	cr_assert_eq(strbuf_append_str(&sb, "c"), 0);
	char *t = strbuf_take(&sb);
	cr_expect_str_eq(t, "c");
	free(t);
}
