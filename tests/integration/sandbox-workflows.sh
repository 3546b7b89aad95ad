#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Everyday developer work through `sluice run --sandbox workspace-write`, in
# a real git repository, each asserted to succeed and to leave what a user
# would check: files at the top of the workspace, editors' atomic saves,
# git add / commit / switch / stash / tag / rebase / reset --soft / merge /
# cherry-pick, make, cc, python3, node, mktemp, tar, symlinks. Needs the
# namespace layer (the private mount namespace); where this system gives
# none, every workflow is skipped with the reason (sandbox-protections.sh
# checks what the Landlock-only fallback says instead).
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# the commands must meet the home, repositories and files there.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

export HOME=$TEST_TMP/home
repo=$HOME/proj
mkdir -p "$repo"
git config --global user.name "Sluice Test"
git config --global user.email test@example.invalid
git config --global init.defaultBranch main
git -C "$repo" init -q
printf 'one\ntwo\n' >"$repo/README"
printf 'all: out.txt\nout.txt: README\n\tcp README out.txt\n' >"$repo/Makefile"
git -C "$repo" add README Makefile
git -C "$repo" commit -q -m init

features=$("$SLUICE_LAUNCH" --print-features 2>/dev/null || true)
why=
if ! grep -q '"landlock_abi":[1-9]' <<<"$features"; then
  why="no Landlock here"
elif grep -q '"namespace":"unavailable"' <<<"$features"; then
  why="no mount namespace here (${features#*\"namespace_error\":})"
fi

# wf NAME COMMAND [CHECK]: COMMAND (bash) in the workspace must succeed,
# then CHECK (bash, run outside the sandbox in the repository) too.
wf() {
  local name=$1 command=$2 check=${3:-true}
  if [ -n "$why" ]; then
    skip "$name" "$why"
    return
  fi
  run "$SLUICE" run -C "$repo" --sandbox workspace-write -- "$command"
  if [ "$rc" -ne 0 ]; then
    not_ok "$name" "exit status $rc" "$out" "$err"
  elif ! (cd "$repo" && eval "$check") >"$TEST_TMP/check.out" 2>&1; then
    not_ok "$name" "the check failed: $check" "$(cat "$TEST_TMP/check.out")" "$out"
  else
    ok "$name"
  fi
}

# needs TOOL NAME: skip NAME (and return 1) when TOOL is missing.
needs() {
  command -v "$1" >/dev/null && return 0
  skip "$2" "$1 is not installed"
  return 1
}

# --- files at the top of the workspace (beside .git)
wf "create a file at the top" 'echo hello >notes.txt' 'grep -qx hello notes.txt'
wf "rename a file at the top" 'mv notes.txt renamed.txt' '[ ! -e notes.txt ] && [ -f renamed.txt ]'
wf "delete a file at the top" 'rm renamed.txt' '[ ! -e renamed.txt ]'
wf "mkdir and nested files" 'mkdir -p src/lib && echo "x" >src/lib/a.txt' '[ -f src/lib/a.txt ]'
wf "sed -i on a tracked file" 'sed -i s/two/TWO/ README' 'grep -qx TWO README'
wf "an editor's atomic save (write a temporary, rename over)" \
  'printf "one\nthree\n" >.README.swp && mv -f .README.swp README' 'grep -qx three README && [ ! -e .README.swp ]'
wf "chmod +x and touch -d a workspace file" \
  'printf "#!/bin/sh\necho run\n" >run.sh && chmod +x run.sh && touch -d 2001-01-01 run.sh && ./run.sh' \
  '[ -x run.sh ] && [ "$(stat -c %Y run.sh)" = "$(date -d 2001-01-01 +%s)" ]'
wf "a symlink at the top" 'ln -s README link && cat link' '[ -L link ]'
wf "cp -a a folder" 'cp -a src src-copy' '[ -f src-copy/lib/a.txt ]'
wf "tar extract at the top" \
  'mkdir -p "$TMPDIR/t/pkg" && echo p >"$TMPDIR/t/pkg/f" && tar -C "$TMPDIR/t" -cf "$TMPDIR/p.tar" pkg && tar -xf "$TMPDIR/p.tar"' \
  '[ -f pkg/f ]'
wf "mktemp and mktemp -d in the private TMPDIR" \
  'f=$(mktemp) && d=$(mktemp -d) && echo x >"$f" && touch "$d/y" && [ "${f#"$TMPDIR"/}" != "$f" ]'
wf "a large file in TMPDIR (within its cap)" 'head -c 8M /dev/zero >"$TMPDIR/big" && [ "$(stat -c %s "$TMPDIR/big")" = 8388608 ]'

# --- git
wf "git status, diff, log" 'git status --short && git diff --stat && git log --oneline -1'
wf "git add and commit" 'git add README run.sh link src src-copy pkg && git commit -q -m "work"' 'git log -1 --format=%s | grep -qx work && [ -z "$(git status --porcelain)" ]'
wf "git commit --amend" 'git commit -q --amend -m "work, amended"' 'git log -1 --format=%s | grep -qx "work, amended"'
wf "git switch -c" 'git switch -q -c feature' '[ "$(git branch --show-current)" = feature ]'
wf "commit on the branch" 'echo f >feature.txt && git add feature.txt && git commit -q -m feature' \
  'git log -1 --format=%s | grep -qx feature'
wf "git switch back" 'git switch -q main' '[ "$(git branch --show-current)" = main ]'
wf "git stash and stash pop" \
  'echo dirty >>README && git stash -q && git diff --quiet && git stash pop -q && grep -q dirty README' \
  'grep -q dirty README'
wf "git restore" 'git restore README' 'git diff --quiet'
wf "git tag (light and annotated)" 'git tag v1 && git tag -a v1a -m "release"' 'git rev-parse -q --verify v1a >/dev/null'
wf "commit on main, then git rebase the branch" \
  'echo m >main.txt && git add main.txt && git commit -q -m main-change && git switch -q feature && git rebase -q main && git switch -q main' \
  'git merge-base --is-ancestor main feature'
wf "git merge --no-ff" 'git merge -q --no-ff -m merged feature' 'git log -1 --format=%s | grep -qx merged'
wf "git cherry-pick" \
  'git switch -q -c pick main~1 && git cherry-pick feature >/dev/null && git switch -q main' \
  'git log -1 --format=%s pick | grep -qx feature'
wf "git reset --soft" 'git reset -q --soft HEAD~1' 'git log -1 --format=%s | grep -qvx merged'
wf "git commit after the reset" 'git commit -q -m "again"' 'git log -1 --format=%s | grep -qx again'
wf "git clean -fd" 'mkdir -p junk && touch junk/x && git clean -q -fd junk' '[ ! -e junk ]'
wf "git gc" 'git gc -q' 'git fsck --no-progress >/dev/null 2>&1'

# --- tools
wf "make with a Makefile at the top" 'make -s' '[ -f out.txt ]'
if needs cc "cc compiles and runs a program"; then
  wf "cc compiles and runs a program" \
    'printf "#include <stdio.h>\nint main(void){puts(\"built\");return 0;}\n" >hello.c && cc -o hello hello.c && ./hello' \
    '[ -x hello ]'
fi
if needs python3 "python3 writes files (and replaces one atomically)"; then
  wf "python3 writes files (and replaces one atomically)" \
    'python3 -c "
import os, tempfile
open(\"py.txt\", \"w\").write(\"py\")
fd, tmp = tempfile.mkstemp(dir=\".\")
os.write(fd, b\"atomic\"); os.close(fd); os.replace(tmp, \"py-atomic.txt\")
"' 'grep -qx py py.txt && grep -qx atomic py-atomic.txt'
fi
if needs node "node writes files"; then
  wf "node writes files" "node -e 'require(\"fs\").writeFileSync(\"node.txt\", \"js\")'" 'grep -qx js node.txt'
fi

# The repository stays sound and the hooks untouched after all of it.
if [ -z "$why" ]; then
  git -C "$repo" fsck --no-progress >/dev/null 2>&1 && ok "the repository is sound afterwards" ||
    not_ok "the repository is sound afterwards" "$(git -C "$repo" fsck 2>&1 | head -5)"
fi
