#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install what building and testing sluice needs on Debian 12, then fetch the
# bash grammar and the agent CLIs of the end-to-end tests. Idempotent:
# installs only the packages that are missing; as root it calls apt-get
# directly, otherwise through sudo. Never prompts.
# Not for: building (scripts/build.sh) or testing (scripts/test.sh).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)

packages=(
  # build, and `make check-format`
  build-essential autoconf automake libtool pkg-config xz-utils git clang-format
  # libraries (configure names each one when it is missing)
  libtree-sitter-dev libinih-dev libseccomp-dev libjansson-dev
  libpcre2-dev libcriterion-dev libcap-ng-dev
  # the object store's check after a run inflates and hashes git's objects
  zlib1g-dev nettle-dev
  # sluice-launch is built static against musl (docs/building.md)
  musl-tools
  # fuzzing (libFuzzer) and the escape suite's tools
  clang libclang-rt-14-dev util-linux procps jq libcap2-bin
  # the MCP and hook tests drive sluice from Python; the day's-work test
  # downloads with pip from a local package index
  python3 python3-pip
  # the network tests fetch from local servers through and around the
  # sandbox (curl) and read the host's loopback addresses (ip)
  curl iproute2
  # benchmarks compare against bwrap
  bubblewrap
  # the protected paths' tests commit through a real pre-commit
  pre-commit
  # the zsh completion's test loads it in a real zsh
  zsh
  # the manual pages' check (man --warnings) and the Debian package's test,
  # which builds it (Build-Depends: bash-completion) and runs lintian
  man-db groff-base dpkg-dev debhelper lintian bash-completion
)

# Tools wanted as commands: any provider will do (npm, for one, may come
# bundled with a nodejs package from elsewhere, which Debian's npm would
# conflict with).
commands=(
  npm=npm   # the grammar comes from the npm registry (scripts/fetch-grammar.sh)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done
for c in "${commands[@]}"; do
  command -v "${c%%=*}" >/dev/null 2>&1 || missing+=("${c#*=}")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo -n)
  else
    echo "setup: missing packages ${missing[*]}, and neither root nor sudo is available" >&2
    exit 1
  fi
  # apt's progress goes to a log; the user sees it only when a step fails.
  log=$(mktemp "${TMPDIR:-/tmp}/sluice-setup.XXXXXX")
  apt_step() {
    if ! DEBIAN_FRONTEND=noninteractive "${as_root[@]}" "$@" </dev/null >>"$log" 2>&1; then
      echo "setup: '$*' failed; its last lines (whole log: $log):" >&2
      tail -n 25 "$log" >&2
      exit 1
    fi
  }
  apt_step apt-get update -q
  apt_step apt-get install -y -q --no-install-recommends "${missing[@]}"
  rm -f "$log"
  echo "setup: installed ${missing[*]}"
else
  echo "setup: all Debian packages present"
fi

"$here/fetch-grammar.sh"
# The agent CLIs the end-to-end tests drive (tests/e2e), pinned.
"$here/fetch-agents.sh"

# The git hook managers from npm that the protected paths' tests commit
# through (tests/integration/sandbox-protect.sh), into an ignored folder;
# the tests skip, saying why, without them. No install scripts: lefthook's
# would install itself into this repository's own hooks.
hook_managers=$(dirname "$here")/third_party/hook-managers
if [ ! -x "$hook_managers/node_modules/.bin/lefthook" ] || [ ! -e "$hook_managers/node_modules/husky/bin.js" ]; then
  if npm install --silent --ignore-scripts --no-save --no-audit --no-fund --prefix "$hook_managers" husky@9 lefthook >/dev/null 2>&1; then
    echo "setup: husky and lefthook in $hook_managers"
  else
    echo "setup: npm could not install husky and lefthook; their tests will skip" >&2
  fi
fi
# husky 8 beside it: its `husky install`, a project's npm prepare script,
# fails on the protected .husky/ and gets a note of its own
if [ ! -e "$hook_managers/husky8/node_modules/husky/lib/bin.js" ]; then
  if npm install --silent --ignore-scripts --no-save --no-audit --no-fund --prefix "$hook_managers/husky8" husky@8 >/dev/null 2>&1; then
    echo "setup: husky 8 in $hook_managers/husky8"
  else
    echo "setup: npm could not install husky 8; its test will skip" >&2
  fi
fi

# pnpm, for the day's-work test of its store in the workspace's tool caches
# (tests/integration/sandbox-caches.sh), pinned, into an ignored folder that
# scripts/test.sh puts on the tests' PATH. Checked by running it: a folder
# left half-installed by an earlier failure is installed again.
dev_tools=$(dirname "$here")/third_party/dev-tools
pnpm_version=12.21.0
if [ "$("$dev_tools/node_modules/.bin/pnpm" --version 2>/dev/null)" != "$pnpm_version" ]; then
  if npm install --silent --no-save --no-audit --no-fund --prefix "$dev_tools" "pnpm@$pnpm_version" </dev/null >/dev/null 2>&1; then
    echo "setup: pnpm $pnpm_version in $dev_tools"
  else
    echo "setup: npm could not install pnpm $pnpm_version; the test of its store will skip" >&2
  fi
fi
