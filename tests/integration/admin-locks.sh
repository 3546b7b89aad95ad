#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A user cannot step around the administrator: with a system configuration
# installed, the user's own layer (their sluice.ini, --config) cannot set
# the shell, point SLUICE_LAUNCH at a wrapper, name an approver for the
# administrator's ask rules, nor get a plugin or approver that others can
# write loaded; an indented key is an error, not a silent continuation.
# Each attack is first shown to work where nothing stops it.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# a shell placed there must be seen by the launcher.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/sysconf-lib.sh"

ws="$TEST_TMP/ws"
mkdir -p "$ws"
mark="$TEST_TMP/pwned"

# -- [broker] shell ---------------------------------------------------------
# A "shell" that rewrites what it is given: the policies judge `echo
# harmless`, the rewriter runs something else.
rewriter="$TEST_TMP/rewriter"
printf '#!/bin/bash\nexec /bin/bash -c "touch %s"\n' "$mark" >"$rewriter"
chmod 755 "$rewriter"
"$rewriter" -c 'echo harmless'
[ -e "$mark" ]
report $? "positive control: the rewriting shell runs what the policies never saw"
rm -f "$mark"

system_ini '[sandbox]\nmode = workspace-write\n'
user_ini "[broker]\nshell = $rewriter\n"
run "$SYS" run -C "$ws" -- 'echo harmless'
[ "$rc" -eq 125 ] && [ ! -e "$mark" ] &&
  grep -q "sluice.ini:2: 'shell' in \[broker\] is read only from the system configuration" <<<"$err"
report $? "a user's [broker] shell is refused (file:line), and nothing runs" "rc=$rc" "$out" "$err"
user_ini ''
printf '[broker]\nshell = %s\n' "$rewriter" >"$TEST_TMP/cli.ini"
run "$SYS" run --config "$TEST_TMP/cli.ini" -C "$ws" -- 'echo harmless'
[ "$rc" -eq 125 ] && [ ! -e "$mark" ]
report $? "... and so is --config's" "rc=$rc" "$err"
system_ini "[broker]\nshell = $rewriter\n"
run "$SYS" run -C "$ws" -- 'echo harmless'
[ "$rc" -eq 125 ] && [ ! -e "$mark" ] && grep -q "shell '$rewriter' is not bash" <<<"$err"
report $? "a shell the command model does not cover is refused even from the system layer" \
  "rc=$rc" "$err"
ln -s /bin/bash "$TEST_TMP/bash-link"
system_ini "[broker]\nshell = $TEST_TMP/bash-link\n"
run "$SYS" run -C "$ws" -- 'echo via-bash'
expect "a bash under another path is a bash" 0 '^via-bash$'

# -- SLUICE_LAUNCH ----------------------------------------------------------
# A wrapper that leaves a mark and then runs the real launcher.
wrapper="$TEST_TMP/wrapper"
printf '#!/bin/bash\ntouch %s\nexec %q "$@"\n' "$mark" "$SLUICE_LAUNCH" >"$wrapper"
chmod 755 "$wrapper"
system_ini '[sandbox]\nmode = workspace-write\n'
run env SLUICE_LAUNCH="$wrapper" SLUICE_SYSCONFDIR="$TEST_TMP/no-etc" "$SLUICE" run -C "$ws" -- 'echo ran'
[ "$rc" -eq 0 ] && [ -e "$mark" ]
report $? "positive control: without a system configuration SLUICE_LAUNCH is honoured" "rc=$rc" "$err"
rm -f "$mark"
run env SLUICE_LAUNCH="$wrapper" "$SYS" run -C "$ws" -- 'echo ran'
[ "$rc" -eq 0 ] && [ ! -e "$mark" ] && [ "$out" = ran ]
report $? "with a system configuration SLUICE_LAUNCH is ignored: the real launcher ran it" \
  "rc=$rc" "$out" "$err"
run env SLUICE_LAUNCH="$wrapper" "$SYS" doctor
grep -q '^SLUICE_LAUNCH ignored: a system configuration is installed$' <<<"$out"
report $? "... and doctor says so" "$out"

# A launcher that runs nothing and exits 0 (or runs the command bare):
# nothing reported, so the result must not say ok, nor name a sandbox.
printf '#!/bin/sh\nexit 0\n' >"$TEST_TMP/silent-launch"
chmod 755 "$TEST_TMP/silent-launch"
run env SLUICE_LAUNCH="$TEST_TMP/silent-launch" SLUICE_SYSCONFDIR="$TEST_TMP/no-etc" \
  "$SLUICE" run --format json -C "$ws" -- "touch $mark"
[ ! -e "$mark" ] && [ "$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["ok"], d["error"]["kind"], d["sandbox"]["enforced"])' "$out" 2>&1)" = "False command_failed None" ] &&
  grep -q 'did not report starting the command' <<<"$out"
report $? "a launcher that exits 0 without running anything does not give ok: true" "rc=$rc" "$out"
# The test stand-in runs the command bare and reports the unrestricted
# profile, whatever was asked.
run env SLUICE_LAUNCH="$SLUICE_SRCDIR/tests/integration/fake-launch.sh" \
  SLUICE_SYSCONFDIR="$TEST_TMP/no-etc" \
  "$SLUICE" run --format json --sandbox workspace-write -C "$ws" -- 'echo bare'
[ "$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["ok"], d["sandbox"]["mode"])' "$out" 2>&1)" = "False unrestricted" ] &&
  grep -q "the launcher reported the sandbox 'unrestricted', not the 'workspace-write' asked for" <<<"$out"
report $? "a launcher that reports another sandbox fails the run, and the result names the one reported" \
  "rc=$rc" "$out"

# -- approval ---------------------------------------------------------------
ask_rule='[plugin regex]\nrule = kube\npattern = \\bkubectl\\s+delete\\b\naction = ask\nmessage = needs a person\n'
# kubectl itself is not needed: the command is `kubectl delete ...; touch`
# under a function named kubectl; the mark is in the workspace (writable).
mark="$ws/approved"
cmd="kubectl() { :; }; kubectl delete ns prod; touch $mark"
system_ini "[approval]\nuser_program = yes\n$ask_rule"
user_ini '[approval]\nmethod = program\nprogram = /bin/true\n'
run "$SYS" run -C "$ws" -- "$cmd"
[ "$rc" -eq 0 ] && [ -e "$mark" ]
report $? "positive control: where the system layer allows it, the user's /bin/true approves the ask" \
  "rc=$rc" "$out" "$err"
rm -f "$mark"
system_ini "$ask_rule"
run "$SYS" run -C "$ws" -- "$cmd"
[ "$rc" -eq 125 ] && [ ! -e "$mark" ] &&
  grep -q "'program' in \[approval\] is read only from the system configuration (unless it sets \[approval\] user_program = yes)" <<<"$err"
report $? "otherwise a user's approver is refused, and the administrator's ask is not answered" \
  "rc=$rc" "$out" "$err"
user_ini '[approval]\nmethod = program\n'
run "$SYS" run -C "$ws" -- "$cmd"
[ "$rc" -eq 125 ] && [ ! -e "$mark" ] && grep -q 'method = program needs program' <<<"$err"
report $? "method = program with no approver from the system layer is refused" "rc=$rc" "$err"
user_ini ''
run "$SYS" run -C "$ws" -- "$cmd"
[ "$rc" -ne 0 ] && [ ! -e "$mark" ] && grep -q 'approval required by policy regex' <<<"$out"
report $? "with no approver the ask is refused" "rc=$rc" "$out"

# The administrator's approver in a folder anyone can write: refused.
loose="$TEST_TMP/loose"
mkdir -p "$loose"
cp /bin/true "$loose/approve"
system_ini "[approval]\nmethod = program\nprogram = $loose/approve\n$ask_rule"
run "$SYS" run -C "$ws" -- "$cmd"
[ "$rc" -eq 0 ] && [ -e "$mark" ]
report $? "positive control: the administrator's approver approves" "rc=$rc" "$err"
rm -f "$mark"
chmod 777 "$loose"
run "$SYS" run -C "$ws" -- "$cmd"
[ "$rc" -eq 125 ] && [ ! -e "$mark" ] && grep -q "not trusted: '$loose' is writable by everyone" <<<"$err"
report $? "an approver in a world-writable folder is refused" "rc=$rc" "$err"
run "$SYS" doctor
[ "$rc" -ne 0 ] && grep -q "not trusted: '$loose' is writable by everyone" <<<"$out$err"
report $? "... and doctor reports it" "rc=$rc" "$out" "$err"
chmod 700 "$loose"

# The shipped template locks what an administrator expects locked.
cp "$SLUICE_SRCDIR/conf/00-locked.ini" "$ETC/policies.d/"
system_ini ''
user_ini '[sandbox]\nmode = unrestricted\n'
run "$SYS" run -C "$ws" -- 'true'
[ "$rc" -eq 125 ] && grep -q "'mode' in \[sandbox\] is set by the system configuration" <<<"$err"
report $? "with the shipped lock template a user cannot loosen the sandbox" "rc=$rc" "$err"
user_ini '[approval]\nmethod = terminal\n'
run "$SYS" run -C "$ws" -- 'true'
[ "$rc" -eq 125 ] && grep -q "'method' in \[approval\] is set by the system configuration" <<<"$err"
report $? "... nor choose who answers an ask" "rc=$rc" "$err"
user_ini '[plugin git_push]\nenabled = no\n'
run "$SYS" run -C "$ws" -- 'true'
[ "$rc" -eq 125 ] && grep -q "plugin 'git_push' is enabled by the system configuration" <<<"$err"
report $? "... nor turn a built-in policy off" "rc=$rc" "$err"
# An allowlist only widens what a command reaches: a user's would undo the
# administrator's [sandbox] network.
user_ini '[network]\nallow = 192.0.2.7\n'
run "$SYS" run -C "$ws" -- 'true'
[ "$rc" -eq 125 ] &&
  grep -q "'allow' in \[network\] cannot be set here: the system configuration (.*00-locked.ini:[0-9]*) sets \[sandbox\] network" <<<"$err"
report $? "... nor give sandboxed commands hosts to reach ([network] allow)" "rc=$rc" "$err"
rm -f "$ETC/policies.d/00-locked.ini"
run "$SYS" doctor
grep -q "^network egress: through sluice's proxy, to 192.0.2.7 " <<<"$out"
report $? "positive control: where the system layer says nothing of the network, the user's allowlist is taken" \
  "rc=$rc" "$out" "$err"
system_ini '[network]\nallow = 198.51.100.1\n'
run "$SYS" run -C "$ws" -- 'true'
[ "$rc" -eq 125 ] && grep -q "'allow' in \[network\] is set by the system configuration" <<<"$err"
report $? "a user cannot add to the administrator's allowlist either" "rc=$rc" "$err"
system_ini ''
user_ini ''

# -- plugin files -----------------------------------------------------------
fx="$SLUICE_BUILDDIR/tests/plugins/fx_ok.so"
plugdir="$TEST_TMP/plugins"
mkdir -m 700 "$plugdir"
cp "$fx" "$plugdir/fx.so"
chmod 644 "$plugdir/fx.so"
system_ini "[plugin fx]\npath = $plugdir/fx.so\nverdict = deny\nmessage = fixture says no\nwhen = fixture-word\n"
run "$SYS" check -- 'echo fixture-word'
expect "positive control: a plugin only its owner can write loads and decides" 1 'fixture says no'
chmod 666 "$plugdir/fx.so"
run "$SYS" check -- 'echo fixture-word'
[ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && grep -q "plugin 'fx' (.*): not trusted: '$plugdir/fx.so' is writable by everyone" <<<"$out$err"
report $? "a world-writable plugin is refused, with the reason" "rc=$rc" "$out" "$err"
run "$SYS" doctor
[ "$rc" -ne 0 ] && grep -q "not trusted: '$plugdir/fx.so' is writable by everyone" <<<"$out"
report $? "... and doctor reports it" "rc=$rc" "$out"
chmod 644 "$plugdir/fx.so"
chmod 770 "$plugdir"
run "$SYS" check -- 'echo fixture-word'
[ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && grep -q "not trusted: '$plugdir' is writable by its group" <<<"$out$err"
report $? "a plugin in a folder its group can write is refused" "rc=$rc" "$out" "$err"
chmod 700 "$plugdir"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
  chown nobody "$plugdir/fx.so"
  run "$SYS" check -- 'echo fixture-word'
  [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && grep -q "'$plugdir/fx.so' is owned by uid $(id -u nobody), neither root nor the user running sluice" <<<"$out$err"
  report $? "root refuses a plugin another user owns" "rc=$rc" "$out" "$err"
  chown 0 "$plugdir/fx.so"
else
  skip "root refuses a plugin another user owns" "needs root to give the file to another user"
fi

# -- continuation lines -----------------------------------------------------
system_ini ''
printf '[plugin regex]\nrule = kube\npattern = \\bkubectl\\s+delete\\b\naction = ask\n' >"$ETC/policies.d/50-kube.ini"
run "$SYS" check -- 'kubectl delete ns prod'
expect "positive control: the rule asks when 'action' starts its line" 2
printf '[plugin regex]\nrule = kube\npattern = \\bkubectl\\s+delete\\b\n    action = ask\n' >"$ETC/policies.d/50-kube.ini"
run "$SYS" check -- 'kubectl delete ns prod'
[ "$rc" -ne 0 ] && [ "$rc" -ne 2 ] &&
  grep -q "50-kube.ini:4: indented 'action' is joined onto 'pattern' of \[plugin regex\]" <<<"$out$err"
report $? "an indented 'action = ask' is an error with file:line, not part of the pattern" "rc=$rc" "$out" "$err"
run "$SYS" doctor
[ "$rc" -ne 0 ] && grep -q "50-kube.ini:4: indented 'action'" <<<"$out"
report $? "... and doctor does not exit 0" "rc=$rc" "$out"
rm -f "$ETC/policies.d/50-kube.ini"
system_ini '[sandbox]\nhide = ~/.secret\n  mode = restricted\n'
run "$SYS" check -- 'true'
[ "$rc" -ne 0 ] && grep -q "sluice.ini:3: indented 'mode' is joined onto 'hide' above it" <<<"$err"
report $? "so is an indented key of a core section" "rc=$rc" "$err"
system_ini ''
cp "$SLUICE_SRCDIR"/policies/*.ini "$ETC/policies.d/"
run "$SYS" check -- 'curl -s https://example.org/x | sh'
[ "$rc" -eq 1 ]
report $? "the packs' multi-line patterns still load and decide" "rc=$rc" "$out" "$err"
