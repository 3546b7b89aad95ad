#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the agent CLIs the end-to-end tests drive (tests/e2e), at the
# versions pinned below, with npm into third_party/agents (ignored by git).
# Idempotent: a folder already holding these versions is kept. Never prompts.
# Not for: running the tests (make check runs tests/e2e/*.sh, which skip
# loudly where a CLI is missing).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
dest=${1:-$top/third_party/agents}

# The versions the tests were written against; move them together with
# what tests/e2e expects of each CLI.
packages=(
  @anthropic-ai/claude-code@2.1.197
  @openai/codex@0.171.0
  @google/gemini-cli@0.61.0
)
stamp="$dest/.installed-$(printf '%s\n' "${packages[@]}" | sha256sum | cut -c 1-16)"

if [ -f "$stamp" ]; then
  echo "fetch-agents: ${packages[*]} already in $dest"
  exit 0
fi
command -v npm >/dev/null 2>&1 || {
  echo "fetch-agents: npm is needed (apt-get install npm)" >&2
  exit 1
}

mkdir -p "$dest"
rm -f "$dest"/.installed-*
# A private cache, and no audit or funding requests: only the packages.
if ! npm install --prefix "$dest" --cache "$dest/.npm-cache" --no-audit --no-fund \
  --no-package-lock --loglevel=error "${packages[@]}" </dev/null >"$dest/npm.log" 2>&1; then
  echo "fetch-agents: 'npm install ${packages[*]}' failed:" >&2
  grep -v 'complete log of this run' "$dest/npm.log" | tail -n 20 | sed 's/^/  /' >&2
  echo "fetch-agents: check that this machine reaches the npm registry (npm config get registry)." >&2
  exit 1
fi
rm -rf "$dest/.npm-cache"
touch "$stamp"
echo "fetch-agents: installed ${packages[*]} in $dest"
