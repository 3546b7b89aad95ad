#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's second command, and what CI runs: set up, build everything with
# AddressSanitizer, UndefinedBehaviorSanitizer and -Werror, run make check,
# then make distcheck (a tarball that builds and passes offline).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh"
cd "$top"
# On a failure, end with what failed (CI shows the end of the output).
end_with_failures() {
  local status=$?
  [ "$status" -eq 0 ] || "$top/scripts/test-failures.sh" "$top/build/test"
  exit "$status"
}
trap end_with_failures EXIT
./autogen.sh
# A failed make distcheck leaves its tree read-only; an ordinary user must
# give it back write permission before it can be removed.
[ ! -d build/test ] || chmod -R u+w build/test
rm -rf build/test
mkdir -p build/test
cd build/test
# A sysconfdir nothing installs into: a configuration installed in the
# default one (/usr/local/etc/sluice) would take the tests' place.
"$top/configure" --enable-sanitizers --enable-werror --sysconfdir="$top/build/test/etc"
jobs=$(nproc)
# The agent CLIs of the end-to-end tests, the hook managers of the
# protected paths' tests and pnpm for the tool caches' test, from setup.sh: named outright, so that
# distcheck's copy of the tree (which does not carry them) finds them.
export SLUICE_AGENTS_DIR="$top/third_party/agents"
export SLUICE_HOOK_MANAGERS_DIR="$top/third_party/hook-managers"
export SLUICE_DEV_TOOLS_DIR="$top/third_party/dev-tools"
make check-format
make -j"$jobs"
make -j"$jobs" check VERBOSE=1
# The command model under libFuzzer for a bounded time: no crash, leak or hang.
make fuzz-smoke FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
# The INI fuzzer likewise; its input language is small, so 20 s is enough.
make fuzz-config-smoke FUZZ_SECONDS="${FUZZ_SECONDS:-20}"
make -j"$jobs" distcheck
echo "test: make check and make distcheck passed"
