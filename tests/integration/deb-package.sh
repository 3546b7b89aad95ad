#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian packages as an administrator gets them: `make deb` builds
# sluice and sluice-dev with dpkg-buildpackage from the release tree (tests
# off: this is one of them), and the packages hold what they should (the
# programs, every built-in plugin, manual pages, completions, the schemas,
# /etc/sluice/sluice.ini as a conffile and policies.d; the header, the .pc
# file and the example), at the version the programs report; lintian finds
# nothing it is not told why (debian/*.lintian-overrides). Needs
# dpkg-buildpackage and debhelper (scripts/setup.sh installs them); skips
# inside a package build, which is what it would start.
. "$SLUICE_SRCDIR/tests/lib.sh"

if [ -n "${SLUICE_IN_PACKAGE_BUILD:-}" ]; then
  skip_rest "the packages build" "this is a package build already"
fi
for tool in dpkg-buildpackage dh dpkg-deb; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    skip_rest "the packages build" "$tool is missing (Debian: dpkg-dev, debhelper; scripts/setup.sh)"
  fi
done

out_dir="$TEST_TMP/deb"
mkdir -p "$out_dir"
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL DEB_BUILD_OPTIONS="nocheck parallel=2" \
  DEB_BUILD_PROFILES=nocheck "${MAKE:-make}" -C "$SLUICE_BUILDDIR" deb DEB_BUILD_DIR="$out_dir" \
  >"$TEST_TMP/deb.log" 2>&1; then
  not_ok "make deb builds the packages" "$(tail -30 "$TEST_TMP/deb.log")"
  exit 1
fi
version=$("$SLUICE" --version | awk '{ print $2 }')
deb=$(ls "$out_dir"/sluice_"$version"_*.deb 2>/dev/null)
dev=$(ls "$out_dir"/sluice-dev_"$version"_*.deb 2>/dev/null)
if [ -f "$deb" ] && [ -f "$dev" ]; then
  ok "make deb builds sluice and sluice-dev at the version sluice reports ($version)"
else
  not_ok "make deb builds sluice and sluice-dev at the version sluice reports ($version)" \
    "$(ls "$out_dir")"
  exit 1
fi

# has_files NAME DEB PATH...: the package holds each PATH (a shell pattern).
has_files() {
  local name=$1 pkg=$2 listing p missing=
  shift 2
  listing=$(dpkg-deb -c "$pkg" | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||')
  for p in "$@"; do
    # shellcheck disable=SC2053
    grep -qx -- "$p" <<<"$listing" || missing+=" $p"
  done
  [ -z "$missing" ] && ok "$name" || not_ok "$name" "missing:$missing"
}
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null)
has_files "sluice holds the programs and the built-in plugins' module" "$deb" \
  /usr/bin/sluice /usr/bin/sluice-launch "/usr/lib/$multiarch/sluice/plugins/builtins.so"
has_files "sluice holds the manual pages" "$deb" \
  /usr/share/man/man1/sluice.1.gz /usr/share/man/man1/sluice-launch.1.gz \
  /usr/share/man/man5/sluice.ini.5.gz
has_files "sluice holds the completions and the schemas" "$deb" \
  /usr/share/bash-completion/completions/sluice /usr/share/bash-completion/completions/sluice-launch \
  /usr/share/zsh/vendor-completions/_sluice \
  /usr/share/sluice/schema/request.schema.json /usr/share/sluice/schema/result.schema.json \
  /usr/share/sluice/schema/mcp-result.schema.json
has_files "sluice holds /etc/sluice/sluice.ini and policies.d" "$deb" \
  /etc/sluice/sluice.ini /etc/sluice/policies.d
has_files "sluice-dev holds the header, the pkg-config file, sluice-policy(3) and the example" "$dev" \
  /usr/include/sluice/policy.h "/usr/lib/$multiarch/pkgconfig/sluice-policy.pc" \
  /usr/share/man/man3/sluice-policy.3.gz /usr/share/doc/sluice-dev/examples/example.c \
  /usr/share/doc/sluice-dev/examples/Makefile

mkdir -p "$TEST_TMP/control"
dpkg-deb -e "$deb" "$TEST_TMP/control"
if grep -qx /etc/sluice/sluice.ini "$TEST_TMP/control/conffiles" 2>/dev/null; then
  ok "/etc/sluice/sluice.ini is a conffile"
else
  not_ok "/etc/sluice/sluice.ini is a conffile" "conffiles: $(cat "$TEST_TMP/control/conffiles" 2>&1)"
fi

# The packaged sluice, unpacked: it reads /etc/sluice (not /usr/etc) and
# takes the plugins from where the package puts them.
mkdir -p "$TEST_TMP/root"
dpkg-deb -x "$deb" "$TEST_TMP/root"
run env -u SLUICE_SYSCONFDIR -u SLUICE_PLUGIN_DIR "$TEST_TMP/root/usr/bin/sluice" doctor
if grep -q "^  system  */etc/sluice/sluice.ini: " <<<"$out" &&
  grep -q "^  system  */etc/sluice/policies.d/\*.ini: " <<<"$out"; then
  ok "the packaged sluice reads /etc/sluice"
else
  not_ok "the packaged sluice reads /etc/sluice" "$out" "$err"
fi
if grep -qx "plugin directory: /usr/lib/$multiarch/sluice/plugins" <<<"$out"; then
  ok "the packaged sluice looks for its plugins where the package puts them"
else
  not_ok "the packaged sluice looks for its plugins where the package puts them" "$out"
fi

if command -v lintian >/dev/null 2>&1; then
  changes=$(ls "$out_dir"/sluice_"$version"_*.changes)
  if lintian --fail-on error,warning "$changes" >"$TEST_TMP/lintian.log" 2>&1; then
    ok "lintian reports no error or warning that debian/ does not explain"
  else
    not_ok "lintian reports no error or warning that debian/ does not explain" \
      "$(grep -E '^[EW]:' "$TEST_TMP/lintian.log" | head -20)"
  fi
else
  skip "lintian is clean" "lintian is not installed (scripts/setup.sh installs it)"
fi
