# SPDX-License-Identifier: MIT
# Shared setup of the end-to-end tests (tests/e2e/*.sh), sourced after
# tests/lib.sh and run-lib.sh: the agent CLIs installed by
# scripts/fetch-agents.sh, the scripted model (fake_model.py) on loopback, a
# workspace with a local bare remote whose branch a force push would
# rewrite, and what the model was handed for each step of its script.
# Not for: the checks themselves (each CLI's script makes those).

e2e_dir="$SLUICE_SRCDIR/tests/e2e"
# SLUICE_E2E_KEEP=1 keeps the scratch directory (the recorded requests, the
# agents' homes and output) for a look after the run.
if [ -n "${SLUICE_E2E_KEEP:-}" ]; then
  trap 'echo "# kept $TEST_TMP"; echo "1..$tap_count"' EXIT
fi
# The interpreter itself, once: a version manager's shim costs seconds a
# call on a loaded machine, and the checks call it often.
e2e_python=$(command python3 -c 'import sys; print(sys.executable)')
python3() {
  "$e2e_python" "$@"
}
agents_dir=${SLUICE_AGENTS_DIR:-$SLUICE_SRCDIR/third_party/agents}

# e2e_find NAME PACKAGE: the CLI's program in $agents_dir as $e2e_bin, and
# its package's version as $e2e_version (read from its package.json: Gemini
# CLI takes seconds to start); fails (the caller skips, saying so) where it
# is missing.
e2e_find() {
  e2e_bin="$agents_dir/node_modules/.bin/$1"
  [ -x "$e2e_bin" ] || return 1
  e2e_version=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' \
    "$agents_dir/node_modules/$2/package.json" 2>/dev/null) || return 1
  echo "# $2 $e2e_version"
}

# e2e_workspace NAME: what session NAME needs of its own:
# - a git workspace $TEST_TMP/NAME cloned from the bare remote NAME.git, its
#   main pushed, then rewritten locally, so that a force push would replace
#   the remote's main (which is kept in NAME.before);
# - the sluice the agent runs, NAME-bin/sluice (e2e_sluice NAME): a wrapper
#   that puts back the test environment (the build's plugins, the session's
#   own configuration and runtime directory), since agents pass hooks and
#   MCP servers only part of theirs. Its configuration asks the approver
#   NAME-bin/approve, which says yes and keeps what it was asked in
#   NAME.approver, and audits into NAME.audit.
e2e_workspace() {
  local name=$1 ws="$TEST_TMP/$1" bin="$TEST_TMP/$1-bin" etc="$TEST_TMP/$1-etc"
  local git=(git -c user.name=e2e -c user.email=e2e@example.org -c init.defaultBranch=main)
  "${git[@]}" init -q --bare "$ws.git"
  "${git[@]}" init -q "$ws"
  "${git[@]}" -C "$ws" remote add origin "$ws.git"
  echo one >"$ws/file"
  "${git[@]}" -C "$ws" add file
  "${git[@]}" -C "$ws" commit -q -m one
  "${git[@]}" -C "$ws" push -q origin main
  echo rewritten >"$ws/file"
  "${git[@]}" -C "$ws" commit -q -a --amend -m rewritten
  git --git-dir "$ws.git" rev-parse main >"$ws.before"

  mkdir -p "$bin" "$etc/sluice" "$TEST_TMP/$name-run" "$TEST_TMP/$name-home"
  chmod 0700 "$TEST_TMP/$name-run"
  printf '#!/bin/sh\ncat >>"%s"\nexit 0\n' "$ws.approver" >"$bin/approve"
  printf '[approval]\nmethod = program\nprogram = %s\n\n[audit]\nfile = %s\n' \
    "$bin/approve" "$ws.audit" >"$etc/sluice/sluice.ini"
  {
    echo '#!/bin/sh'
    printf "export SLUICE_PLUGIN_DIR='%s' SLUICE_SYSCONFDIR='%s' SLUICE_LAUNCH='%s'\n" \
      "$SLUICE_PLUGIN_DIR" "$etc" "$SLUICE_LAUNCH"
    printf "export XDG_CONFIG_HOME='%s' XDG_RUNTIME_DIR='%s'\n" "$XDG_CONFIG_HOME" "$TEST_TMP/$name-run"
    printf "exec '%s' \"\$@\"\n" "$SLUICE"
  } >"$bin/sluice"
  chmod +x "$bin/approve" "$bin/sluice"
}

# e2e_sluice NAME: the sluice session NAME's agent runs.
e2e_sluice() {
  echo "$TEST_TMP/$1-bin/sluice"
}

# e2e_env NAME: $e2e_env, the start of the command line of session NAME's
# agent: nothing of the caller's environment but PATH, and what sluice needs
# (a --route command runs sluice in the agent's shell).
e2e_env() {
  e2e_env=(env -i "PATH=$PATH" "LANG=C.UTF-8" "TERM=dumb" "HOME=$TEST_TMP/$1-home"
    "SLUICE_PLUGIN_DIR=$SLUICE_PLUGIN_DIR" "SLUICE_SYSCONFDIR=$TEST_TMP/$1-etc"
    "SLUICE_LAUNCH=$SLUICE_LAUNCH" "XDG_CONFIG_HOME=$XDG_CONFIG_HOME"
    "XDG_RUNTIME_DIR=$TEST_TMP/$1-run")
}

# remote_main NAME: the remote's main now, read from outside any agent.
remote_main() {
  git --git-dir "$TEST_TMP/$1.git" rev-parse main
}

# remote_before NAME: the remote's main before the session.
remote_before() {
  cat "$TEST_TMP/$1.before"
}

# e2e_session NAME SCRIPT-JSON CONFIGURE RUN ARGS...: session NAME in the
# background (the CLIs start slowly, so the sessions overlap): its scripted
# model on a free loopback port ($port), then `CONFIGURE NAME` (the agent's
# configuration, which may name $port), then `RUN NAME ARGS...` in the
# workspace, its output in NAME.out and NAME.err. e2e_wait waits for them.
session_pids=()
session_names=()
e2e_session() {
  local name=$1 script=$2 configure=$3
  shift 3
  (
    start=$SECONDS
    if ! e2e_serve "$name" "$script"; then
      echo "the scripted model did not start: $(cat "$TEST_TMP/$name.model-err")" >"$TEST_TMP/$name.summary"
      exit 1
    fi
    "$configure" "$name"
    e2e_env "$name"
    (cd "$TEST_TMP/$name" && "$@" </dev/null >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err") && rc=0 || rc=$?
    echo "exited $rc after $((SECONDS - start)) s" >"$TEST_TMP/$name.summary"
    e2e_stop
  ) &
  session_pids+=($!)
  session_names+=("$name")
}

# e2e_wait: the sessions end; what each took and what its model was handed.
e2e_wait() {
  local start=$SECONDS name
  wait "${session_pids[@]}"
  for name in "${session_names[@]}"; do
    echo "# $name: $(cat "$TEST_TMP/$name.summary" 2>/dev/null)"
    e2e_results "$name"
  done
  echo "# the sessions took $((SECONDS - start)) s together"
}

# e2e_serve NAME SCRIPT-JSON: the scripted model for a session NAME, on a
# free loopback port ($port); its record in $TEST_TMP/NAME.requests.
e2e_serve() {
  local name=$1
  printf '%s\n' "$2" >"$TEST_TMP/$name.script"
  rm -f "$TEST_TMP/$name.port"
  "$e2e_python" "$e2e_dir/fake_model.py" serve "$TEST_TMP/$name.script" "$TEST_TMP/$name.requests" \
    "$TEST_TMP/$name.port" 2>"$TEST_TMP/$name.model-err" &
  model_pid=$!
  wait_for 20 test -s "$TEST_TMP/$name.port" || return 1
  port=$(cat "$TEST_TMP/$name.port")
}

# e2e_stop: the model of this session ends.
e2e_stop() {
  kill "$model_pid" 2>/dev/null
  wait "$model_pid" 2>/dev/null
  return 0
}

# e2e_results NAME: what the model was handed for each step of session NAME,
# one JSON object a line ({"step", "name", "text"}) in $TEST_TMP/NAME.results,
# and each step's text in NAME.step.N.
e2e_results() {
  python3 "$e2e_dir/fake_model.py" results "$TEST_TMP/$1.requests" "$TEST_TMP/$1.step" \
    >"$TEST_TMP/$1.results" 2>&1
  echo "# $1: what the model was handed:"
  sed 's/^/#   /' "$TEST_TMP/$1.results" | cut -c 1-600
}

# step_text NAME N: the text of step N's tool result in session NAME.
step_text() {
  cat "$TEST_TMP/$1.step.$2" 2>/dev/null
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


# The commands of the script. Their markers are split by quotes (4''2 prints
# 42), so that a result which only echoes the command back does not pass
# for its output. (Gemini CLI refuses any "$(" in a command.) The ask is a
# script only known when it runs, which sluice asks about; where it ran, it
# left asked.mark in the workspace (asked NAME tells).
push_cmd='git push --force origin main'
out_cmd="echo e2e-out-4''2; echo e2e-err-4''2 >&2"
fail_cmd="echo e2e-fail-4''2; ls /nonexistent-e2e-4''2; exit 3"
ask_cmd="sh -c \"echo e2e-asked-4''2 | tee asked.mark\$SCRIPT\""
bg_cmd="echo e2e-background-4''2"

# asked NAME: the ask of session NAME ran.
asked() {
  [ -e "$TEST_TMP/$1/asked.mark" ]
}

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

# The steps every session starts with: the force push, an allowed command,
# a failing one (check_common checks them).
common_steps=("$(step_json bash "$push_cmd")" "$(step_json bash "$out_cmd")" "$(step_json bash "$fail_cmd")")

# check_common NAME CLI MODE: the checks every session shares (steps 0-2:
# the force push denied with sluice's reason and the remote unchanged, an
# allowed command's stdout and stderr, a failing command's output).
check_common() {
  local name=$1 what="$2: $3"
  step_has "$name" 0 'git_push' 'force-with-lease'
  report $? "$what: the force push is denied and the model reads sluice's reason" "$(step_text "$name" 0)"
  [ "$(remote_main "$name")" = "$(remote_before "$name")" ]
  report $? "$what: the remote's main is unchanged (read from outside)" \
    "before $(remote_before "$name"), now $(remote_main "$name")"
  step_has "$name" 1 'e2e-out-42' 'e2e-err-42'
  report $? "$what: an allowed command's stdout and stderr reach the model" "$(step_text "$name" 1)"
  step_has "$name" 2 'e2e-fail-42' 'nonexistent-e2e-42'
  report $? "$what: a failing command's output reaches the model" "$(step_text "$name" 2)"
}

# check_attack NAME CLI WHAT: the control session's force push went through.
check_attack() {
  [ "$(remote_main "$1")" != "$(remote_before "$1")" ]
  report $? "$2: $3" "remote main $(remote_main "$1"), before $(remote_before "$1")" \
    "$(tail -c 600 "$TEST_TMP/$1.err")"
}

# check_audited NAME CLI: session NAME's hook left an audit line for the push.
check_audited() {
  grep -q 'git push --force origin main' "$TEST_TMP/$1.audit" 2>/dev/null
  report $? "$2: hook: the verdicts are audited" "$(cat "$TEST_TMP/$1.audit" 2>/dev/null)"
}

# check_lean NAME CLI: an MCP result is about its command, not the sandbox:
# the list of what the sandbox enforces (a kilobyte) is not sent on every
# call, and an echo's result stays small.
check_lean() {
  local text
  text=$(step_text "$1" 1)
  [ -n "$text" ] && [ "${#text}" -lt 700 ] && ! grep -q 'landlock-fs' <<<"$text"
  report $? "$2: mcp: an allowed command's result is small, without the sandbox's list" \
    "${#text} characters" "$text"
}

# check_detected CLI WHAT CHECK-COMMAND...: the setup of the attack is
# detected by sluice's check: it exits 1, saying that the hook does not
# take effect and naming trust.
check_detected() {
  local cli=$1 what=$2
  shift 2
  run "$@"
  [ "$rc" -eq 1 ] && grep -q 'does NOT take effect' <<<"$out" && grep -qi 'trust' <<<"$out"
  report $? "$cli: $what (sluice's check says so)" "rc=$rc" "$out" "$err"
}

# check_takes_effect CLI WHAT CHECK-COMMAND...: where the hook ran, sluice's
# check says that it takes effect (exit 0).
check_takes_effect() {
  local cli=$1 what=$2
  shift 2
  run "$@"
  [ "$rc" -eq 0 ] && grep -q 'takes effect' <<<"$out"
  report $? "$cli: $what: sluice's check says it takes effect" "rc=$rc" "$out" "$err"
}
