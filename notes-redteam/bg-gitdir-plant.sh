#!/usr/bin/env bash
# Class: what is planted in the writable gitdir makes the user's own git
# write outside (issue 30 §2). The sweep runs only once the run's last
# process is gone; a background job (--mode background, a dev server's way)
# lives on and plants while it lives: .git/logs/HEAD -> ~/.bashrc, and HEAD
# left on a branch whose name is shell text ('a;touch${IFS}$HOME/PWNED;#':
# a legal ref name). The user's own `git switch main` (outside, while the
# job runs) appends "checkout: moving from a;touch${IFS}$HOME/PWNED;# to main"
# to ~/.bashrc, and the user's next shell runs it.
# Usage: bg-gitdir-plant.sh [control]   (control: planted by hand, no sluice)
. "$(dirname "$0")/env.sh"
echo '# the user bashrc' >"$HOME/.bashrc"
plant='git switch -qc "a;touch\${IFS}\$HOME/PWNED;#" && ln -sf ~/.bashrc .git/logs/HEAD'
if [ "$1" = control ]; then
  (cd "$REPO" && eval "$plant")
else
  boxed "$plant; echo planted; sleep 300" --mode background
  sleep 4
fi
echo "--- $(ls -l "$REPO/.git/logs/HEAD" 2>&1)"
# the user's own git, outside, while the job runs
(cd "$REPO" && git switch -q main 2>&1 | head -3)
echo "--- ~/.bashrc now:"; cat "$HOME/.bashrc"
rm -f "$HOME/PWNED"; HOME=$HOME bash -c ". $HOME/.bashrc" >/dev/null 2>&1
if [ -e "$HOME/PWNED" ]; then echo "HOLE: the user's next shell ran the command's text"; else echo "stopped"; fi
for id in $("$SLUICE" jobs --format json 2>/dev/null | grep -o '"id": *"[^"]*"' | cut -d'"' -f4); do "$SLUICE" kill "$id" >/dev/null 2>&1; done
