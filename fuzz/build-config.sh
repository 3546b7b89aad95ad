#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the configuration fuzzer with clang's libFuzzer, ASan and UBSan.
# Usage: fuzz/build-config.sh SRCDIR BUILDDIR OUT (BUILDDIR holds config.h)
set -eu
src=$1 build=$2 out=$3
cc=${FUZZ_CC:-clang}
# Every file of common/ (small, libc only), so that a helper broker-config.c
# comes to call there is never missing (a hand-made list was, twice), and
# the sandbox modes' table of core/.
common=$(ls "$src"/common/*.c)
$cc -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
  -I"$build" -I"$src/common" -I"$src/broker" -I"$src/plugins" -I"$src/include" \
  -DSLUICE_SYSCONFDIR='"/nonexistent"' \
  "$src/fuzz/fuzz-config.c" "$src/broker/config/broker-config.c" "$src/broker/config/ini-source.c" \
  "$src/broker/config/steady-read.c" "$src/broker/core/sandbox-mode.c" $common \
  $(pkg-config --cflags --libs inih) -o "$out"
