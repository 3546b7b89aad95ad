#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A day's work in the default sandbox, measured on real projects (issue
# 34): a fixed list of everyday commands per kind of project (install,
# build, test, lint, git, a dev server started in background mode and
# reached from the next run, /tmp written directly, the tools' caches,
# documentation read with curl from the registry), each run through
# `sluice run` twice: in the default mode (workspace-write) with one
# `[network] allow` line for the package registry, and unrestricted. Each
# mode works in its own copy of the project, so that a failure in the
# sandbox carries on to the commands after it, as it would for an agent.
# Prints per command: the exit status in each mode, whether a failure is
# the sandbox's (it works unrestricted and fails sandboxed), and whether
# the sandbox note (`[sandbox: this looks like a denial ...]`, or
# `[sandbox: the network allowlist refused ...]`) was in the
# text the model reads; then the count handled.
#
# Usage: bench/day.sh TS_LIBRARY NODE_SERVER PYTHON_PACKAGE C_LIBRARY
# (folders; each is copied into a scratch folder, and `git init`ed and
# committed there when it is not a repository: the originals are never
# written). SLUICE selects the binary (default ./sluice, from a build
# directory); DAY_TIMEOUT each run's timeout (10m); DAY_KEEP=1 keeps the scratch folder and its logs (the text
# of every run) and prints where. The registry's host is taken at run time
# from `npm config get registry`; DAY_RELAY=1 puts a relay to it on the
# allow line instead, DAY_INTERNAL=1 its name on [network] allow_internal
# too (below). Nothing here is part of `make check`.
#
# The unrestricted copy's tools write their caches into the scratch folder
# (npm_config_cache, XDG_CACHE_HOME, PIP_CACHE_DIR), not the user's; the
# sandboxed runs get the workspace's own cache folders from sluice, under
# the scratch folder's XDG_RUNTIME_DIR, as do the jobs.
set -uo pipefail

[ $# -eq 4 ] || { echo "usage: $0 TS_LIBRARY NODE_SERVER PYTHON_PACKAGE C_LIBRARY" >&2; exit 2; }
sluice=${SLUICE:-./sluice}
[ -x "$sluice" ] || { echo "bench: no sluice at '$sluice' (set SLUICE)" >&2; exit 1; }
sluice=$(cd "$(dirname "$sluice")" && pwd)/$(basename "$sluice")
export SLUICE_LAUNCH=${SLUICE_LAUNCH:-$(dirname "$sluice")/sluice-launch}
for p in "$@"; do
  [ -d "$p" ] || { echo "bench: '$p' is not a folder" >&2; exit 2; }
done
registry=$(npm config get registry 2>/dev/null)
reghost=$(sed -E 's|^[a-z]+://||; s|[/:].*$||' <<<"$registry")
[ -n "$reghost" ] || { echo "bench: no registry from 'npm config get registry'" >&2; exit 1; }
registry=${registry%/}

scratch=$(mktemp -d "${DAY_SCRATCH_PARENT:-/var/tmp}/sluice-day.XXXXXX")
jobs_started=()
relay_pid=
cleanup() {
  local j
  [ -z "$relay_pid" ] || kill "$relay_pid" 2>/dev/null
  for j in "${jobs_started[@]}"; do "$sluice" kill "$j" >/dev/null 2>&1; done
  if [ -n "${DAY_KEEP:-}" ]; then
    echo "bench: scratch kept in $scratch (logs/)" >&2
  else
    chmod -R u+w "$scratch" 2>/dev/null
    rm -rf "$scratch"
  fi
}
trap cleanup EXIT
# sluice's jobs and the sandboxed runs' cache folders: the bench's own
mkdir -m 700 "$scratch/run" "$scratch/logs" "$scratch/ucache"
export XDG_RUNTIME_DIR=$scratch/run
# DAY_RELAY=1: the sandboxed runs reach the registry through a relay on the
# host's 127.0.0.2 (plain HTTP, outside the sandbox, forwarding GETs to the
# registry), its address on the allow line: for a machine whose registry
# name resolves to an address the egress proxy leads no name of allow alone to (an
# intercepting mirror in a special-purpose range), where the line with the
# name alone is refused. The proxy, the relay inside the sandbox and the
# clients' proxy settings are the same; the tunnel is plain HTTP instead.
sregistry=$registry sallow=$reghost senv=()
if [ -n "${DAY_RELAY:-}" ]; then
  rport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.2", 0)); print(s.getsockname()[1])')
  python3 - "$registry" "$rport" >"$scratch/relay.log" 2>&1 <<'PY' &
import http.server, socketserver, sys, urllib.error, urllib.request
upstream, port = sys.argv[1], int(sys.argv[2])
mine = f"http://127.0.0.2:{port}"
class Relay(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        headers = {k: v for k, v in self.headers.items()
                   if k.lower() in ("accept", "user-agent", "npm-command", "npm-session")}
        try:
            with urllib.request.urlopen(urllib.request.Request(upstream + self.path, headers=headers),
                                        timeout=60) as r:
                status, ctype, body = r.status, r.headers.get("Content-Type", ""), r.read()
        except urllib.error.HTTPError as e:
            status, ctype, body = e.code, e.headers.get("Content-Type", ""), e.read()
        if "json" in ctype:
            body = body.replace(upstream.encode(), mine.encode())
        self.send_response(status)
        self.send_header("Content-Type", ctype or "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
Server(("127.0.0.2", port), Relay).serve_forever()
PY
  relay_pid=$!
  for _ in $(seq 100); do curl -sf -o /dev/null --noproxy '*' "http://127.0.0.2:$rport/" && break; sleep 0.1; done
  sregistry=http://127.0.0.2:$rport sallow=127.0.0.2:$rport
  senv=(npm_config_registry="$sregistry/")
fi
printf '[network]\nallow = %s\n' "$sallow" >"$scratch/allow.ini"
# DAY_INTERNAL=1 (without DAY_RELAY): the registry's name on the allow line
# and on [network] allow_internal, in a system layer of the bench's own
# (the key is the system layer's alone, and a user layer may then not set
# allow): for a machine whose registry name resolves to an internal
# address, reached by its name (which TLS checks) rather than by a relay.
if [ -n "${DAY_INTERNAL:-}" ] && [ -z "${DAY_RELAY:-}" ]; then
  mkdir -p "$scratch/etc/sluice"
  printf '[network]\nallow = %s\nallow_internal = %s\n' "$reghost" "$reghost" >"$scratch/etc/sluice/sluice.ini"
  : >"$scratch/allow.ini"
  senv+=(SLUICE_SYSCONFDIR="$scratch/etc")
fi
ucache=(npm_config_cache="$scratch/ucache/npm" XDG_CACHE_HOME="$scratch/ucache/xdg"
  PIP_CACHE_DIR="$scratch/ucache/pip")

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# copy_project SRC DEST: a copy of SRC that is a repository with a commit,
# an identity for commits, and an `origin` (a bare clone beside it) to
# fetch from and push to
copy_project() {
  cp -a "$1/." "$2/" || return 1
  (
    cd "$2" || exit 1
    if ! git rev-parse --git-dir >/dev/null 2>&1 || [ "$(git rev-parse --show-toplevel)" != "$PWD" ]; then
      rm -rf .git
      git init -q && git add -A && git -c user.name=day -c user.email=day@example.org commit -q -m import
    fi
    git config user.name "day bench"
    git config user.email day@example.org
    git remote remove origin 2>/dev/null
    git clone -q --bare . "$2.origin.git" && git remote add origin "$2.origin.git" &&
      git fetch -q origin
  )
}

# The commands, per kind: KIND|COMMAND, KIND one of run (a foreground
# run), bg (a background job; its id is kept) and stop (`sluice kill` of
# that job, from outside the sandbox: what an agent's harness or sluice
# mcp's jobs tool does). @PORT@ and @REG@ are replaced per mode.
ts_cmds=(
  'run|npm ci --no-audit --no-fund'
  'run|npm ls --depth=0'
  'run|npx --no-install tsc --noEmit'
  'run|npm test'
  'run|npm run build --if-present'
  'run|npx eslint --max-warnings=0 .'
  'run|npx prettier --check .'
  'run|npx --no-install tsc --outDir /tmp/day-tsc && ls /tmp/day-tsc && rm -rf /tmp/day-tsc'
  'run|npm view typescript version'
  'run|curl -sSf @REG@/typescript -o /dev/null -w "%{http_code} %{size_download}\n"'
  'run|npm install --no-audit --no-fund'
  'run|git status --short'
  'run|git switch -c day-work'
  'run|echo "<!-- day -->" >>readme.md && git diff --stat'
  'run|git add readme.md && git commit -q -m "docs: a line" && git log --oneline -3'
  'run|echo tmp >>readme.md && git stash && git stash list && git stash pop'
)
node_cmds=(
  'run|npm install --no-audit --no-fund'
  'run|node --check index.js'
  'run|node --test'
  'bg|PORT=@PORT@ npm start'
  'run|curl -sS --retry 20 --retry-connrefused --retry-delay 1 -o /dev/null -w "%{http_code}\n" http://localhost:@PORT@/'
  'stop|'
  'run|npx --yes semver 1.2.3 -r ">=1"'
  'run|npm cache verify'
  'run|node -e "require(\"fs\").writeFileSync(\"/tmp/day-node\", \"x\")" && cat /tmp/day-node && rm /tmp/day-node'
  'run|npm outdated; true'
  'run|git log --oneline -3'
  'run|git branch -a'
  'run|git fetch origin'
)
py_cmds=(
  'run|python3 -m unittest discover -p "*_test.py"'
  'run|python3 -m compileall -q .'
  'run|python3 -m venv --without-pip .venv && .venv/bin/python -c "import sys; print(sys.prefix)"'
  'run|python3 -m pip cache dir'
  'run|python3 -m pip download -q --no-deps --retries 0 --timeout 5 -d /tmp/day-wheels hatchling'
  'run|python3 -c "import tempfile, os; f = tempfile.NamedTemporaryFile(dir=\"/tmp\"); f.write(b\"x\"); f.flush(); print(os.path.getsize(f.name))"'
  'run|d=${XDG_CACHE_HOME:-$HOME/.cache}/day-bench && mkdir -p "$d" && date >"$d/stamp" && cat "$d/stamp"'
  'run|cat "${XDG_CACHE_HOME:-$HOME/.cache}/day-bench/stamp"'
  'run|make clean'
  'run|git status --short'
  'run|git diff HEAD~1 --stat | tail -1'
  'run|git switch -c day-py && echo "# day" >>README.rst && git commit -qam day && git switch -'
  'run|git log --oneline --all -3'
)
c_cmds=(
  'run|make test'
  'run|make simple_example jsondump'
  'run|./simple_example'
  'run|cc -Wall -Wextra -O2 -o /tmp/day-c example/simple.c && /tmp/day-c && rm /tmp/day-c'
  'run|cc -fsyntax-only -Wall -Wextra -Wpedantic -x c jsmn.h'
  'run|make clean'
  'run|git status --short'
  'run|git stash -u && git stash pop'
  'run|echo "/* day */" >>jsmn.h && git add jsmn.h && git commit -qm day && git log --oneline -2'
  'run|git grep -c jsmn_parse'
  'run|git fetch origin'
  'run|git push -q origin HEAD:refs/heads/day'
)

sep=$'\x1f' # between a row's fields: a command may hold any of | , ; :
rows=()      # project, #, command, sandboxed, unrestricted, verdict, note, times
declare -A job

# run_one MODE WS KIND CMD LOG: sets rc and secs
run_one() {
  local mode=$1 ws=$2 kind=$3 cmd=$4 log=$5 t0 t1 margs=()
  if [ "$mode" = u ]; then margs=(--sandbox unrestricted); else margs=(--config "$scratch/allow.ini"); fi
  t0=$EPOCHREALTIME
  case $kind in
    run)
      if [ "$mode" = u ]; then
        env "${ucache[@]}" "$sluice" run -C "$ws" "${margs[@]}" --timeout "${DAY_TIMEOUT:-10m}" -- "$cmd" >"$log" 2>&1
      else
        env "${senv[@]}" "$sluice" run -C "$ws" "${margs[@]}" --timeout "${DAY_TIMEOUT:-10m}" -- "$cmd" >"$log" 2>&1
      fi
      rc=$?
      ;;
    bg)
      if [ "$mode" = u ]; then
        env "${ucache[@]}" "$sluice" run -C "$ws" "${margs[@]}" --mode background -- "$cmd" >"$log" 2>&1
      else
        env "${senv[@]}" "$sluice" run -C "$ws" "${margs[@]}" --mode background -- "$cmd" >"$log" 2>&1
      fi
      rc=$?
      job[$mode]=$(sed -n 's/.*started in background: job \([0-9-]*\),.*/\1/p' "$log" | head -1)
      [ -z "${job[$mode]}" ] || jobs_started+=("${job[$mode]}")
      ;;
    stop)
      if [ -n "${job[$mode]:-}" ]; then
        "$sluice" kill "${job[$mode]}" >"$log" 2>&1
        rc=$?
        sleep 0.5
        { echo "--- the job's output:"; "$sluice" logs "${job[$mode]}"; } >>"$log" 2>&1
      else
        echo "no job to stop" >"$log"
        rc=1
      fi
      ;;
  esac
  t1=$EPOCHREALTIME
  secs=$(awk -v a="${t0/./}" -v b="${t1/./}" 'BEGIN { printf "%.1f", (b - a) / 1e6 }')
}

day() { # NAME SRC CMDS-ARRAY-NAME
  local name=$1 src=$2 arr="$3[@]" entry kind cmd i=0 s u ss us verdict note port_s port_u
  local ws_s=$scratch/s/$name ws_u=$scratch/u/$name
  mkdir -p "$ws_s" "$ws_u"
  copy_project "$src" "$ws_s" && copy_project "$src" "$ws_u" ||
    { echo "bench: cannot copy '$src'" >&2; exit 1; }
  port_s=$(free_port) port_u=$(free_port)
  job=()
  for entry in "${!arr}"; do
    i=$((i + 1))
    kind=${entry%%|*} cmd=${entry#*|}
    local cs=${cmd//@PORT@/$port_s} cu=${cmd//@PORT@/$port_u}
    cs=${cs//@REG@/$sregistry} cu=${cu//@REG@/$registry}
    run_one s "$ws_s" "$kind" "$cs" "$scratch/logs/$name-$i-sandboxed.txt"
    s=$rc ss=$secs
    run_one u "$ws_u" "$kind" "$cu" "$scratch/logs/$name-$i-unrestricted.txt"
    u=$rc us=$secs
    if [ "$s" = 0 ] && [ "$u" = 0 ]; then verdict=ok
    elif [ "$s" != 0 ] && [ "$u" = 0 ]; then verdict=SANDBOX
    elif [ "$s" != 0 ]; then verdict=both-fail
    else verdict=only-sandboxed-ok
    fi
    # the denial note, or the allowlist's line naming the hosts it refused
    if grep -q '^\[sandbox: ' "$scratch/logs/$name-$i-sandboxed.txt"; then note=yes; else note=no; fi
    [ "$kind" = stop ] && cmd="(sluice kill of the job, outside)"
    rows+=("$name$sep$i$sep$cmd$sep$s$sep$u$sep$verdict$sep$note$sep$ss$sep$us")
    printf '%-6s %2d %-64.64s %4s %4s  %-9s %-4s %6ss %6ss\n' "$name" "$i" "$cmd" "$s" "$u" "$verdict" "$note" "$ss" "$us"
  done
}

echo "sluice day: [network] allow = $sallow${DAY_RELAY:+ (a relay to the registry)}${DAY_INTERNAL:+ (and allow_internal, unless DAY_RELAY)}; sandboxed = default mode (workspace-write)"
echo "scratch: $scratch; sluice: $sluice; user: $(id -un)"
printf '%-6s %2s %-64s %4s %4s  %-9s %-4s %7s %7s\n' project '#' command sbx unr verdict note sbx-t unr-t
day ts "$1" ts_cmds
day node "$2" node_cmds
day py "$3" py_cmds
day c "$4" c_cmds

total=${#rows[@]} handled=0 caused=0 noted=0 falsenote=0
for r in "${rows[@]}"; do
  IFS=$sep read -r _ _ _ _ _ verdict note _ _ <<<"$r"
  case $verdict in
    SANDBOX) caused=$((caused + 1)); [ "$note" = yes ] && noted=$((noted + 1)) ;;
    *) handled=$((handled + 1)); [ "$verdict" = ok ] && [ "$note" = yes ] && falsenote=$((falsenote + 1)) ;;
  esac
done
echo
echo "handled: $handled of $total commands (not a sandbox-caused failure)"
echo "sandbox-caused failures: $caused, with the sandbox note: $noted"
echo "the note on a command that worked in both modes: $falsenote (a tool that printed a denial-like line and went on)"
for r in "${rows[@]}"; do
  IFS=$sep read -r name i cmd s u verdict note _ _ <<<"$r"
  [ "$verdict" = SANDBOX ] || [ "$verdict" = both-fail ] || continue
  echo
  echo "== $name $i ($verdict, note: $note): $cmd"
  echo "-- sandboxed (exit $s):"
  tail -n 8 "$scratch/logs/$name-$i-sandboxed.txt" | cut -c1-300
  echo "-- unrestricted (exit $u):"
  tail -n 4 "$scratch/logs/$name-$i-unrestricted.txt" | cut -c1-300
done
