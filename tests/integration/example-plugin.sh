#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The out-of-tree plugin story end to end: install sluice into a temporary
# prefix (DESTDIR), build plugins/example there with its own Makefile through
# pkg-config, load it from an INI file, and check its verdicts with the
# installed sluice and its built-in plugins, installed as files of the plugin
# directory; then the example from the plugin directory, with no path.
. "$SLUICE_SRCDIR/tests/lib.sh"

root="$TEST_TMP/root"
make_cmd=${MAKE:-make}
# the example must carry the sanitizers when sluice does (a sanitized
# plugin needs a sanitized host, and the reverse for the symbols it uses)
# make_var NAME: the build's value of a make variable, every ${...} expanded.
make_var() {
  printf 'sluice-print-var:\n\t@echo $(%s)\n' "$1" |
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$make_cmd" -s -C "$SLUICE_BUILDDIR" -f Makefile -f - \
      sluice-print-var
}
san=$(make_var SANITIZER_CFLAGS)

env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$make_cmd" -s -C "$SLUICE_BUILDDIR" install \
	DESTDIR="$root" >"$TEST_TMP/install.log" 2>&1
report $? "sluice installs into a temporary prefix" "$(tail -20 "$TEST_TMP/install.log")" || exit 1

# What an administrator finds installed besides the programs.
mandir=$(make_var mandir) pkgdatadir=$(make_var pkgdatadir) sysconfdir=$(make_var sysconfdir)
bashcompletiondir=$(make_var bashcompletiondir) zshcompletiondir=$(make_var zshcompletiondir)
lacking=
for f in "$mandir/man1/sluice.1" "$mandir/man1/sluice-launch.1" \
  "$mandir/man5/sluice.ini.5" "$mandir/man3/sluice-policy.3" \
  "$pkgdatadir/schema/request.schema.json" "$pkgdatadir/schema/result.schema.json" \
  "$bashcompletiondir/sluice" "$bashcompletiondir/sluice-launch" "$zshcompletiondir/_sluice" \
  "$sysconfdir/sluice/sluice.ini" "$sysconfdir/sluice/policies.d"; do
  [ -e "$root$f" ] || lacking+=" $f"
done
[ -z "$lacking" ] && ok "the manual pages, schemas, completions and /etc/sluice/policies.d are installed" ||
  not_ok "the manual pages, schemas, completions and /etc/sluice/policies.d are installed" "missing:$lacking"

pcfile=$(find "$root" -name sluice-policy.pc | head -1)
pcdir=${pcfile%/*}
header=$(find "$root" -path '*/include/sluice/policy.h' | head -1)
[ -n "$header" ] && [ -n "$pcfile" ] && [ -d "$pcdir" ]
report $? "the header and the pkg-config file are installed" "header: $header" "pc: $pcdir"

cp -r "$SLUICE_SRCDIR/plugins/example" "$TEST_TMP/example"
chmod -R u+w "$TEST_TMP/example"
run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PKG_CONFIG_PATH="$pcdir" PKG_CONFIG_SYSROOT_DIR="$root" \
  "$make_cmd" -C "$TEST_TMP/example" CFLAGS="-O2 -g $san"
expect "the example builds against the installed header through pkg-config" 0
so="$TEST_TMP/example/example.so"

exported=$(nm -D --defined-only "$so" 2>/dev/null | awk '$2 ~ /^[TDRB]$/ {print $3}' | grep -v '^_' | sort -u | tr '\n' ' ')
[ "$exported" = "sluice_policy_plugin " ]
report $? "the example exports exactly one symbol" "exported: $exported"

cat >"$TEST_TMP/sluice.ini" <<INI
[plugin example]
path = $so
forbid = shutdown
forbid = reboot
INI

sluice_installed="$root$(make_var bindir)/sluice"
plugindir="$root$(make_var plugindir)"
check() {
  run env SLUICE_SYSCONFDIR="$TEST_TMP/etc" XDG_CONFIG_HOME="$TEST_TMP/xdg" \
    SLUICE_PLUGIN_DIR="$plugindir" "$sluice_installed" check --config "$TEST_TMP/sluice.ini" -- "$1"
}

check "ls -la"
expect "the installed sluice allows an ordinary command" 0 '^allow$'
check "sudo reboot"
expect "the example denies a forbidden command under sudo" 1 "example: 'reboot' is not allowed"
check "bash -c 'echo x | shutdown -h now'"
expect "the example sees into a nested shell and a pipeline" 1 "example: 'shutdown' is not allowed"
check "sudo ls"
expect "the example asks before sudo" 2 'example: commands under sudo need approval'
check "git push --force"
expect "the built-in plugins still apply" 1 'git_push: force push'

# The built-in plugins are installed as one module of the plugin directory,
# builtins.so, each exporting its own descriptor, sluice_policy_plugin_NAME
# (plugins/builtin.h lists them), and nothing else.
installed=$(cd "$plugindir" && ls -- *.so | tr '\n' ' ')
[ "$installed" = "builtins.so " ] && ok "the built-in plugins are installed as one module" ||
  not_ok "the built-in plugins are installed as one module" "installed: $installed"
exported=$(nm -D --defined-only "$plugindir/builtins.so" 2>/dev/null |
  awk '$2 ~ /^[TDRB]$/ {print $3}' | grep -v '^_' | sort | tr '\n' ' ')
listed=$(sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\),.*/sluice_policy_plugin_\1/p' \
  "$SLUICE_SRCDIR/plugins/builtin.h" | sort | tr '\n' ' ')
if [ -n "$listed" ] && [ "$exported" = "$listed" ]; then
  ok "it exports one descriptor for each built-in plugin, and nothing else"
else
  not_ok "it exports one descriptor for each built-in plugin, and nothing else" \
    "exported: $exported" "listed: $listed"
fi

# An administrator removes the module: sluice then refuses every command
# (fail closed) until the configuration turns the built-in plugins off.
mv "$plugindir/builtins.so" "$TEST_TMP/builtins.so"
check "ls"
expect "the built-in plugins' module removed from the plugin directory refuses, naming it" 125 '' \
  "plugin 'git_add' \\(built-in default\\): cannot find $plugindir/builtins.so"
{
  for p in $(sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\),.*/\1/p' "$SLUICE_SRCDIR/plugins/builtin.h"); do
    printf '[plugin %s]\nenabled = no\n' "$p"
  done
} >"$TEST_TMP/no-builtins.ini"
run env SLUICE_SYSCONFDIR="$TEST_TMP/etc" XDG_CONFIG_HOME="$TEST_TMP/xdg" \
  SLUICE_PLUGIN_DIR="$plugindir" "$sluice_installed" check --config "$TEST_TMP/no-builtins.ini" -- \
  "git push --force"
expect "... and runs without it once the configuration turns them off" 0 '^allow$'
mv "$TEST_TMP/builtins.so" "$plugindir/builtins.so"

echo "allow_sudo = perhaps" >>"$TEST_TMP/sluice.ini"
check "ls"
expect "a bad setting is a configuration error with its file and line" 125 '' "plugin 'example' could not start: $TEST_TMP/sluice.ini:5: allow_sudo must be yes or no"

echo "typo = 1" >>"$TEST_TMP/sluice.ini"
check "ls"
expect "an undeclared key is refused before the plugin opens" 125 '' "sluice.ini:6: unknown key 'typo' in \[plugin example\]"

# Without a path: NAME.so in the plugin directory.
printf '[plugin example]\nforbid = reboot\n' >"$TEST_TMP/sluice.ini"
mkdir -p "$plugindir"
cp "$so" "$plugindir/example.so"
check "sudo reboot"
expect "a plugin without a path is loaded from the plugin directory" 1 "example: 'reboot' is not allowed"
rm "$plugindir/example.so"
check "sudo reboot"
expect "a plugin missing from the plugin directory refuses, naming the file" 125 '' "plugin 'example' \\(.*sluice.ini:1\\): cannot find $plugindir/example.so"
