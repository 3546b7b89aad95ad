#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the configuration fuzzer with clang's libFuzzer, ASan and UBSan.
# Usage: fuzz/build-config.sh SRCDIR BUILDDIR OUT (BUILDDIR holds config.h)
set -eu
src=$1 build=$2 out=$3
cc=${FUZZ_CC:-clang}
# Every file of common/ (small, libc only), so that a helper the config
# layer comes to call there is never missing (a hand-made list was, twice),
# the sandbox modes' table of core/, and the files broker-config.c is made
# of (config/config-*.c but for config-run.c and config-stamp.c, which
# read a loaded configuration and need the rest of the broker).
common=$(ls "$src"/common/*.c)
config=$(ls "$src"/broker/config/config-*.c | grep -v -e '/config-run\.c$' -e '/config-stamp\.c$')
$cc -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
  -I"$build" -I"$src/common" -I"$src/broker" -I"$src/plugins" -I"$src/include" \
  -DSLUICE_SYSCONFDIR='"/nonexistent"' \
  "$src/fuzz/fuzz-config.c" "$src/broker/config/broker-config.c" $config "$src/broker/config/ini-source.c" \
  "$src/broker/config/steady-read.c" "$src/broker/core/sandbox-mode.c" $common \
  $(pkg-config --cflags --libs inih) -o "$out"
