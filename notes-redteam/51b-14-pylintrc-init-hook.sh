#!/usr/bin/env bash
# .pylintrc `init-hook=PYTHON` (also pylintrc, pyproject.toml
# [tool.pylint.main], setup.cfg [pylint.main], tox.ini): pylint execs it
# before it lints. Trigger: `pylint a.py` -- what an editor's pylint
# extension (VS Code's ms-python.pylint, pylsp with pylint) runs on open
# and save.
NAME=pylintrc
. "$(dirname "$0")/51b-lib.sh"
command -v pylint >/dev/null || { echo "no pylint"; exit 2; }
setup() { echo 'x = 1' >a.py && git add a.py && git -c user.name=t -c user.email=t@e.invalid commit -qm a; }
plant='printf "[MAIN]\ninit-hook=import os; open(%s, \"a\").write(\"ran .pylintrc init-hook as \" + str(os.getuid()) + chr(10))\n" "\"$MARK\"" >.pylintrc && echo planted'
trigger() { pylint a.py; }
run_case
