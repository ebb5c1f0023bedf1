// The trace hash of `rwsem-playground` v6.13 with default parameters and seed 1.
// Native (engine/tests/determinism.rs) and wasm (app/tests/determinism.rs, run by
// `cargo xtask test` under node) must both produce it; change it only for an
// intended model change.
pub const PLAYGROUND_DEFAULT_HASH: &str = "e90627a6a7dca6c0";
