#!/bin/bash
# A background job's stdout is its .out file in sluice's jobs directory,
# opened on the host's (writable) mount: through /proc/self/fd/1 the
# command changes that outside file's mode, times and extended attributes
# (the threat table: "chmod, chown, times, xattrs by the mounts").
# Prints HOLE or stopped.
. "$(dirname "$0")/51a-lib.sh"
mkhome bgout
cmd='chmod 0666 /proc/self/fd/1; touch -m -d "2001-02-03 04:05:06" /proc/self/fd/1; python3 -c "import os; os.setxattr(\"/proc/self/fd/1\", \"user.rt51a\", b\"planted\")" 2>/dev/null; sleep 1; touch -m -d "2001-02-03 04:05:06" /proc/self/fd/1'
line=$(cd "$P" && HOME=$H "$SLUICE" run --mode background -- "$cmd" | grep -o '/[^ ]*\.out')
sleep 4
echo "job output file: $line"
st=$(stat -c '%a %y' "$line"); echo "outside: mode/mtime $st"
x=$(python3 -c "import os,sys; print(os.listxattr(sys.argv[1]))" "$line" 2>/dev/null); echo "outside: xattrs $x"
rm -rf "$H"
case "$st $x" in *666*|*rt51a*) echo HOLE; exit 1;; esac
echo stopped; exit 0
