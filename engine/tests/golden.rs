// The trace hash of `rwsem-playground` v6.13 with default parameters and seed 1.
// Native (engine/tests/determinism.rs) and wasm (app/tests/determinism.rs, run by
// `cargo xtask test` under node) must both produce it; change it only for an
// intended model change.
pub const PLAYGROUND_DEFAULT_HASH: &str = "e90627a6a7dca6c0";

// The trace hash of `fifo-trigger` 2.6.1 with default parameters and seed 1: the
// O(1) machine, the pipe and the trace building, natively and in wasm alike.
pub const FIFO_DEFAULT_HASH: &str = "66a66955f45815ce";

// The trace hash of `gvisor-threadgroups` before, default parameters (two minutes of
// 16,384 threads) and seed 1: the per-visit cache draws, natively and in wasm alike.
pub const GVISOR_DEFAULT_HASH: &str = "eda2a70aa7019807";
// The trace hash of `coredump-threads` 2.6.14-rc2 with default parameters and seed 1.
pub const COREDUMP_THREADS_DEFAULT_HASH: &str = "2c56651ee0cf73fe";
