//! `cargo xtask bench`: the engine's native benchmarks. Budgets live here, as
//! printed figures, never as assertions in timed tests.

use crate::cmd::{self, Outcome};
use std::process::Command;

pub fn run() -> Outcome {
    cmd::run("engine benchmarks", Command::new("cargo").args(["bench", "--package", "slowpath-engine"]))
}
