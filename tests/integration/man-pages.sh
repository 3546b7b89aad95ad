#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The manual pages and the programs say the same: every option that
# `sluice VERB --help` prints is in that verb's section of sluice(1), every
# option a section lists is one the verb's --help names, every verb has a
# section; the same for `sluice-launch --help` and sluice-launch(1). Reads
# whatever --help prints (a usage line or an option table), so it holds
# however a verb's help is made. (sluice.ini(5) and the key table:
# tests/unit/test-broker-config.c.)
. "$SLUICE_SRCDIR/tests/lib.sh"

man1="$SLUICE_SRCDIR/man/sluice.1.in"
launch1="$SLUICE_SRCDIR/man/sluice-launch.1.in"

# plain FILE: roff source as text: font escapes and \% dropped, \- as -.
plain() {
  sed -e 's/\\f[BIRP]//g' -e 's/\\%//g' -e 's/\\-/-/g' -e 's/\\(dq/"/g' "$1"
}
# section TEXT NAME: the lines of subsection .SS NAME, up to the next .SS/.SH.
section() {
  awk -v name="$2" '
    /^\.S[SH] / { inside = ($1 == ".SS" && $2 == name); next }
    inside' <<<"$1"
}
# options TEXT: every option word in TEXT (-x, --long-name), one per line.
options() {
  grep -oE -- '(^|[^A-Za-z0-9_-])--?[A-Za-z][A-Za-z0-9-]*' <<<"$1" |
    sed -E 's/^[^-]*//' | sort -u
}
# listed TEXT: the options a section lists (the first word of each .TP tag).
listed() {
  awk '/^\.TP/ { getline; print }' <<<"$1" | grep -oE -- '^\.[A-Z]+ +--?[A-Za-z][A-Za-z0-9-]*' |
    sed -E 's/^\.[A-Z]+ +//' | sort -u
}
# has OPTION TEXT: TEXT has OPTION as a whole word.
has() {
  grep -qE -- "(^|[^A-Za-z0-9_-])$1([^A-Za-z0-9_-]|$)" <<<"$2"
}

page=$(plain "$man1")
run "$SLUICE" --help
verbs=$(sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' <<<"$out")
[ -n "$verbs" ] || not_ok "sluice --help lists the verbs" "$out"

missing_section= missing= stale=
for v in $verbs; do
  text=$(section "$page" "$v")
  if [ -z "$text" ]; then
    missing_section+=" $v"
    continue
  fi
  run "$SLUICE" "$v" --help
  help=$out
  for o in $(options "$help"); do
    has "$o" "$text" || missing+=" $v $o;"
  done
  for o in $(listed "$text"); do
    case $o in --help | -h) continue ;; esac
    has "$o" "$help" || stale+=" $v $o;"
  done
done
[ -z "$missing_section" ] && ok "sluice(1) has a section for every verb of sluice --help" ||
  not_ok "sluice(1) has a section for every verb of sluice --help" "no section:$missing_section"
[ -z "$missing" ] && ok "every option of every verb's --help is in its section of sluice(1)" ||
  not_ok "every option of every verb's --help is in its section of sluice(1)" "missing:$missing"
[ -z "$stale" ] && ok "every option sluice(1) lists is one the verb's --help names" ||
  not_ok "every option sluice(1) lists is one the verb's --help names" "not in --help:$stale"

extra=
for s in $(sed -n 's/^\.SS \([a-z-]*\)$/\1/p' <<<"$page"); do
  grep -qx -- "$s" <<<"$verbs" || extra+=" $s"
done
[ -z "$extra" ] && ok "every verb sluice(1) describes exists" ||
  not_ok "every verb sluice(1) describes exists" "no such verb:$extra"

run "$SLUICE" --help
opts=$(awk '/^\.SH OPTIONS/ { inside = 1; next } /^\.SH / { inside = 0 } inside' <<<"$page")
missing=
for o in $(options "$(sed -n '/^Options:/,$p' <<<"$out")"); do
  has "$o" "$opts" || missing+=" $o"
done
[ -z "$missing" ] && ok "sluice(1) OPTIONS has every option of sluice --help" ||
  not_ok "sluice(1) OPTIONS has every option of sluice --help" "missing:$missing"

for part in "EXIT STATUS" FILES ENVIRONMENT; do
  grep -q "^\.SH $part$" "$man1" && ok "sluice(1) has $part" || not_ok "sluice(1) has $part"
done

lpage=$(plain "$launch1")
run "$SLUICE_LAUNCH" --help
lhelp=$(sed -n '/^Options:/,/^Profiles:/p' <<<"$out")
missing= stale=
for o in $(options "$lhelp"); do
  has "$o" "$lpage" || missing+=" $o"
done
for o in $(listed "$lpage"); do
  has "$o" "$lhelp" || stale+=" $o"
done
[ -n "$lhelp" ] && [ -z "$missing" ] && ok "every option of sluice-launch --help is in sluice-launch(1)" ||
  not_ok "every option of sluice-launch --help is in sluice-launch(1)" "missing:$missing"
[ -z "$stale" ] && ok "every option sluice-launch(1) lists is one --help names" ||
  not_ok "every option sluice-launch(1) lists is one --help names" "not in --help:$stale"

# Every placeholder of the sources is filled in the pages the build makes
# (and installs): the footer's version, the directories.
left=$(grep -l '@[A-Z]*@' "$SLUICE_BUILDDIR"/man/*.[1-8] 2>&1)
[ -z "$left" ] && grep -q '"sluice [0-9]' "$SLUICE_BUILDDIR/man/sluice.1"
report $? "the built pages have no @PLACEHOLDER@ left, and the footer names the version" "$left" \
  "$(grep -h '^\.TH' "$SLUICE_BUILDDIR"/man/*.[1-8])"

# The pages are well-formed roff: man reports no warning (but that a line
# holding a long path, as a prefix of the build's can make one, does not
# break or fill well).
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
  for m in "$SLUICE_BUILDDIR"/man/*.[1-8]; do
    w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$m" 2>&1 >/dev/null |
      grep -v "can't break line\|cannot adjust line")
    [ -z "$w" ] && ok "man ${m##*/} renders without a warning" ||
      not_ok "man ${m##*/} renders without a warning" "$w"
  done
else
  skip "the pages render without a warning" "man or groff is not installed"
fi
