#!/usr/bin/env bash
# .cargo/config.toml `[build] rustc-wrapper = "/abs/ws/wrap.sh"`: cargo runs
# the wrapper for its `rustc -vV` query in commands that build nothing:
# `cargo metadata` (what rust-analyzer runs first when an editor opens the
# folder), `cargo tree`, `cargo clean`. Trigger: `cargo metadata`.
NAME=cargo-config
. "$(dirname "$0")/51b-lib.sh"
command -v cargo >/dev/null && cargo --version >/dev/null 2>&1 || { echo "no cargo"; exit 2; }
setup() { printf '[package]\nname = "cg"\nversion = "0.1.0"\nedition = "2021"\n' >Cargo.toml && mkdir -p src && echo 'fn main() {}' >src/main.rs; }
plant='mkdir -p .cargo && printf "#!/bin/sh\necho \"ran wrap.sh \$* as \$(id -un)\" >>%s\nexec \"\$@\"\n" "$MARK" >wrap.sh && chmod +x wrap.sh && printf "[build]\nrustc-wrapper = \"%s/wrap.sh\"\n" "$PWD" >.cargo/config.toml && echo planted'
trigger() { cargo metadata --format-version 1 --offline; }
run_case
