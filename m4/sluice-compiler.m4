# SPDX-License-Identifier: MIT
# SLUICE_APPEND_CFLAGS(VARIABLE, FLAGS...)
# Probe each flag with the C compiler (warnings as errors, so an unknown flag
# is rejected) and append the ones it accepts to VARIABLE.
AC_DEFUN([SLUICE_APPEND_CFLAGS], [
  for sluice_flag in $2; do
    AS_VAR_PUSHDEF([sluice_cache], [sluice_cv_cflag_$sluice_flag])
    AC_CACHE_CHECK([whether $CC accepts $sluice_flag], [sluice_cache], [
      sluice_save_CFLAGS=$CFLAGS
      CFLAGS="$CFLAGS -Werror $sluice_flag"
      AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
        [AS_VAR_SET([sluice_cache], [yes])], [AS_VAR_SET([sluice_cache], [no])])
      CFLAGS=$sluice_save_CFLAGS
    ])
    AS_VAR_IF([sluice_cache], [yes], [$1="$$1 $sluice_flag"])
    AS_VAR_POPDEF([sluice_cache])
  done
])

# SLUICE_REQUIRE_MODULE(VARIABLE-PREFIX, PKG-CONFIG-MODULE, DEBIAN-PACKAGE)
# PKG_CHECK_MODULES whose failure names the Debian package to install.
AC_DEFUN([SLUICE_REQUIRE_MODULE], [
  PKG_CHECK_MODULES([$1], [$2], [],
    [AC_MSG_ERROR([$2 not found by pkg-config: install the Debian package '$3' (or run scripts/setup.sh)])])
])

# SLUICE_LINK_ARCHIVES(VARIABLE, LIBS, HEADERS, BODY)
# When each -lNAME in LIBS has an archive (libNAME.a, found by the compiler)
# and a program with HEADERS and BODY links against those archives, set
# VARIABLE to LIBS with each -lNAME replaced by its archive's path (so that
# libtool cannot reorder a -Wl,-Bstatic); otherwise set it empty.
AC_DEFUN([SLUICE_LINK_ARCHIVES], [
  $1= sluice_missing=
  for sluice_word in $2; do
    AS_CASE([$sluice_word],
      [-l*], [sluice_archive=`$CC -print-file-name=lib${sluice_word#-l}.a`
              AS_CASE([$sluice_archive], [/*], [$1="$$1 $sluice_archive"],
                [sluice_missing="$sluice_missing $sluice_word"])],
      [$1="$$1 $sluice_word"])
  done
  AS_IF([test -n "$sluice_missing"], [$1=], [
    sluice_save_LIBS=$LIBS
    LIBS="$$1 $LIBS"
    AC_LINK_IFELSE([AC_LANG_PROGRAM([$3], [$4])], [], [$1=])
    LIBS=$sluice_save_LIBS
  ])
])

# SLUICE_APPEND_LDFLAGS(VARIABLE, FLAGS...)
# Probe each linker flag (-Wl,...) by linking a program, linker warnings as
# errors (an unknown -z option is only a warning), and append the ones the
# linker accepts to VARIABLE.
AC_DEFUN([SLUICE_APPEND_LDFLAGS], [
  for sluice_flag in $2; do
    AS_VAR_PUSHDEF([sluice_cache], [sluice_cv_ldflag_$sluice_flag])
    AC_CACHE_CHECK([whether the linker accepts $sluice_flag], [sluice_cache], [
      sluice_save_LDFLAGS=$LDFLAGS
      LDFLAGS="$LDFLAGS -Wl,--fatal-warnings $sluice_flag"
      AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
        [AS_VAR_SET([sluice_cache], [yes])], [AS_VAR_SET([sluice_cache], [no])])
      LDFLAGS=$sluice_save_LDFLAGS
    ])
    AS_VAR_IF([sluice_cache], [yes], [$1="$$1 $sluice_flag"])
    AS_VAR_POPDEF([sluice_cache])
  done
])
