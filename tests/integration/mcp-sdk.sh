#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `sluice mcp` with the real client: the official MCP TypeScript SDK, installed
# with npm into the build tree (tests/node, removed by distclean), drives
# tests/mcp/sdk-client.mjs. No node, or no package (no network): a loud skip
# (a failure under SLUICE_TESTS_STRICT=1).
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# a write outside the workspace must meet the sandbox, not a missing folder.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"

node_dir="$SLUICE_BUILDDIR/tests/node"
sdk="$node_dir/node_modules/@modelcontextprotocol/sdk"

install_sdk() {
  [ -f "$sdk/package.json" ] && return 0
  command -v node >/dev/null && command -v npm >/dev/null || return 1
  mkdir -p "$node_dir"
  (
    flock 9
    [ -f "$sdk/package.json" ] && exit 0
    # The cache and npm's logs stay in the build tree too, not in $HOME.
    timeout 300 npm install --prefix "$node_dir" --cache "$node_dir/.npm-cache" \
      --no-audit --no-fund --no-package-lock --fetch-retries=1 --loglevel=error \
      '@modelcontextprotocol/sdk@1' >"$TEST_TMP/npm.log" 2>&1
  ) 9>"$node_dir/.lock"
  [ -f "$sdk/package.json" ]
}

if [ -n "${SLUICE_IN_PACKAGE_BUILD:-}" ]; then
  skip_rest "the MCP TypeScript SDK client tests" "a package build downloads nothing"
fi
if ! install_sdk; then
  skip_rest "the MCP TypeScript SDK client tests" "node/npm missing or 'npm install @modelcontextprotocol/sdk' failed (no network?): $(tail -n 3 "$TEST_TMP/npm.log" 2>/dev/null | tr '\n' ' ')"
fi
echo "# SDK $(node -p "require('$sdk/package.json').version"), node $(node --version)"

export MCP_SDK_DIR="$sdk" TEST_TMP SLUICE
timeout 120 node "$SLUICE_SRCDIR/tests/mcp/sdk-client.mjs" >"$TEST_TMP/client.out" 2>"$TEST_TMP/client.err" && rc=0 || rc=$?
n=0
while IFS= read -r line; do
  case $line in
  "PASS "*) ok "${line#PASS }"; n=$((n + 1)) ;;
  "SKIP "*) name=${line#SKIP }; skip "${name%%: *}" "${name#*: }"; n=$((n + 1)) ;;
  "FAIL "*) name=${line#FAIL }; not_ok "${name%%: *}" "${name#*: }"; n=$((n + 1)) ;;
  esac
done <"$TEST_TMP/client.out"
# every case of the client's, each a top-level `await check(`
cases=$(grep -c "^await check(" "$SLUICE_SRCDIR/tests/mcp/sdk-client.mjs")
[ "$rc" -eq 0 ] && [ "$n" -eq "$cases" ]
report $? "the client ran every case and closed" "status $rc, $n of $cases cases" "$(tail -n 20 "$TEST_TMP/client.err")"
