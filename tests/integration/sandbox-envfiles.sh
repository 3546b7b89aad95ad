#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The files a protected direnv or mise configuration loads
# (broker/run/protect-loaded.c, sluice issue 30). `.envrc*` and
# `mise*.toml` are protected, but what they load is not theirs: .envrc's
# `dotenv .env` exports every variable of .env into the user's shell at
# the next cd, with no new `direnv allow`; `source_env FILE` runs FILE;
# mise's [env] `_.file` and `_.source` do the same when mise is activated.
# The attack: a command writes PROMPT_COMMAND into the .env file (or shell
# code into the sourced script), and the user's next cd pulls the trigger.
# It runs first with --sandbox unrestricted, where it must work (the
# positive control, checked on the mark the planted code leaves), then in
# the default sandbox, where it must not, checked from outside.
#
# What is emulated, and why: direnv and mise are not installed here (the
# suite adds no package). direnv's `dotenv FILE` is
# `eval "$(direnv dotenv bash FILE)"`, which exports each KEY=VALUE of the
# file into the shell direnv's hook runs in, the user's interactive shell;
# mise's `_.file` does the same. The emulation evaluates the file with
# `set -a; . ./FILE` in a fresh bash (the same KEY="VALUE" lines: the
# planted ones are plain assignments, which a dotenv parser and bash read
# alike), then execs an interactive `bash -i` reading one command from a
# here-string: bash runs PROMPT_COMMAND before its prompt, as the user's
# shell would. direnv's `source_env FILE` (and mise's `_.source`) sources
# FILE with bash from FILE's folder: emulated as `. ./FILE` there.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="the files direnv and mise load"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"

# dotenv_trigger DIR FILE: the user's next cd into DIR, with direnv's
# dotenv FILE (emulated: above).
dotenv_trigger() {
  (cd "$1" && [ -f "$2" ] && env -i HOME="$HOME" PATH="$PATH" bash --norc --noprofile \
    -c 'set -a; . "./$1"; set +a; exec bash --norc --noprofile -i' _ "$2" <<<'true') >/dev/null 2>&1
}
# source_trigger DIR FILE: direnv's source_env FILE (or mise's _.source),
# from FILE's folder.
source_trigger() {
  (cd "$1/$(dirname "$2")" && [ -f "$(basename "$2")" ] &&
    env -i HOME="$HOME" PATH="$PATH" bash --norc --noprofile -c '. "./$1"' _ "$(basename "$2")") >/dev/null 2>&1
}

# envattack NAME KIND FILE CONFIG TEXT [PRESENT [EXTRA]]: a repository whose
# CONFIG (.envrc, mise.toml, ...) holds TEXT; the command writes FILE
# (KIND dotenv: a PROMPT_COMMAND; source: shell code), each touching
# $marks/NAME when the trigger runs. PRESENT: FILE holds a harmless line
# before the run. Unsandboxed the mark must appear; in the default sandbox
# not, FILE must hold no planted code, and a FILE made by the run must be
# renamed FILE.sluice-blocked and named in the result. EXTRA: shell code
# run in the repository before the command (another file of the setup).
envattack() {
  local name=$1 kind=$2 file=$3 config=$4 text=$5 present=${6:-} extra=${7:-} side dir command
  if [ "$kind" = dotenv ]; then
    command="mkdir -p \"\$(dirname '$file')\" && printf 'PROMPT_COMMAND=\"touch %s\"\\n' '$marks/$name' >'$file'"
  else
    command="mkdir -p \"\$(dirname '$file')\" && printf 'touch %s\\n' '$marks/$name' >'$file'"
  fi
  for side in control boxed; do
    rm -f "$marks/$name"
    dir=$TEST_TMP/$side-$name
    new_repo "$dir"
    mkdir -p "$(dirname "$dir/$config")"
    printf '%s\n' "$text" >"$dir/$config"
    if [ -n "$present" ]; then
      mkdir -p "$(dirname "$dir/$file")"
      echo 'HARMLESS=1' >"$dir/$file"
    fi
    [ -z "$extra" ] || (cd "$dir" && eval "$extra")
    if [ $side = control ]; then
      run "$SLUICE" run -C "$dir" --sandbox unrestricted -- "$command"
    else
      run "$SLUICE" run -C "$dir" -- "$command"
    fi
    "${kind}_trigger" "$dir" "$file"
    if [ $side = control ]; then
      if [ ! -e "$marks/$name" ]; then
        not_ok "$name: the planted $file runs unsandboxed (positive control)" "$out" "$err"
        return
      fi
      ok "$name: the planted $file runs unsandboxed (positive control)"
      continue
    fi
    [ ! -e "$marks/$name" ] && ! grep -qs touch "$dir/$file" &&
      { [ -n "$present" ] || { [ -e "$dir/$file.sluice-blocked" ] &&
        grep -qF "renamed to NAME.sluice-blocked: $file" <<<"$out"; }; }
    report $? "$name: stopped in the default sandbox ($file $([ -n "$present" ] && echo kept || echo blocked))" "$out" "$err" "$(ls -la "$dir" "$(dirname "$dir/$file")")"
  done
}

# --- direnv
envattack dotenv-default dotenv .env .envrc 'dotenv' present
envattack dotenv-if-exists-missing dotenv .env .envrc 'dotenv_if_exists'
envattack dotenv-named dotenv .env.development .envrc 'dotenv_if_exists .env.development'
envattack dotenv-quoted-subfolder dotenv config/dev.env .envrc 'dotenv "config/dev.env"' present
envattack dotenv-after-test dotenv .env.test .envrc "[ -f .env.test ] && dotenv '.env.test'"
envattack dotenv-in-if dotenv .env.local .envrc 'if has direnv; then dotenv_if_exists ./.env.local; fi'
envattack dotenv-folder dotenv env/.env .envrc 'dotenv env' present
envattack source-env-script source .env.local.sh .envrc 'source_env_if_exists .env.local.sh'
envattack source-env-subfolder source scripts/dev.sh .envrc 'source_env scripts/dev.sh' present
# what a sourced script loads, from its own folder (direnv pushd's there)
envattack sourced-loads dotenv scripts/local.env .envrc 'source_env scripts/env.sh' present \
  "echo 'dotenv_if_exists local.env' >scripts/env.sh"
envattack sourced-loads-missing dotenv scripts/local.env .envrc 'source_env scripts/env.sh' '' \
  "mkdir -p scripts && echo 'dotenv_if_exists local.env' >scripts/env.sh"
envattack envrc-local-loads dotenv .env.personal .envrc.local 'dotenv_if_exists .env.personal'
# bash's own source and . in the .envrc (direnv runs it with bash in its
# folder): the commonest Python idiom, and a script by its path
# (red team 51b, 4)
envattack bash-source-activate source .venv/bin/activate .envrc 'source .venv/bin/activate' present
envattack bash-dot-script source scripts/dev.sh .envrc '. ./scripts/dev.sh' present
envattack bash-source-missing source .envrc.sh .envrc 'test -f .envrc.sh && source .envrc.sh'
# --- mise
envattack mise-file dotenv .env .mise.toml "$(printf '[env]\n_.file = ".env"')" present
envattack mise-file-list dotenv .env.mise mise.toml "$(printf '[env]\n_.file = [\n  ".env.shared",\n  ".env.mise",\n]')"
envattack mise-file-table dotenv secrets.env mise.local.toml "$(printf '[env]\n_.file = { path = "{{config_root}}/secrets.env", redact = true }')"
envattack mise-source source env.sh mise.toml "$(printf '[env]\n_.source = "./env.sh"\nFOO = "bar"')"
envattack mise-env-table dotenv .env.tbl mise.toml "$(printf '[tools]\nnode = "22"\n\n[env._]\nfile = ".env.tbl"')"
# the other places mise reads a project's configuration from, each taken
# as the project's own ({{config_root}} the top; red team 51b, 5)
envattack mise-dot-config dotenv .env.a .config/mise.toml "$(printf '[env]\n_.file = ".env.a"')"
envattack mise-config-folder dotenv .env.b .config/mise/config.toml "$(printf '[env]\n_.file = ".env.b"')" present
envattack mise-conf-d source env.d.sh .config/mise/conf.d/dev.toml "$(printf '[env]\n_.source = "env.d.sh"')"
envattack mise-folder dotenv .env.c mise/config.toml "$(printf '[env]\n_.file = ".env.c"')"
envattack mise-dot-folder dotenv .env.d .mise/config.local.toml "$(printf '[env]\n_.file = ".env.d"')"
# --- yarn: any yarn command (yarn --version too) runs the file yarnPath
# names in place of itself (red team 51b, 2 and 3, with yarn 1.22: node
# runs it; emulated here as a script run from the top, as yarn is not
# installed by the suite)
envattack yarn-path source .yarn/releases/yarn-4.5.0.cjs .yarnrc.yml 'yarnPath: .yarn/releases/yarn-4.5.0.cjs' present
envattack yarn-path-quoted source .yarn/releases/yarn-4.6.0.cjs .yarnrc.yml "$(printf 'nodeLinker: node-modules\nyarnPath: "./.yarn/releases/yarn-4.6.0.cjs"  # pinned')"
envattack yarn1-path source .yarn/releases/yarn-1.22.22.js .yarnrc 'yarn-path ".yarn/releases/yarn-1.22.22.js"' present

# the sourced script itself, and the file it loads, in one run
dir=$TEST_TMP/sourced-present
new_repo "$dir"
mkdir -p "$dir/scripts"
echo 'source_env scripts/env.sh' >"$dir/.envrc"
echo 'dotenv_if_exists local.env' >"$dir/scripts/env.sh"
run "$SLUICE" run -C "$dir" -- "printf 'PROMPT_COMMAND=\"touch $marks/sourced-present\"\\n' >scripts/local.env; echo 'touch $marks/sourced-present' >>scripts/env.sh"
dotenv_trigger "$dir/scripts" local.env
source_trigger "$dir" scripts/env.sh
[ ! -e "$marks/sourced-present" ] && [ -e "$dir/scripts/local.env.sluice-blocked" ] &&
  [ "$(cat "$dir/scripts/env.sh")" = 'dotenv_if_exists local.env' ]
report $? "the script .envrc sources keeps its text, the .env it loads is blocked" "$out" "$(ls -la "$dir/scripts")"

# --- what the agent is told: the file, the key, the file that loads it
dir=$TEST_TMP/message
new_repo "$dir"
echo 'dotenv' >"$dir/.envrc"
echo 'A=1' >"$dir/.env"
run "$SLUICE" run -C "$dir" -- "echo B=2 >>.env"
grep -q 'protected path .env' <<<"$out" && grep -qF '[sandbox] protect' <<<"$out" &&
  grep -qF "added because '.envrc' loads it" <<<"$out" && [ "$(cat "$dir/.env")" = A=1 ]
report $? "a denied write names .env, [sandbox] protect and the .envrc that loads it" "$out" "$err"
run "$SLUICE" run -C "$dir" --format json -- "echo B=2 >>.env"
json_get "$out" '"protected-paths" in d["sandbox"]["enforced"] and d["exitCode"] != 0' | grep -qx True
report $? "... and the JSON result names protected-paths enforced, the write failed" "$out"
dir=$TEST_TMP/blocked-json
new_repo "$dir"
echo 'dotenv_if_exists .env.development' >"$dir/.envrc"
run "$SLUICE" run -C "$dir" --format json -- "echo X=1 >.env.development"
[ "$(json_get "$out" '",".join(d["sandbox"].get("protected_blocked", []))')" = .env.development ]
report $? "a planted .env.development is listed in sandbox.protected_blocked" "$out"

# scripts that source each other are read once each; a chain deeper than
# the reader follows refuses the run
dir=$TEST_TMP/cycle
new_repo "$dir"
mkdir -p "$dir/env"
echo 'source_env env/a.sh' >"$dir/.envrc"
printf 'source_env b.sh\ndotenv_if_exists a.env\n' >"$dir/env/a.sh"
printf 'source_env ./a.sh\ndotenv b.env\n' >"$dir/env/b.sh"
run "$SLUICE" run -C "$dir" -- "echo X=1 >env/a.env; echo Y=1 >env/b.env; echo ok >env/notes"
[ "$(cat "$dir/env/notes")" = ok ] && [ -e "$dir/env/a.env.sluice-blocked" ] && [ -e "$dir/env/b.env.sluice-blocked" ]
report $? "two scripts sourcing each other: each read once, what both load protected" "$out" "$err"
dir=$TEST_TMP/deep
new_repo "$dir"
echo 'source_env s1.sh' >"$dir/.envrc"
for i in 1 2 3 4 5 6 7 8 9; do echo "source_env s$((i + 1)).sh" >"$dir/s$i.sh"; done
run "$SLUICE" run -C "$dir" --format json -- "echo ran >ran.txt"
[ "$(json_get "$out" '(d["error"] or {}).get("kind", "")')" = config_error ] && [ ! -e "$dir/ran.txt" ]
report $? "scripts sourced deeper than the reader follows refuse the run" "$out" "$err"

# Through `sluice mcp`, whose server starts the launcher of the next
# request before it arrives: each call is protected alike.
dir=$TEST_TMP/mcp
new_repo "$dir"
echo 'dotenv' >"$dir/.envrc"
echo 'A=1' >"$dir/.env"
call() { printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"bash","arguments":{"command":"%s"}}}' "$1" "$2"; }
answered() { grep -q "\"id\":$1," "$TEST_TMP/mcp.out"; }
# the input stays open until each answer is in: its end cancels a call
{
  printf '%s\n' \
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$(call 2 'echo B=2 >>.env')"
  wait_for 30 answered 2
  printf '%s\n' "$(call 3 'echo C=3 >.env; echo D=4 >.env.fresh')"
  wait_for 30 answered 3
} | timeout 90 "$SLUICE" mcp -C "$dir" >"$TEST_TMP/mcp.out" 2>&1
out=$(cat "$TEST_TMP/mcp.out")
[ "$(cat "$dir/.env")" = A=1 ] && [ "$(grep -c 'protected path .env' <<<"$out")" -eq 2 ] &&
  [ "$(cat "$dir/.env.fresh")" = D=4 ]
report $? "through sluice mcp, .env stays read-only at each call (the launcher started ahead too)" "$out"

# Where no namespace can be had, Landlock alone keeps a loaded file
# read-only (an existing one, and one that did not exist: its folder is
# then kept uncreatable, as for any missing protected file), the files
# beside it writable.
if ! fallback_works; then
  skip "the fallback keeps what .envrc loads read-only" "cannot make a child user namespace here (unshare -U -r, setpriv)"
else
  dir=$TEST_TMP/fallback
  new_repo "$dir"
  mkdir -p "$dir/config"
  printf 'dotenv "config/dev.env"\ndotenv_if_exists config/.env.development\n' >"$dir/.envrc"
  echo 'A=1' >"$dir/config/dev.env"
  echo 'one' >"$dir/config/notes.txt"
  run fallback "$SLUICE" run -C "$dir" --sandbox workspace-write --format json -- \
    "echo two >>config/notes.txt; p='PROMPT_COMMAND=\"touch $marks/fb\"'; echo \"\$p\" >>config/dev.env; echo \"\$p\" >config/.env.development"
  if ran "the fallback keeps what .envrc loads read-only"; then
    [ "$(cat "$dir/config/notes.txt")" = "$(printf 'one\ntwo')" ] && [ "$(cat "$dir/config/dev.env")" = A=1 ] &&
      [ ! -e "$dir/config/.env.development" ] &&
      [ "$(json_get "$out" '"protected-paths" in d["sandbox"]["enforced"] and "mount-namespace" in d["sandbox"]["missing"]')" = True ]
    report $? "the fallback keeps what .envrc loads read-only (present and missing), the file beside them writable" "$out" "$(ls -la "$dir/config")"
  fi
fi

# --- what stays writable
# an agent's own .env, in a project whose .envrc loads no .env, or with no .envrc
for setup in 'export FOO=1' 'dotenv_if_exists .env.other' ''; do
  dir=$TEST_TMP/own-env
  new_repo "$dir"
  [ -n "$setup" ] && printf '%s\n' "$setup" >"$dir/.envrc"
  run "$SLUICE" run -C "$dir" -- "echo API_URL=http://localhost >.env && echo more >>.env && cat .env"
  [ "$rc" -eq 0 ] && [ "$(cat "$dir/.env")" = "$(printf 'API_URL=http://localhost\nmore')" ] &&
    [ ! -e "$dir/.env.sluice-blocked" ]
  report $? "an agent's own .env stays writable (.envrc: '${setup:-none}')" "$out" "$err"
done
# a word with an expansion is not read; a path out of the workspace is
# left alone (outside is read-only anyway); neither refuses the run
dir=$TEST_TMP/unparsed
new_repo "$dir"
printf 'dotenv "$HOME/.env.x"\ndotenv_if_exists ../outside.env\nsource_env_if_exists /etc/profile\n' >"$dir/.envrc"
run "$SLUICE" run -C "$dir" -- "echo ok >notes.txt && echo A=1 >.env"
[ "$rc" -eq 0 ] && [ "$(cat "$dir/notes.txt")" = ok ] && [ "$(cat "$dir/.env")" = A=1 ]
report $? "an expansion, ../ out of the workspace, an absolute path: not read, the run goes on" "$out" "$err"
# the key: [sandbox] protect without .envrc* leaves .envrc and what it loads writable
config=$TEST_TMP/no-envrc.ini
printf '[sandbox]\nprotect =\nprotect = .mcp.json\n' >"$config"
dir=$TEST_TMP/protect-off
new_repo "$dir"
echo 'dotenv' >"$dir/.envrc"
echo 'A=1' >"$dir/.env"
run "$SLUICE" run --config "$config" -C "$dir" -- "printf 'PROMPT_COMMAND=\"touch $marks/protect-off\"\\n' >.env"
rm -f "$marks/protect-off"
dotenv_trigger "$dir" .env
[ "$rc" -eq 0 ] && [ -e "$marks/protect-off" ]
report $? "control: [sandbox] protect without .envrc* protects nothing .envrc loads" "$out" "$err"
# a path the list cannot hold refuses the run rather than leave it writable
dir=$TEST_TMP/wildcard
new_repo "$dir"
echo 'dotenv "conf*/app.env"' >"$dir/.envrc"
run "$SLUICE" run -C "$dir" --format json -- "echo ran >ran.txt"
[ "$(json_get "$out" '(d["error"] or {}).get("kind", "")')" = config_error ] && [ ! -e "$dir/ran.txt" ] &&
  grep -q 'conf\*/app.env' <<<"$out"
report $? "a loaded path with a wildcard before its last component refuses the run" "$out" "$err"

