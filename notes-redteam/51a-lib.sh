# shared helpers for rt51a reproducers
SLUICE=${SLUICE:-/work/main/build/dev/sluice}
[ -x "$SLUICE" ] || SLUICE=/home/sluicedev/sl/build/dev/sluice
mkhome() { # $1 tag -> sets H (fake home) and P (git project in it)
  H=$(mktemp -d /var/tmp/rt51a-$1.XXXXXX); P=$H/proj
  mkdir -p "$P" && (cd "$P" && git init -q && echo hi > a && git add a &&
    git -c user.email=a@b -c user.name=a commit -qm init)
}
run_unres() { (cd "$P" && HOME=$H "$SLUICE" run --sandbox unrestricted -- "$1"); }
run_box()   { (cd "$P" && HOME=$H "$SLUICE" run -- "$1"); }
