#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the configuration fuzzer with clang's libFuzzer, ASan and UBSan.
# Usage: fuzz/build-config.sh SRCDIR BUILDDIR OUT (BUILDDIR holds config.h)
set -eu
src=$1 build=$2 out=$3
cc=${FUZZ_CC:-clang}
$cc -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
  -I"$build" -I"$src/common" -I"$src/broker" -I"$src/plugins" -I"$src/include" \
  -DSLUICE_SYSCONFDIR='"/nonexistent"' \
  "$src/fuzz/fuzz-config.c" "$src/broker/config/broker-config.c" "$src/broker/config/ini-source.c" \
  "$src/broker/config/steady-read.c" "$src/common/path-trust.c" \
  "$src/common/errors.c" "$src/common/strv.c" "$src/common/parse-number.c" \
  "$src/common/log.c" "$src/common/fd-util.c" "$src/common/suggest.c" \
  $(pkg-config --cflags --libs inih) -o "$out"
