#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The mutation check: in a scratch copy of this tree, build once, then turn
# off each protection in turn (a mutant: one substitution in one source
# file), rebuild, and run the tests that guard it. Each mutant must make at
# least one of them fail; a mutant that survives is a protection no test
# would miss. Run as `make check-mutants` or scripts/check-mutants.sh
# [MUTANT...] (all by default; --list names them). The copy is made in
# MUTANTS_DIR (default: a new directory under /tmp) and left there.
# Exit status: 0 when every mutant was killed, 1 otherwise (a survivor, or a
# mutant whose substitution no longer applies: the code moved).
set -u

# NAME@@FILE@@PERL-SUBSTITUTION@@TEST...: the table. The substitution
# runs as `perl -0pi -e`, on the file as a whole.
mutants=(
  "landlock-off@@launcher/landlock.c@@s/if \(syscall\(__NR_landlock_restrict_self, ruleset, 0\) < 0\)/if (0)/@@tests/integration/launch-escape.sh"
  "read-only-root-off@@launcher/mounts.c@@s/if \(sys_mount_setattr\(AT_FDCWD, \"\/\", AT_RECURSIVE, &ro\) < 0\)/if (0)/@@tests/integration/launch-escape.sh"
  "read-only-rebinds-off@@launcher/mounts.c@@s/else if \(sys_move_mount\(e->fd, e->path\) < 0\)/else if (e->kind != ENTRY_READ_ONLY \&\& sys_move_mount(e->fd, e->path) < 0)/@@tests/integration/sandbox-protections.sh tests/integration/launch-escape.sh"
  "hide-list-empty@@launcher/options.c@@s/return add_path\(spec->hide, [^;]*;/(void)spec; (void)arg; (void)err; return 0;/@@tests/integration/sandbox-protections.sh"
  "ipc-namespace-off@@launcher/namespaces.c@@s/const int flags = CLONE_NEWNS \| CLONE_NEWIPC;/const int flags = CLONE_NEWNS;/@@tests/integration/sandbox-protections.sh"
  "seccomp-off@@launcher/seccomp-filter.c@@s/if \(syscall\(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog\) < 0\)/if (0)/@@tests/integration/launch-escape.sh"
  "no-new-privs-off@@launcher/privileges.c@@s/if \(prctl\(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0\) < 0\)/if (0)/@@tests/integration/launch-escape.sh"
  "close-fds-off@@launcher/session.c@@s/return \(int\)syscall\(SYS_close_range, first, last, 0\);/(void)first; (void)last; return 0;/@@tests/integration/launch-escape.sh"
  "protect-folders-lock-ignored@@launcher/protect-tidy.c@@s/ \|\| flock\(dir, LOCK_EX \| LOCK_NB\) < 0//@@tests/integration/sandbox-protect-folders.sh"
  "protect-folders-kept@@launcher/protect-tidy.c@@s/\(void\)unlinkat\(dir, name, AT_REMOVEDIR\);/(void)name;/@@tests/integration/sandbox-protect-folders.sh"
  "protect-folders-unmarked-removed@@launcher/protect-tidy.c@@s/if \(fd >= 0 \&\& marked\(fd\)\)/if (fd >= 0)/@@tests/integration/sandbox-protect-folders.sh"
  "protect-folders-let-go@@launcher/protected-paths.c@@s/return 0; \/\* fd deliberately left open \*\//(void)close(fd);\n\treturn 0;/@@tests/integration/sandbox-protect-folders.sh"
  "protect-folders-tidier-runs-unlocked@@broker/run/protect-folders.c@@s/LAUNCH_OPT_PROTECT_LOCK,\s+runs,//@@tests/integration/sandbox-protect-folders.sh"
  "protect-folders-runs-unheld@@launcher/protected-paths.c@@s/if \(!f->runs_lock \|\| f->runs_held\)/if (1)/@@tests/integration/sandbox-protect-folders.sh"
  "protect-folders-no-wait@@launcher/protect-tidy.c@@s/if \(spec->tidy_after_ms == 0\) \{/if (1) {/@@tests/integration/sandbox-protect-folders.sh"
  "git-replace-off@@broker/run/git-later.c@@s/int r = git_later_replace_end\(g, s, changes, n\);/int r = 0;/@@tests/integration/sandbox-gitlater.sh"
  "git-moved-off@@broker/run/git-later.c@@s/\tif \(moved\) \{/\tif (0) {/@@tests/integration/sandbox-gitlater.sh"
  "git-pointers-off@@broker/run/git-later.c@@s/\tif \(pointed\) \{/\tif (0) {/@@tests/integration/sandbox-gitlater.sh"
  "git-history-off@@broker/run/git-later.c@@s/\tfound \+= git_later_history_end\(g, s\);/\tfound += 0;/@@tests/integration/sandbox-gitlater.sh"
  "git-stash-off@@broker/run/git-later.c@@s/bool stashed = git_later_stash_changed\(g\),/bool stashed = false,/@@tests/integration/sandbox-gitlater.sh"
  "git-other-worktrees-off@@launcher/git-paths.c@@s/int r = protect\(f, dir, \"index\", IF_PRESENT, NULL\);/(void)dir; return 0; int r = 0;/@@tests/integration/sandbox-worktrees.sh"
  "submodule-worktree-any@@broker/run/git-sweep-defuse.c@@s/\t\treturn false;\n\K(?=\t_cleanup_free_ char \*tree = )/\treturn true;\n/@@tests/integration/sandbox-sweep.sh"
  "submodule-worktree-never@@broker/run/git-sweep-defuse.c@@s/return git_defuse_config_keeping\(text, len, before, before_len, is_submodule_worktree,/return git_defuse_config_keeping(text, len, before, before_len, NULL,/@@tests/integration/sandbox-sweep.sh"
  "git-other-worktrees-pointers-off@@broker/run/git-later-pointers.c@@s/\tint r = add_other\(g, cfd, cfd, \x22\.\x22, g->common, &own\);/\treturn 0;\n\tint r = add_other(g, cfd, cfd, \x22.\x22, g->common, \&own);/@@tests/integration/sandbox-worktrees.sh"
  "reflog-tail-copy-trusted@@broker/run/git-later-pointer-log.c@@s/\treturn after < from \? after : from;/\treturn tail > 0 \&\& len >= tail \&\& memcmp(text + len - tail, b->tail, tail) == 0 ? len : after < from ? after : from;/@@tests/integration/sandbox-worktrees.sh"
  "user-worked-ignored@@broker/run/git-later-pointers.c@@s/ \|\| \(k > 0 \&\& user_worked\(site\)\)//@@tests/integration/sandbox-worktrees.sh"
  "site-head-by-git-off@@broker/run/git-later-pointers.c@@s/if \(!site->head.ok \&\& site_head_by_git\(g, s, site\) < 0\) \{/if (!site->head.ok) {/@@tests/integration/sandbox-worktrees.sh"
  "merge-autostash-unread@@broker/run/git-later-pointers.c@@s/\[POINTER_MERGE_AUTOSTASH\] = \x22MERGE_AUTOSTASH\x22,/[POINTER_MERGE_AUTOSTASH] = \x22MERGE_AUTOSTASH.unread\x22,/@@tests/integration/sandbox-gitlater.sh tests/integration/sandbox-worktrees.sh"
  "autostash-untracked-unread@@broker/run/git-later-pointers.c@@s/if \(\(k == 2 \|\| k == 3\)/if ((k == 2)/@@tests/integration/sandbox-gitlater.sh"
  "reflog-kept-lines-unknown@@broker/run/git-later-pointer-log.c@@s/s\[len\] == .{4}\)\n\t\t\treturn \Ktrue;/false;/@@tests/integration/sandbox-gitlater.sh"
  "todo-picks-kept@@broker/run/git-later-todo.c@@s/else if \(r > 0\)\n/else if (0)\n/@@tests/integration/sandbox-gitlater.sh tests/integration/sandbox-worktrees.sh"
  "todo-reset-merge-unread@@broker/run/git-later-todo.c@@s/\*v = verb_of\(line, end, &p\);\n\tif \(\*v == VERBS\)/*v = verb_of(line, end, \&p);\n\tif (*v == VERBS || *v == V_RESET || *v == V_MERGE)/@@tests/integration/sandbox-gitlater.sh tests/integration/sandbox-worktrees.sh"
  "todo-labels-unread@@broker/run/git-later-todo.c@@s/\t\tquery\(q, &n, \x22refs\/rewritten\/\x22, p, \(size_t\)\(e - p\), \x22\^\{commit\}\x22\);\n//@@tests/integration/sandbox-gitlater.sh tests/integration/sandbox-worktrees.sh"
  "am-session-kept@@broker/run/git-later-am.c@@s/\tif \(!git_later_am_changed\(gfd, b, started\)\)\n\t\treturn 0;/\treturn 0;/@@tests/integration/sandbox-gitlater.sh tests/integration/sandbox-worktrees.sh"
  "am-in-place-unread@@broker/run/git-later-am.c@@s/ \|\|\n\s*folder_snapshot_changed\(b, de->d_name, &es, started\);/;/@@tests/integration/sandbox-worktrees.sh"
  "am-own-session-moved@@broker/run/folder-snapshot.c@@s/\tif \(!f->listed\)\n\t\treturn !since \|\| git_sweep_ctime_since\(st, since\);/\treturn true;/@@tests/integration/sandbox-worktrees.sh"
  "objects-loose-unchecked@@broker/run/git-later-objects.c@@s/int r = git_loose_object_check\(dirfd\(d\), de->d_name, b.hex\);/int r = 1;/@@tests/integration/sandbox-gitlater-objects.sh"
  "objects-packs-unchecked@@broker/run/git-later-objects.c@@s/\tr = check_packs\(g, s, cfd\);/\tr = 0;/@@tests/integration/sandbox-gitlater-objects.sh"
  "objects-caches-unchecked@@broker/run/git-later-objects.c@@s/\tr = check_caches\(g, s, cfd\);/\tr = 0;/@@tests/integration/sandbox-gitlater-objects.sh"
  "objects-aside-in-place@@broker/run/git-later-objects.c@@s/int r = bfd < 0 \? -ENOTDIR/int r = 1 ? -ENOTDIR/@@tests/integration/sandbox-gitlater-objects.sh"
  "objects-lost-ignored@@broker/run/git-later-objects.c@@s/g->objects_lost \|= !c->bad\[i\].path;/(void)0;/@@tests/integration/sandbox-gitlater-objects.sh"
  "reflog-newest-checkout-unread@@broker/run/git-later-pointers.c@@s/size_t checkout = rewritten \? git_later_log_newest_checkout\(text, len\) : len;/size_t checkout = len;/@@tests/integration/sandbox-worktrees.sh"
  "reflog-user-checkout-unknown@@broker/run/git-later-pointer-log.c@@s/return take_checkout\(b, fd, [^;]*;/return 0;/@@tests/integration/sandbox-gitlater.sh"
  "reflog-old-id-unread@@broker/run/git-later-pointers.c@@s/if \(i == POINTER_HEAD_LOG && fields\[0\] && /if (0 \&\& fields[0] \&\& /@@tests/integration/sandbox-worktrees.sh"
  "reflog-old-id-kept@@broker/run/git-later-pointers.c@@s/if \(r == 0 && git_later_log_unname_old\(text, len, planting, g->hex_len\) > 0\)/if (0)/@@tests/integration/sandbox-worktrees.sh"
  "bisect-range-unread@@broker/run/git-later-pointers.c@@s/\[POINTER_BISECT_BAD\] = \x22refs\/bisect\/bad\x22,/[POINTER_BISECT_BAD] = \x22refs\/bisect\/bad.unread\x22,/@@tests/integration/sandbox-worktrees.sh"
  "submodule-worktree-recheck-off@@broker/run/git-sweep.c@@s/else if \(root < 0 && there && S_ISREG/else if (0 \&\& root < 0 \&\& there \&\& S_ISREG/@@tests/unit/test-git-sweep tests/integration/sandbox-sweep.sh"
  "submodule-worktree-recheck-everywhere@@broker/run/git-sweep-defuse.c@@s/ \|\|\n\s*!resolves_through_run\(w, value\)\)/)/@@tests/integration/sandbox-sweep.sh"
  "nested-commondir-off@@broker/run/git-sweep.c@@s/\t\tfollow_commondir\(w, fd\);/\t\t(void)fd;/@@tests/integration/sandbox-sweep.sh"
  "nested-commondir-job-writable@@broker/run/git-sweep.c@@s/\t\tfind_nested_commondir\(&w, i\);\n//@@tests/integration/sandbox-sweep.sh"
  "git-nested-off@@broker/run/git-later.c@@s/int nr = git_later_nested_end\(g, w, s\);/int nr = 0;/@@tests/integration/sandbox-gitlater-nested.sh"
  "git-nested-prefix-lost@@broker/run/git-later-diff.c@@s/if \(g->prefix \&\& asprintf/if (0 \&\& g->prefix \&\& asprintf/@@tests/integration/sandbox-gitlater-nested.sh"
  "git-nested-made-skipped@@broker/run/git-later-nested.c@@s/\t\treturn made_by_run\(g, n, w, s, all, gitdir, common\);/\t\treturn (free(gitdir), free(common), 0);/@@tests/integration/sandbox-gitlater-nested.sh"
  "git-nested-all-made@@broker/run/git-later-nested.c@@s/if \(!n->gitdir \|\| strcmp\(gitdir, n->gitdir\)/if (1 || !n->gitdir || strcmp(gitdir, n->gitdir)/@@tests/integration/sandbox-gitlater-nested.sh"
  "git-nested-index-only@@broker/run/git-later-nested.c@@s/\t\treturn git_later_end\(n, w, s\);/\t\treturn git_later_index_and_branch(n, w, s, NULL);/@@tests/integration/sandbox-gitlater-nested.sh"
  "git-nested-born-ignored@@broker/run/git-later-nested.c@@s/\treturn stx.stx_btime.tv_sec > g->started.tv_sec \|\|/\treturn 1 || stx.stx_btime.tv_sec > g->started.tv_sec ||/@@tests/integration/sandbox-gitlater-nested.sh"
  "tmpdir-nofollow-off@@broker/run/run-tmpdir.c@@s/ \| O_NOFOLLOW//g@@tests/unit/test-run-tmpdir"
)

# read_mutant ENTRY: its fields in name, file, subst and tests.
read_mutant() {
  name=${1%%@@*}
  local rest=${1#*@@}
  file=${rest%%@@*}
  rest=${rest#*@@}
  subst=${rest%@@*}
  tests=${rest##*@@}
}

if [ "${1:-}" = --list ]; then
  for m in "${mutants[@]}"; do read_mutant "$m"; echo "$name: $file ($tests)"; done
  exit 0
fi

src=$(cd "$(dirname "$0")/.." && pwd)
work=${MUTANTS_DIR:-$(mktemp -d /tmp/sluice-mutants.XXXXXX)}
mkdir -p "$work" || { echo "check-mutants: cannot make '$work'"; exit 1; }
build=$work/build
log=$work/mutants.log
echo "check-mutants: the copy in $work, the build's output in $log"

# The copy: the tree as it is now (committed or not), and the grammar
# (ignored by git, fetched by scripts/fetch-grammar.sh).
if [ ! -e "$work/configure.ac" ]; then
  (cd "$src" && git ls-files -z --cached --others --exclude-standard) |
    (cd "$src" && xargs -0 cp --parents -a -t "$work" 2>/dev/null) || true
  [ -d "$src/third_party" ] && cp -a "$src/third_party" "$work/"
fi
# Without --enable-werror: a mutant may leave a variable unused.
if [ ! -e "$build/Makefile" ]; then
  (cd "$work" && ./autogen.sh && mkdir -p "$build" && cd "$build" &&
    ../configure --sysconfdir="$build/etc") >>"$log" 2>&1 ||
    { echo "check-mutants: configure failed; see $log"; exit 1; }
fi
make -C "$build" -j2 >>"$log" 2>&1 || { echo "check-mutants: the unmutated build failed; see $log"; exit 1; }

# failed_tests TEST...: each test that failed, with the names of its
# failing checks (from the .log make check leaves beside the .trs; a
# script's are named without its .sh).
failed_tests() {
  local t r
  for t in "$@"; do
    r=$build/${t%.sh}
    if grep -q '^:test-result: \(FAIL\|ERROR\)' "$r.trs" 2>/dev/null; then
      echo "    $t: $(grep -c '^not ok\|^\[FAIL\]' "$r.log" 2>/dev/null) failed:"
      grep '^not ok\|^\[FAIL\]\|^\[----\] .*[a-z]' "$r.log" 2>/dev/null | head -n 12 | sed 's/^/      /'
    elif [ ! -e "$r.trs" ]; then
      echo "    $t: did not run"
    fi
  done
}

status=0
for m in "${mutants[@]}"; do
  read_mutant "$m"
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then
    continue
  fi
  read -r -a test_list <<<"$tests"
  cp -p "$work/$file" "$work/$file.orig"
  perl -0pi -e "$subst" "$work/$file"
  if cmp -s "$work/$file" "$work/$file.orig"; then
    echo "mutant $name: NOT APPLIED: the substitution matches nothing in $file (the code moved?)"
    mv "$work/$file.orig" "$work/$file"
    status=1
    continue
  fi
  touch "$work/$file"
  start=$(date +%s)
  if ! make -C "$build" -j2 >>"$log" 2>&1; then
    echo "mutant $name: the mutated build failed; see $log"
    status=1
  else
    for t in "${test_list[@]}"; do rm -f "$build/${t%.sh}.trs" "$build/${t%.sh}.log"; done
    make -C "$build" -j2 check TESTS="${test_list[*]}" >>"$log" 2>&1
    killed=$(failed_tests "${test_list[@]}")
    if [ -n "$killed" ] && ! grep -q 'did not run' <<<"$killed"; then
      echo "mutant $name ($file): killed in $(($(date +%s) - start)) s by:"
      echo "$killed"
    else
      echo "mutant $name ($file): SURVIVED: ${test_list[*]} passed${killed:+ ($killed)}"
      status=1
    fi
  fi
  mv "$work/$file.orig" "$work/$file"
  touch "$work/$file"
done
# Back to the unmutated build, so that the copy can be used again.
make -C "$build" -j2 >>"$log" 2>&1
exit "$status"
