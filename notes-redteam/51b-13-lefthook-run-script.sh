#!/usr/bin/env bash
# lefthook.yml (protected) says `run: ./scripts/check.sh` for pre-commit;
# the script it names by path is not protected (protect-loaded reads only
# direnv's and mise's files). Trigger: the user's `git commit`.
NAME=lefthook-script
. "$(dirname "$0")/51b-lib.sh"
lefthook=/work/main/third_party/hook-managers/node_modules/.bin/lefthook
[ -x "$lefthook" ] || { echo "no lefthook"; exit 2; }
setup() {
  mkdir -p scripts && printf '#!/bin/sh\nexit 0\n' >scripts/check.sh && chmod +x scripts/check.sh &&
  printf 'pre-commit:\n  commands:\n    check:\n      run: ./scripts/check.sh\n' >lefthook.yml &&
  git add -A && git -c user.name=t -c user.email=t@e.invalid commit -qm hooks && "$lefthook" install >/dev/null 2>&1
}
plant='printf "#!/bin/sh\necho \"ran scripts/check.sh as \$(id -un)\" >>%s\n" "$MARK" >scripts/check.sh && echo planted'
trigger() { echo x >>a.txt; git add a.txt; git -c user.name=t -c user.email=t@e.invalid commit -qm x; }
run_case
