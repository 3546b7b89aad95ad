#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetch the pinned tree-sitter-bash grammar with `npm pack`, verify it against
# scripts/grammar.lock, and unpack its C sources into third_party/ (ignored by
# git). Idempotent: a verified copy already in place is kept.
# Not for: building; configure finds the result (or --with-tree-sitter-bash=DIR).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
dest=${1:-$top/third_party/tree-sitter-bash}

lock_value() {
  sed -n "s/^$1=//p" "$here/grammar.lock"
}
package=$(lock_value package)
version=$(lock_value version)
sha256=$(lock_value sha256)
stamp="$dest/.fetched-$version-$sha256"

if [ -f "$stamp" ] && [ -f "$dest/src/parser.c" ] && [ -f "$dest/src/scanner.c" ]; then
  echo "fetch-grammar: $package $version already in $dest"
  exit 0
fi

command -v npm >/dev/null 2>&1 || {
  echo "fetch-grammar: npm is needed to fetch $package (apt-get install npm)" >&2
  exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private cache: no dependence on (or writes into) the caller's npm setup.
# npm's own error is shown when the download fails, with what to check.
if ! (cd "$work" && npm_config_cache="$work/cache" npm pack --loglevel=error "$package@$version" \
  >/dev/null 2>"$work/npm.err"); then
  echo "fetch-grammar: 'npm pack $package@$version' failed:" >&2
  grep -v 'complete log of this run' "$work/npm.err" | sed 's/^/  /' >&2
  echo "fetch-grammar: check that this machine reaches the npm registry (npm config get registry;" >&2
  echo "fetch-grammar: a proxy or CA certificate in npm's configuration), then run this script again." >&2
  exit 1
fi
tarball="$work/$package-$version.tgz"
[ -f "$tarball" ] || { echo "fetch-grammar: npm pack produced no $package-$version.tgz" >&2; exit 1; }

actual=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ "$actual" != "$sha256" ]; then
  echo "fetch-grammar: checksum mismatch for $package $version" >&2
  echo "fetch-grammar:   expected $sha256" >&2
  echo "fetch-grammar:   got      $actual" >&2
  exit 1
fi

mkdir -p "$work/unpack"
tar -xzf "$tarball" -C "$work/unpack" package/LICENSE package/src/parser.c \
  package/src/scanner.c package/src/tree_sitter
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$work/unpack/package" "$dest"
touch "$stamp"
echo "fetch-grammar: $package $version verified and unpacked into $dest"
