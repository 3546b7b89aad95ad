#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `sluice doctor` names every place the configuration is looked for, in the
# order the layers are read, and what it found there: read, the drop-ins
# read, not found; and still does when the configuration is refused. And
# where the plugins come from when sluice runs from the build tree.
. "$SLUICE_SRCDIR/tests/lib.sh"

etc="$TEST_TMP/etc" xdg="$TEST_TMP/xdg"
export SLUICE_SYSCONFDIR=$etc XDG_CONFIG_HOME=$xdg

# has_line NAME PATTERN: stdout has a line matching the extended regex.
has_line() {
  if grep -qE -- "$2" <<<"$out"; then ok "$1"; else not_ok "$1" "no line /$2/" "stdout: $out"; fi
}

run "$SLUICE" doctor
has_line "with no file, doctor names the system file it looked for" \
  "^  system +$etc/sluice/sluice.ini: not found$"
has_line "... the drop-in directory" "^  system +$etc/sluice/policies.d/\*.ini: not found$"
has_line "... and the user's file" "^  user +$xdg/sluice/sluice.ini: not found$"
has_line "... and says the built-in defaults apply" "no file read: the built-in defaults apply"

# Run from the build tree, with no SLUICE_PLUGIN_DIR, the plugins come from
# the build tree's plugins/, as files.
run env -u SLUICE_PLUGIN_DIR "$SLUICE" doctor
has_line "from the build tree, the plugin directory is the build tree's" \
  "^plugin directory: $SLUICE_BUILDDIR/plugins$"
has_line "... and the built-in plugins are loaded from it, from their one module" \
  "^  git_add: $SLUICE_BUILDDIR/plugins/builtins.so \(built-in default\)$"
run env -u SLUICE_PLUGIN_DIR "$SLUICE" check -- 'git push --force'
expect "... and they decide" 1 'git_push: force push'

mkdir -p "$etc/sluice/policies.d" "$xdg/sluice"
printf '[broker]\ntimeout = 20s\n' >"$etc/sluice/sluice.ini"
printf '[broker]\n' >"$etc/sluice/policies.d/20-b.ini"
printf '[broker]\n' >"$etc/sluice/policies.d/10-a.ini"
printf '[broker]\n' >"$etc/sluice/policies.d/README"
printf '[broker]\ntimeout = 10s\n' >"$xdg/sluice/sluice.ini"
printf '[env]\n' >"$TEST_TMP/cli.ini"
run "$SLUICE" doctor --config "$TEST_TMP/cli.ini"
has_line "the system file read is named as read" "^  system +$etc/sluice/sluice.ini: read$"
has_line "the drop-ins read are named, in the order they were read" \
  "^  system +$etc/sluice/policies.d/\*.ini: read 10-a.ini, 20-b.ini$"
has_line "the user's file read is named as read" "^  user +$xdg/sluice/sluice.ini: read$"
has_line "the --config file comes last, named as read" \
  "^  --config $TEST_TMP/cli.ini: read$"
if [ "$(grep -E '^  (system|user|--config) ' <<<"$out" | awk '{ print $1 }' | tr '\n' ' ')" = \
  "system system user --config " ]; then
  ok "the places are listed in the order the layers are read"
else
  not_ok "the places are listed in the order the layers are read" "$out"
fi

printf '[broker]\ntimout = 5s\n' >"$xdg/sluice/sluice.ini"
run "$SLUICE" doctor
expect "a refused configuration is an error of sluice's own (125)" 125 \
  "^  user +$xdg/sluice/sluice.ini: found$" "sluice.ini:2: unknown key 'timout'"
has_line "... and doctor still names where it looked" "^  system +$etc/sluice/sluice.ini: found$"
has_line "... and says that every command is refused" "refused: .*every command is refused"
