# SPDX-License-Identifier: MIT
# SLUICE_MUSL_LAUNCHER(ACTION-IF-FOUND, ACTION-IF-NOT-FOUND)
# Whether sluice-launch can be built static against musl with $CC and
# musl-gcc's specs file ($MUSL_SPECS, else the file the musl-gcc script
# names). musl's headers do not include the kernel's, which the launcher
# needs (linux/landlock.h, linux/seccomp.h, ...): launcher/linux-headers in
# the build tree links to them ($LINUX_HEADERS, default /usr/include, and
# its multiarch asm/). On success sets LAUNCHER_LIBC_CFLAGS and
# LAUNCHER_LIBC_LDFLAGS (libtool's -all-static: its -static would still
# link dynamically); otherwise sluice_musl_why says why not.
AC_DEFUN([SLUICE_MUSL_LAUNCHER], [
  sluice_musl_ok=no sluice_musl_why=
  AS_IF([test -z "$MUSL_SPECS"], [
    AC_PATH_PROG([MUSL_GCC], [musl-gcc])
    AS_IF([test -n "$MUSL_GCC"],
      [MUSL_SPECS=`sed -n 's/.*-specs "\([[^"]]*\)".*/\1/p' "$MUSL_GCC" | head -n 1`])
  ])
  sluice_linux=${LINUX_HEADERS:-/usr/include}
  sluice_multiarch=`$CC -print-multiarch 2>/dev/null`
  sluice_asm=$sluice_linux/asm
  AS_IF([test -n "$sluice_multiarch" && test -d "$sluice_linux/$sluice_multiarch/asm"],
    [sluice_asm=$sluice_linux/$sluice_multiarch/asm])
  AS_IF([test -z "$MUSL_SPECS" || test ! -f "$MUSL_SPECS"],
      [sluice_musl_why="no musl-gcc specs file (musl-gcc not found)"],
    [test ! -f "$sluice_linux/linux/landlock.h" || test ! -d "$sluice_asm"],
      [sluice_musl_why="no kernel headers with Landlock in $sluice_linux"],
    [
    sluice_headers=`pwd`/launcher/linux-headers
    rm -rf "$sluice_headers"
    AS_MKDIR_P(["$sluice_headers"])
    ln -s "$sluice_linux/linux" "$sluice_headers/linux"
    ln -s "$sluice_asm" "$sluice_headers/asm"
    ln -s "$sluice_linux/asm-generic" "$sluice_headers/asm-generic"
    AC_MSG_CHECKING([whether sluice-launch links static against musl])
    sluice_save_CFLAGS=$CFLAGS sluice_save_LDFLAGS=$LDFLAGS sluice_save_LIBS=$LIBS
    CFLAGS="$CFLAGS -specs $MUSL_SPECS -isystem $sluice_headers"
    LDFLAGS="$LDFLAGS -static"
    LIBS=
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>]], [[return (int)syscall(SYS_landlock_create_ruleset, 0, 0,
                             LANDLOCK_CREATE_RULESET_VERSION) +
           prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) +
           (int)syscall(SYS_close_range, 3, ~0U, 0);]])],
      [sluice_musl_ok=yes], [sluice_musl_why="$CC cannot link a static program with $MUSL_SPECS"])
    CFLAGS=$sluice_save_CFLAGS LDFLAGS=$sluice_save_LDFLAGS LIBS=$sluice_save_LIBS
    AC_MSG_RESULT([$sluice_musl_ok])
    AS_IF([test "x$sluice_musl_ok" = xyes], [
      LAUNCHER_LIBC_CFLAGS="-specs $MUSL_SPECS -isystem $sluice_headers"
      LAUNCHER_LIBC_LDFLAGS=-all-static
    ], [rm -rf "$sluice_headers"])
  ])
  AS_IF([test "x$sluice_musl_ok" = xyes], [$1], [$2])
])
