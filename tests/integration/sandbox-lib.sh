# SPDX-License-Identifier: MIT
# Shared setup of the scripts that attack the sandbox through `sluice run`
# in a git repository, sourced after tests/lib.sh and run-lib.sh: a fake
# HOME with git's identity, the policy that would stop the attacks before
# the sandbox does turned off, a folder for the marks planted code leaves, and
# what this system's launcher can do. Ends the script (skip_rest, naming
# $sandbox_subject when the script set it) where there is no Landlock. Sets
# HOME, marks, features, namespace ("yes", or empty where the Landlock-only
# fallback runs); boxed_as runs a command through sluice run in a mode.
# Not for: assertions (lib.sh has those).

export HOME=$TEST_TMP/home
marks=$TEST_TMP/marks
mkdir -p "$HOME" "$marks"
attacks_reach_the_sandbox
git config --global user.name "Sluice Test"
git config --global user.email test@example.invalid
git config --global init.defaultBranch main

features=$("$SLUICE_LAUNCH" --print-features 2>/dev/null || true)
if ! grep -q '"landlock_abi":[1-9]' <<<"$features"; then
  skip_rest "${sandbox_subject:-the protections of workspace-write}" "no Landlock here"
fi
namespace=yes
if grep -q '"namespace":"unavailable"' <<<"$features"; then
  namespace=
  echo "# no namespace here (${features#*\"namespace_error\":}): the fallback is what runs"
fi

# new_repo DIR: DIR made anew as a repository with one commit.
new_repo() {
  rm -rf "$1"
  mkdir -p "$1"
  git -C "$1" init -q
  echo one >"$1/README"
  git -C "$1" add README
  git -C "$1" commit -q -m init
}

# lefthook_repo DIR: new_repo with a lefthook.yml whose pre-commit runs
# "true", installed with $lefthook (the caller's) and committed.
lefthook_repo() {
  new_repo "$1"
  printf 'pre-commit:\n  commands:\n    fine:\n      run: "true"\n' >"$1/lefthook.yml"
  (cd "$1" && "$lefthook" install >/dev/null 2>&1 && git add -A && git commit -q -m lefthook)
}
# husky_repo DIR: new_repo with husky 9 set up by $husky_bin (the
# caller's: core.hooksPath .husky/_, whose runner sources
# .husky/pre-commit) and an .husky/pre-commit of "exit 0", committed.
husky_repo() {
  new_repo "$1"
  echo '{"name":"x","private":true}' >"$1/package.json"
  (cd "$1" && node "$husky_bin" >/dev/null 2>&1)
  echo 'exit 0' >"$1/.husky/pre-commit"
  (cd "$1" && git add -A && git commit -q -m husky)
}

# boxed_as MODE DIR COMMAND [SLUICE-OPTION...]: COMMAND through sluice run
# in the sandbox mode MODE, the JSON result in out; fails only when the
# command did not run at all (the broker refused it, the launcher failed).
boxed_as() {
  local mode=$1 dir=$2 command=$3 kind
  shift 3
  run "$SLUICE" run -C "$dir" --sandbox "$mode" --format json "$@" -- "$command"
  kind=$(json_get "$out" '(d["error"] or {}).get("kind", "")' 2>/dev/null) || kind=unparsable
  [ -z "$kind" ]
}

# ran NAME: the last sluice run (its JSON result in out) ran the command,
# whatever its status; else not_ok NAME saying why.
ran() {
  local kind
  kind=$(json_get "$out" '(d["error"] or {}).get("kind", "")' 2>/dev/null) || kind=unparsable
  [ -z "$kind" ] && return 0
  not_ok "$1" "the command did not run: $kind" "$out" "$err"
  return 1
}

# waiting_run OUT COMMAND [SLUICE-OPTION...]: COMMAND through sluice run in
# $repo, in the default mode, in the background (its result then in OUT,
# JSON unless an option says otherwise; its pid in boxed_pid); the command
# is to touch $repo/.ready once it waits. 0 once it does.
waiting_run() {
  local result=$1 command=$2
  shift 2
  rm -f "$repo/.ready"
  "$SLUICE" run -C "$repo" --format json --timeout 60s "$@" -- "$command" >"$result" 2>&1 &
  boxed_pid=$!
  wait_for 30 test -e "$repo/.ready"
}

# fallback CMD...: CMD in a child user namespace where user namespaces are
# forbidden and nothing holds CAP_SYS_ADMIN: the launcher's Landlock-only
# fallback. fallback_works says whether this system can make one.
fallback() {
  unshare -U -r "$BASH" -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec setpriv --bounding-set -all -- "$@"' fallback "$@"
}
fallback_works() {
  command -v setpriv >/dev/null && fallback true 2>/dev/null
}

# need_network_namespace: end the script (skip_rest) where the launcher
# cannot make a network namespace. need_host_loopback: also where the
# host's loopback does not carry 127.0.0.0/8, the addresses (127.0.0.2,
# 127.0.0.3) the network tests' servers listen on.
need_network_namespace() {
  if [ -z "$namespace" ] || ! grep -q '"net-namespace"' <<<"$features"; then
    skip_rest "$sandbox_subject" "no network namespace here"
  fi
}
need_host_loopback() {
  need_network_namespace
  if ! ip -4 addr show lo 2>/dev/null | grep -q '127.0.0.1/8'; then
    skip_rest "$sandbox_subject" "the host's loopback does not carry 127.0.0.0/8"
  fi
}
# serve_on_host_loopback DIR: DIR served over HTTP on the host's 127.0.0.2
# (the host the egress tests allow) and 127.0.0.3 (one they do not), on one
# free port (in port; the servers, in allowed_srv and other_srv, stopped
# when the script exits). 0 once both answer DIR/index.html.
serve_on_host_loopback() {
  port=$(free_port 127.0.0.2)
  (cd "$1" && exec python3 -m http.server "$port" --bind 127.0.0.2 >/dev/null 2>&1) &
  allowed_srv=$!
  (cd "$1" && exec python3 -m http.server "$port" --bind 127.0.0.3 >/dev/null 2>&1) &
  other_srv=$!
  trap 'kill "$allowed_srv" "$other_srv" 2>/dev/null; tap_end' EXIT
  wait_for 20 curl -sf -o /dev/null "http://127.0.0.2:$port/index.html" &&
    wait_for 20 curl -sf -o /dev/null "http://127.0.0.3:$port/index.html"
}

# slow_launcher MS: a launcher at $TEST_TMP/slow-launch (for SLUICE_LAUNCH)
# whose every pwrite(2), the egress proxy's records among them, is held MS
# ms (tests/launcher/slow-writes); its server in slow_srv, ended by
# slow_launcher_stop.
slow_launcher() {
  local slow=$SLUICE_BUILDDIR/tests/launcher/slow-writes sock=$TEST_TMP/slow-$1.sock
  "$slow" serve "$sock" "$1" &
  slow_srv=$!
  wait_for 5 test -S "$sock"
  printf '#!/bin/sh\nexec "%s" wrap "%s" "%s" "$@"\n' "$slow" "$sock" "$SLUICE_LAUNCH" \
    >"$TEST_TMP/slow-launch"
  chmod 755 "$TEST_TMP/slow-launch"
}
slow_launcher_stop() {
  kill "$slow_srv" 2>/dev/null
  wait "$slow_srv" 2>/dev/null
}
