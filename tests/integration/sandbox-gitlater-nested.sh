#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What git restores later, in a nested repository (broker/run/
# git-later-nested.c; red team 49, 7): the user's PATH names tools/bin
# (direnv's PATH_add tools/bin) and tools is a repository of its own: a
# submodule (gitdir in .git/modules/tools) or a `git init tools` (its own
# .git folder). The command commits an executable tools/bin/git there as
# git objects only; the top's check moves the top's gitlink back, but the
# nested repository's own index and HEAD still hold it, and the user's
# `git -C tools reset --hard` (or `checkout .`) writes it, the next `git
# status` runs it. Each attack with [sandbox] git_sweep = no first (the
# positive control: the mark appears), then as shipped (no mark; the
# nested branch back, its commits held at refs/sluice/held/...). Then the
# user's own: a submodule the user updated before the run to a commit
# that holds bin/git is left alone by a run that commits there.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="what git restores later in a nested repository"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
git config --global advice.detachedHead false
git config --global protocol.file.allow always
printf '[sandbox]\ngit_sweep = no\n' >"$TEST_TMP/sweep-off.ini"
printf '[sandbox]\ngit_writable = yes\n' >"$TEST_TMP/writable.ini"
printf '[sandbox]\ngit_sweep = no\ngit_writable = yes\n' >"$TEST_TMP/writable-off.ini"

git_bin=$(command -v git)
[ "${git_bin%/git}" = /usr/bin ] || skip_rest "$sandbox_subject" "git is not /usr/bin/git here"

# In the sandbox, the command's git is the system's (tools/bin is not on its PATH).
G='PATH=/usr/bin:/bin git'

# the user's git status with direnv's PATH_add tools/bin
user_status() { (cd "$1" && PATH="$1/tools/bin:$PATH" git status) >/dev/null 2>&1; }
reset_then_status() { git -C "$1/tools" reset -q --hard >/dev/null 2>&1; user_status "$1"; }
checkout_then_status() { git -C "$1/tools" checkout -q -- . >/dev/null 2>&1; user_status "$1"; }

# the command's text: an executable bin/git touching the mark NAME,
# committed (or only staged: "staged") in tools' own repository
plant_in_tools() {
  printf 'b=$(printf "#!/bin/sh\\ntouch %s/%s\\nexec /usr/bin/git \\"\\$@\\"\\n" | %s -C tools hash-object -w --stdin) && %s -C tools update-index --add --cacheinfo 100755,$b,bin/git' \
    "$marks" "$1" "$G" "$G"
  [ "${2:-}" = staged ] || printf ' && %s -C tools commit -qm tidy' "$G"
}

# --- setups
# upstream: a repository to add as a submodule (README, then bin/git, the
# user's own tool, at its second commit)
upstream=$TEST_TMP/upstream
new_repo "$upstream"
mkdir -p "$upstream/bin"
printf '#!/bin/sh\nexec /usr/bin/git "$@"\n' >"$upstream/bin/git"
chmod +x "$upstream/bin/git"
git -C "$upstream" add bin/git && git -C "$upstream" commit -q -m tool
first=$(git -C "$upstream" rev-parse HEAD~1)
plain_top() { new_repo "$1"; }
# tools as its own `git init tools` (not a submodule)
own_folder() {
  new_repo "$1"
  new_repo "$1/tools"
}
# tools as a submodule in .git/modules/tools, at upstream's first commit
submodule() {
  new_repo "$1"
  git -C "$1" submodule -q add "$upstream" tools >/dev/null 2>&1
  git -C "$1/tools" checkout -q "$first"
  git -C "$1" add tools && git -C "$1" commit -q -m tools
}

# attack NAME SETUP COMMAND TRIGGER [CONFIG CONTROL-CONFIG]: SETUP DIR
# makes a fresh workspace, COMMAND runs in it (the mark is NAME), TRIGGER
# DIR is what the user does next. With git_sweep = no the mark must
# appear; as shipped, not. Leaves the boxed workspace in $dir, tools'
# HEAD before the run in $before and the result in $out.
attack() {
  local name=$1 setup=$2 command=$3 trigger=$4 config=${5:-} control=${6:-$TEST_TMP/sweep-off.ini}
  rm -f "$marks/$name"
  dir=$TEST_TMP/control-$name
  "$setup" "$dir"
  run env PATH="$dir/tools/bin:$PATH" "$SLUICE" run -C "$dir" --config "$control" -- "$command"
  eval "$trigger \"\$dir\""
  if [ ! -e "$marks/$name" ]; then
    not_ok "$name: the attack works with git_sweep = no (positive control)" "$out" "$err" \
      "$(git -C "$dir/tools" status --short 2>&1)"
    return 1
  fi
  ok "$name: the attack works with git_sweep = no (positive control)"
  rm -f "$marks/$name"
  dir=$TEST_TMP/boxed-$name
  "$setup" "$dir"
  before=$(git -C "$dir/tools" rev-parse -q --verify HEAD 2>/dev/null || true)
  run env PATH="$dir/tools/bin:$PATH" "$SLUICE" run -C "$dir" ${config:+--config "$config"} --format json -- "$command"
  local result=$out
  eval "$trigger \"\$dir\""
  out=$result
  [ ! -e "$marks/$name" ]
  report $? "$name: stopped in the default sandbox" "$out" "$err" "$(git -C "$dir/tools" status --short 2>&1)"
}

items() { json_get "$out" '"\n".join(i["what"] for i in ((d.get("gitSweep") or {}).get("items") or []))' 2>/dev/null; }
held() { git -C "$dir/tools" for-each-ref --format='%(refname)' refs/sluice/held; }

# --- 1. red team 49, 7: the run makes the submodule (.git/modules/tools
# did not exist: the launcher keeps it read-only only once present)
# and commits its gitlink at the top
made="$G init -q --separate-git-dir=.git/modules/tools tools && $(plant_in_tools made-submodule) &&
printf '[submodule \"tools\"]\\n\\tpath = tools\\n\\turl = ./tools\\n' >>.gitmodules &&
$G add .gitmodules tools && $G commit -qm 'add tools' && $G config -f .git/modules/tools/config core.worktree ../../../tools"
attack made-submodule plain_top "mkdir -p .git/modules && $made" reset_then_status
m=$dir/.git/modules/tools
h=$(git --git-dir="$m" for-each-ref --format='%(refname)' refs/sluice/held)
[ -n "$h" ] && git --git-dir="$m" cat-file -e "$h:bin/git" && [ -z "$(git --git-dir="$m" ls-files bin/git)" ] &&
  ! git --git-dir="$m" rev-parse -q --verify HEAD >/dev/null &&
  [ -f "$dir/tools/.git.sluice-blocked" ] && [ ! -e "$dir/tools/.git" ] &&
  items | grep -q 'committed content at names that run later (bin/git)' && items | grep -q 'renamed .git.sluice-blocked'
report $? "made-submodule: its branch is unborn again (nothing of it was there before the run), the commit kept at $h, bin/git not in its index, tools/.git set aside" \
  "$out" "$(items)"

# --- 2. a repository of its own (git init tools) the user had: committed
attack own-commit own_folder "$(plant_in_tools own-commit)" reset_then_status
h=$(held)
[ "$(git -C "$dir/tools" rev-parse HEAD)" = "$before" ] && [ -n "$h" ] &&
  git -C "$dir/tools" cat-file -e "$h:bin/git" && [ -z "$(git -C "$dir/tools" ls-files bin/git)" ] &&
  items | grep -q 'committed content at names that run later (bin/git)'
report $? "own-commit: tools' branch is back at its commit, the run's commit kept at $h, bin/git not in its index" \
  "$out" "$(items)"

# --- 3. the same, staged only: the user's git -C tools checkout . writes it
attack own-staged own_folder "$(plant_in_tools own-staged staged)" checkout_then_status
[ -z "$(git -C "$dir/tools" ls-files bin/git)" ] && [ -z "$(held)" ] && items | grep -q 'staged it (100755'
report $? "own-staged: the entry is out of tools' index, nothing held (no commit)" "$out" "$(items)"

# --- 4. a repository of its own the run made (git init tools)
attack made-own plain_top "$G init -q tools && $(plant_in_tools made-own)" reset_then_status
m=$dir/tools/.git.sluice-blocked
[ -n "$(git --git-dir="$m" for-each-ref refs/sluice/held)" ] && [ -z "$(git --git-dir="$m" ls-files bin/git)" ] &&
  [ ! -e "$dir/tools/.git" ]
report $? "made-own: the commit held, bin/git not in the index of the repository the run made, its .git set aside" "$out" "$(items)"

# --- 5. a submodule the user had in .git/modules, with git_writable = yes
# (otherwise the launcher keeps .git/modules read-only)
attack writable-submodule submodule "$(plant_in_tools writable-submodule)" reset_then_status \
  "$TEST_TMP/writable.ini" "$TEST_TMP/writable-off.ini"
h=$(held)
[ "$(git -C "$dir/tools" rev-parse HEAD)" = "$before" ] && [ -n "$h" ] && [ -z "$(git -C "$dir/tools" ls-files bin/git)" ]
report $? "writable-submodule: the submodule's HEAD (detached) is back at $first, the run's commit kept at $h" \
  "$out" "$(items)"

# --- 6. the ways past the index and the branch, in tools' own repository
# (the top's check, run in it): a replace ref of HEAD's tree (the user's
# git -C tools reset --hard reads it) and ORIG_HEAD (git -C tools reset
# --hard ORIG_HEAD). tools-tree.sh NAME, run in the sandbox, prints a tree
# of tools' HEAD plus an executable bin/git touching the mark NAME
cat >"$TEST_TMP/tools-tree.sh" <<EOF
g=\$(printf '#!/bin/sh\\ntouch $marks/%s\\nexec /usr/bin/git "\$@"\\n' "\$1" | git -C tools hash-object -w --stdin) &&
b=\$(printf '100755 blob %s\\tgit\\n' "\$g" | git -C tools mktree) &&
{ git -C tools ls-tree HEAD; printf '040000 tree %s\\tbin\\n' "\$b"; } | git -C tools mktree
EOF
attack own-replace own_folder \
  "t=\$(sh $TEST_TMP/tools-tree.sh own-replace) && $G -C tools replace -f \$($G -C tools rev-parse HEAD^{tree}) \$t" \
  reset_then_status
[ -z "$(git -C "$dir/tools" replace -l)" ]
report $? "own-replace: the replace ref the run added in tools is taken out" "$out" "$(items)"
orig_then_status() { git -C "$1/tools" reset -q --hard ORIG_HEAD >/dev/null 2>&1; user_status "$1"; }
attack own-orig-head own_folder \
  "t=\$(sh $TEST_TMP/tools-tree.sh own-orig-head) && c=\$($G -C tools commit-tree -p HEAD -m tidy \$t) && $G -C tools update-ref ORIG_HEAD \$c" \
  orig_then_status

# --- 6b. tools' own object store: the loose object of the user's
# tools/bin/git (committed by the user, so its folder is on the way to the
# PATH) written over in place with the command's script, its index entry's
# stat dropped; the user's git -C tools reset --hard writes the object's
# content (git reads it without checking its hash), the next git status
# runs it. As shipped: the object is set aside and written again from the
# work tree's file, which the sandbox kept read-only.
own_tool() {
  own_folder "$1"
  mkdir -p "$1/tools/bin"
  printf '#!/bin/sh\nexec /usr/bin/git "$@"\n' >"$1/tools/bin/git"
  chmod +x "$1/tools/bin/git"
  git -C "$1/tools" add bin/git && git -C "$1/tools" commit -q -m tool
}
cat >"$TEST_TMP/tools-object.sh" <<'EOF'
loose() { echo "tools/.git/objects/$(echo $1 | cut -c1-2)/$(echo $1 | cut -c3-)"; }
o=$(git -C tools rev-parse HEAD:bin/git) &&
e=$(printf '#!/bin/sh\ntouch %s\nexec /usr/bin/git "$@"\n' "$1" | git -C tools hash-object -w --stdin) &&
python3 -c 'import os,sys; d=open(sys.argv[2],"rb").read(); os.chmod(sys.argv[1],0o644); open(sys.argv[1],"wb").write(d); os.chmod(sys.argv[1],0o444)' "$(loose $o)" "$(loose $e)" &&
git -C tools update-index --cacheinfo 100755,$o,bin/git
EOF
attack own-object own_tool "PATH=/usr/bin:/bin sh $TEST_TMP/tools-object.sh $marks/own-object" reset_then_status
items | grep -q 'the object written again from tools/bin/git' &&
  git -C "$dir/tools" fsck --connectivity-only >/dev/null 2>&1 &&
  [ "$(git -C "$dir/tools" cat-file blob HEAD:bin/git)" = "$(cat "$dir/tools/bin/git")" ]
report $? "own-object: the loose object set aside and written again from tools/bin/git; tools' repository whole" \
  "$out" "$(items)"

# --- 7. the user's own: a submodule update before the run to a commit that
# holds bin/git, then a run that commits an ordinary file there (and one
# that only runs git status at the top): nothing undone, nothing reported
for kind in own-folder writable; do
  dir=$TEST_TMP/user-update-$kind
  if [ $kind = own-folder ]; then
    new_repo "$dir"
    git clone -q "$upstream" "$dir/tools"
    git -C "$dir/tools" checkout -q "$first"
    config=
  else
    submodule "$dir"
    config=$TEST_TMP/writable.ini
  fi
  # the user's own update, outside the sandbox, before the run
  git -C "$dir/tools" checkout -q main
  tool=$(git -C "$dir/tools" rev-parse HEAD)
  run env PATH="$dir/tools/bin:$PATH" "$SLUICE" run -C "$dir" ${config:+--config "$config"} --format json -- \
    "echo x >tools/notes && $G -C tools add notes && $G -C tools commit -qm notes && $G status >/dev/null"
  sweep=$(json_get "$out" 'json.dumps(d.get("gitSweep"))' 2>/dev/null)
  [ "$sweep" = null ] && [ "$(git -C "$dir/tools" rev-parse HEAD~1)" = "$tool" ] &&
    [ -n "$(git -C "$dir/tools" ls-files bin/git)" ] && [ -x "$dir/tools/bin/git" ] &&
    [ -z "$(git -C "$dir/tools" for-each-ref refs/sluice/held)" ]
  report $? "user-update ($kind): the user's submodule update to a commit holding bin/git stays, the run's ordinary commit after it too, nothing reported" \
    "$out" "$(git -C "$dir/tools" log --oneline -3 2>&1)"
done

# a repository the run makes at tools that plants nothing stays, unreported
dir=$TEST_TMP/made-plain
new_repo "$dir"
run env PATH="$dir/tools/bin:$PATH" "$SLUICE" run -C "$dir" --format json -- \
  "$G init -q tools && echo x >tools/README && $G -C tools add README && $G -C tools commit -qm readme"
sweep=$(json_get "$out" 'json.dumps(d.get("gitSweep"))' 2>/dev/null)
[ "$sweep" = null ] && [ -d "$dir/tools/.git" ] && [ -n "$(git -C "$dir/tools" ls-files README)" ]
report $? "a repository the run makes at tools with an ordinary commit stays, nothing reported" "$out"

# tools/.git pointed by the run at a repository of the user's (vendor/lib,
# born before the run): not the run's to undo, said; its branch untouched
dir=$TEST_TMP/pointed
new_repo "$dir"
new_repo "$dir/vendor/lib"
mkdir -p "$dir/vendor/lib/bin"
printf '#!/bin/sh\nexit 0\n' >"$dir/vendor/lib/bin/git"
chmod +x "$dir/vendor/lib/bin/git"
git -C "$dir/vendor/lib" add bin/git && git -C "$dir/vendor/lib" commit -q -m tool
lib=$(git -C "$dir/vendor/lib" rev-parse HEAD)
sleep 1 # its birth time before the run's start, as a user's repository is
run env PATH="$dir/tools/bin:$PATH" "$SLUICE" run -C "$dir" --format json -- \
  "mkdir tools && echo 'gitdir: ../vendor/lib/.git' >tools/.git"
json_get "$out" '(d.get("gitSweep") or {}).get("error") or ""' 2>/dev/null | grep -q 'a repository that was there before it' &&
  [ "$(git -C "$dir/vendor/lib" rev-parse HEAD)" = "$lib" ] && [ -z "$(git -C "$dir/vendor/lib" for-each-ref refs/sluice)" ]
report $? "tools/.git pointed at the user's vendor/lib: said in the sweep's error, vendor/lib left as it was" "$out"

# past the bound (16 nested repositories on the way to a PATH folder):
# said, never silently unchecked
dir=$TEST_TMP/many
new_repo "$dir"
deep=$dir
for i in $(seq 17); do deep=$deep/r$i; git init -q "$deep"; done
run env PATH="$deep/bin:$PATH" "$SLUICE" run -C "$dir" --format json -- true
json_get "$out" '(d.get("gitSweep") or {}).get("error") or ""' 2>/dev/null | grep -q 'could not all be checked (more than 16'
report $? "17 nested repositories on the way to a PATH folder: the sweep's error says not all were checked" "$out"

# --- 8. the cost: stepsUs of a run that commits in tools (git-later), and
# of one that does not touch it (git-later-nested: the stat(2)s before)
dir=$TEST_TMP/cost
own_folder "$dir"
run env PATH="$dir/tools/bin:$PATH" "$SLUICE" run -C "$dir" --format json -- \
  "echo x >tools/notes && $G -C tools add notes && $G -C tools commit -qm notes"
echo "# steps of a run that commits in tools: $(json_get "$out" 'json.dumps(d.get("stepsUs"))' 2>/dev/null)"
