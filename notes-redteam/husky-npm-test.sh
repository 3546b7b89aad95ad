#!/usr/bin/env bash
# Class: files other programs run later (issue 30 §3). `.husky/` is
# protected, but the hook husky's own `husky init` writes is `npm test`:
# the protected hook runs a script of package.json, which is writable. The
# command changes "test"; the user's own next `git commit` runs it.
# (The same holds for `npx lint-staged` and its .lintstagedrc /
# lint-staged.config.js, `npx commitlint` and commitlint.config.js, a
# lefthook.yml or .pre-commit-config.yaml `repo: local` entry naming
# ./scripts/x.sh, and node_modules/.bin, all writable.)
# Usage: husky-npm-test.sh [control]  (control: the command writes
# .husky/pre-commit itself, which the protection stops)
. "$(dirname "$0")/env.sh"
HM=${SLUICE_HOOK_MANAGERS_DIR:-/work/main/third_party/hook-managers}
cd "$REPO"
printf '{ "name": "p", "version": "1.0.0", "scripts": { "test": "echo tests pass" } }\n' >package.json
mkdir -p node_modules && cp -r "$HM/node_modules/husky" node_modules/
node node_modules/husky/bin.js init >/dev/null   # the user's setup: .husky/pre-commit = "npm test"
echo node_modules >.gitignore
git add -A && git commit -qm "husky" </dev/null
echo "--- the user's hook: $(cat .husky/pre-commit); core.hooksPath=$(git config core.hooksPath)"
if [ "$1" = control ]; then
  boxed 'echo "touch ~/PWNED-husky" >.husky/pre-commit && echo planted'
else
  boxed 'sed -i "s|echo tests pass|touch ~/PWNED-husky|" package.json && echo planted'
fi
# the user's own next commit, outside
echo x >>README; git commit -qam "user's commit" </dev/null >/dev/null 2>&1
if [ -e "$HOME/PWNED-husky" ]; then echo "HOLE: the user's git commit ran the command's code"; else echo "stopped"; fi
