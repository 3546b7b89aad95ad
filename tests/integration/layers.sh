#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The broker's layers (docs/architecture.md): a file includes headers only
# from its own folder or a lower one, naming the folder; common/ includes
# nothing of the programs, the launcher nothing of the broker; only shell/
# includes tree-sitter. Also the rooms' size: no product file over 800
# lines, no function over 80. Reads the sources only, so it runs
# anywhere; TAP.
# Usage: layers.sh [SRCDIR] (make check passes SLUICE_SRCDIR).
set -u
src=${1:-${SLUICE_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}}

# The broker's folders, lowest first: each may include from itself and the
# folders before it. docs/architecture.md states the same order.
LAYERS=(util core shell model config policy run agent cli)
# Headers the build makes in a layer's folder of the build tree.
GENERATED="agent/tool-schemas.h"

n=0 failed=0
ok() {
  n=$((n + 1))
  echo "ok $n - $1"
}
not_ok() {
  n=$((n + 1)) failed=1
  echo "not ok $n - $1"
  shift
  for line in "$@"; do echo "# $line"; done
}
# report STATUS NAME [DETAIL...]: ok when STATUS is 0 (as in tests/lib.sh,
# which this script does not need).
report() {
  local status=$1 name=$2
  shift 2
  if [ "$status" -eq 0 ]; then ok "$name"; else not_ok "$name" "$@"; fi
}
rank() {
  local i
  for i in "${!LAYERS[@]}"; do
    [ "${LAYERS[$i]}" = "$1" ] && { echo "$i"; return; }
  done
  echo -1
}
# includes FILE: each quoted include of FILE as "LINE NAME".
includes() {
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"
}

# What a broker file in folder $1 may include, one header at a time.
broker_include_error() {
  local layer=$1 inc=$2 folder
  case $inc in
  config.h) return ;;
  ../* | */../*) echo "a relative path: name the folder" ;;
  sluice/*) [ -f "$src/include/$inc" ] || echo "no such ABI header" ;;
  */*)
    folder=${inc%%/*}
    if [ "$(rank "$folder")" -lt 0 ]; then
      echo "'$folder' is not a layer"
    elif [ "$(rank "$folder")" -gt "$(rank "$layer")" ]; then
      echo "$folder/ is a higher layer than $layer/"
    elif [ ! -f "$src/broker/$inc" ] && ! grep -qx -- "$inc" <<<"$GENERATED"; then
      echo "no such header"
    fi
    ;;
  *)
    if [ -f "$src/common/$inc" ] || [ -f "$src/plugins/$inc" ]; then
      return
    elif compgen -G "$src/broker/*/$inc" >/dev/null; then
      echo "a broker header: name its folder"
    else
      echo "not in common/ or plugins/"
    fi
    ;;
  esac
}

# 1. The order is written once more, in docs/architecture.md.
order=$(
  IFS=' '
  echo "${LAYERS[*]}"
)
doc_order=$(sed -n 's/^Layers, lowest first: \(.*\)\.$/\1/p' "$src/docs/architecture.md" | tr -d '`')
[ "$doc_order" = "$order" ]
report $? "docs/architecture.md gives the same order: $order" "the document says: '$doc_order'"

# 2. Every folder of broker/ is a layer.
unknown=
for d in "$src"/broker/*/; do
  d=$(basename "$d")
  [ "$(rank "$d")" -ge 0 ] || unknown+=" $d"
done
[ -z "$unknown" ]
report $? "every folder of broker/ has its place in the order" "not placed:$unknown"
! compgen -G "$src/broker/*.[ch]" >/dev/null
report $? "no source file outside a layer's folder" "$(cd "$src" && ls broker/*.[ch] 2>/dev/null)"

# 3. Each layer includes only from itself and below.
for layer in "${LAYERS[@]}"; do
  bad=()
  for f in "$src/broker/$layer"/*.[ch]; do
    [ -f "$f" ] || continue
    while read -r inc; do
      why=$(broker_include_error "$layer" "$inc")
      [ -z "$why" ] || bad+=("${f#"$src"/}: \"$inc\": $why")
    done < <(includes "$f")
    if [ "$layer" != shell ] && grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*<tree_sitter/' "$f"; then
      bad+=("${f#"$src"/}: tree-sitter is included by shell/ only")
    fi
  done
  allowed=$(
    IFS=' '
    k=$(rank "$layer")
    echo "${LAYERS[*]:0:k+1}"
  )
  [ ${#bad[@]} -eq 0 ]
  report $? "broker/$layer/ includes only from: $allowed" "${bad[@]}"
done

# 4. Below the broker: common/ includes only itself; the launcher itself,
#    common/ and the filter its build generates.
for dir in common launcher; do
  bad=()
  for f in "$src/$dir"/*.[ch]; do
    while read -r inc; do
      [ "$inc" = config.h ] && continue
      [ "$dir" = launcher ] && [ "$inc" = seccomp-programs.h ] && continue
      [ -f "$src/$dir/$inc" ] && continue
      [ "$dir" = launcher ] && [ -f "$src/common/$inc" ] && continue
      bad+=("${f#"$src"/}: \"$inc\"")
    done < <(includes "$f")
  done
  [ ${#bad[@]} -eq 0 ]
  report $? "$dir/ includes nothing from above it" "${bad[@]}"
done

# 5. Rooms of a size a reader holds: no product source file over 800
#    lines, no function body over 80 (a body runs from a "{" at the start
#    of a line to the next "}" there, the project's style for functions).
long_files=() long_functions=()
while IFS= read -r -d '' f; do
  lines=$(wc -l <"$f")
  [ "$lines" -le 800 ] || long_files+=("${f#"$src"/}: $lines lines")
  [ "${f%.c}" != "$f" ] || continue
  while read -r body; do
    long_functions+=("${f#"$src"/}: $body")
  done < <(awk '/^\{/ { start = NR; name = prev } /^\}/ && start { if (NR - start - 1 > 80) print NR - start - 1 " lines, the function ending on line " NR " (" name ")"; start = 0 } { prev = $0 }' "$f")
done < <(find "$src/broker" "$src/launcher" "$src/common" "$src/plugins" "$src/include" -name '*.[ch]' -print0 | sort -z)
[ ${#long_files[@]} -eq 0 ]
report $? "no product source file is over 800 lines" "${long_files[@]}"
[ ${#long_functions[@]} -eq 0 ]
report $? "no function is over 80 lines" "${long_functions[@]}"

echo "1..$n"
exit "$failed"
