#!/usr/bin/env bash
# `python3 -m MODULE` puts the current folder first on sys.path (unless -P /
# PYTHONSAFEPATH, off by default), so a `venv.py` or `pip.py` at the
# project's top runs in place of the standard module. Trigger: the user's
# routine `python3 -m venv .venv` (the documented way to make the project's
# virtualenv) or `python3 -m pip install ...` in the project folder.
NAME=python-m
. "$(dirname "$0")/51b-lib.sh"
plant='printf "import os\nopen(%s, \"a\").write(\"ran ./venv.py as \" + str(os.getuid()) + chr(10))\n" "\"$MARK\"" >venv.py && echo planted'
trigger() { python3 -m venv .venv; }
run_case
