#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The workspaces' tool caches (broker/run/tool-caches.c, docs/launcher.md
# "Tool caches"): what tools write for themselves (XDG_CACHE_HOME, npm's and
# pip's caches, pnpm's store ...) goes to a folder of the workspace's own beside the jobs
# directory, kept across its runs, never to the real home, which the
# sandbox keeps read-only; cargo's registry and Maven's repository are
# overlaid (launcher/overlays.c), their layers kept in that folder. Checked
# from outside: without the key a cache write fails (the control), with it
# one run's cache is the next run's, another workspace has its own, the real
# home is unchanged, an [env] set of the same variable wins, the tidy
# removes the least recently used workspace's folder beyond the cap but
# never one a job holds, and where no network is reached at all npm fails in
# seconds with a note that says the network is refused.
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="the workspaces' tool caches"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
caches="$XDG_RUNTIME_DIR/sluice/caches"
# The home outside /tmp: the sandbox's private /tmp would take the writes
# to a home in there and hide them, passing the control for a wrong reason.
HOME=$(mktemp -d /var/tmp/sluice-caches-home.XXXXXX) || exit 1
trap 'rm -rf "$HOME"; tap_end' EXIT
git config --global user.name "Sluice Test"
git config --global user.email test@example.invalid
ws_a=$TEST_TMP/ws-a ws_b=$TEST_TMP/ws-b
new_repo "$ws_a"
new_repo "$ws_b"
mkdir -p "$HOME/.cache" "$HOME/.npm" "$HOME/.cargo/registry/cache" "$HOME/.m2/repository"
echo mine >"$HOME/.cache/kept"
echo old-crate >"$HOME/.cargo/registry/cache/old.crate"
echo '[registry]' >"$HOME/.cargo/config.toml"
printf '[sandbox]\ntool_caches = no\n' >"$TEST_TMP/off.ini"
printf '[env]\nset = npm_config_cache=/nowhere/npm\n' >"$TEST_TMP/env-set.ini"
token="cache-$RANDOM$RANDOM"
# the real home as seen from outside: every path, size, mode and content
home_state() {
  (cd "$HOME" && find . -printf '%p %s %m\n' | sort && find . -type f -exec sha256sum {} + | sort)
}
# a package's tarball in the workspace (the host's /tmp is not seen inside)
tarball=
if command -v npm >/dev/null; then
  mkdir -p "$TEST_TMP/pkg"
  printf '{"name":"sluice-cache-probe","version":"1.0.0"}\n' >"$TEST_TMP/pkg/package.json"
  (cd "$TEST_TMP/pkg" && npm_config_cache=$TEST_TMP/npm-outside npm pack --silent >/dev/null 2>&1)
  cp "$TEST_TMP/pkg/sluice-cache-probe-1.0.0.tgz" "$ws_a/" && tarball=$ws_a/sluice-cache-probe-1.0.0.tgz
fi
home_before=$(home_state)

# --- 1. control: without the key, the home's caches are read-only
boxed_as workspace-write "$ws_a" "mkdir -p \"\${XDG_CACHE_HOME:-\$HOME/.cache}/x\" && echo $token >\"\${XDG_CACHE_HOME:-\$HOME/.cache}/x/t\"" --config "$TEST_TMP/off.ini"
ran "control: the run with tool_caches = no" &&
  { [ "$(json_get "$out" 'd["exitCode"]')" != 0 ] && [ ! -e "$HOME/.cache/x" ]; }
report $? "control (tool_caches = no): a write to ~/.cache fails, as the home is read-only" "$out"

# --- 2. one run's cache is the next run's, in the workspace's folder
boxed_as workspace-write "$ws_a" "mkdir -p \"\$XDG_CACHE_HOME/x\" && echo $token >\"\$XDG_CACHE_HOME/x/t\" && echo \"\$XDG_CACHE_HOME\""
ran "a run writes XDG_CACHE_HOME" && [ "$(json_get "$out" 'd["exitCode"]')" = 0 ]
report $? "a sandboxed run writes to XDG_CACHE_HOME" "$out"
folder_a=$(json_get "$out" 'd["stdout"].strip()' 2>/dev/null)
folder_a=${folder_a%/*}
[ "${folder_a%/*}" = "$caches" ] && [ "$(cat "$folder_a/xdg-cache/x/t" 2>/dev/null)" = "$token" ]
report $? "the write lands in the workspace's folder in $caches" "folder: $folder_a" "$(ls -la "$caches" 2>&1)"
boxed_as workspace-write "$ws_a" "cat \"\$XDG_CACHE_HOME/x/t\""
ran "the next run reads it" && [ "$(json_get "$out" 'd["stdout"].strip()')" = "$token" ]
report $? "the next run of the same workspace reads what the first cached" "$out"

# --- 2b. a command that changes its folder's mode does not lock the
# workspace's later runs out (the folder is made 0700 again)
boxed_as workspace-write "$ws_a" "chmod 755 \"\$XDG_CACHE_HOME/..\" && stat -c %a \"\$XDG_CACHE_HOME/..\""
ran "a run changes its folder's mode" && [ "$(json_get "$out" 'd["stdout"].strip()')" = 755 ]
report $? "control: a sandboxed command can chmod its workspace's cache folder" "$out"
boxed_as workspace-write "$ws_a" "cat \"\$XDG_CACHE_HOME/x/t\""
ran "the next run after a chmod" && [ "$(json_get "$out" 'd["stdout"].strip()')" = "$token" ] &&
  [ "$(stat -c %a "$folder_a")" = 700 ]
report $? "the next run still has its caches, the folder private (0700) again" "$out" "$(stat -c %a "$folder_a")"

# --- 3. another workspace has a folder of its own
boxed_as workspace-write "$ws_b" "echo \"\$XDG_CACHE_HOME\"; cat \"\$XDG_CACHE_HOME/x/t\""
ran "another workspace's run" && ! grep -q "$token" <<<"$(json_get "$out" 'd["stdout"]')" &&
  [ "$(json_get "$out" 'd["stdout"].splitlines()[0]')" != "$folder_a/xdg-cache" ]
report $? "another workspace's run has its own XDG_CACHE_HOME, without the first one's entry" "$out"

# restricted writes nothing that stays: no tool caches there
boxed_as restricted "$ws_a" 'echo "${XDG_CACHE_HOME:-unset}"; mkdir -p "${XDG_CACHE_HOME:-$HOME/.cache}/r"'
ran "a restricted run" && [ "$(json_get "$out" 'd["exitCode"]')" != 0 ] &&
  [ "$(json_get "$out" 'd["stdout"].splitlines()[0]')" != "$folder_a/xdg-cache" ] && [ ! -e "$folder_a/xdg-cache/r" ]
report $? "a restricted run gets no tool caches: its cache write fails" "$out"

# --- 4. real tools take the variables: npm's cache, pip's
if [ -n "$tarball" ]; then
  boxed_as workspace-write "$ws_a" "npm cache add '$tarball'"
  ran "npm cache add" && [ "$(json_get "$out" 'd["exitCode"]')" = 0 ]
  report $? "npm cache add of a local tarball succeeds in the sandbox" "$out"
  boxed_as workspace-write "$ws_a" "npm cache ls"
  ran "npm cache ls" && grep -q "sluice-cache-probe-1.0.0.tgz" <<<"$out" && [ -d "$folder_a/npm/_cacache" ]
  report $? "the next run's npm cache ls lists it (in the workspace's folder)" "$out"
  boxed_as workspace-write "$ws_b" "npm cache ls"
  ran "npm cache ls elsewhere" && ! grep -q "sluice-cache-probe" <<<"$out"
  report $? "another workspace's npm cache does not hold it" "$out"
else
  skip "npm's cache in the workspace's folder" "npm is not installed (or npm pack failed)"
fi
# pnpm from setup.sh's folder, where the test runs from a checkout
# (distcheck's copy is told with SLUICE_DEV_TOOLS_DIR).
dev_tools=${SLUICE_DEV_TOOLS_DIR:-$SLUICE_SRCDIR/third_party/dev-tools}
[ ! -x "$dev_tools/node_modules/.bin/pnpm" ] || PATH=$dev_tools/node_modules/.bin:$PATH
# pnpm's store: a dependency on the workspace's tarball installed, then
# installed again offline from the store alone. The control: without the
# key pnpm keeps its store inside the workspace (its home's is read-only),
# gone with node_modules.
if command -v pnpm >/dev/null && [ -n "$tarball" ]; then
  printf '{"name":"ws-a","version":"1.0.0","dependencies":{"sluice-cache-probe":"file:./%s"}}\n' \
    "${tarball##*/}" >"$ws_a/package.json"
  boxed_as workspace-write "$ws_a" "pnpm store path" --config "$TEST_TMP/off.ini"
  ran "pnpm store path without the key" &&
    [ "$(json_get "$out" 'd["stdout"].strip()')" = "$ws_a/node_modules/.pnpm-store/v11" ]
  report $? "control (tool_caches = no): pnpm's store falls back into the workspace's node_modules" "$out"
  boxed_as workspace-write "$ws_a" "pnpm install && pnpm store path"
  ran "pnpm install" && [ "$(json_get "$out" 'd["exitCode"]')" = 0 ] &&
    [ "$(json_get "$out" 'd["stdout"].splitlines()[-1]')" = "$folder_a/pnpm-store/v11" ] &&
    [ -d "$folder_a/pnpm-store/v11/files" ] && [ ! -e "$ws_a/node_modules/.pnpm-store" ]
  report $? "pnpm install keeps its store in the workspace's folder" "$out"
  rm -rf "$ws_a/node_modules"
  boxed_as workspace-write "$ws_a" "pnpm install --offline"
  ran "pnpm install --offline" && [ "$(json_get "$out" 'd["exitCode"]')" = 0 ] &&
    grep -q 'reused 1, downloaded 0' <<<"$out" && [ -e "$ws_a/node_modules/sluice-cache-probe/package.json" ]
  report $? "the next run installs it offline from that store (reused 1, downloaded 0)" "$out"
  # the tidy below counts ws-a's folder as small, and weighs all of it
  rm -rf "$ws_a/node_modules" "$ws_a/package.json" "$ws_a/pnpm-lock.yaml" "$folder_a/pnpm-store"
else
  skip "pnpm's store in the workspace's folder" "pnpm is not installed (or npm pack failed)"
fi
if command -v pip >/dev/null; then
  boxed_as workspace-write "$ws_a" "pip cache dir"
  ran "pip cache dir" && [ "$(json_get "$out" 'd["stdout"].strip()')" = "$folder_a/xdg-cache/pip" ]
  report $? "pip's cache is the workspace's (pip cache dir)" "$out"
else
  skip "pip's cache in the workspace's folder" "pip is not installed"
fi

# --- 5. an [env] set of the same variable wins
boxed_as workspace-write "$ws_a" 'echo "$npm_config_cache $XDG_CACHE_HOME"' --config "$TEST_TMP/env-set.ini"
ran "[env] set" && [ "$(json_get "$out" 'd["stdout"].strip()')" = "/nowhere/npm $folder_a/xdg-cache" ]
report $? "[env] set npm_config_cache wins over the workspace's, the others stay" "$out"

# --- 5b. the tools' caches that no variable moves (cargo's registry,
# Maven's repository): overlaid, the layer in the workspace's folder
crate=$HOME/.cargo/registry/cache
printf '[sandbox]\nhide = ~/.cargo/registry/cache/old.crate\n' >"$TEST_TMP/overlay-hide.ini"
unboxed_home=$(mktemp -d /var/tmp/sluice-caches-unboxed.XXXXXX)
mkdir -p "$unboxed_home/.cargo/registry/cache"
run env HOME="$unboxed_home" "$SLUICE" run -C "$ws_a" --sandbox unrestricted -- "echo planted >~/.cargo/registry/cache/planted.crate"
[ -e "$unboxed_home/.cargo/registry/cache/planted.crate" ]
report $? "control: an unrestricted run's write to ~/.cargo/registry reaches the real home" "$out"
rm -rf "$unboxed_home"
boxed_as workspace-write "$ws_a" "echo $token >~/.cargo/registry/cache/new.crate" --config "$TEST_TMP/off.ini"
ran "a cargo write with tool_caches = no" && [ "$(json_get "$out" 'd["exitCode"]')" != 0 ] &&
  grep -q "Read-only file system" <<<"$out"
report $? "control (tool_caches = no): ~/.cargo/registry is read-only in the sandbox" "$out"
# An overlay needs a mount namespace and an upper layer on a filesystem
# that can hold one (not overlayfs itself, as a container's root may be):
# tried here as the launcher would, beside the caches' folder.
overlay_unusable() {
  local d rc as_user=-r
  [ "$(id -u)" = 0 ] && as_user=
  d=$(mktemp -d "$XDG_RUNTIME_DIR/overlay-probe.XXXXXX") || return 0
  mkdir -p "$d/upper" "$d/work" "$d/on"
  unshare $as_user -m sh -c 'mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/upper,workdir=$2/work${3:+,userxattr}" "$2/on"' \
    sh "$crate" "$d" "$as_user" >/dev/null 2>&1
  rc=$?
  rm -rf "$d"
  [ "$rc" != 0 ]
}
if [ -z "$namespace" ] || overlay_unusable; then
  skip "cargo's and Maven's caches through an overlay (6 checks)" \
    "no overlay can be made here (no mount namespace, or a filesystem that cannot hold its layer): those folders stay read-only, as 18 shows"
else
  boxed_as workspace-write "$ws_a" "cat ~/.cargo/registry/cache/old.crate && echo $token >~/.cargo/registry/cache/new.crate && echo m2 >~/.m2/repository/a.jar && cat ~/.cargo/config.toml"
  ran "a cargo and a Maven write" && [ "$(json_get "$out" 'd["exitCode"]')" = 0 ] &&
    grep -q old-crate <<<"$out" && grep -q '\[registry\]' <<<"$out"
  report $? "a sandboxed run reads the user's crates and writes new ones to ~/.cargo/registry and ~/.m2/repository" "$out"
  [ ! -e "$crate/new.crate" ] && [ ! -e "$HOME/.m2/repository/a.jar" ] &&
    grep -rqs "$token" "$folder_a"/overlay-*/upper
  report $? "the writes land in the workspace's folder, not in the real ~/.cargo or ~/.m2" "$(ls -la "$crate" "$folder_a")"
  boxed_as workspace-write "$ws_a" "cat ~/.cargo/registry/cache/new.crate ~/.m2/repository/a.jar"
  ran "the next run" && grep -q "$token" <<<"$out" && grep -q m2 <<<"$out"
  report $? "the workspace's next run finds them" "$out"
  # The layer's folders are the command's to write: a symlink it puts
  # there must not make the next run's overlay take a folder of its
  # choosing as the layer, whose lookups would pass under the read-only
  # binds (here a core.hooksPath folder two deep, which the user's next
  # git commit runs). notes-redteam/46-overlay-upper-symlink.sh
  ws_c=$TEST_TMP/ws-c
  new_repo "$ws_c"
  mkdir -p "$ws_c/scripts/hooks"
  printf '#!/bin/sh\nexit 0\n' >"$ws_c/scripts/hooks/pre-commit"
  chmod +x "$ws_c/scripts/hooks/pre-commit"
  cp "$ws_c/scripts/hooks/pre-commit" "$TEST_TMP/hook-before"
  git -C "$ws_c" config core.hooksPath scripts/hooks
  boxed_as workspace-write "$ws_c" 'echo "echo planted" >>scripts/hooks/pre-commit'
  ran "a write to a core.hooksPath hook" && [ "$(json_get "$out" 'd["exitCode"]')" != 0 ] &&
    grep -q "Read-only file system" <<<"$out"
  report $? "control: a core.hooksPath hook two folders deep is read-only in the sandbox" "$out"
  boxed_as workspace-write "$ws_c" 'C=$(dirname "$XDG_CACHE_HOME"); mkdir -p .w && for d in "$C"/overlay-*; do mv "$d/upper" "$d/upper.old" && mv "$d/work" "$d/work.old" && ln -s "$PWD/scripts" "$d/upper" && ln -s "$PWD/.w" "$d/work"; done && ls -l "$C"/overlay-*'
  ran "symlinks at the layer's folders" && [ "$(json_get "$out" 'd["exitCode"]')" = 0 ] &&
    grep -q -- "upper -> $ws_c/scripts" <<<"$out"
  report $? "control: a run can replace its overlay's layer folders with symlinks into the workspace" "$out"
  boxed_as workspace-write "$ws_c" "printf '#!/bin/sh\\necho $token >\"\$HOME/hooked\"\\n' >~/.cargo/registry/hooks/pre-commit"
  ran "a write through ~/.cargo/registry" && git -C "$ws_c" commit -q --allow-empty -m user &&
    [ ! -e "$HOME/hooked" ] && cmp -s "$ws_c/scripts/hooks/pre-commit" "$TEST_TMP/hook-before"
  report $? "the next run's overlay does not follow them: the hook stays as it was, and the user's git commit does not run the command's" \
    "$out" "$(cat "$HOME/hooked" 2>&1)" "$(cat "$ws_c/scripts/hooks/pre-commit")"
fi
boxed_as workspace-write "$ws_b" "ls ~/.cargo/registry/cache"
ran "another workspace" && grep -q old.crate <<<"$out" && ! grep -q new.crate <<<"$out"
report $? "another workspace sees the user's crates, not the first workspace's" "$out"
boxed_as workspace-write "$ws_a" "cat ~/.cargo/registry/cache/old.crate; echo x >~/.cargo/registry/cache/other.crate" --config "$TEST_TMP/overlay-hide.ini"
ran "a hidden path in an overlaid folder" && ! grep -q old-crate <<<"$out" && [ ! -e "$crate/other.crate" ] &&
  grep -q "Read-only file system" <<<"$out"
report $? "a hidden path inside ~/.cargo/registry stays hidden: that folder is not overlaid, and stays read-only" "$out"

# --- 6. the real home is untouched
[ "$(home_state)" = "$home_before" ] && [ ! -e "$HOME/.npm/_cacache" ]
report $? "the real home (~/.cache, ~/.npm) is as it was, checked from outside" \
  "$(diff <(echo "$home_before") <(home_state))"

# --- 7. refused network: npm fails at once, and the note says why
if command -v npm >/dev/null; then
  start=$(date +%s)
  run "$SLUICE" run -C "$ws_a" --sandbox workspace-write --mode slow -- "npm view sluice-cache-probe"
  took=$(($(date +%s) - start))
  [ "$rc" -ne 0 ] && [ "$took" -lt 20 ] && grep -q "the network is refused here" <<<"$out"
  report $? "without network, npm view fails in ${took}s (under 20, not a minute of retries) with the refused-network note" "$out"
else
  skip "npm fails at once without network" "npm is not installed"
fi

# --- 8. the tidy: the least recently used goes beyond the cap, a held one stays
ws_live=$TEST_TMP/ws-live ws_old=$TEST_TMP/ws-old
new_repo "$ws_live"
new_repo "$ws_old"
fill='mkdir -p "$XDG_CACHE_HOME" && dd if=/dev/zero of="$XDG_CACHE_HOME/fill" bs=64k count=32 status=none && echo "${XDG_CACHE_HOME%/*}"'
run "$SLUICE" run -C "$ws_live" --sandbox workspace-write --mode background --format json -- "$fill; sleep 60"
job=$(json_get "$out" 'd["jobId"]' 2>/dev/null) job_out=$(json_get "$out" 'd["outputFile"]' 2>/dev/null)
wait_for 20 grep -q "^/" "$job_out" 2>/dev/null
folder_live=$(grep -m1 "^/" "$job_out" 2>/dev/null)
sleep 1 # the two folders' times of use differ
boxed_as workspace-write "$ws_old" "$fill"
folder_old=$(json_get "$out" 'd["stdout"].strip()' 2>/dev/null)
boxed_as workspace-write "$ws_a" "true" # ws-a is the most recently used
[ -n "$folder_live" ] && [ -d "$folder_live" ] && [ -n "$folder_old" ] && [ -d "$folder_old" ]
report $? "two workspaces' folders with 2 MiB each, one held by a running job" "$folder_live" "$folder_old" "$out"
# sluice jobs tidies at most once in 10 minutes (the stamp): again now
tidy() { rm -f "$caches/.tidied" && "$SLUICE" jobs >/dev/null 2>&1; }
tidy
[ -d "$folder_live" ] && [ -d "$folder_old" ] && [ -d "$folder_a" ]
report $? "under the cap (2GiB), the tidy of sluice jobs removes nothing" "$(ls "$caches")"
user_ini=$XDG_CONFIG_HOME/sluice/sluice.ini
cp "$user_ini" "$TEST_TMP/user.ini"
# cap SIZE: the user layer's [sandbox] tool_caches_size (sluice jobs has no --config)
cap() { { cat "$TEST_TMP/user.ini" && printf '[sandbox]\ntool_caches_size = %s\n' "$1"; } >"$user_ini"; }
cap 3MiB
"$SLUICE" jobs >/dev/null 2>&1
[ -e "$folder_old" ]
report $? "within 10 minutes of the last tidy, sluice jobs does not walk the caches again (the stamp)" "$(ls -la "$caches")"
tidy
[ -d "$folder_live" ] && [ -f "$folder_live/xdg-cache/fill" ] && [ ! -e "$folder_old" ] && [ -d "$folder_a" ]
report $? "over the cap (3MiB), the tidy removes the least recently used folder no job holds, keeps the held one and the newest" \
  "live: $folder_live" "old: $folder_old" "$(ls -la "$caches")"
"$SLUICE" kill "$job" >/dev/null 2>&1
cap 1MiB
# its monitor lets go as it ends, after the kill returns
gone_on_tidy() { tidy && [ ! -e "$folder_live" ]; }
wait_for 20 gone_on_tidy
report $? "once its job ended, that folder goes too (cap 1MiB)" "$(ls -la "$caches")" "$(cat "$job_out")"
