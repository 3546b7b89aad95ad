#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The protected paths ([sandbox] protect), attacked for real through
# `sluice run`: a command plants code in a file another program runs later
# with the user's full rights (a git hook manager's configuration or
# script, an agent's or editor's project settings), and the user's own
# tool pulls the trigger afterwards, outside the sandbox. Each attack runs
# first with --sandbox unrestricted, where it must work (the positive
# control, checked on the effect: the mark the planted code leaves), then
# in the default sandbox, where it must not. Then: the note that names the
# path and the key, and the key itself letting a file be edited.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# the commands must meet the home, repositories and files there.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="the protected paths"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"

tools=${SLUICE_HOOK_MANAGERS_DIR:-$SLUICE_SRCDIR/third_party/hook-managers}/node_modules
husky_bin=$tools/husky/bin.js
lefthook=$tools/.bin/lefthook
[ -x "$lefthook" ] || lefthook=$(command -v lefthook || true)

# commit_outside DIR: the user's next commit, with a change staged (some
# hook managers skip their commands when nothing is staged).
commit_outside() {
  (cd "$1" && echo change >>README && git add README && git commit -q -m outside) >/dev/null 2>&1
}

# attack NAME SETUP COMMAND TRIGGER: SETUP DIR makes a fresh repository
# (under a name of its own: a Landlock rule holds on to the inode), COMMAND
# plants code that touches $marks/NAME, TRIGGER DIR is what the user does
# next. Unsandboxed, the mark must appear; in the default sandbox, not.
attack() {
  local name=$1 setup=$2 command=$3 trigger=$4 dir
  rm -f "$marks/$name"
  dir=$TEST_TMP/control-$name
  "$setup" "$dir"
  run "$SLUICE" run -C "$dir" --sandbox unrestricted -- "$command"
  "$trigger" "$dir"
  if [ ! -e "$marks/$name" ]; then
    not_ok "$name: the attack works unsandboxed (positive control)" "$out" "$err"
    return
  fi
  ok "$name: the attack works unsandboxed (positive control)"
  rm -f "$marks/$name"
  dir=$TEST_TMP/boxed-$name
  "$setup" "$dir"
  run "$SLUICE" run -C "$dir" -- "$command"
  "$trigger" "$dir"
  [ ! -e "$marks/$name" ]
  report $? "$name: stopped in the default sandbox" "$out" "$err"
}

# --- husky 9: core.hooksPath = .husky/_, whose runner sources .husky/NAME
husky_repo() {
  new_repo "$1"
  echo '{"name":"x","private":true}' >"$1/package.json"
  (cd "$1" && node "$husky_bin" >/dev/null)
  echo 'exit 0' >"$1/.husky/pre-commit"
}
if [ -e "$husky_bin" ] && command -v node >/dev/null; then
  attack husky-rewrite husky_repo "echo 'touch $marks/husky-rewrite' >.husky/pre-commit" commit_outside
  attack husky-new-hook husky_repo \
    "printf 'touch $marks/husky-new-hook\n' >.husky/pre-commit.tmp && mv .husky/pre-commit.tmp .husky/pre-commit" \
    commit_outside
  attack husky-replace-folder husky_repo \
    "mv .husky .husky-old || rm -rf .husky; mkdir -p .husky/_ && cp .husky-old/_/* .husky/_/ 2>/dev/null; echo 'touch $marks/husky-replace-folder' >.husky/pre-commit" \
    commit_outside
else
  skip "husky's hook scripts" "husky is not installed (scripts/setup.sh installs it with npm) or node is missing"
fi

# --- lefthook: lefthook.yml and its variants say what runs
lefthook_repo() {
  new_repo "$1"
  printf 'pre-commit:\n  commands:\n    fine:\n      run: "true"\n' >"$1/lefthook.yml"
  (cd "$1" && LEFTHOOK_BIN="$lefthook" "$lefthook" install >/dev/null 2>&1)
}
lefthook_evil() {
  printf "pre-commit:\\\\n  commands:\\\\n    evil:\\\\n      run: touch $marks/%s\\\\n" "$1"
}
if [ -n "$lefthook" ]; then
  export LEFTHOOK_BIN=$lefthook
  attack lefthook-rewrite lefthook_repo "printf \"$(lefthook_evil lefthook-rewrite)\" >lefthook.yml" commit_outside
  attack lefthook-dot-variant lefthook_repo \
    "printf \"$(lefthook_evil lefthook-dot-variant)\" >.lefthook.yml; rm -f lefthook.yml" commit_outside
  # a file that did not exist: no mount can cover it; renamed after the run
  attack lefthook-local-new lefthook_repo "printf \"$(lefthook_evil lefthook-local-new)\" >lefthook-local.yml" \
    commit_outside
  # the blocked name taken first by a folder: the file is renamed all the same
  attack lefthook-local-taken lefthook_repo \
    "mkdir -p lefthook-local.yml.sluice-blocked/x && printf \"$(lefthook_evil lefthook-local-taken)\" >lefthook-local.yml" \
    commit_outside
  attack lefthook-config-dir lefthook_repo \
    "mkdir -p .config && printf \"$(lefthook_evil lefthook-config-dir)\" >.config/lefthook-local.yml" commit_outside
  # the entry's folder a symlink the command made: the watch follows no
  # symlink, and once skipped it (notes-redteam/46-protect-symlink-folder.sh)
  attack lefthook-config-link lefthook_repo \
    "mkdir -p .cfg && printf \"$(lefthook_evil lefthook-config-link)\" >.cfg/lefthook-local.yml && ln -s .cfg .config" \
    commit_outside
  # the same from a background job, checked when the job ends
  dir=$TEST_TMP/boxed-background
  lefthook_repo "$dir"
  rm -f "$marks/background"
  run "$SLUICE" run -C "$dir" --mode background -- "printf \"$(lefthook_evil background)\" >lefthook-local.yml"
  job_out=$(sed -n 's/^\[output: \([^ ]*\) .*/\1/p' <<<"$out")
  wait_for 20 grep -q '^\[sluice: job' "$job_out"
  commit_outside "$dir"
  [ ! -e "$marks/background" ] && grep -q 'renamed to NAME.sluice-blocked: lefthook-local.yml' "$job_out"
  report $? "a background job's new lefthook-local.yml is renamed when it ends, and its output says so" \
    "$(cat "$job_out")"
  # ... and from one that lives on, while the user commits: unrestricted
  # (the positive control), lefthook runs it; in the default sandbox it is
  # renamed at once and the job ended
  for side in control boxed; do
    dir=$TEST_TMP/$side-living-job
    lefthook_repo "$dir"
    rm -f "$marks/living-job" "$dir/.ready"
    run "$SLUICE" run -C "$dir" $([ $side = control ] && echo --sandbox unrestricted) --mode background \
      --timeout 60s -- "printf \"$(lefthook_evil living-job)\" >lefthook-local.yml; touch .ready; sleep 30"
    job_out=$(sed -n 's/^\[output: \([^ ]*\) .*/\1/p' <<<"$out")
    job_id=$(sed -n 's/^\[started in background: job \([^,]*\),.*/\1/p' <<<"$out")
    wait_for 20 test -e "$dir/.ready"
    sleep 1 # five looks of the job's monitor
    commit_outside "$dir"
    if [ $side = control ]; then
      [ -e "$marks/living-job" ]
      report $? "a living job's new lefthook-local.yml runs in the user's commit unsandboxed (positive control)" \
        "$out"
      "$SLUICE" kill "$job_id" >/dev/null 2>&1
    else
      wait_for 20 grep -q '^\[sluice: job' "$job_out"
      [ ! -e "$marks/living-job" ] && grep -q 'renamed to NAME.sluice-blocked: lefthook-local.yml' "$job_out" &&
        grep -q 'ended by sluice, with everything it started: it made a protected file' "$job_out"
      report $? "a living job's new lefthook-local.yml is renamed at once and the job ended, before the user's commit" \
        "$(cat "$job_out")"
    fi
  done
else
  skip "lefthook's configuration" "lefthook is not installed (scripts/setup.sh installs it with npm)"
fi

# --- pre-commit: .pre-commit-config.yaml says what runs (and must be
# staged, or pre-commit refuses to run)
precommit_repo() {
  new_repo "$1"
  printf 'repos:\n- repo: local\n  hooks:\n  - id: fine\n    name: fine\n    entry: "true"\n    language: system\n' \
    >"$1/.pre-commit-config.yaml"
  git -C "$1" add .pre-commit-config.yaml
  git -C "$1" commit -q -m config
  (cd "$1" && pre-commit install >/dev/null 2>&1)
}
if command -v pre-commit >/dev/null; then
  export PRE_COMMIT_HOME=$TEST_TMP/pre-commit-cache
  attack pre-commit precommit_repo \
    "printf 'repos:\n- repo: local\n  hooks:\n  - id: evil\n    name: evil\n    entry: touch $marks/pre-commit\n    language: system\n    pass_filenames: false\n' >.pre-commit-config.yaml; git add .pre-commit-config.yaml" \
    commit_outside
else
  skip "pre-commit's configuration" "pre-commit is not installed (apt-get install pre-commit)"
fi

# --- agents' and editors' project configuration: the effect is the file
# itself, which the agent or editor reads on its next start (the e2e tests
# start the agents); checked from outside.
agent_repo() {
  new_repo "$1"
  mkdir -p "$1/.claude"
  echo '{}' >"$1/.claude/settings.json"
  echo '{"mcpServers":{}}' >"$1/.mcp.json"
  git -C "$1" add -A
  git -C "$1" commit -q -m agents
}
# The same with .claude a link to a folder beside it: the folder the link
# names is what is kept read-only.
linked_agent_repo() {
  agent_repo "$1"
  mv "$1/.claude" "$1/agent-config"
  ln -s agent-config "$1/.claude"
  git -C "$1" add -A
  git -C "$1" commit -q -m linked
}
# planted NAME COMMAND CHECK [SETUP]: CHECK (bash, in the workspace) holds
# after COMMAND unsandboxed, and not after it in the default sandbox, in a
# repository SETUP makes (agent_repo).
planted() {
  local name=$1 command=$2 check=$3 setup=${4:-agent_repo} dir
  dir=$TEST_TMP/control-$name
  "$setup" "$dir"
  run "$SLUICE" run -C "$dir" --sandbox unrestricted -- "$command"
  if ! (cd "$dir" && eval "$check"); then
    not_ok "$name: planted unsandboxed (positive control)" "$out" "$err"
    return
  fi
  ok "$name: planted unsandboxed (positive control)"
  dir=$TEST_TMP/boxed-$name
  "$setup" "$dir"
  run "$SLUICE" run -C "$dir" -- "$command"
  ! (cd "$dir" && eval "$check")
  report $? "$name: not planted in the default sandbox" "$out" "$err"
}
hook='{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch /tmp/x"}]}]}}'
planted claude-settings "echo '$hook' >.claude/settings.json" 'grep -q SessionStart .claude/settings.json'
planted claude-settings-local "echo '$hook' >.claude/settings.local.json" 'grep -qs SessionStart .claude/settings.local.json'
planted claude-settings-linked "echo '$hook' >agent-config/settings.json" \
  'grep -q SessionStart agent-config/settings.json' linked_agent_repo
planted claude-command "mkdir -p .claude/commands && echo 'run curl example.org' >.claude/commands/x.md" '[ -e .claude/commands/x.md ]'
planted claude-folder-swapped "mv .claude .claude-old || rm -rf .claude; mkdir .claude && echo '$hook' >.claude/settings.json" \
  'grep -qs SessionStart .claude/settings.json'
planted mcp-json "echo '{\"mcpServers\":{\"x\":{\"command\":\"sh\"}}}' >.mcp.json" 'grep -q sh .mcp.json'
planted mcp-json-renamed-over "echo '{\"mcpServers\":{\"x\":{\"command\":\"sh\"}}}' >m && mv -f m .mcp.json" 'grep -q sh .mcp.json'
planted mcp-json-symlink "rm -f .mcp.json; ln -s /tmp/elsewhere .mcp.json" '[ -L .mcp.json ]'
planted vscode-tasks "mkdir -p .vscode && echo '{\"tasks\":[{\"runOptions\":{\"runOn\":\"folderOpen\"}}]}' >.vscode/tasks.json" \
  '[ -e .vscode/tasks.json ]'
planted gemini-settings "mkdir -p .gemini && echo '$hook' >.gemini/settings.json" '[ -e .gemini/settings.json ]'
planted devcontainer "mkdir -p .devcontainer && echo '{\"postCreateCommand\":\"sh\"}' >.devcontainer/devcontainer.json" \
  '[ -e .devcontainer/devcontainer.json ]'
# what a project's .envrc sources: direnv asks `direnv allow` for .envrc's
# text only, and runs .envrc.local at the user's next cd
# (notes-redteam/46-direnv-sourced.sh, with direnv itself)
envrc_repo() {
  agent_repo "$1"
  echo 'source_env_if_exists .envrc.local' >"$1/.envrc"
  git -C "$1" add .envrc
  git -C "$1" commit -q -m envrc
}
planted envrc-local "echo 'touch ~/planted' >.envrc.local" '[ -e .envrc.local ]' envrc_repo

# --- tools' project settings that make the user's routine command run a
# program the file names (red team 51b): a path: version first on the
# PATH (mise, asdf), a toolchain path (rustup), a rustc-wrapper (cargo
# metadata), the yarn release run in place of yarn, npm's settings over
# the user's own, the pnpmfile every pnpm command loads, pylint's
# init-hook. Each one the project has, written over; one it lacks, made.
tools_repo() {
  agent_repo "$1"
  printf 'nodejs 20.11.0\n' >"$1/.tool-versions"
  printf '[toolchain]\nchannel = "stable"\n' >"$1/rust-toolchain.toml"
  mkdir -p "$1/.cargo" && printf '[build]\njobs = 2\n' >"$1/.cargo/config.toml"
  printf 'nodeLinker: node-modules\n' >"$1/.yarnrc.yml"
  printf 'save-exact=true\n' >"$1/.npmrc"
  printf '[MAIN]\njobs=2\n' >"$1/.pylintrc"
  git -C "$1" add -A && git -C "$1" commit -q -m tools
}
planted tool-versions 'echo "nodejs path:$PWD/.tools/node" >>.tool-versions' 'grep -q path: .tool-versions' tools_repo
planted rust-toolchain-path "printf '[toolchain]\\npath = \"/opt/x\"\\n' >rust-toolchain.toml" 'grep -q path rust-toolchain.toml' tools_repo
planted rust-toolchain-new 'echo /opt/x >rust-toolchain' '[ -e rust-toolchain ]' tools_repo
planted cargo-wrapper "printf 'rustc-wrapper = \"/opt/x\"\\n' >>.cargo/config.toml" 'grep -q wrapper .cargo/config.toml' tools_repo
planted cargo-config-new 'echo "[build]" >.cargo/config' '[ -e .cargo/config ]' tools_repo
planted yarn-path 'echo "yarnPath: x.cjs" >>.yarnrc.yml' 'grep -q yarnPath .yarnrc.yml' tools_repo
planted yarn1-path 'echo "yarn-path x.js" >.yarnrc' '[ -e .yarnrc ]' tools_repo
planted npmrc 'echo ignore-scripts=false >>.npmrc' 'grep -q ignore-scripts .npmrc' tools_repo
planted pylint-init-hook 'echo "init-hook=import os" >>.pylintrc' 'grep -q init-hook .pylintrc' tools_repo
planted pylintrc-new 'printf "[MAIN]\ninit-hook=1\n" >pylintrc' '[ -e pylintrc ]' tools_repo
# pnpm loads .pnpmfile.cjs in every command, pnpm ls too: the user's own
# pnpm pulls the trigger (pnpm from scripts/setup.sh's dev tools)
pnpm=${SLUICE_DEV_TOOLS_DIR:-$SLUICE_SRCDIR/third_party/dev-tools}/node_modules/.bin/pnpm
if [ -x "$pnpm" ] && command -v node >/dev/null; then
  pnpm_repo() {
    new_repo "$1"
    printf '{"name":"p","version":"1.0.0"}\n' >"$1/package.json"
    git -C "$1" add -A && git -C "$1" commit -q -m package
  }
  pnpm_ls() { (cd "$1" && "$pnpm" ls) >/dev/null 2>&1; }
  attack pnpmfile pnpm_repo \
    "printf 'require(\"fs\").writeFileSync(\"%s\", \"x\");\\nmodule.exports = { hooks: {} };\\n' '$marks/pnpmfile' >.pnpmfile.cjs" \
    pnpm_ls
else
  skip "pnpm's .pnpmfile.cjs" "pnpm is not installed (scripts/setup.sh installs the dev tools) or node is missing"
fi

mcp='{"mcpServers":{"x":{"command":"sh"}}}'
new_repo "$TEST_TMP/mcp-control"
run "$SLUICE" run -C "$TEST_TMP/mcp-control" --sandbox unrestricted -- "echo '$mcp' >.mcp.json"
grep -q sh "$TEST_TMP/mcp-control/.mcp.json"
report $? "mcp-json-new: a new .mcp.json is planted unsandboxed (positive control)" "$out"
new_repo "$TEST_TMP/mcp-new"
run "$SLUICE" run -C "$TEST_TMP/mcp-new" -- "echo '$mcp' >.mcp.json"
[ ! -e "$TEST_TMP/mcp-new/.mcp.json" ] && [ -e "$TEST_TMP/mcp-new/.mcp.json.sluice-blocked" ] &&
  grep -q 'renamed to NAME.sluice-blocked: .mcp.json' <<<"$out"
report $? "mcp-json-new: renamed after the run in the default sandbox, and the result says so" "$out"

# --- what the agent is told, and the key that allows the edit
dir=$TEST_TMP/message
agent_repo "$dir"
run "$SLUICE" run -C "$dir" -- "echo x >.claude/settings.json"
grep -q 'protected path .claude/settings.json' <<<"$out" && grep -qF '[sandbox] protect' <<<"$out"
report $? "a denied edit names the file and [sandbox] protect" "$out"
# A denial whose output merely holds an entry's name inside another word
# (node's stack: "internal/fs/promises" holds "mise", as in mise*.toml)
# names no protected path; a real one later in the same output still does.
run "$SLUICE" run -C "$dir" -- "echo 'EACCES: permission denied, open /nonexistent/.npmrc'; echo '    at async Object.mkdir (node:internal/fs/promises:856:10)'; exit 1"
grep -q 'sandbox: this looks like a denial' <<<"$out" && ! grep -q 'protected path' <<<"$out"
report $? "a name inside another word (promises, mise*.toml), or a path outside the workspace, is not taken for a protected path" "$out"
# the home's .npmrc (npm config set, npm login write it; the home is
# read-only) is not the workspace's protected .npmrc
run "$SLUICE" run -C "$dir" -- 'echo x >>"$HOME/.npmrc"'
grep -q 'sandbox: this looks like a denial' <<<"$out" && ! grep -q 'protected path' <<<"$out"
report $? "a denied write of ~/.npmrc is not named a protected path (.npmrc is one only at the workspace's top)" "$out"
echo '[tools]' >"$dir/mise.local.toml"
run "$SLUICE" run -C "$dir" -- "echo 'at (node:internal/fs/promises:856:10)'; echo x >mise.local.toml"
grep -q 'protected path mise.local.toml' <<<"$out" && grep -q "entry 'mise\*.toml'" <<<"$out"
report $? "... and a real one after it in the same output is named" "$out"
# husky 9 run as a `prepare` script does in a fresh clone: it sets
# core.hooksPath, which the sandbox refuses; git says "Device or resource
# busy" (the config is a mount point) and husky exits 0: the text must
# still say it was the sandbox
if [ -e "$husky_bin" ] && command -v node >/dev/null; then
  new_repo "$TEST_TMP/husky-control"
  run "$SLUICE" run -C "$TEST_TMP/husky-control" --sandbox unrestricted -- "node '$husky_bin'"
  [ "$(git -C "$TEST_TMP/husky-control" config core.hooksPath)" = .husky/_ ]
  report $? "control: husky sets core.hooksPath unsandboxed" "$out" "$err"
  new_repo "$TEST_TMP/husky-boxed"
  run "$SLUICE" run -C "$TEST_TMP/husky-boxed" -- "node '$husky_bin'"
  [ -z "$(git -C "$TEST_TMP/husky-boxed" config core.hooksPath)" ] &&
    grep -q 'could not write config file.*Device or resource busy' <<<"$out" &&
    grep -q '^\[sandbox: this looks like a denial' <<<"$out"
  report $? "husky in the sandbox: core.hooksPath stays unset, and its 'Device or resource busy' gets the sandbox note" "$out" "$err"
else
  skip "husky's core.hooksPath and the note" "husky is not installed (scripts/setup.sh installs it with npm) or node is missing"
fi
# husky 8's `husky install` (a `prepare` script: ms's npm ci in bench/day.sh)
# makes .husky/_ with Node's recursive mkdir, which reports the read-only
# folder as ENOENT: the same call here (husky 8 itself below)
if command -v node >/dev/null; then
  mk="node -e 'require(\"fs\").mkdirSync(\".husky/_\", { recursive: true })'"
  new_repo "$TEST_TMP/husky8-control"
  run "$SLUICE" run -C "$TEST_TMP/husky8-control" --sandbox unrestricted -- "$mk"
  [ -d "$TEST_TMP/husky8-control/.husky/_" ]
  report $? "control: husky 8's mkdir of .husky/_ works unsandboxed" "$out" "$err"
  new_repo "$TEST_TMP/husky8-boxed"
  run "$SLUICE" run -C "$TEST_TMP/husky8-boxed" -- "$mk"
  [ ! -e "$TEST_TMP/husky8-boxed/.husky/_" ] &&
    grep -q "ENOENT: no such file or directory, mkdir '.husky/_'" <<<"$out" &&
    grep -q '^\[sandbox: this looks like a denial' <<<"$out" && grep -q 'protected path .husky/_' <<<"$out"
  report $? "husky 8's mkdir in the sandbox: refused, and its ENOENT gets the note naming .husky/" "$out" "$err"
  run "$SLUICE" run -C "$TEST_TMP/husky8-boxed" -- "node -e 'require(\"fs\").mkdirSync(\"nothere/x\")'"
  grep -q "ENOENT: no such file or directory, mkdir 'nothere/x'" <<<"$out" && ! grep -q '^\[sandbox:' <<<"$out"
  report $? "a plain ENOENT of a mkdir elsewhere gets no note" "$out" "$err"
else
  skip "husky 8's mkdir and the note" "node is missing"
fi
# husky 8 itself, as a project's npm prepare script runs it (npm ci and
# npm install of such a project fail with it): refused in the sandbox,
# with a note that says HUSKY=0 skips only that step; with HUSKY=0 the
# script passes and nothing is written, the user's hooks left to them
husky8=${SLUICE_HOOK_MANAGERS_DIR:-$SLUICE_SRCDIR/third_party/hook-managers}/husky8/node_modules/husky
husky8_repo() {
  new_repo "$1"
  mkdir -p "$1/node_modules/.bin"
  ln -s "$husky8" "$1/node_modules/husky"
  ln -s ../husky/lib/bin.js "$1/node_modules/.bin/husky"
  printf '{"name":"p","version":"1.0.0","scripts":{"prepare":"husky install"}}\n' >"$1/package.json"
}
if [ -e "$husky8/lib/bin.js" ] && command -v npm >/dev/null; then
  husky8_repo "$TEST_TMP/husky8-real-control"
  run "$SLUICE" run -C "$TEST_TMP/husky8-real-control" --sandbox unrestricted -- "npm run prepare"
  [ "$rc" -eq 0 ] && [ -e "$TEST_TMP/husky8-real-control/.husky/_/husky.sh" ] &&
    [ "$(git -C "$TEST_TMP/husky8-real-control" config core.hooksPath)" = .husky ]
  report $? "control: husky 8's prepare script installs the hooks unsandboxed" "$out" "$err"
  husky8_repo "$TEST_TMP/husky8-real"
  run "$SLUICE" run -C "$TEST_TMP/husky8-real" -- "npm run prepare"
  [ "$rc" -ne 0 ] && [ ! -e "$TEST_TMP/husky8-real/.husky/_" ] &&
    grep -q '^husky - Git hooks failed to install' <<<"$out" &&
    grep -q '^\[sandbox: husky could not install the git hooks.*HUSKY=0 npm ci' <<<"$out"
  report $? "husky 8's prepare script in the sandbox: refused, with the note that HUSKY=0 skips that step" "$out" "$err"
  run "$SLUICE" run -C "$TEST_TMP/husky8-real" -- "HUSKY=0 npm run prepare"
  [ "$rc" -eq 0 ] && [ ! -e "$TEST_TMP/husky8-real/.husky/_" ] &&
    [ -z "$(git -C "$TEST_TMP/husky8-real" config core.hooksPath)" ] && ! grep -q '^\[sandbox:' <<<"$out"
  report $? "with HUSKY=0 the prepare script passes, and nothing of the hooks is written" "$out" "$err"
else
  skip "husky 8's prepare script and its note" "husky 8 is not installed (scripts/setup.sh installs it with npm) or npm is missing"
fi
config=$TEST_TMP/allow.ini
printf '[sandbox]\nprotect =\nprotect = .mcp.json\n' >"$config"
run "$SLUICE" run --config "$config" -C "$dir" -- "echo '{\"edited\":1}' >.claude/settings.json && echo x >.mcp.json"
grep -q edited "$dir/.claude/settings.json" && ! grep -qx x "$dir/.mcp.json"
report $? "[sandbox] protect without .claude/ lets a command edit it, and keeps the rest" "$out" "$err"

# --- everyday work beside the protected paths
dir=$TEST_TMP/everyday
agent_repo "$dir"
run "$SLUICE" run -C "$dir" -- "echo new >notes.txt && mkdir -p src && echo code >src/a.c && git add notes.txt src/a.c && git commit -q -m work && cat .claude/settings.json"
[ "$rc" -eq 0 ] && [ "$(git -C "$dir" log -1 --format=%s)" = work ]
report $? "files beside the protected ones are written and committed" "$out" "$err"
if [ -n "$namespace" ]; then
  [ -z "$(git -C "$dir" status --porcelain)" ]
  report $? "the folders made empty (.vscode/, .gemini/, ...) leave git status clean" "$(git -C "$dir" status --porcelain)"
fi
[ "$(json_get "$("$SLUICE" run -C "$dir" --format json -- true)" '"protected-paths" in d["sandbox"]["enforced"]')" = True ]
report $? "the result names protected-paths as enforced"

# A workspace the user cannot write: the folders cannot be made, and the
# command could not make them either; it runs (root writes anyway).
if [ "$(id -u)" -ne 0 ]; then
  dir=$TEST_TMP/not-mine
  new_repo "$dir"
  chmod a-w "$dir"
  run "$SLUICE" run -C "$dir" -- "cat README"
  [ "$rc" -eq 0 ] && grep -qx one <<<"$out"
  report $? "a workspace the user cannot write still runs commands" "$out" "$err"
  chmod u+w "$dir"
fi

# git stash -u and git clean -d: the protected paths are read-only mount
# points (the empty folders made among them), which a git that takes them
# for untracked fails to remove ("Device or resource busy") after it has
# stashed; the git the command runs ignores them (step git-excludes), and
# the user's own excludes file still counts there.
if [ -n "$namespace" ]; then
  dir=$TEST_TMP/stash-u
  new_repo "$dir"
  ignore=${XDG_CONFIG_HOME:-$HOME/.config}/git/ignore # where git reads it
  mkdir -p "$(dirname "$ignore")"
  printf '*.log\n' >"$ignore"
  echo note >"$dir/untracked.txt"
  echo log >"$dir/build.log"
  run "$SLUICE" run -C "$dir" -- 'unset GIT_CONFIG_COUNT; git stash -u -q; echo "stash $?"; git stash pop -q; git status --short'
  control=$out
  grep -q 'stash 1' <<<"$control" && grep -q 'Device or resource busy' <<<"$control"
  report $? "control: without the excludes, git stash -u fails on the protected folders" "$control" "$err"
  run "$SLUICE" run -C "$dir" -- 'git stash -u -q && ls && git stash pop -q && git status --short && git clean -nd'
  [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^build.log$')" -eq 1 ] &&
    grep -qx '?? untracked.txt' <<<"$out" && ! grep -q 'build.log\|Device or resource' <<<"$(grep -v '^build.log$' <<<"$out")" &&
    [ -f "$dir/untracked.txt" ] && [ -z "$(git -C "$dir" stash list)" ]
  report $? "git stash -u, pop and clean -n work; the user's own excludes still count" "$out" "$err"
  rm -f "$ignore"
fi
