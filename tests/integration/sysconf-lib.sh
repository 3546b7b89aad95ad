# SPDX-License-Identifier: MIT
# Shared setup of the scripts that need a real system configuration,
# sourced after tests/lib.sh: SYS is sluice built with the build tree's
# tests/sysconf as its sysconfdir (tests/admin.am), ETC the sluice folder
# there, into which a script installs what an administrator would. With a
# file there, that sluice ignores SLUICE_SYSCONFDIR, SLUICE_PLUGIN_DIR and
# SLUICE_LAUNCH, as an installed sluice does. The scripts that use it take
# a lock (make check runs scripts at once) and remove it at exit.
# Not for: assertions (lib.sh has those).

SYS="$SLUICE_BUILDDIR/sluice-sysconf-test"
ETC="$SLUICE_BUILDDIR/tests/sysconf/sluice"
[ -x "$SYS" ] || { echo "Bail out! $SYS was not built (make check builds it)"; exit 1; }
exec {sysconf_lock}>>"$SLUICE_BUILDDIR/tests/sysconf.lock"
flock "$sysconf_lock"
rm -rf "$ETC"
mkdir -p "$ETC/policies.d"
trap 'rm -rf "$ETC" "$TEST_TMP"; echo "1..$tap_count"' EXIT
# The user's own layer, empty until a script writes it.
export XDG_CONFIG_HOME="$TEST_TMP/xdg"
USER_INI="$XDG_CONFIG_HOME/sluice/sluice.ini"
mkdir -p "$XDG_CONFIG_HOME/sluice"

# system_ini TEXT / user_ini TEXT: install the administrator's file, or the
# user's, replacing it (printf's %b: "\n" is a line break).
system_ini() { printf '%b' "$1" >"$ETC/sluice.ini"; }
user_ini() { printf '%b' "$1" >"$USER_INI"; }

# These scripts run commands through the real
# sluice-launch (the system configuration ignores any stand-in).
if ! "$SLUICE_LAUNCH" --profile unrestricted -- true >/dev/null 2>&1; then
  echo "1..0 # SKIP sluice-launch cannot run a command here"
  trap 'rm -rf "$ETC" "$TEST_TMP"' EXIT
  exit 0
fi
