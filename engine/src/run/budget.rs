//! The work one run may do, whatever its parameters: the engine's promise that
//! every valid link opens. A share link is untrusted input, so a setting that
//! would take minutes or gigabytes must instead stop early and say so
//! (`Outcome::WorkLimit`), with its figures covering what was simulated.
//!
//! The limits are counts, not clocks (the engine never reads a clock): the
//! benchmarks (`cargo xtask bench`, the worst settings found by
//! `engine/examples/worst.rs`) check that they keep every run within about a
//! second natively, two in wasm, and under 64 MB.

/// Simulation steps (the events a case's simulation processes: a program step,
/// a tick, a wakeup) one run may take, over all its passes.
pub const SIMULATED_STEPS_MAX: u64 = 6_000_000;

/// Micro-ops a run may store op by op (repeat blocks store one template each).
pub const STORED_OPS_MAX: usize = 120_000;

/// Blocks (single iterations and repeats) a run may store: each carries a
/// checkpoint or a delta of the world, so blocks, not only ops, weigh.
pub const STORED_BLOCKS_MAX: usize = 50_000;

/// Task states copied into checkpoints (each checkpoint copies the whole world):
/// what a run of thousands of tasks weighs, about 200 bytes each.
pub const CHECKPOINT_TASKS_MAX: u64 = 200_000;

/// Records a case may keep per run for its figures and stage (a FIFO write, a
/// burst): what a run keeps grows with what it stores, never with the simulated
/// duration alone.
pub const KEPT_RECORDS_MAX: usize = 100_000;
