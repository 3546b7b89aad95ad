#!/usr/bin/env bash
# The project's virtualenv that a protected .envrc activates (direnv's own
# `layout python3`: a venv in .direnv/python-X.Y/, its bin put first on
# PATH): a `.pth` file in its site-packages with an `import` line runs in
# every python the user starts there, `pip --version` included (the
# interpreter an editor's Python extension queries on open too).
# Trigger: cd (direnv), then `pip --version`.
NAME=venv-pth
. "$(dirname "$0")/51b-lib.sh"
command -v direnv >/dev/null || { echo "no direnv"; exit 2; }
export XDG_DATA_HOME=$base/xdg-data XDG_CONFIG_HOME=$base/xdg-config
setup() {
  printf 'layout python3\n' >.envrc && echo .direnv/ >.gitignore && git add .envrc .gitignore &&
  git -c user.name=t -c user.email=t@e.invalid commit -qm envrc && direnv allow . 2>/dev/null &&
  direnv exec . true >/dev/null 2>&1   # the user's first cd made the venv
}
plant='sp=$(echo .direnv/python-*/lib/python*/site-packages) && printf "import os; open(%s, \"a\").write(\"ran zz.pth as %%d\\\\n\" %% os.getuid())\n" "\"$MARK\"" >"$sp/zz.pth" && echo planted "$sp/zz.pth"'
trigger() { eval "$(direnv export bash)"; pip --version; }
run_case
