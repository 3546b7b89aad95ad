# SPDX-License-Identifier: MIT
# Shared setup of the end-to-end tests (tests/e2e/*.sh), sourced after
# tests/lib.sh and run-lib.sh: the agent CLIs installed by
# scripts/fetch-agents.sh, the scripted model (fake_model.py) on loopback, a
# workspace with a local bare remote whose branch a force push would
# rewrite, and what the model was handed for each step of its script.
# Not for: the checks themselves (each CLI's script makes those).

e2e_dir="$SLUICE_SRCDIR/tests/e2e"
# The interpreter itself, once: a version manager's shim costs seconds a
# call on a loaded machine, and the checks call it often.
python3() {
  e2e_python=${e2e_python:-$(command python3 -c 'import sys; print(sys.executable)')}
  "$e2e_python" "$@"
}
agents_dir=${SLUICE_AGENTS_DIR:-$SLUICE_SRCDIR/third_party/agents}

# e2e_find NAME: the CLI's program in $agents_dir as $e2e_bin, and the
# first line of its --version as $e2e_version; fails (the caller skips,
# saying so) where it is missing or does not start.
e2e_find() {
  e2e_bin="$agents_dir/node_modules/.bin/$1"
  e2e_version=
  [ -x "$e2e_bin" ] || return 1
  mkdir -p "$TEST_TMP/version-home"
  e2e_version=$(HOME="$TEST_TMP/version-home" CODEX_HOME="$TEST_TMP/version-home" \
    GEMINI_CLI_NO_RELAUNCH=true timeout 60 "$e2e_bin" --version 2>/dev/null </dev/null | head -n 1)
  [ -n "$e2e_version" ]
}

# e2e_skip_all CLI REASON NAMES...: one loud skip per check the script would make.
e2e_skip_all() {
  local cli=$1 reason=$2
  shift 2
  for name in "$@"; do skip "$cli: $name" "$reason"; done
}

# The sluice the agents run: a wrapper that puts back the test environment
# (the build's plugins, no system or user configuration but the test's own,
# a private runtime directory), since agents pass hooks and MCP servers
# only part of theirs.
e2e_etc="$TEST_TMP/etc"
mkdir -p "$e2e_etc/sluice" "$TEST_TMP/bin"
printf '#!/bin/sh\ncat >>"%s"\nexit 0\n' "$TEST_TMP/approver.requests" >"$TEST_TMP/bin/approve"
chmod +x "$TEST_TMP/bin/approve"
cat >"$e2e_etc/sluice/sluice.ini" <<EOF
[approval]
method = program
program = $TEST_TMP/bin/approve

[audit]
file = $TEST_TMP/audit.log
EOF
cat >"$TEST_TMP/bin/sluice" <<EOF
#!/bin/sh
export SLUICE_PLUGIN_DIR='$SLUICE_PLUGIN_DIR' SLUICE_SYSCONFDIR='$e2e_etc' \
  SLUICE_LAUNCH='$SLUICE_LAUNCH' XDG_CONFIG_HOME='$XDG_CONFIG_HOME' XDG_RUNTIME_DIR='$XDG_RUNTIME_DIR'
exec '$SLUICE' "\$@"
EOF
chmod +x "$TEST_TMP/bin/sluice"
e2e_sluice="$TEST_TMP/bin/sluice"
# The environment an agent runs in: nothing of the caller's but PATH, and
# what sluice needs (the --route command runs sluice in the agent's shell).
e2e_env=(env -i "PATH=$PATH" "LANG=C.UTF-8" "TERM=dumb" "SLUICE_PLUGIN_DIR=$SLUICE_PLUGIN_DIR"
  "SLUICE_SYSCONFDIR=$e2e_etc" "SLUICE_LAUNCH=$SLUICE_LAUNCH" "XDG_CONFIG_HOME=$XDG_CONFIG_HOME"
  "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR")

# e2e_workspace NAME: a git workspace $TEST_TMP/NAME cloned from the bare
# remote $TEST_TMP/NAME.git, its main pushed, then rewritten locally, so a
# force push would replace the remote's main; $remote_before is that main.
e2e_workspace() {
  local ws="$TEST_TMP/$1" git=(git -c user.name=e2e -c user.email=e2e@example.org -c init.defaultBranch=main)
  "${git[@]}" init -q --bare "$ws.git"
  "${git[@]}" init -q "$ws"
  "${git[@]}" -C "$ws" remote add origin "$ws.git"
  echo one >"$ws/file"
  "${git[@]}" -C "$ws" add file
  "${git[@]}" -C "$ws" commit -q -m one
  "${git[@]}" -C "$ws" push -q origin main
  echo rewritten >"$ws/file"
  "${git[@]}" -C "$ws" commit -q -a --amend -m rewritten
  remote_before=$(git --git-dir "$ws.git" rev-parse main)
}

# remote_main NAME: the remote's main now, read from outside any agent.
remote_main() {
  git --git-dir "$TEST_TMP/$1.git" rev-parse main
}

# e2e_serve NAME SCRIPT-JSON: the scripted model for a session NAME, on a
# free loopback port ($port); its record in $TEST_TMP/NAME.requests.
e2e_serve() {
  local name=$1
  printf '%s\n' "$2" >"$TEST_TMP/$name.script"
  rm -f "$TEST_TMP/$name.port"
  python3 "$e2e_dir/fake_model.py" serve "$TEST_TMP/$name.script" "$TEST_TMP/$name.requests" \
    "$TEST_TMP/$name.port" 2>"$TEST_TMP/$name.model-err" &
  model_pid=$!
  wait_for 20 test -s "$TEST_TMP/$name.port" || return 1
  port=$(cat "$TEST_TMP/$name.port")
}

# e2e_stop: the model of the last session ends.
e2e_stop() {
  kill "$model_pid" 2>/dev/null
  wait "$model_pid" 2>/dev/null
  return 0
}

# e2e_results NAME: what the model was handed for each step of session NAME,
# one JSON object a line ({"step", "name", "text"}) in $TEST_TMP/NAME.results.
e2e_results() {
  python3 "$e2e_dir/fake_model.py" results "$TEST_TMP/$1.requests" >"$TEST_TMP/$1.results" 2>&1
  echo "# $1: what the model was handed:"
  sed 's/^/#   /' "$TEST_TMP/$1.results" | cut -c 1-600
}

# step_text NAME N: the text of step N's tool result in session NAME.
step_text() {
  python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("step") == int(sys.argv[2]):
        print(r["text"])' "$TEST_TMP/$1.results" "$2" 2>/dev/null
}

# step_has NAME N PATTERN...: step N's result matches every (grep -E) pattern.
step_has() {
  local name=$1 n=$2 text
  shift 2
  text=$(step_text "$name" "$n")
  [ -n "$text" ] || return 1
  for pat in "$@"; do
    grep -qE -- "$pat" <<<"$text" || return 1
  done
}

# The commands of the script. Their markers are computed ($((6 * 7))), so
# that a result which only echoes the command back does not pass for its
# output.
push_cmd='git push --force origin main'
out_cmd='echo e2e-out-$((6 * 7)); echo e2e-err-$((6 * 7)) >&2'
fail_cmd='echo e2e-fail-$((6 * 7)); ls /nonexistent-e2e-$((6 * 7)); exit 3'
ask_cmd='sh -c "echo e2e-asked-\$((6 * 7))$SCRIPT"'
bg_cmd='echo e2e-background-$((6 * 7))'

# step_json TOOL COMMAND [background]: one step of a script.
step_json() {
  python3 -c '
import json, sys
step = {"tool": sys.argv[1]}
if sys.argv[1] == "job_output":
    step["job"] = "{{job}}"
else:
    step["command"] = sys.argv[2]
if len(sys.argv) > 3:
    step["background"] = True
print(json.dumps(step))' "$@"
}

# script_json PREFER STEP...: a script of those steps.
script_json() {
  local prefer=$1
  shift
  local IFS=,
  printf '{"prefer": "%s", "steps": [%s]}' "$prefer" "$*"
}

# check_common NAME CLI MODE: the checks every session shares (steps 0-2:
# the force push denied with sluice's reason and the remote unchanged, an
# allowed command's stdout and stderr, a failing command's output).
check_common() {
  local name=$1 what="$2: $3"
  step_has "$name" 0 'git_push' 'force-with-lease'
  report $? "$what: the force push is denied and the model reads sluice's reason" "$(step_text "$name" 0)"
  [ "$(remote_main "$name")" = "$remote_before" ]
  report $? "$what: the remote's main is unchanged (read from outside)" "before $remote_before, now $(remote_main "$name")"
  step_has "$name" 1 'e2e-out-42' 'e2e-err-42'
  report $? "$what: an allowed command's stdout and stderr reach the model" "$(step_text "$name" 1)"
  step_has "$name" 2 'e2e-fail-42' 'nonexistent-e2e-42'
  report $? "$what: a failing command's output reaches the model" "$(step_text "$name" 2)"
}
