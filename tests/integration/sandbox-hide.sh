#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a sandboxed command must not read, attacked for real through
# `sluice run`: every path of the default [sandbox] hide list (taken from
# docs/configuration.md's table, which a unit test ties to the source),
# keystrokes typed into the user's terminal (/dev/pts), the host's
# /dev/shm, earlier background jobs' output, and the audit log. Each read
# first works with --sandbox unrestricted (the positive control), then
# fails in the default sandbox; what a command needs of /dev and its
# TMPDIR keeps working.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own, and
# the commands must meet the home, repositories and files there.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="the hidden paths"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
work=$TEST_TMP/work
mkdir -p "$work"

# unboxed COMMAND / boxed COMMAND: stdout and stderr together in out.
unboxed() { run "$SLUICE" run -C "$work" --sandbox unrestricted -- "$1"; }
boxed() { run "$SLUICE" run -C "$work" "${@:2}" -- "$1"; }

# --- the default hide list, each path planted with a secret of its own
mapfile -t paths < <(sed -n '/^### Hidden paths/,/^### /s/^| `\(~\/[^`]*\)` |.*/\1/p' \
  "$SLUICE_SRCDIR/docs/configuration.md")
if [ "${#paths[@]}" -lt 50 ]; then
  not_ok "the hidden paths' table is read from docs/configuration.md" "found ${#paths[@]}"
fi
readers=
i=0
for p in "${paths[@]}"; do
  i=$((i + 1))
  # a wildcard given a name (as a version's folder would be)
  full=$HOME/${p#\~/} full=${full//\*/2025.3}
  # a path another one lies beneath is a folder; the rest are files
  if printf '%s\n' "${paths[@]}" | grep -q "^$p/"; then
    mkdir -p "$full"
  elif [ -d "$full" ]; then
    :
  else
    mkdir -p "$(dirname "$full")"
    echo "SECRET-$i" >"$full"
    continue
  fi
  echo "SECRET-$i" >"$full/secret"
done
readers="find ~ -type f -exec cat {} + 2>/dev/null; for p in ${paths[*]}; do cat \$p \$p/secret; done 2>/dev/null"
unboxed "$readers"
seen=$(grep -o 'SECRET-[0-9]*' <<<"$out" | sort -u | wc -l)
[ "$seen" -eq "${#paths[@]}" ]
report $? "every hidden path is readable unsandboxed (positive control: $seen of ${#paths[@]})" \
  "missing: $(for j in $(seq 1 "${#paths[@]}"); do grep -qx "SECRET-$j" <<<"$out" || echo "${paths[j - 1]}"; done)"
boxed "$readers"
leaked=$(grep -o 'SECRET-[0-9]*' <<<"$out" | sort -u | tr '\n' ' ')
[ -z "$leaked" ]
report $? "no hidden path is readable in the default sandbox" "leaked: $leaked"

# --- a [sandbox] hide path whose name holds a wildcard's characters
# literally (a file named "keys[old]"): hidden as named, as before hide
# matched wildcards; and a pattern of the user's, matched
printf 'LITERAL-SECRET\n' >"$HOME/.sluice-keys[old]"
printf 'LITERAL-SECRET\n' >"$HOME/.sluice-keys-2024.pem"
printf '[sandbox]\nhide = ~/.sluice-keys[old] ~/.sluice-keys-*.pem\n' >"$TEST_TMP/hide-literal.ini"
literal_reader='cat ~/".sluice-keys[old]" ~/.sluice-keys-2024.pem 2>/dev/null | grep -c LITERAL-SECRET'
unboxed "$literal_reader"
grep -qx 2 <<<"$out"
report $? "both are read unsandboxed (positive control)" "$out"
boxed "$literal_reader" --config "$TEST_TMP/hide-literal.ini"
grep -qx 0 <<<"$out"
report $? "a hide path named with [ ] literally, and a pattern, are hidden" "$out"
rm -f "$HOME/.sluice-keys[old]" "$HOME/.sluice-keys-2024.pem"

# --- the user's terminal: keys typed into a terminal another process holds
if [ -n "$namespace" ] && [ -e /dev/ptmx ]; then
  start_coprocess typist python3 -c '
import os, sys, time
master, slave = os.openpty()
print(os.ttyname(slave), flush=True)
for _ in range(1200):
    os.write(master, b"TYPED-KEY\n")
    time.sleep(0.05)
'
  read -r -t 30 pts <&"$typist_out" || pts=
  if [ -z "$pts" ]; then
    skip "keystrokes in /dev/pts" "no pseudo-terminal could be opened here"
  else
    unboxed "timeout 3 head -c 9 $pts"
    grep -q TYPED-KEY <<<"$out"
    report $? "keys typed into $pts are read unsandboxed (positive control)" "$out" "$err"
    boxed "timeout 3 head -c 9 $pts; ls /dev/pts"
    ! grep -q TYPED-KEY <<<"$out"
    report $? "keys typed into $pts are not read in the default sandbox" "$out"
  fi
  kill "$typist_pid" 2>/dev/null
  wait "$typist_pid" 2>/dev/null
else
  skip "keystrokes in /dev/pts" "no mount namespace here (minimal-dev named missing) or no /dev/ptmx"
fi

# --- the host's /dev/null, the command's stdin (the broker opens it
# outside): root, its owner, could chmod or touch it through
# /proc/self/fd/0, a path no mount covers (helper of red team 51). The
# probe sets the mode it already has, so the positive control harms
# nothing.
if [ "$(id -u)" -eq 0 ] && [ -n "$namespace" ] && [ "$(stat -c %a /dev/null)" = 666 ]; then
  unboxed 'chmod 0666 /proc/self/fd/0 && echo changed'
  grep -qx changed <<<"$out"
  report $? "root changes the host's /dev/null through its stdin unsandboxed (positive control)" "$out"
  boxed 'chmod 0666 /proc/self/fd/0 && echo changed; head -c 1 | wc -c'
  ! grep -q changed <<<"$out" && grep -q 'Read-only file system' <<<"$out" && grep -qx 0 <<<"$out"
  report $? "not in the default sandbox (its stdin is the sandbox's read-only /dev/null, still empty)" "$out"
fi

# --- the host's /dev/shm
shm=/dev/shm/sluice-test-$$
if [ -n "$namespace" ] && echo SHM-SECRET 2>/dev/null >"$shm"; then
  unboxed "cat $shm"
  grep -q SHM-SECRET <<<"$out"
  report $? "the host's /dev/shm is readable unsandboxed (positive control)" "$out"
  boxed "cat $shm"
  ! grep -q SHM-SECRET <<<"$out"
  report $? "the host's /dev/shm is not readable in the default sandbox" "$out"
  rm -f "$shm"
else
  skip "the host's /dev/shm" "no mount namespace here, or /dev/shm is not writable"
fi

# --- what a command needs of /dev still works
if [ -n "$namespace" ]; then
  boxed 'ls /dev | tr "\n" " "; echo; echo x >/dev/null && head -c 4 /dev/urandom | wc -c && head -c 2 /dev/zero | wc -c && cat <(echo substituted) && echo through >/dev/stdout'
  grep -qx 'fd full null random shm stderr stdin stdout tty urandom zero ' <<<"$out" &&
    grep -qx 4 <<<"$out" && grep -qx 2 <<<"$out" && grep -qx substituted <<<"$out" && grep -qx through <<<"$out"
  report $? "/dev holds only the usual devices, and they work" "$out"
fi

# --- earlier background jobs' output
jobs=$XDG_RUNTIME_DIR/sluice/jobs
run "$SLUICE" run -C "$work" --sandbox unrestricted --mode background -- "echo JOB-SECRET"
wait_for 10 grep -q 'JOB-SECRET' "$jobs"/*.out 2>/dev/null
unboxed "cat $jobs/*.out"
grep -q JOB-SECRET <<<"$out"
report $? "an earlier job's output is readable unsandboxed (positive control)" "$out"
boxed "cat $jobs/*.out; ls $jobs; f=\$(mktemp) && echo tmp-ok >\"\$f\" && cat \"\$f\""
! grep -q JOB-SECRET <<<"$out" && grep -qx tmp-ok <<<"$out"
report $? "an earlier job's output is not readable in the default sandbox, and TMPDIR works" "$out"
run "$SLUICE" run -C "$work" --mode background -- "cat $jobs/*.out; f=\$(mktemp) && echo bg-tmp-ok >\"\$f\" && cat \"\$f\""
latest=$(sed -n 's/^\[output: \([^ ]*\) .*/\1/p' <<<"$out")
[ -n "$latest" ] && wait_for 10 grep -q '^\[sluice: job .* \(completed\|failed\)' "$latest"
! grep -q JOB-SECRET "$latest" && grep -q bg-tmp-ok "$latest"
report $? "a background job cannot read an earlier one's output either" "$out" "$(cat "$latest" 2>&1)"

# --- the runtime folder's secrets, every $XDG_RUNTIME_DIR/ row of the
# docs' table (podman's auth.json, a Kerberos ticket cache, the X
# cookies whose names have a random part), planted: a name with no dot is
# a folder holding auth.json (but krb5cc, a file), a "*" given a random name
rt=$TEST_TMP/runtime
mapfile -t rt_paths < <(sed -n '/^### Hidden paths/,/^### /s/^| `\$XDG_RUNTIME_DIR\/\([^`]*\)` |.*/\1/p' \
  "$SLUICE_SRCDIR/docs/configuration.md")
rt_files=()
for p in "${rt_paths[@]}"; do
  f=$rt/${p//\*/Q7xk2L}
  case $p in *.* | *\** | krb5cc) ;; *) f=$f/auth.json ;; esac
  mkdir -p "${f%/*}" && echo RUNTIME-SECRET >"$f" && rt_files+=("\$XDG_RUNTIME_DIR/${f#"$rt"/}")
done
rt_reader="cat ${rt_files[*]} 2>/dev/null | grep -c RUNTIME-SECRET"
XDG_RUNTIME_DIR=$rt unboxed "$rt_reader"
[ "${#rt_paths[@]}" -ge 4 ] && grep -qx "${#rt_paths[@]}" <<<"$out"
report $? "the ${#rt_paths[@]} runtime-folder secrets (${rt_paths[*]}) are read unsandboxed (positive control)" "$out"
XDG_RUNTIME_DIR=$rt boxed "$rt_reader"
grep -qx 0 <<<"$out"
report $? "none is read in the default sandbox" "$out"

# --- the system's secrets, which root owns: a command run by root has no
# capability left but is their owner, so their modes let it read them;
# covered when it runs as root (RUN_SETTINGS_ROOT_COVER), also where
# Landlock alone runs (the fallback)
shadow_reader='head -c 200 /etc/shadow /etc/gshadow 2>/dev/null | grep -c "^root:"'
if [ "$(id -u)" -eq 0 ] && [ -e /etc/shadow ]; then
  unboxed "$shadow_reader"
  [ "$rc" -eq 0 ] && [ "${out%%$'\n'*}" -ge 1 ]
  report $? "root reads /etc/shadow unsandboxed (positive control)" "$out"
  boxed "$shadow_reader"
  grep -qx 0 <<<"$out"
  report $? "root does not read /etc/shadow or /etc/gshadow in the default sandbox" "$out"
  boxed 'cat /etc/ssh/ssh_config >/dev/null 2>&1 || [ ! -e /etc/ssh/ssh_config ]; cat /etc/passwd | grep -c "^root:"'
  grep -qx 1 <<<"$out"
  report $? "what lies beside them stays readable (/etc/passwd, ssh's own config)" "$out"
  if fallback_works; then
    run fallback "$SLUICE" run -C "$work" -- "$shadow_reader"
    grep -qx 0 <<<"$out"
    report $? "nor with Landlock alone (no mount namespace)" "$out" "$err"
  else
    skip "/etc/shadow with Landlock alone" "cannot make a child user namespace here (unshare -U -r, setpriv)"
  fi
else
  unboxed "$shadow_reader"
  grep -qx 0 <<<"$out"
  report $? "as a user other than root, /etc/shadow's modes refuse it, sandboxed or not" "$out"
fi

# --- the rest of the system's secrets root owns (the table under the
# hidden paths in docs/configuration.md, from RUN_SETTINGS_ROOT_COVER):
# each one this machine lacks made for the test (a "*" given a name, a
# folder given a file), read as root unsandboxed (the positive control),
# then not in the default sandbox; removed after. One the machine has is
# left alone (its secret is not the test's to read).
if [ "$(id -u)" -eq 0 ]; then
  mapfile -t covers < <(sed -n '/^| `\/etc\/shadow` |/,/^$/s/^| `\([^`]*\)` |.*/\1/p' \
    "$SLUICE_SRCDIR/docs/configuration.md")
  planted=() made_dirs=()
  cleanup_planted() {
    rm -f "${planted[@]}"
    for d in "${made_dirs[@]}"; do rm -rf "$d"; done
  }
  # the system's folders are left as they were, also when the test stops
  trap 'cleanup_planted; tap_end' EXIT
  for c in "${covers[@]}"; do
    case $c in /etc/shadow* | /etc/gshadow* | /etc/ssh/*) continue ;; esac
    f=${c//\*/sluice-test}
    [ -e "$f" ] && continue
    # an entry without a dot in its last name is a folder: a file in it
    case ${f##*/} in *.*) ;; *) f=$f/sluice-test.key ;; esac
    [ -e "$f" ] && continue
    d=${f%/*}
    if [ ! -e "$d" ]; then
      top=$d # the outermost folder made, removed after
      while [ ! -e "${top%/*}" ]; do top=${top%/*}; done
      mkdir -p "$d" && made_dirs+=("$top")
    fi
    printf 'ROOT-SECRET %s\n' "$c" >"$f" && chmod 600 "$f" && planted+=("$f")
  done
  reader="cat ${planted[*]} 2>/dev/null | grep -c ROOT-SECRET"
  unboxed "$reader"
  [ "${out%%$'\n'*}" = "${#planted[@]}" ] && [ "${#planted[@]}" -ge 20 ]
  report $? "root reads the ${#planted[@]} system secrets planted unsandboxed (positive control)" "$out"
  boxed "$reader"
  grep -qx 0 <<<"$out"
  report $? "root reads none of them in the default sandbox" "$out" \
    "$(boxed "for f in ${planted[*]}; do grep -q ROOT-SECRET \$f 2>/dev/null && echo \$f; done"; echo "$out")"
  cleanup_planted
  trap tap_end EXIT
fi

# --- the audit log
config=$TEST_TMP/audit.ini
printf '[audit]\nfile = %s\n' "$TEST_TMP/audit.log" >"$config"
run "$SLUICE" run --config "$config" -C "$work" --sandbox unrestricted -- "true AUDIT-SECRET"
run "$SLUICE" run --config "$config" -C "$work" --sandbox unrestricted -- "cat $TEST_TMP/audit.log"
grep -q AUDIT-SECRET <<<"$out"
report $? "the audit log is readable unsandboxed (positive control)" "$out" "$err"
run "$SLUICE" run --config "$config" -C "$work" -- "cat $TEST_TMP/audit.log"
! grep -q AUDIT-SECRET <<<"$out"
report $? "the audit log is not readable in the default sandbox" "$out"

# --- named in --print-features and in the result
if [ -n "$namespace" ]; then
  enforced=$(json_get "$features" '" ".join(d["profiles"]["workspace-write"]["enforced"])')
  grep -q minimal-dev <<<"$enforced" && grep -q protected-paths <<<"$enforced"
  report $? "--print-features names minimal-dev and protected-paths" "$features"
  boxed true --format json
  [ "$(json_get "$out" '"minimal-dev" in d["sandbox"]["enforced"]')" = True ]
  report $? "the result names minimal-dev as enforced" "$out"
fi
