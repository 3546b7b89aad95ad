#!/usr/bin/env bash
# rust-toolchain.toml `[toolchain] path = ...`: rustup's proxies (rustc,
# cargo, rustfmt, rust-analyzer...) exec <path>/bin/<tool> in that folder.
# Trigger: `rustc --version` / `cargo --version` (a shell prompt's rust
# module, rust-analyzer's `cargo metadata` on an editor's open).
# As sluicedev (no rustup of its own): copy /root/.cargo/bin/rustup to
# ~/.rt51cargo/bin, link rustc and cargo to it, and run with
# PATH=~/.rt51cargo/bin:$PATH CARGO_HOME=~/.rt51cargo RUSTUP_HOME=~/.rt51rustup
# (a path toolchain needs nothing installed). The legacy file name
# `rust-toolchain` (same TOML) was checked by hand: HOLE too.
NAME=rust-toolchain
. "$(dirname "$0")/51b-lib.sh"
command -v rustup >/dev/null || { echo "no rustup"; exit 2; }
plant='mkdir -p .tc/bin
printf "#!/bin/sh\necho \"ran \$0 as \$(id -un)\" >>%s\necho rustc 9.9.9\n" "$MARK" >.tc/bin/rustc
cp .tc/bin/rustc .tc/bin/cargo; chmod +x .tc/bin/rustc .tc/bin/cargo
printf "[toolchain]\npath = \"%s/.tc\"\n" "$PWD" >rust-toolchain.toml && echo planted'
trigger() { rustc --version; cargo --version; }
run_case
